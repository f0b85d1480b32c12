/// <reference lib="webworker" />
// The service worker, `/sw.js` (built on its own by vite.sw.config.ts; the Rust builder writes
// `const __STILLPOINT_SW__ = {build, brand, css};` in front of it for each build).
// - HTML, page-data and other same-origin files: network first, with a short timeout after which
//   a kept copy is used; every good answer is kept, so a visited article can be read offline.
// - Hashed assets (/assets/): cache first; their names change whenever their content does.
// - Caches are named by build hash and the old ones are deleted on activate, so a deploy never
//   mixes one build's pages with another's assets.
// - A page that was not kept, with no network: an offline page listing the articles that were.
// - Pages answered from the cache and the offline page carry the site's policy (settings.csp),
//   the one `serve` sends and every page holds in its <meta>.
import { offlineHtml, type SavedArticle, titleOf } from './offline';
import { withPolicy } from './policy';
import { cacheNames, isArticlePage, staleCaches, strategyFor } from './routes';

declare const __STILLPOINT_SW__: {
  readonly build: string;
  readonly brand: string;
  readonly css: readonly string[];
  /** The site's Content-Security-Policy (build.json's `csp`), absent from older builds. */
  readonly csp?: string;
};
declare const self: ServiceWorkerGlobalScope;

const settings = __STILLPOINT_SW__;
/** The fixed policy of builds that carry none. */
const FALLBACK_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'";
const CSP = settings.csp || FALLBACK_CSP;
const CACHES = cacheNames(settings.build);
/** How long the network may take before a kept copy is served instead. */
const NETWORK_TIMEOUT_MS = 3000;
/** Entries kept in the pages cache; the oldest go first. */
const MAX_PAGES = 300;
/** Articles listed on the offline page. */
const MAX_LISTED = 30;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHES.assets)
      .then((cache) => Promise.allSettled(settings.css.map((href) => cache.add(href))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(staleCaches(names, settings.build).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  const strategy = strategyFor(request.method, url, self.location.origin, request.headers.has('range'));
  if (strategy === 'asset') event.respondWith(cacheFirst(request, event));
  else if (strategy === 'page') event.respondWith(networkFirst(request, event));
});

self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null || (data as { type?: unknown }).type !== 'save') return;
  const urls = (data as { urls?: unknown }).urls;
  if (Array.isArray(urls)) event.waitUntil(save(urls.filter((u): u is string => typeof u === 'string')));
});

/** Whether a response may be kept: a complete, same-origin 200. */
function keepable(response: Response): boolean {
  return response.status === 200 && response.type === 'basic';
}

async function put(cacheName: string, request: Request | string, response: Response): Promise<void> {
  const cache = await caches.open(cacheName);
  await cache.put(request, response);
  if (cacheName !== CACHES.pages) return;
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_PAGES)).map((key) => cache.delete(key)));
}

async function cacheFirst(request: Request, event: ExtendableEvent): Promise<Response> {
  const cached = await caches.match(request, { cacheName: CACHES.assets, ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (keepable(response)) event.waitUntil(put(CACHES.assets, request, response.clone()));
  return response;
}

function kept(request: Request): Promise<Response | undefined> {
  // Pages ignore the query string; data files never have one.
  return caches.match(request, {
    cacheName: CACHES.pages,
    ignoreVary: true,
    ignoreSearch: request.mode === 'navigate',
  });
}

async function networkFirst(request: Request, event: FetchEvent): Promise<Response> {
  const network = fetch(request).then((response) => {
    if (keepable(response)) event.waitUntil(put(CACHES.pages, request, response.clone()));
    return response;
  });
  // When a kept copy answered first, a later network failure is expected, not an error.
  network.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slow = new Promise<Response>((resolve) => {
    timer = setTimeout(
      () => resolve(kept(request).then((copy) => (copy ? withPolicy(copy, CSP) : network))),
      NETWORK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([network, slow]);
  } catch {
    const copy = await kept(request);
    if (copy) return withPolicy(copy, CSP);
    if (request.mode === 'navigate') return offlineResponse(new URL(request.url));
    return Response.error();
  } finally {
    clearTimeout(timer);
  }
}

/** The articles whose HTML is kept, newest first, with their titles. */
async function savedArticles(): Promise<SavedArticle[]> {
  const cache = await caches.open(CACHES.pages);
  const keys = (await cache.keys()).filter((key) => isArticlePage(new URL(key.url))).reverse();
  const saved: SavedArticle[] = [];
  for (const key of keys.slice(0, MAX_LISTED)) {
    const response = await cache.match(key);
    const title = response && titleOf(await response.text(), settings.brand);
    if (title) saved.push({ href: new URL(key.url).pathname, title });
  }
  return saved;
}

async function offlineResponse(url: URL): Promise<Response> {
  const html = offlineHtml({
    brand: settings.brand,
    css: settings.css,
    path: url.pathname,
    saved: await savedArticles().catch(() => []),
  });
  return new Response(html, {
    status: 503,
    statusText: 'Offline',
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': CSP,
    },
  });
}

/** Keeps what a page asked for (`save` messages): its HTML, data and assets. */
async function save(urls: readonly string[]): Promise<void> {
  const origin = self.location.origin;
  const unique = [...new Set(urls.map((u) => new URL(u, origin).href))]
    .map((href) => new URL(href))
    .filter((url) => strategyFor('GET', url, origin) !== 'pass');
  await Promise.allSettled(
    unique.map(async (url) => {
      const isAsset = strategyFor('GET', url, origin) === 'asset';
      if (isAsset && (await caches.match(url.href, { cacheName: CACHES.assets }))) return;
      const response = await fetch(url.href, { credentials: 'same-origin' });
      if (keepable(response)) await put(isAsset ? CACHES.assets : CACHES.pages, url.href, response);
    }),
  );
}
