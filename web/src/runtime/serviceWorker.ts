// Registers `/sw.js` (production builds only), after the page has loaded (boot.ts). Browsers allow
// service workers only in secure contexts: over HTTPS, or on localhost (loopback) for development;
// anywhere else this logs the spec's console error and registers nothing.
import type { PageAttributes } from './document';
import { APP_DATA_URL, pageDataUrl, siteDataUrl } from './pageData';

export const INSECURE_ORIGIN_ERROR = 'Service workers can only be used over HTTPS, or on localhost for development';

/** A message to the worker: keep these same-origin URLs for offline reading. */
export type SaveMessage = { readonly type: 'save'; readonly urls: readonly string[] };

/** `https:`, or a loopback host name over plain http. */
export function isServiceWorkerOrigin(location: Pick<Location, 'protocol' | 'hostname'>): boolean {
  if (location.protocol === 'https:') return true;
  const host = location.hostname;
  return host === 'localhost' || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '[::1]';
}

/** Everything the first page needed, so the worker can keep it: the page was loaded before it ran. */
function firstPageUrls(page: PageAttributes): string[] {
  const urls = [
    window.location.pathname,
    pageDataUrl(page.path),
    siteDataUrl(page.site),
    APP_DATA_URL,
    ...performance.getEntriesByType('resource').map((entry) => entry.name),
  ];
  return urls.filter((url) => new URL(url, window.location.href).origin === window.location.origin);
}

/**
 * Registers the worker. `controlled` says whether a worker controlled this page when its script
 * started: only then did the page's own requests go through a worker that kept them. (Asking after
 * `ready` is too late: a first worker that activates meanwhile claims the page without having seen
 * its requests.)
 */
export function registerServiceWorker(page: PageAttributes, controlled: boolean): void {
  if (!import.meta.env.PROD) return;
  if (!isServiceWorkerOrigin(window.location)) {
    console.error(INSECURE_ORIGIN_ERROR);
    return;
  }
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker
    .register('/sw.js')
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      // A page the worker already controlled went through it and is saved; this one was not.
      if (controlled) return;
      const message: SaveMessage = { type: 'save', urls: firstPageUrls(page) };
      registration.active?.postMessage(message);
    })
    .catch((error: unknown) => console.warn('The service worker could not be registered:', error));
}
