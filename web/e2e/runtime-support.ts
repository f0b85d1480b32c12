// Shared steps of the runtime's end-to-end tests (runtime-*.e2e.ts): a page in a fresh browser,
// waiting for the navigation runtime, a window marker that only survives client-side navigation,
// and the page-data requests a page makes.
import type { Page, Request } from 'playwright-core';
import { expect } from 'vitest';

/** The page-data of a route, as the runtime requests it. */
export function pageDataPath(route: string): string {
  const trimmed = route.replace(/^\/+|\/+$/g, '');
  return `/page-data/${trimmed === '' ? 'index' : trimmed}/page-data.json`;
}

/** Waits until the navigation runtime (loaded on idle or first interaction) has started. */
export async function runtimeReady(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.navigation), within).toBe('ready');
}

type Marked = Window & { stillpointMarker?: string };

/** Puts a marker on `window`: a client-side navigation keeps it, a document load loses it. */
export async function markWindow(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as Marked).stillpointMarker = 'kept';
  });
}

export function windowMarker(page: Page): Promise<string | null> {
  return page.evaluate(() => (window as Marked).stillpointMarker ?? null);
}

export function h1(page: Page): Promise<string | null> {
  return page.evaluate(() => document.querySelector('h1')?.textContent ?? null);
}

/** Requests of page-data for pages (not app-data, not site data), by route, as they are made. */
export function recordPageDataRequests(page: Page): string[] {
  const routes: string[] = [];
  page.on('request', (request: Request) => {
    const path = new URL(request.url()).pathname;
    const m = /^\/page-data\/(.+)\/page-data\.json$/.exec(path);
    if (m?.[1] && m[1] !== 'sq') routes.push(m[1] === 'index' ? '/' : `/${m[1]}`);
  });
  return routes;
}

/** Document (main frame) loads of a page, counted. */
export function recordDocumentLoads(page: Page): string[] {
  const loads: string[] = [];
  page.on('request', (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      loads.push(new URL(request.url()).pathname);
    }
  });
  return loads;
}

/**
 * Clicks a link the way a script would (no pointer movement, so no hover prefetch): the page-data
 * requests that follow all belong to the navigation.
 */
export async function clickLink(page: Page, href: string): Promise<void> {
  await page.locator(`a[href="${href}"]`).first().dispatchEvent('click', { button: 0 });
}

/** For expect.poll: long enough for idle callbacks, service worker installs and retries. */
export const within = { timeout: 15_000 } as const;
