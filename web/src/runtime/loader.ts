// The page loader, by the page-data rules of DESIGN.md:
// - a page-data answer of 404, or a 200 that is not valid page-data, is `not-found` (the caller
//   shows the 404 page, unless a HEAD of the path answers 200: then it does a full load);
// - a 500 is `server-error` (the 500 page);
// - any other failure (0, 503, …) is retried up to 3 times, then it is `failed` (a full load);
// - pages are loaded once and cached, and prefetch and navigation share one in-flight request
//   per path; a result that may change on retry (`server-error`, `failed`) is not kept;
// - site data (`/page-data/sq/d/{hash}.json`) is fetched once per hash, without retries;
// - `refresh` (for `stillpoint dev`, after a rebuild) forgets every page and loads one again,
//   past the HTTP cache;
// - an article's page-data has no body or head: its HTML is fetched beside it, by the same rules,
//   and they are taken from it (./fromDocument.ts); without them the result is `failed` (a full load).
import type { PageData, SiteData } from '../protocol';
import { completeFrom, mayNeedDocument, needsDocument, parseHtml } from './fromDocument';
import { delay, pageDataUrl, siteDataUrl } from './pageData';

export type PageResource =
  | { readonly kind: 'page'; readonly data: PageData }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'server-error' }
  | { readonly kind: 'failed'; readonly status: number };

/** Retries after the first attempt. */
export const PAGE_RETRIES = 3;

export type LoaderOptions = {
  /** Milliseconds before retry n (1-based) of a failed page-data fetch. */
  readonly retryDelay?: (retry: number) => number;
};

export type Loader = {
  /** The page at `path` (a route, e.g. `/articles/x`). */
  loadPage(path: string): Promise<PageResource>;
  /** Site data by hash; rejects (and stays rejected) when the one fetch fails. */
  loadSiteData(hash: string): Promise<SiteData>;
  /** Forgets every page (they may all have changed) and loads `path` again, bypassing the cache. */
  refresh(path: string): Promise<PageResource>;
  /** Whether `path` has been loaded or is loading. */
  has(path: string): boolean;
  /** Adds what the first page was hydrated with. */
  seed(path: string, data: PageData): void;
  seedSiteData(hash: string, site: SiteData): void;
};

/** `/a/b/` and `/a/b` are one page. */
export function pageKey(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Parsed page-data, or null when `text` is not page-data. */
export function parsePageData(text: string): PageData | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value) || !isRecord(value.result)) return null;
  const valid =
    typeof value.componentChunkName === 'string' &&
    typeof value.path === 'string' &&
    typeof value.webpackCompilationHash === 'string' &&
    Array.isArray(value.staticQueryHashes) &&
    isRecord(value.result.pageContext) &&
    // An article's head is in its HTML (./fromDocument.ts).
    (isRecord(value.result.head) || value.componentChunkName === 'Article');
  return valid ? (value as PageData) : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A GET's final answer after the retries: its status (0 when none came) and, for a 200, its text. */
type Answer = { readonly status: number; readonly text: string };

/** GETs `url`; retries a failure other than 404 and 500 up to PAGE_RETRIES times. */
async function fetchRetrying(url: string, retryDelay: (retry: number) => number, init?: RequestInit): Promise<Answer> {
  let status = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await (init ? fetch(url, init) : fetch(url));
      status = response.status;
      if (status === 200) return { status, text: await response.text() };
    } catch {
      status = 0;
    }
    // Offline, retrying only delays the full load that will show what the service worker kept.
    if (status === 404 || status === 500 || attempt >= PAGE_RETRIES || navigator.onLine === false) {
      return { status, text: '' };
    }
    await delay(retryDelay(attempt + 1));
  }
}

async function fetchPage(
  path: string,
  retryDelay: (retry: number) => number,
  init?: RequestInit,
): Promise<PageResource> {
  // An article's body and head are in its HTML only (./fromDocument.ts): fetch both at once.
  const html = mayNeedDocument(path) ? fetchRetrying(path, retryDelay, init) : null;
  html?.catch(() => undefined);
  const { status, text } = await fetchRetrying(pageDataUrl(path), retryDelay, init);
  if (status === 404) return { kind: 'not-found' };
  if (status === 500) return { kind: 'server-error' };
  if (status !== 200) return { kind: 'failed', status };
  const data = parsePageData(text);
  if (!data) return { kind: 'not-found' };
  if (!needsDocument(data)) return { kind: 'page', data };
  const page = await (html ?? fetchRetrying(path, retryDelay, init));
  const complete = page.status === 200 ? completeFrom(data, parseHtml(page.text)) : null;
  // Without its body the article cannot be shown here: a full load shows what the server has.
  return complete ? { kind: 'page', data: complete } : { kind: 'failed', status: page.status };
}

export function createLoader(options: LoaderOptions = {}): Loader {
  const retryDelay = options.retryDelay ?? ((retry) => 150 * 2 ** (retry - 1));
  const pages = new Map<string, Promise<PageResource>>();
  const sites = new Map<string, Promise<SiteData>>();

  const load = (key: string, init?: RequestInit) => {
    const loading = fetchPage(key, retryDelay, init).then((resource) => {
      if (resource.kind === 'server-error' || resource.kind === 'failed') pages.delete(key);
      return resource;
    });
    pages.set(key, loading);
    return loading;
  };

  return {
    loadPage(path) {
      const key = pageKey(path);
      return pages.get(key) ?? load(key);
    },
    refresh(path) {
      pages.clear();
      return load(pageKey(path), { cache: 'no-cache' });
    },
    loadSiteData(hash) {
      const known = sites.get(hash);
      if (known) return known;
      const url = siteDataUrl(hash);
      const loading = fetch(url).then(async (response) => {
        if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
        return (await response.json()) as SiteData;
      });
      loading.catch(() => console.error(`Failed to load the static query file ${url}`));
      sites.set(hash, loading);
      return loading;
    },
    has(path) {
      return pages.has(pageKey(path));
    },
    seed(path, data) {
      pages.set(pageKey(path), Promise.resolve({ kind: 'page', data }));
    },
    seedSiteData(hash, site) {
      sites.set(hash, Promise.resolve(site));
    },
  };
}
