// The loader's rules on the built demo, with page-data answers intercepted: 404 → the 404 page
// (or a full load when a HEAD finds a file), 500 → the 500 page, other failures retried 3 times
// and then a full load, and the build-hash check (reload once per session; a full load when a
// navigation finds another build).
import type { Page, Route } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import {
  clickLink,
  h1,
  markWindow,
  pageDataPath,
  recordDocumentLoads,
  runtimeReady,
  windowMarker,
  within,
} from './runtime-support.ts';

const base = inject('baseURL');
let session: Session | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** The target of every navigation below: a footer link, out of view, so nothing prefetches it. */
const TARGET = '/authors';
const TARGET_H1 = 'Meet Our Mindfulness Experts';

async function freshPage(): Promise<{ page: Page; loads: string[] }> {
  session = await launch({ serviceWorkers: 'block' });
  const { page } = await watchedPage(session);
  return { page, loads: recordDocumentLoads(page) };
}

async function open(path: string): Promise<{ page: Page; loads: string[] }> {
  const opened = await freshPage();
  await opened.page.goto(base + path);
  await runtimeReady(opened.page);
  await markWindow(opened.page);
  return opened;
}

/** Answers the target's page-data with `answer(n)` for the n-th request (1-based). */
async function interceptTarget(page: Page, answer: (n: number, route: Route) => Promise<void>): Promise<() => number> {
  let n = 0;
  await page.route(`**${pageDataPath(TARGET)}`, (route) => answer(++n, route));
  return () => n;
}

const fail = (route: Route, status: number) => route.fulfill({ status, contentType: 'text/plain', body: 'failed' });

describe('the page loader', () => {
  it('shows the 404 page when page-data answers 404 and no file is there', async () => {
    const { page, loads } = await open('/');
    await interceptTarget(page, (_, route) => fail(route, 404));
    await page.route(
      (url) => url.pathname === TARGET,
      (route) => (route.request().method() === 'HEAD' ? fail(route, 404) : route.continue()),
    );
    await clickLink(page, TARGET);
    await expect.poll(() => h1(page), within).toBe('Page Not Found');
    expect(await page.title()).toBe('Page Not Found | Stillpoint');
    expect(await page.evaluate(() => location.pathname)).toBe(TARGET);
    expect(await page.evaluate(() => document.querySelector('meta[name="robots"]')?.getAttribute('content'))).toBe(
      'noindex',
    );
    expect(await windowMarker(page)).toBe('kept');
    expect(loads).toEqual(['/']);
  });

  it('loads the page in full when page-data answers 404 but a HEAD of the path answers 200', async () => {
    const { page, loads } = await open('/');
    await interceptTarget(page, (_, route) => fail(route, 404));
    const heads: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'HEAD') heads.push(new URL(r.url()).pathname);
    });
    const documentLoad = page.waitForRequest((r) => r.isNavigationRequest() && r.url() === base + TARGET);
    await clickLink(page, TARGET);
    await documentLoad;
    expect(heads).toEqual([TARGET]);
    expect(loads).toEqual(['/', TARGET]);
  });

  it('shows the 500 page when page-data answers 500', async () => {
    const { page, loads } = await open('/');
    await interceptTarget(page, (_, route) => fail(route, 500));
    await clickLink(page, TARGET);
    await expect.poll(() => h1(page), within).toBe('Something Went Wrong');
    expect(await page.title()).toBe('Something Went Wrong | Stillpoint');
    expect(await windowMarker(page)).toBe('kept');
    expect(loads).toEqual(['/']);
  });

  it('retries a failing page-data request: two failures, then the page', async () => {
    const { page, loads } = await open('/');
    const requests = await interceptTarget(page, (n, route) => (n <= 2 ? fail(route, 503) : route.continue()));
    await clickLink(page, TARGET);
    await expect.poll(() => h1(page), within).toBe(TARGET_H1);
    expect(requests()).toBe(3);
    expect(await windowMarker(page)).toBe('kept');
    expect(loads).toEqual(['/']);
  });

  it('loads the page in full after four failures (the first request and 3 retries)', async () => {
    const { page, loads } = await open('/');
    let requestsBeforeLoad = -1;
    const requests = await interceptTarget(page, (_, route) => fail(route, 503));
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.url() === base + TARGET) requestsBeforeLoad = requests();
    });
    const documentLoad = page.waitForRequest((r) => r.isNavigationRequest() && r.url() === base + TARGET);
    await clickLink(page, TARGET);
    await documentLoad;
    expect(requestsBeforeLoad).toBe(4);
    expect(loads).toEqual(['/', TARGET]);
  });
});

describe('the build hash', () => {
  it('reloads the page exactly once when app-data names another build', async () => {
    const { page, loads } = await freshPage();
    await page.route('**/page-data/app-data.json', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: '{"webpackCompilationHash":"another-build"}',
      }),
    );
    await page.goto(`${base}/`);
    // The first document reloads; the second finds the session's reload spent and stays.
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.buildCheck), within).toBe('stale');
    await runtimeReady(page);
    expect(loads).toEqual(['/', '/']);
    expect(await page.evaluate(() => sessionStorage.getItem('stillpoint:build-reload'))).toBe('another-build');
  });

  it('does not reload when app-data names the running build', async () => {
    const { page, loads } = await open('/');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.buildCheck), within).toBe('current');
    expect(loads).toEqual(['/']);
  });

  it('loads the page in full when a navigation finds page-data of another build', async () => {
    const { page, loads } = await open('/');
    await interceptTarget(page, async (_, route) => {
      const response = await route.fetch();
      const data = await response.json();
      await route.fulfill({ response, json: { ...data, webpackCompilationHash: 'another-build' } });
    });
    const documentLoad = page.waitForRequest((r) => r.isNavigationRequest() && r.url() === base + TARGET);
    await clickLink(page, TARGET);
    await documentLoad;
    expect(loads).toEqual(['/', TARGET]);
  });
});
