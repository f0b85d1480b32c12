// Prefetch on the built demo, with Playwright's clock driving time: links in view are fetched 4 at
// a time, one batch per 3 seconds; hover fetches at once; nothing is prefetched with Save-Data, on
// a 2g connection, or for a bot.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import { clickLink, recordPageDataRequests, within } from './runtime-support.ts';

const base = inject('baseURL');
let session: Session | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
});

/**
 * The home page with the clock paused, so no prefetch batch runs until the test moves time on.
 * A key press (no pointer, no focus change: nothing to prefetch) starts the navigation runtime.
 */
async function openPaused(
  options: BrowserContextOptions = {},
  initScript?: string,
): Promise<{ page: Page; prefetched: () => string[] }> {
  session = await launch({ serviceWorkers: 'block', viewport: { width: 1280, height: 1600 }, ...options });
  const { page } = await watchedPage(session);
  if (initScript) await page.addInitScript(initScript);
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 60_000);
  const requests = recordPageDataRequests(page);
  await page.goto(`${base}/`);
  // Once the page has hydrated, a key press starts the navigation runtime (the clock is paused, so
  // the idle callback that would start it does not come).
  await expect
    .poll(async () => {
      await page.keyboard.press('Shift');
      return page.evaluate(() => document.documentElement.dataset.navigation);
    }, within)
    .toBe('ready');
  return { page, prefetched: () => requests.filter((route) => route !== '/') };
}

describe('prefetch', () => {
  it('fetches links in view 4 at a time, one batch every 3 seconds, and a hovered link at once', async () => {
    const { page, prefetched } = await openPaused();
    expect(prefetched()).toEqual([]);
    // The first batch runs in the first idle period.
    await expect
      .poll(async () => {
        await page.clock.runFor(100);
        return prefetched().length;
      })
      .toBe(4);
    const first = [...prefetched()];
    expect(new Set(first).size).toBe(4);

    await page.clock.runFor(2500);
    expect(prefetched()).toEqual(first);
    await page.clock.runFor(600);
    await expect.poll(() => prefetched().length, within).toBe(8);
    const second = prefetched().slice(4);
    expect(second.filter((route) => first.includes(route))).toEqual([]);

    // Hover: no clock movement needed.
    const footerLink = page.locator('#sp-footer a[href="/privacy-policy"]');
    await footerLink.hover();
    await expect.poll(() => prefetched(), within).toContain('/privacy-policy');
  });

  const withoutPrefetch: [string, BrowserContextOptions, string | undefined][] = [
    [
      'Save-Data',
      {},
      `Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => ({ effectiveType: '4g', saveData: true }) });`,
    ],
    [
      'a 2g connection',
      {},
      `Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => ({ effectiveType: '2g', saveData: false }) });`,
    ],
    ['a bot', { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }, undefined],
  ];

  for (const [name, options, initScript] of withoutPrefetch) {
    it(`prefetches nothing with ${name}, and navigation still works`, async () => {
      const { page, prefetched } = await openPaused(options, initScript);
      await page.clock.runFor(10_000);
      await page.locator('#sp-footer a[href="/privacy-policy"]').hover();
      await page.clock.runFor(10_000);
      // Navigation fetches its page: the recording works, and it was the first page-data request.
      await clickLink(page, '/terms');
      await expect.poll(() => page.evaluate(() => location.pathname), within).toBe('/terms');
      expect(prefetched()).toEqual(['/terms']);
    });
  }
});
