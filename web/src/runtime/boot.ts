// The part of the runtime that ships with every page, kept small for the first-load budget: it
// loads the rest when it is needed. The service worker registration after the page's load event;
// the navigation runtime (client-side navigation and prefetch) once the browser is idle or the
// visitor first reaches for the page. A click before it has loaded is an ordinary full page load.
import type { PageAttributes } from './document';
import type { NavigationStart } from './navigation';

/** What makes the navigation runtime load before the browser is idle. */
const EAGER_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'keydown', 'focusin'] as const;

/** Loads the navigation runtime on the first idle period or interaction, whichever comes first. */
export function loadNavigationSoon(start: NavigationStart): void {
  let loading = false;
  const load = () => {
    if (loading) return;
    loading = true;
    for (const type of EAGER_EVENTS) document.removeEventListener(type, load, true);
    import('./navigation')
      .then((navigation) => navigation.startNavigation(start))
      .catch((error: unknown) => console.error('The navigation runtime did not load:', error));
  };
  for (const type of EAGER_EVENTS) document.addEventListener(type, load, { capture: true, passive: true });
  if ('requestIdleCallback' in window) window.requestIdleCallback(load, { timeout: 3000 });
  else setTimeout(load, 1);
}

/** Registers the service worker once the page has loaded: nothing on the page waits for it. */
export function registerServiceWorkerAfterLoad(page: PageAttributes): void {
  if (!import.meta.env.PROD) return;
  const register = () => {
    import('./serviceWorker')
      .then((worker) => worker.registerServiceWorker(page))
      .catch((error: unknown) => console.warn('The service worker could not be registered:', error));
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
