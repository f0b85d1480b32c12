// Media on the built demo, in Chromium: responsive images whose `sizes` match the width the CSS
// draws them at (so the browser picks the right rendition), the article cover as the one
// high-priority image and, on a phone, within 60 KB for every article, the guided-meditation
// player (plain audio without JavaScript, an accessible player after hydration, nothing moving on
// the page), and video facades that request nothing from the video host before the click.
//
// The pages are found in the build (the demo's articles with a cover photo, a recording and a
// video), so the test follows the demo's content rather than naming its slugs.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, layoutShifts, recordLayoutShifts, type Session, watchedPage } from './browser.ts';
import { gotoHydrated, isNotFoundStatusNoise } from './pages.ts';

const base = inject('baseURL');
const dist = inject('distDir');

/** The built articles: route and HTML. */
function articles(): { route: string; html: string }[] {
  const dir = join(dist, 'articles');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.html'))
    .map((name) => ({
      route: `/articles/${name.slice(0, -'.html'.length)}`,
      html: readFileSync(join(dir, name), 'utf8'),
    }));
}

/** The first article whose HTML matches `pattern`; fails naming what the demo lacks. */
function articleWith(pattern: RegExp, what: string): string {
  const found = articles().find(({ html }) => pattern.test(html));
  if (!found) throw new Error(`the demo has no article with ${what}`);
  return found.route;
}

/** A cover photo (a <picture> right after the header) and a recording (the player in the header). */
const withCoverAndAudio = () =>
  articleWith(
    /<audio [^>]*preload="none"[^>]*>(?:(?!<\/header>).)*<\/figure><\/header><picture>/s,
    'a cover photo and audio',
  );
const withVideo = () => articleWith(/class="embed-play"/, 'a video embed');

/**
 * The width `sizes` gives an image, as the browser evaluates it: a probe with one 1000w candidate
 * 1000 px wide has a density-corrected natural width of exactly that.
 */
async function sizesWidths(page: Page): Promise<{ rendered: number; sizes: number; src: string }[]> {
  return page.evaluate(async () => {
    const probe = (sizes: string) =>
      new Promise<number>((resolve) => {
        const img = new Image();
        img.onload = () => resolve(img.naturalWidth);
        img.onerror = () => resolve(-1);
        img.sizes = sizes;
        img.srcset =
          "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20width='1000'%20height='10'%3E%3C/svg%3E 1000w";
      });
    const out: { rendered: number; sizes: number; src: string }[] = [];
    for (const source of document.querySelectorAll<HTMLSourceElement>('main picture > source[sizes]:first-child')) {
      const img = source.parentElement?.querySelector('img');
      const rendered = img?.getBoundingClientRect().width ?? 0;
      if (img && rendered > 0)
        out.push({ rendered, sizes: await probe(source.sizes), src: img.getAttribute('src') ?? '' });
    }
    return out;
  });
}

let session: Session;

beforeAll(async () => {
  session = await launch({}, ['--autoplay-policy=no-user-gesture-required']);
});
afterAll(async () => {
  await session.close();
});

describe('images', () => {
  it.each([375, 768, 1280])('have a sizes that matches the width they are drawn at, at %i px', async (width) => {
    const { page } = await watchedPage(session);
    await page.setViewportSize({ width, height: 900 });
    for (const path of ['/', withCoverAndAudio(), '/anxiety-management', '/authors']) {
      await page.goto(base + path, { waitUntil: 'load' });
      const rows = await sizesWidths(page);
      const wrong = rows.filter((r) => r.sizes < r.rendered * 0.97 || r.sizes > r.rendered * 1.3 + 8);
      expect(wrong, `${path} at ${width} px`).toEqual([]);
    }
    await page.close();
  });

  it('always have their width and height, and load lazily but for the article cover', async () => {
    const { page } = await watchedPage(session);
    await page.goto(base + withCoverAndAudio(), { waitUntil: 'load' });
    const imgs = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLImageElement>('main img')].map((img) => ({
        src: img.getAttribute('src'),
        sized: img.hasAttribute('width') && img.hasAttribute('height'),
        lazy: img.loading === 'lazy',
        high: img.getAttribute('fetchpriority') === 'high',
      })),
    );
    expect(imgs.filter((i) => !i.sized)).toEqual([]);
    expect(imgs.filter((i) => i.high).length).toBe(1);
    expect(imgs.find((i) => i.high)?.lazy).toBe(false);
    const cover = await page.evaluate(() => {
      const img = document.querySelector('main article > picture > img');
      return [...(img?.parentElement?.querySelectorAll('source') ?? [])].map((s) => s.type);
    });
    expect(cover).toEqual(['image/avif', 'image/webp']);
    await page.close();
  });

  it('send a phone at most 60 KB for the cover of every article', async () => {
    // Without JavaScript: the cover the server's HTML picks is what this measures, and no hydration competes.
    const phone = await launch({
      viewport: { width: 375, height: 812 },
      deviceScaleFactor: 2,
      isMobile: true,
      javaScriptEnabled: false,
    });
    try {
      const withCover = articles().filter(({ html }) => /<\/header><picture><source/.test(html));
      expect(withCover.length).toBeGreaterThan(0);
      // The cover is eager and high-priority, so `load` waits for it; its timing entry follows.
      // Four pages take the articles in turn.
      const routes = withCover.map(({ route }) => route);
      const covers: { route: string; src: string; bytes: number }[] = [];
      const visit = async (page: Page) => {
        for (let route = routes.shift(); route; route = routes.shift()) {
          await page.goto(base + route, { waitUntil: 'load' });
          const entry = await page.waitForFunction(() => {
            const img = document.querySelector<HTMLImageElement>('main article > picture > img');
            if (!img?.complete) return null;
            const timing = performance.getEntriesByType('resource').find((e) => e.name === img.currentSrc) as
              | PerformanceResourceTiming
              | undefined;
            return timing ? { src: img.currentSrc, bytes: timing.encodedBodySize } : null;
          });
          covers.push({ route, ...((await entry.jsonValue()) as { src: string; bytes: number }) });
        }
      };
      const pages = await Promise.all([1, 2, 3, 4].map(() => phone.context.newPage()));
      await Promise.all(pages.map(visit));
      expect(covers.length).toBe(withCover.length);
      expect(covers.filter((c) => !/\/media\/[0-9a-f]{16}-\d+\.avif$/.test(c.src) || c.bytes <= 0)).toEqual([]);
      expect(covers.filter((c) => c.bytes > 60_000)).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 180_000);
});

describe('the guided-meditation player', () => {
  it('is a plain audio element without JavaScript, fetching nothing before play', async () => {
    const noScript = await launch({ javaScriptEnabled: false });
    try {
      const page = await noScript.context.newPage();
      const media: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'media') media.push(r.url());
      });
      await page.goto(base + withCoverAndAudio(), { waitUntil: 'networkidle' });
      const audio = page.locator('main header audio');
      expect(await audio.getAttribute('controls')).not.toBeNull();
      expect(await audio.getAttribute('preload')).toBe('none');
      expect(media).toEqual([]);
    } finally {
      await noScript.close();
    }
  });

  it('becomes an accessible player that plays, seeks, goes back and changes speed from the keyboard', async () => {
    const { page, errors } = await watchedPage(session);
    await gotoHydrated(page, base + withCoverAndAudio());
    const title = (await page.locator('h1').textContent()) ?? '';
    const group = page.getByRole('group', { name: `Player: ${title}` });
    await group.waitFor();
    expect(await page.locator('main header audio').getAttribute('controls')).toBeNull();
    const audio = () =>
      page.evaluate(() => {
        const a = document.querySelector('main header audio') as HTMLAudioElement;
        return { paused: a.paused, time: a.currentTime, rate: a.playbackRate };
      });

    await group.getByRole('button', { name: 'Play' }).focus();
    await page.keyboard.press('Enter');
    await group.getByRole('button', { name: 'Pause' }).waitFor();
    expect((await audio()).paused).toBe(false);
    await page.keyboard.press('Space');
    await group.getByRole('button', { name: 'Play' }).waitFor();

    await group.getByRole('slider', { name: 'Position' }).focus();
    await page.keyboard.press('PageUp');
    await page.waitForFunction(
      () => (document.querySelector('main header audio') as HTMLAudioElement).currentTime >= 29,
    );
    await group.getByRole('button', { name: 'Back 10 seconds' }).click();
    await page.waitForFunction(() => {
      const t = (document.querySelector('main header audio') as HTMLAudioElement).currentTime;
      return t >= 19 && t < 29;
    });

    await group.getByRole('combobox', { name: 'Speed' }).selectOption('1.5');
    expect((await audio()).rate).toBe(1.5);

    const { violations } = await new AxeBuilder({ page }).include('main header').analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    expect(errors.filter((e) => !isNotFoundStatusNoise(e))).toEqual([]);
    await page.close();
  });

  it('moves nothing on the page when it is enhanced', async () => {
    const { page } = await watchedPage(session);
    await recordLayoutShifts(page);
    await gotoHydrated(page, base + withCoverAndAudio());
    await page.getByRole('group', { name: /^Player: / }).waitFor();
    await page.waitForTimeout(300);
    // The browser's own audio controls shift a little inside themselves as they start (≈ 0.003).
    const total = (await layoutShifts(page)).reduce((sum, shift) => sum + shift.value, 0);
    expect(total).toBeLessThan(0.01);
    await page.close();
  });
});

describe('video facades', () => {
  const VIDEO_HOSTS = /youtube|ytimg|vimeo/;

  it('request nothing from the video host before the click, then load the player in their place', async () => {
    const { page } = await watchedPage(session);
    const requests: string[] = [];
    // The test has no network: requests to the video host are recorded, then refused.
    await page.route(VIDEO_HOSTS, (route) => {
      requests.push(route.request().url());
      return route.abort();
    });
    await gotoHydrated(page, base + withVideo());
    await page.waitForLoadState('networkidle');
    expect(requests).toEqual([]);
    const button = page.locator('.embed-play').first();
    const title = (await button.getAttribute('data-embed-title')) ?? '';
    await button.focus();
    await page.keyboard.press('Enter');
    const iframe = page.locator('.embed-frame > iframe').first();
    await iframe.waitFor({ state: 'attached' });
    expect(await iframe.getAttribute('title')).toBe(title);
    expect(await iframe.getAttribute('src')).toMatch(
      /^https:\/\/(www\.youtube-nocookie\.com\/embed\/|player\.vimeo\.com\/video\/)/,
    );
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
    const box = await page.locator('.embed-frame').first().boundingBox();
    expect(box && Math.abs(box.width / box.height - 16 / 9)).toBeLessThan(0.02);
    await page.close();
  });

  it('link to the video on its own site without JavaScript', async () => {
    const noScript = await launch({ javaScriptEnabled: false });
    try {
      const page = await noScript.context.newPage();
      await page.goto(base + withVideo());
      const href = await page.locator('.embed figcaption a').first().getAttribute('href');
      expect(href).toMatch(/^https:\/\/(www\.youtube\.com\/watch\?v=|vimeo\.com\/)/);
    } finally {
      await noScript.close();
    }
  });
});
