// How the service worker answers each request. Pure, so it is tested without a worker.

/**
 * - `asset`: hashed files under /assets/, and the image renditions under /media/ (named by the
 *   digest of their source and parameters), never change under their name: cache first.
 * - `page`: HTML, page-data and every other same-origin file: network first with a short timeout,
 *   falling back to what was kept.
 * - `pass`: left to the browser (other origins, non-GET, the worker script itself, and recordings
 *   and videos: a player asks for them in ranges, which a whole kept file would not answer, and
 *   they are too large to keep).
 */
export type Strategy = 'asset' | 'page' | 'pass';

/** Audio and video files, by name: played in ranges, never kept. */
const STREAMED = /\.(?:m4a|mp3|opus|ogg|oga|aac|flac|wav|mp4|m4v|webm|mov)$/i;

/** `ranged`: the request has a `Range` header (a media element reading part of a file). */
export function strategyFor(method: string, url: URL, origin: string, ranged = false): Strategy {
  if (method !== 'GET' || url.origin !== origin || ranged) return 'pass';
  if (url.pathname === '/sw.js' || STREAMED.test(url.pathname)) return 'pass';
  return url.pathname.startsWith('/assets/') || url.pathname.startsWith('/media/') ? 'asset' : 'page';
}

/** The two caches of one build; a deploy (a new build hash) starts new ones. */
export function cacheNames(build: string): { readonly pages: string; readonly assets: string } {
  return { pages: `stillpoint-pages-${build}`, assets: `stillpoint-assets-${build}` };
}

/** Caches this worker made for other builds: deleted when it activates. */
export function staleCaches(names: readonly string[], build: string): string[] {
  const current = Object.values(cacheNames(build));
  return names.filter((name) => name.startsWith('stillpoint-') && !current.includes(name));
}

/** Whether a kept URL is an article's HTML (listed on the offline page). */
export function isArticlePage(url: URL): boolean {
  return /^\/articles\/[^/.]+\/?$/.test(url.pathname);
}
