// The part of the runtime that ships with every page, kept small for the first-load budget: it
// loads the rest when it is needed. The service worker registration after the page's load event;
// the navigation runtime (client-side navigation and prefetch) once the browser is idle or the
// visitor first reaches for the page. A click before it has loaded is an ordinary full page load.
import type { PageAttributes } from './document';
import { whenIdle } from './idle';
import type { NavigationStart } from './navigation';

/**
 * Sent on `window` by the `stillpoint dev` client when the page on screen was rebuilt. The runtime
 * cancels it (`preventDefault`) to say it renders the new page data in place, scroll kept.
 */
export const REFRESH_EVENT = 'stillpoint:refresh';

/** What makes the navigation runtime load before the browser is idle. */
const EAGER_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'keydown', 'focusin'] as const;

/** Loads the navigation runtime on the first idle period or interaction, whichever comes first. */
export function loadNavigationSoon(start: NavigationStart): void {
  let loading: Promise<boolean> | null = null;
  const load = (): Promise<boolean> => {
    if (loading) return loading;
    for (const type of EAGER_EVENTS) document.removeEventListener(type, load, true);
    loading = import('./navigation')
      .then((navigation) => {
        navigation.startNavigation(start);
        // From now on the runtime's own listener refreshes.
        window.removeEventListener(REFRESH_EVENT, refreshSoon);
        return true;
      })
      .catch((error: unknown) => {
        console.error('The navigation runtime did not load:', error);
        return false;
      });
    return loading;
  };
  // A refresh before the runtime has loaded: load it, then refresh (or reload if it cannot).
  const refreshSoon = (event: Event) => {
    event.preventDefault();
    void load().then((started) => {
      if (!started || window.dispatchEvent(new CustomEvent(REFRESH_EVENT, { cancelable: true })))
        window.location.reload();
    });
  };
  window.addEventListener(REFRESH_EVENT, refreshSoon);
  for (const type of EAGER_EVENTS) document.addEventListener(type, load, { capture: true, passive: true });
  whenIdle(load, 3000);
}

/**
 * Whether this document's own request went through a service worker. A first worker that
 * activates while the page loads claims it before its script starts, so a controller alone does
 * not say the worker saw (and kept) the page.
 */
function wentThroughWorker(): boolean {
  const [entry] = performance.getEntriesByType?.('navigation') ?? [];
  return entry instanceof PerformanceNavigationTiming && entry.workerStart > 0;
}

/** Registers the service worker once the page has loaded: nothing on the page waits for it. */
export function registerServiceWorkerAfterLoad(page: PageAttributes): void {
  if (!import.meta.env.PROD) return;
  const controlled = 'serviceWorker' in navigator && navigator.serviceWorker.controller !== null && wentThroughWorker();
  const register = () => {
    // Under `stillpoint dev` (its client marks the document) no worker may cache the site.
    if (document.documentElement.dataset.stillpointDev !== undefined) return;
    import('./serviceWorker')
      .then((worker) => worker.registerServiceWorker(page, controlled))
      .catch((error: unknown) => console.warn('The service worker could not be registered:', error));
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
