/**
 * Runs `callback` when the browser is next idle (at the latest after `timeout` ms), or soon where
 * there is no `requestIdleCallback`. Tested with `typeof`, not `in`: an element of the page whose
 * id is `requestIdleCallback` is a property of `window` too (named access), and is no function.
 */
export function whenIdle(callback: () => void, timeout: number): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(callback, { timeout });
  else setTimeout(callback, 1);
}
