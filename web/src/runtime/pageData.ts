// Where the built site keeps its data, and plain typed fetches for it. No React here: the loader
// (retries, cache), navigation and prefetch are built on top of these functions.
import type { PageData, SiteData } from '../protocol';

/** `/` → `/page-data/index/page-data.json`; `/a/b` → `/page-data/a/b/page-data.json`. */
export function pageDataUrl(path: string): string {
  const route = path.replace(/^\/+|\/+$/g, '');
  return `/page-data/${route === '' ? 'index' : route}/page-data.json`;
}

/** Site-wide data, content-hashed: `/page-data/sq/d/{hash}.json`. */
export function siteDataUrl(hash: string): string {
  return `/page-data/sq/d/${hash}.json`;
}

/** The build hash of what is deployed now: `{webpackCompilationHash}`. */
export const APP_DATA_URL = '/page-data/app-data.json';

/** A non-2xx answer; `status` lets the loader tell 404 (show NotFound) from 500 and the rest. */
export class FetchError extends Error {
  readonly url: string;
  readonly status: number;

  constructor(url: string, status: number) {
    super(`GET ${url} answered ${status}`);
    this.name = 'FetchError';
    this.url = url;
    this.status = status;
  }
}

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new FetchError(url, response.status);
  return (await response.json()) as T;
}

export function fetchPageData(path: string): Promise<PageData> {
  return fetchJson<PageData>(pageDataUrl(path));
}

export function fetchSiteData(hash: string): Promise<SiteData> {
  return fetchJson<SiteData>(siteDataUrl(hash));
}

/** Waits `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
