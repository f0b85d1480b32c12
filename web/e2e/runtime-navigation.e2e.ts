// Client-side navigation on the built demo: a click renders the next page without a document
// load, updates title, canonical and focus, announces the page, restores scroll on back/forward,
// and shows a polite loading notice while a slow page is on its way.
import type { Page } from 'playwright-core';
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

/** A fresh browser (no service worker, so page.route sees every request) on `path`, runtime ready. */
async function open(path: string): Promise<{ page: Page; errors: string[]; loads: string[] }> {
  session = await launch({ serviceWorkers: 'block' });
  const { page, errors } = await watchedPage(session);
  const loads = recordDocumentLoads(page);
  await page.goto(base + path);
  await runtimeReady(page);
  await markWindow(page);
  return { page, errors, loads };
}

/** The first link in the page region to an article. */
function firstArticleLink(page: Page): Promise<string> {
  return page
    .locator('#sp-page a[href^="/articles/"]')
    .first()
    .evaluate((a) => a.getAttribute('href') ?? '');
}

describe('client-side navigation', () => {
  it('renders the next page without a document load', async () => {
    const { page, errors, loads } = await open('/');
    const href = await firstArticleLink(page);
    await page.locator(`#sp-page a[href="${href}"]`).first().click();
    await expect.poll(() => page.evaluate(() => location.pathname), within).toBe(href);
    await expect.poll(() => page.evaluate(() => document.body.dataset.template), within).toBe('Article');
    expect(await windowMarker(page)).toBe('kept');
    expect(loads).toEqual(['/']);
    expect(errors).toEqual([]);
  });

  it("shows an article's body, which its page-data leaves to its HTML", async () => {
    const { page, errors, loads } = await open('/');
    const href = await firstArticleLink(page);
    const data = await (await fetch(base + pageDataPath(href))).json();
    expect(data.result.pageContext.bodyHtml).toBeUndefined();
    await page.locator(`#sp-page a[href="${href}"]`).first().click();
    await expect.poll(() => page.evaluate(() => document.body.dataset.template), within).toBe('Article');
    const paragraphs = await page.locator('#sp-page [data-body] p').allTextContents();
    expect(paragraphs.length).toBeGreaterThan(0);
    const html = await (await fetch(base + href)).text();
    for (const text of paragraphs) expect(html).toContain(text.slice(0, 40));
    expect(loads).toEqual(['/']);
    expect(errors).toEqual([]);
  });

  it('updates title, description and canonical, focuses the h1 and announces it', async () => {
    const { page } = await open('/');
    const href = await firstArticleLink(page);
    // An article's head is in its HTML only (page-data leaves it out): the runtime reads it there.
    const data = await (await fetch(base + pageDataPath(href))).json();
    expect(data.result.head).toBeUndefined();
    const html = await (await fetch(base + href)).text();
    const read = (pattern: RegExp) =>
      (pattern.exec(html)?.[1] ?? '')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');
    const head = {
      title: read(/<title>([^<]*)<\/title>/),
      description: read(/<meta name="description" content="([^"]*)">/),
      canonical: read(/<link rel="canonical" href="([^"]*)">/),
    };
    await page.locator(`#sp-page a[href="${href}"]`).first().click();
    await expect.poll(() => page.title(), within).toBe(head.title);
    const heading = await h1(page);
    expect(head.title).toBe(`${heading} | Stillpoint`);
    const state = await page.evaluate(() => ({
      description: document.querySelector('meta[name="description"]')?.getAttribute('content'),
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href'),
      ogUrl: document.querySelector('meta[property="og:url"]')?.getAttribute('content'),
      jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) =>
        JSON.parse(s.textContent ?? '{}'),
      ),
      focused: document.activeElement?.tagName,
    }));
    expect(state).toEqual({
      description: head.description,
      canonical: head.canonical,
      ogUrl: head.canonical,
      jsonLd: [],
      focused: 'H1',
    });
    expect(head.canonical).toMatch(new RegExp(`${href}$`));
    await expect.poll(() => page.locator('[data-nav-announcer]').textContent()).toBe(`Navigated to ${heading}`);
    expect(await windowMarker(page)).toBe('kept');
  });

  it('comes back to the scroll position on back and forward', async () => {
    const { page } = await open('/');
    const scrollTo = (y: number) => page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
    const scrollY = () => page.evaluate(() => Math.round(window.scrollY));
    await scrollTo(1200);
    await expect.poll(scrollY, within).toBe(1200);
    const link = page.locator('#sp-page a[href^="/articles/"]').last();
    const href = await link.evaluate((a) => a.getAttribute('href') ?? '');
    await link.scrollIntoViewIfNeeded();
    const homeY = await scrollY();
    expect(homeY).toBeGreaterThan(0);
    await link.click();
    await expect.poll(() => page.evaluate(() => location.pathname), within).toBe(href);
    expect(await scrollY()).toBe(0);
    await scrollTo(400);
    await expect.poll(scrollY, within).toBe(400);

    await page.goBack();
    await expect.poll(() => page.evaluate(() => document.body.dataset.template), within).toBe('Home');
    await expect.poll(scrollY, within).toBe(homeY);
    await page.goForward();
    await expect.poll(() => page.evaluate(() => location.pathname), within).toBe(href);
    await expect.poll(scrollY, within).toBe(400);
    expect(await windowMarker(page)).toBe('kept');
  });

  it('shows a polite loading notice while a navigation is slow, gone once the page renders', async () => {
    const { page } = await open('/');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**${pageDataPath('/authors')}`, async (route) => {
      await held;
      await route.continue();
    });
    const notice = page.locator('[role="status"][aria-live="polite"].sp-nav-notice');
    expect(await notice.isVisible()).toBe(false);
    await clickLink(page, '/authors');
    await expect.poll(() => notice.textContent(), within).toBe('Loading page…');
    expect(await notice.isVisible()).toBe(true);
    expect(await h1(page)).not.toBe('Meet Our Mindfulness Experts');
    release();
    await expect.poll(() => h1(page), within).toBe('Meet Our Mindfulness Experts');
    expect(await notice.textContent()).toBe('');
    expect(await notice.isVisible()).toBe(false);
    expect(await windowMarker(page)).toBe('kept');
  });
});
