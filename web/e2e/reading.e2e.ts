// Reading quality on the built demo: the HTML sitemap lists every article, grouped by category; the
// home page shows no article twice; no listing page shows the same cover twice; an author with no
// article gets a sentence rather than an empty section; article text runs 60–75 characters a line
// on a desktop window; on a phone the h1 is clearly larger than the body's h2.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import { gotoHydrated } from './pages.ts';

const base = inject('baseURL');
const dist = inject('distDir');

/** Every built page's route and HTML, except the error pages. */
function builtPages(): { route: string; html: string }[] {
  const out: { route: string; html: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (!['assets', 'page-data', 'slice-data', 'search', 'images', 'icons', '.stillpoint'].includes(name))
          walk(path);
      } else if (name.endsWith('.html')) {
        const route = `/${relative(dist, path).slice(0, -'.html'.length)}`;
        if (route === '/404' || route === '/500') continue;
        out.push({ route: route === '/index' ? '/' : route, html: readFileSync(path, 'utf8') });
      }
    }
  };
  walk(dist);
  return out;
}

const main = (html: string): string => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? '';
const all = (re: RegExp, text: string): string[] => [...text.matchAll(re)].map((m) => m[1] ?? '');

const pages = builtPages();
const articleRoutes = pages.filter((p) => /^\/articles\/[^/]+$/.test(p.route)).map((p) => p.route);
const isListing = (route: string) =>
  route === '/' ||
  route.startsWith('/authors/') ||
  (!/^\/(articles|info|sitemap|authors)\b/.test(route) && !['/privacy-policy', '/terms'].includes(route));

describe('built pages', () => {
  it('the sitemap lists every article once, under category headings', () => {
    const sitemaps = pages.filter((p) => p.route === '/sitemap' || p.route.startsWith('/sitemap/page/'));
    expect(sitemaps.map((p) => p.route)).toContain('/sitemap');
    const listed = sitemaps.flatMap((p) => {
      const section =
        /<section[^>]*aria-labelledby="sitemap-articles"[\s\S]*?<\/ul><\/section><\/section>/.exec(p.html)?.[0] ?? '';
      expect(all(/<h3[^>]*>/g, section).length, p.route).toBeGreaterThan(0);
      return all(/href="(\/articles\/[^"]+)"/g, section);
    });
    expect(articleRoutes.length).toBe(50);
    expect([...listed].sort()).toEqual([...articleRoutes].sort());
  });

  it('the home page shows each article once', () => {
    const home = pages.find((p) => p.route === '/');
    const cards = all(/<article[^>]*>[\s\S]*?<h[23][^>]*><a[^>]*href="(\/articles\/[^"]+)"/g, main(home?.html ?? ''));
    expect(cards.length).toBeGreaterThan(20);
    expect(cards.filter((href, i) => cards.indexOf(href) !== i)).toEqual([]);
  });

  it('no listing page shows the same cover twice', () => {
    const listings = pages.filter((p) => isListing(p.route));
    expect(listings.length).toBeGreaterThan(30);
    for (const { route, html } of listings) {
      const covers = all(/<img[^>]*src="([^"]+)"/g, main(html)).filter((src) =>
        src.startsWith('/images/covers/articles/'),
      );
      expect(
        covers.filter((src, i) => covers.indexOf(src) !== i),
        route,
      ).toEqual([]);
    }
  });

  it('every link on every page has an href (crawlable; a sponsored link stripped of its URL is text)', () => {
    for (const { route, html } of pages) {
      const bare = all(/(<a(?:\s[^>]*)?>)/g, html).filter((tag) => !/\shref="/.test(tag));
      expect(bare, route).toEqual([]);
    }
  });

  it('an author page has articles under "Articles by …" or a sentence, never an empty section', () => {
    const authors = pages.filter((p) => /^\/authors\/[^/]+$/.test(p.route));
    expect(authors.length).toBeGreaterThan(5);
    for (const { route, html } of authors) {
      const body = main(html);
      const section = /aria-labelledby="author-articles"[\s\S]*?<\/section>/.exec(body)?.[0];
      if (section) expect(all(/<article/g, section).length, route).toBeGreaterThan(0);
      else expect(body, route).toMatch(/has not published an article here yet/);
    }
  });
});

describe('in a browser', () => {
  let session: Session;
  beforeAll(async () => {
    session = await launch();
  });
  afterAll(async () => {
    await session.close();
  });

  async function open(width: number, path: string): Promise<Page> {
    const { page } = await watchedPage(session);
    await page.setViewportSize({ width, height: 900 });
    await gotoHydrated(page, base + path);
    return page;
  }

  it('sets article text at 60–75 characters a line at 1280 px', async () => {
    const page = await open(1280, '/articles/box-breathing-step-by-step');
    // Group the characters of the longest paragraph by the line box they fall on.
    const perLine = await page.evaluate(() => {
      const paragraphs = [...document.querySelectorAll<HTMLElement>('#sp-page .prose > p')];
      const longest = paragraphs.sort((a, b) => (b.textContent?.length ?? 0) - (a.textContent?.length ?? 0))[0];
      if (!longest) return [];
      const lines = new Map<number, number>();
      const walker = document.createTreeWalker(longest, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < (node.textContent?.length ?? 0); i += 1) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const top = Math.round(range.getBoundingClientRect().top);
          lines.set(top, (lines.get(top) ?? 0) + 1);
        }
      }
      return [...lines.values()];
    });
    const full = perLine.slice(0, -1); // the last line of a paragraph is short
    expect(full.length).toBeGreaterThanOrEqual(3);
    const average = full.reduce((a, b) => a + b, 0) / full.length;
    expect(average).toBeGreaterThanOrEqual(60);
    expect(average).toBeLessThanOrEqual(75);
    await page.close();
  });

  // Lighthouse's phone (412 px) checks touch targets (WCAG 2.2 target-size), which axe leaves out
  // by default; content skipped by `content-visibility` once made the footer links fail it.
  it.each(['/', '/articles/box-breathing-step-by-step', '/anxiety-management', '/sitemap'])(
    'gives every touch target room on a 412 px phone: %s',
    async (path) => {
      const page = await open(412, path);
      const { violations } = await new AxeBuilder({ page }).withRules(['target-size']).analyze();
      expect(violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`))).toEqual([]);
      await page.close();
    },
  );

  it('keeps the h1 clearly above the h2 on a 375 px phone', async () => {
    const page = await open(375, '/articles/box-breathing-step-by-step');
    const size = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
    const h1 = await size('#sp-page h1');
    const h2 = await size('#sp-page .prose h2');
    expect(h1 / h2).toBeGreaterThanOrEqual(1.25);
    await page.close();
  });
});
