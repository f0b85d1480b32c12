// The service worker on the built demo: registered on a loopback host, it keeps the articles a
// visitor read (opened in full or through client-side navigation) so they open offline, and shows
// a clear offline page for one that was not read; over plain http on any other host name it is
// not registered and the console says why.
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import { h1, runtimeReady, within } from './runtime-support.ts';

const base = inject('baseURL');
let session: Session | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
});

function isKept(page: Page, path: string): Promise<boolean> {
  return page.evaluate(async (p) => (await caches.match(p)) !== undefined, path);
}

/** Article links of the page region, in order. */
function articleLinks(page: Page): Promise<string[]> {
  return page.$$eval('#sp-page a[href^="/articles/"]', (as) => [
    ...new Set(as.map((a) => a.getAttribute('href') ?? '')),
  ]);
}

describe('offline reading', () => {
  it('opens visited articles offline and explains an unvisited one', async () => {
    session = await launch();
    const { page } = await watchedPage(session);
    await page.goto(`${base}/`);
    const [first, , unvisited] = await articleLinks(page);
    if (!first || !unvisited) throw new Error('the demo home page lists too few articles');

    // Read one article opened in full…
    await page.goto(base + first);
    const firstTitle = await h1(page);
    await expect.poll(() => isKept(page, first), within).toBe(true);
    // …and one reached by client-side navigation from it.
    await runtimeReady(page);
    const second = (await articleLinks(page)).find((href) => href !== first && href !== unvisited);
    if (!second) throw new Error('the article links no other article');
    await page.locator(`#sp-page a[href="${second}"]`).first().click();
    await expect.poll(() => page.evaluate(() => location.pathname), within).toBe(second);
    const secondTitle = await h1(page);
    await expect.poll(() => isKept(page, second), within).toBe(true);

    await session.context.setOffline(true);
    await page.goto(base + first);
    expect(await h1(page)).toBe(firstTitle);
    await page.goto(base + second);
    expect(await h1(page)).toBe(secondTitle);
    // Hydrated from kept page-data: the header's menu button works offline too.
    await page.locator('#sp-header button').first().waitFor();

    await page.goto(base + unvisited);
    expect(await h1(page)).toBe("You're offline");
    const saved = await page.$$eval('main li a', (as) => as.map((a) => a.textContent));
    expect(saved).toEqual(expect.arrayContaining([firstTitle, secondTitle]));
    expect(await page.locator(`main a[href="${unvisited}"]`).textContent()).toBe('Try again');
  });
});

describe('service worker registration', () => {
  it('does not register over plain http on a host name other than localhost', async () => {
    session = await launch();
    // stillpoint.test is answered by the local server: a plain-http origin that is not loopback.
    await session.context.route('http://stillpoint.test/**', async (route) => {
      const url = new URL(route.request().url());
      const response = await route.fetch({ url: base + url.pathname + url.search });
      await route.fulfill({ response });
    });
    const { page, errors } = await watchedPage(session);
    const swRequests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/sw.js') swRequests.push(r.url());
    });
    await page.goto('http://stillpoint.test/');
    await expect
      .poll(
        () => errors.filter((e) => e.includes('Service workers can only be used over HTTPS, or on localhost')),
        within,
      )
      .toHaveLength(1);
    expect(await page.evaluate(() => typeof navigator.serviceWorker)).toBe('undefined');
    expect(session.context.serviceWorkers()).toEqual([]);
    expect(swRequests).toEqual([]);
    await session.context.unrouteAll({ behavior: 'ignoreErrors' });
  });

  it('registers on localhost', async () => {
    session = await launch();
    const { page, errors } = await watchedPage(session);
    await page.goto(`${base}/`);
    await expect
      .poll(
        () => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL),
        within,
      )
      .toBe(`${base}/sw.js`);
    expect(errors).toEqual([]);
  });
});
