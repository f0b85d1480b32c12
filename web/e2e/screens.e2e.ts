// Every page kind at 1280 and 375 px, light and dark: the page lays out inside the window (no
// sideways scrolling), every image loads, nothing is requested from another origin, no web font is
// used, there is one h1 and no console error. A full-page screenshot of each is written to
// $STILLPOINT_SHOTS (default /tmp/stillpoint-shots) for review. Also: no layout shift while the
// home page and an article load, and the favicon and web manifest are served.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, layoutShifts, recordLayoutShifts, type Session, watchedPage } from './browser.ts';
import { isNotFoundStatusNoise, PAGE_KINDS, SERVER_ERROR, WIDTHS } from './pages.ts';

const base = inject('baseURL');
const shots = process.env.STILLPOINT_SHOTS ?? '/tmp/stillpoint-shots';
const schemes = ['light', 'dark'] as const;

let session: Session;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  session = await launch();
});
afterAll(async () => {
  await session.close();
});

/** Loads the lazy images now (as scrolling would), then waits for every shown image and the fonts. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (const img of document.images) img.loading = 'eager';
    await document.fonts.ready;
  });
  // Images inside a collapsed part of the page (display: none) never load: skip them.
  await page.waitForFunction(
    () => [...document.images].filter((img) => img.getClientRects().length > 0).every((img) => img.complete),
    undefined,
    { timeout: 10_000 },
  );
}

/** Records every request the page makes that leaves the site's origin. */
function recordForeignRequests(page: Page): string[] {
  const origin = new URL(base).origin;
  const foreign: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== origin) foreign.push(request.url());
  });
  return foreign;
}

describe.each(WIDTHS)('at %i px', (width) => {
  describe.each(schemes)('in the %s scheme', (scheme) => {
    for (const { kind, path, status, h1 } of [...PAGE_KINDS, SERVER_ERROR]) {
      it(`${kind} (${path}) fits the window, loads its images and has one h1`, async () => {
        const { page, errors } = await watchedPage(session);
        const foreign = recordForeignRequests(page);
        const fonts: string[] = [];
        page.on('request', (request) => {
          if (request.resourceType() === 'font') fonts.push(request.url());
        });
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        const response = await page.goto(base + path, { waitUntil: 'networkidle' });
        expect(response?.status()).toBe(status);
        await settle(page);

        const headings = page.locator('h1');
        expect(await headings.count()).toBe(1);
        if (typeof h1 === 'string') expect(await headings.textContent()).toBe(h1);
        else expect(await headings.textContent()).toMatch(h1);

        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);

        const broken = await page.evaluate(() =>
          [...document.images]
            .filter((img) => img.getClientRects().length > 0 && img.naturalWidth === 0)
            .map((img) => img.currentSrc || img.src),
        );
        expect(broken).toEqual([]);

        // System fonts only: nothing to download, nothing to swap in late.
        expect(fonts).toEqual([]);
        expect(await page.evaluate(() => document.fonts.size)).toBe(0);

        await page.screenshot({ path: join(shots, `${kind}-${width}-${scheme}.png`), fullPage: true });
        expect(foreign).toEqual([]);
        expect(errors.filter((e) => !isNotFoundStatusNoise(e))).toEqual([]);
        await page.close();
      });
    }
  });
});

describe.each(WIDTHS)('layout stability at %i px', (width) => {
  for (const { kind, path } of PAGE_KINDS.filter((p) => p.kind === 'home' || p.kind === 'article')) {
    it(`${kind} (${path}) does not shift while it loads and hydrates (CLS 0)`, async () => {
      const { page } = await watchedPage(session);
      await page.setViewportSize({ width, height: 900 });
      await recordLayoutShifts(page);
      await page.goto(base + path, { waitUntil: 'networkidle' });
      await settleHydrated(page);
      const shifts = await layoutShifts(page);
      expect(shifts).toEqual([]);
      await page.close();
    });
  }
});

/** Waits until React has hydrated and two more frames have been painted. */
async function settleHydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const button = document.querySelector('#sp-header button');
    return button !== null && Object.keys(button).some((key) => key.startsWith('__reactProps$'));
  });
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

describe('site files', () => {
  it('every page links the favicon and the web manifest, and both are served', async () => {
    const { page } = await watchedPage(session);
    for (const { path } of [...PAGE_KINDS, SERVER_ERROR]) {
      await page.goto(base + path);
      const icon = await page.locator('link[rel="icon"]').first().getAttribute('href');
      const manifest = await page.locator('link[rel="manifest"]').getAttribute('href');
      expect(icon, path).toBeTruthy();
      expect(manifest, path).toBe('/manifest.webmanifest');
    }
    const icon = await page.request.get(`${base}/favicon.svg`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    // What browsers ask for on their own, and what a phone's home screen shows: linked and served.
    expect(await page.locator('link[rel="icon"][href="/favicon.ico"]').count()).toBe(1);
    const touchHref = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    expect(touchHref).toBe('/icons/apple-touch-icon.png');
    const ico = await page.request.get(`${base}/favicon.ico`);
    expect(ico.status()).toBe(200);
    expect(ico.headers()['content-type']).toMatch(/^image\/x-icon/);
    const touch = await page.request.get(`${base}/icons/apple-touch-icon.png`);
    expect(touch.status()).toBe(200);

    const manifest = await page.request.get(`${base}/manifest.webmanifest`);
    expect(manifest.status()).toBe(200);
    const json = (await manifest.json()) as { name: string; icons: { src: string }[] };
    expect(json.name).toBe('Stillpoint');
    expect(json.icons.length).toBeGreaterThan(0);
    for (const { src } of json.icons) {
      expect((await page.request.get(base + src)).status(), src).toBe(200);
    }
    await page.close();
  });

  it('opening the menu and searching request nothing from another origin', async () => {
    for (const width of WIDTHS) {
      const { page, errors } = await watchedPage(session);
      const foreign = recordForeignRequests(page);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${base}/`);
      await settleHydrated(page);
      await page.getByRole('button', { name: 'Classification', exact: true }).click();
      await page.locator('[role="menu"], [role="dialog"]').first().waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('combobox', { name: 'Search articles' }).pressSequentially('sleep');
      await page.getByRole('listbox').waitFor();
      await page.getByRole('combobox', { name: 'Search articles' }).fill('nothing like this');
      await page.getByText('No articles match “nothing like this”', { exact: false }).waitFor();
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});
