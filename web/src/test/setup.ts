// Test environment: Testing Library cleanup, and the browser APIs jsdom lacks that Radix and our
// components touch (matchMedia, ResizeObserver, pointer capture, scrollIntoView).
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

afterEach(() => {
  cleanup();
});

if (typeof window !== 'undefined') {
  setViewportWidth(1280);

  window.ResizeObserver ??= class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };

  const element = window.HTMLElement.prototype;
  element.hasPointerCapture ??= () => false;
  element.releasePointerCapture ??= () => undefined;
  element.scrollIntoView ??= () => undefined;

  // jsdom cannot navigate: links under test are clicked, not followed.
  document.addEventListener('click', (event) => {
    if ((event.target as Element | null)?.closest?.('a[href]')) event.preventDefault();
  });
}

/** Makes matchMedia answer as a window of `width` CSS pixels (only max-width queries are used). */
export function setViewportWidth(width: number): void {
  window.matchMedia = vi.fn((query: string) => {
    const max = /max-width:\s*(\d+)px/.exec(query);
    const matches = max?.[1] !== undefined ? width <= Number(max[1]) : false;
    return {
      matches: query.startsWith('not all and') ? !matches : matches,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    } satisfies MediaQueryList;
  });
}
