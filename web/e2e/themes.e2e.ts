// Two sites from one binary, each its owner's: the demo (examples/demo, the spec's texts and the
// engine's own palette) and Nightwater (examples/second-site, its own copy, links and [theme]).
// For both, at 1280 and 375 px in the light and dark schemes, the home page is screenshotted (to
// $STILLPOINT_SHOTS for review) and the colours on screen are compared with the configured ones:
// the page background, a card's surface and the accent behind the skip link are read off the
// pixels, the text and muted colours, the corner radius and the content width off the computed
// styles. Not golden images: a change elsewhere on the page does not fail these tests, a theme
// that is not applied does. Then the heading font (self-hosted, preloaded, loaded, no layout
// shift when it arrives) and each site's own words.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, layoutShifts, recordLayoutShifts, type Session, watchedPage } from './browser.ts';
import { WIDTHS } from './pages.ts';
import { decodePng, distance, dominantColour, parseCssRgb, parseHex, type Rgb, toHex } from './pixels.ts';
import { buildAndServe, readTheme, SECOND_SITE, type ServedSite, type ThemeConfig } from './sites.ts';

const shots = process.env.STILLPOINT_SHOTS ?? '/tmp/stillpoint-shots';
const schemes = ['light', 'dark'] as const;
type Scheme = (typeof schemes)[number];

/** Screenshots are sRGB and exact in practice; a little room for anti-aliasing and rounding. */
const TOLERANCE = 3;

/** The engine's palette (web/src/styles/tokens.css), which the spec's demo keeps: it has no [theme]. */
const ENGINE_THEME: ThemeConfig = {
  headingFont: '"Iowan Old Style", "Palatino Linotype", Palatino, serif',
  radius: '0.75rem',
  contentWidth: '74rem',
  light: { accent: '#2c6656', background: '#f7f5ef', surface: '#ffffff', text: '#1c2522', muted: '#525e59' },
  dark: { accent: '#8fd0b9', background: '#121816', surface: '#19211e', text: '#e4eae6', muted: '#a7b3ae' },
  fonts: [],
};

type SiteUnderTest = { readonly name: string; url(): string; readonly theme: ThemeConfig };

let second: ServedSite;
const demoURL = inject('baseURL');

const SITES: readonly SiteUnderTest[] = [
  { name: 'demo', url: () => demoURL, theme: ENGINE_THEME },
  { name: 'second-site', url: () => second.url, theme: readTheme(SECOND_SITE) },
];

let session: Session;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  second = await buildAndServe(SECOND_SITE);
  // Colours exactly as written: no display profile between the CSS and the screenshot.
  session = await launch({}, ['--force-color-profile=srgb']);
}, 180_000);
afterAll(async () => {
  await session?.close();
  second?.close();
});

/** The first family of a CSS font stack, unquoted: `"Iowan Old Style", Georgia` → `Iowan Old Style`. */
function firstFamily(stack: string): string {
  return (stack.split(',')[0] ?? '').trim().replace(/^["']|["']$/g, '');
}

/** `1.25rem` → 20 (px at the default 16px root size). */
function remToPx(value: string): number {
  const m = /^([\d.]+)rem$/.exec(value);
  if (!m) throw new Error(`expected a rem length, got ${value}`);
  return Number(m[1]) * 16;
}

/** The colour covering most of an element's box (or a part of the viewport), read off a screenshot. */
async function colourOf(
  page: Page,
  clip: { x: number; y: number; width: number; height: number },
): Promise<{ colour: Rgb; share: number }> {
  return dominantColour(decodePng(await page.screenshot({ clip })));
}

function expectColour(actual: Rgb, configured: string | undefined, what: string): void {
  expect(configured, `${what}: the theme configures it`).toBeTruthy();
  const want = parseHex(configured ?? '');
  expect(distance(actual, want), `${what}: on screen ${toHex(actual)}, configured ${configured}`).toBeLessThanOrEqual(
    TOLERANCE,
  );
}

/** Opens the home page with the scheme and width, fonts loaded and images settled. */
async function openHome(site: SiteUnderTest, width: number, scheme: Scheme): Promise<Page> {
  const { page } = await watchedPage(session);
  await page.setViewportSize({ width, height: 900 });
  await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
  await page.goto(`${site.url()}/`, { waitUntil: 'networkidle' });
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  return page;
}

describe.each(SITES)('the $name theme', (site) => {
  describe.each(WIDTHS)('at %i px', (width) => {
    describe.each(schemes)('in the %s scheme', (scheme) => {
      it('shows the configured background, surface, accent and text colours', async () => {
        const palette = site.theme[scheme];
        const page = await openHome(site, width, scheme);
        await page.screenshot({ path: join(shots, `theme-${site.name}-${width}-${scheme}.png`) });

        // The page background: the gutter beside the h1, where nothing else is drawn.
        const h1 = await page.locator('h1').boundingBox();
        expect(h1).not.toBeNull();
        const gutter = await colourOf(page, { x: 0, y: h1?.y ?? 0, width: 6, height: h1?.height ?? 1 });
        expectColour(gutter.colour, palette.background, 'page background');

        // A card's surface: the body of the first card, under its cover (text covers a minority).
        const card = page.locator('main article').first();
        await card.scrollIntoViewIfNeeded();
        const body = await card.locator(':scope > div').boundingBox();
        expect(body).not.toBeNull();
        const surface = await colourOf(page, {
          x: body?.x ?? 0,
          y: body?.y ?? 0,
          width: body?.width ?? 1,
          height: body?.height ?? 1,
        });
        expect(surface.share).toBeGreaterThan(0.5);
        expectColour(surface.colour, palette.surface, 'card surface');

        // The accent: the skip link, which the first Tab shows, is filled with it.
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.keyboard.press('Tab');
        const skip = page.getByRole('link', { name: 'Skip to content' });
        await expect.poll(async () => (await skip.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0);
        const box = await skip.boundingBox();
        const accent = await colourOf(page, {
          x: box?.x ?? 0,
          y: box?.y ?? 0,
          width: box?.width ?? 1,
          height: box?.height ?? 1,
        });
        expectColour(accent.colour, palette.accent, 'accent (skip link)');

        // Text and muted text: the h1 and the lead under it.
        const colours = await page.evaluate(() => ({
          h1: getComputedStyle(document.querySelector('h1') as Element).color,
          lead: getComputedStyle(document.querySelector('h1 + p') as Element).color,
          body: getComputedStyle(document.body).backgroundColor,
        }));
        expectColour(parseCssRgb(colours.h1), palette.text, 'h1 text');
        expectColour(parseCssRgb(colours.lead), palette.muted, 'lead (muted text)');
        expectColour(parseCssRgb(colours.body), palette.background, 'body background');
        await page.close();
      });
    });

    it('rounds cards with the theme radius and keeps the page within its content width', async () => {
      const page = await openHome(site, width, 'light');
      const styles = await page.evaluate(() => ({
        radius: getComputedStyle(document.querySelector('main article') as Element).borderTopLeftRadius,
        maxWidth: getComputedStyle(document.querySelector('main') as Element).maxWidth,
        mainWidth: (document.querySelector('main') as Element).getBoundingClientRect().width,
      }));
      expect(styles.radius).toBe(`${remToPx(site.theme.radius ?? '')}px`);
      expect(styles.maxWidth).toBe(`${remToPx(site.theme.contentWidth ?? '')}px`);
      expect(styles.mainWidth).toBeLessThanOrEqual(remToPx(site.theme.contentWidth ?? ''));
      await page.close();
    });
  });

  it('sets the h1 in the theme heading font, and loads a self-hosted one before it is needed', async () => {
    const { page } = await watchedPage(session);
    const fontRequests: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'font') fontRequests.push(new URL(request.url()).pathname);
    });
    await page.goto(`${site.url()}/`, { waitUntil: 'networkidle' });
    await page.evaluate(async () => {
      await document.fonts.ready;
    });
    const h1 = await page.evaluate(() => {
      const style = getComputedStyle(document.querySelector('h1') as Element);
      return { family: style.fontFamily, weight: Number(style.fontWeight) };
    });
    const heading = firstFamily(site.theme.headingFont ?? '');
    expect(firstFamily(h1.family)).toBe(heading);

    const faces = await page.evaluate(() =>
      [...document.fonts].map((face) => ({
        family: face.family.replace(/^["']|["']$/g, ''),
        status: face.status,
        display: face.display,
        weight: face.weight,
      })),
    );
    const files = site.theme.fonts.map((font) => `/${font.file}`);
    if (site.theme.fonts.length === 0) {
      // System fonts only: nothing to download, nothing to swap in late.
      expect(faces).toEqual([]);
      expect(fontRequests).toEqual([]);
    } else {
      for (const font of site.theme.fonts) {
        const face = faces.find((f) => f.family === font.family);
        expect(face, `a @font-face for ${font.family}`).toBeDefined();
        expect(face?.status).toBe('loaded');
        expect(['swap', 'optional', 'fallback']).toContain(face?.display);
      }
      expect(
        await page.evaluate(([f, w]) => document.fonts.check(`${w} 2rem "${f}"`), [heading, h1.weight] as const),
      ).toBe(true);
      // The font the h1 (the home page's largest text) uses is preloaded from the document itself.
      const preloads = await page.evaluate(() =>
        [...document.querySelectorAll('link[rel="preload"][as="font"]')].map((link) => ({
          href: new URL((link as HTMLLinkElement).href).pathname,
          crossorigin: link.getAttribute('crossorigin'),
          type: link.getAttribute('type'),
        })),
      );
      // The file of the face the h1 is drawn with: its family, and a weight (or range) holding the h1's.
      const inRange = (range: string | undefined, weight: number) => {
        const [low = 400, high = low] = (range ?? '400').split(/\s+/).map(Number);
        return weight >= low && weight <= high;
      };
      const headingFile = `/${site.theme.fonts.find((f) => f.family === heading && inRange(f.weight, h1.weight))?.file}`;
      expect(preloads.map((p) => p.href)).toContain(headingFile);
      expect(preloads.find((p) => p.href === headingFile)?.crossorigin).not.toBeNull();
      // Each file is fetched once (the preload is used, not fetched twice), from the site itself.
      expect(fontRequests.filter((path) => files.includes(path)).sort()).toEqual(
        [...new Set(fontRequests.filter((path) => files.includes(path)))].sort(),
      );
      expect(fontRequests).toContain(headingFile);
      const served = await page.request.get(site.url() + headingFile);
      expect(served.status()).toBe(200);
      expect(served.headers()['content-type']).toMatch(/^font\/woff2/);
    }
    await page.close();
  });

  for (const width of WIDTHS) {
    it(`does not shift while the home page and its fonts load at ${width} px (CLS 0)`, async () => {
      const { page } = await watchedPage(session);
      await page.setViewportSize({ width, height: 900 });
      await recordLayoutShifts(page);
      await page.goto(`${site.url()}/`, { waitUntil: 'networkidle' });
      await page.evaluate(async () => {
        await document.fonts.ready;
        await new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
      });
      const shifts = await layoutShifts(page);
      expect(shifts).toEqual([]);
      await page.close();
    });
  }
});

describe('each site reads as its owner wrote it', () => {
  /** The visible texts of the home page that configuration decides. */
  async function homeTexts(url: string) {
    const { page, errors } = await watchedPage(session);
    await page.goto(`${url}/`, { waitUntil: 'networkidle' });
    const texts = await page.evaluate(() => {
      const text = (el: Element | null) => el?.textContent?.trim() ?? null;
      const footer = document.querySelector('#sp-footer');
      return {
        title: document.title,
        description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? null,
        h1: text(document.querySelector('h1')),
        lead: text(document.querySelector('h1 + p')),
        sections: [...document.querySelectorAll('main section > h2')].map(text),
        headerLinks: [...document.querySelectorAll('#sp-header a')].map((a) => ({
          label: text(a),
          href: a.getAttribute('href'),
        })),
        footerTitles: [...(footer?.querySelectorAll('h2') ?? [])].map(text),
        footerLinks: [...(footer?.querySelectorAll('a') ?? [])].map((a) => ({
          label: text(a),
          href: a.getAttribute('href'),
        })),
        copyright: text(footer?.querySelector('footer > p') ?? null),
        sponsored: text(document.querySelector('#sp-page aside h2')),
      };
    });
    expect(errors).toEqual([]);
    await page.close();
    return texts;
  }

  it('the demo keeps the spec’s texts', async () => {
    const home = await homeTexts(demoURL);
    expect(home.title).toBe('Guided Meditations for a Calmer You | Stillpoint');
    expect(home.description).toBe('Guided meditations and mindfulness articles written by experts.');
    expect(home.h1).toBe('Guided meditations for a calmer you');
    expect(home.lead).toBe(
      'Practical guidance on meditation, sleep, stress and focus, written by teachers, coaches and psychologists.',
    );
    expect(home.sections).toEqual(['Top Stories', 'Popular Articles', 'Have More Awesome Stuff']);
    expect(home.footerTitles).toEqual(['Categories', 'Info', 'Contacts', 'Mail']);
    expect(home.footerLinks).toEqual(
      expect.arrayContaining([
        { label: 'Authors', href: '/authors' },
        { label: 'About us', href: '/info/about-us' },
        { label: 'Privacy policy', href: '/privacy-policy' },
        { label: 'Terms', href: '/terms' },
        { label: 'Sitemap', href: '/sitemap' },
        { label: 'Video', href: 'https://www.youtube.com/@stillpoint' },
        { label: 'Social feed', href: 'https://x.com/stillpoint' },
        { label: 'Photos', href: 'https://www.instagram.com/stillpoint' },
      ]),
    );
    expect(home.copyright).toMatch(/^© \d{4} Stillpoint$/);
    expect(home.sponsored).toBe('Partner Links');
  });

  it('Nightwater shows its own copy, sections, header and footer links and social networks', async () => {
    const home = await homeTexts(second.url);
    expect(home.title).toBe('Sleep, Yoga Nidra and Slow Breathing | Nightwater');
    expect(home.description).toBe(
      'Evening routines, yoga nidra scripts and slow-breathing practices for calmer nights, from people who teach them.',
    );
    expect(home.h1).toBe('Rest is a skill you can learn');
    expect(home.lead).toBe(
      'Wind-down routines, yoga nidra scripts and slow-breathing practices for calmer evenings and steadier nights.',
    );
    // 13 articles fill the featured row and Top Stories; the two empty sections are not rendered.
    expect(home.sections).toEqual(['Start Tonight']);
    expect(home.headerLinks).toEqual(expect.arrayContaining([{ label: 'Podcast', href: '/podcast' }]));
    expect(home.footerTitles).toEqual(['Topics', 'Nightwater', 'Listen', 'Write to us']);
    expect(home.footerLinks).toEqual(
      expect.arrayContaining([
        { label: 'About', href: '/info/about-us' },
        { label: 'Contact', href: '/info/contact' },
        { label: 'Podcast', href: '/podcast' },
        { label: 'Sunday letter', href: 'https://buttondown.com/nightwater' },
        { label: 'hello@nightwater.example', href: 'mailto:hello@nightwater.example' },
      ]),
    );
    const labels = home.footerLinks.map((link) => link.label ?? '');
    // The social networks in the configured order, with their known labels; none of the demo's.
    const social = home.footerLinks.filter((link) =>
      [
        'https://open.spotify.com/show/nightwater',
        'https://podcasts.apple.com/podcast/nightwater',
        'https://buttondown.com/nightwater',
        'https://nightwater.example/rss.xml',
      ].includes(link.href ?? ''),
    );
    expect(social.map((link) => link.href)).toEqual([
      'https://open.spotify.com/show/nightwater',
      'https://podcasts.apple.com/podcast/nightwater',
      'https://buttondown.com/nightwater',
      'https://nightwater.example/rss.xml',
    ]);
    expect(social[0]?.label).toMatch(/Spotify/);
    expect(social[1]?.label).toMatch(/Apple Podcasts/);
    expect(social[3]?.label).toMatch(/RSS/i);
    for (const gone of ['Video', 'Social feed', 'Photos', 'Sitemap', 'About us']) expect(labels).not.toContain(gone);
    expect(home.copyright).toMatch(/^© \d{4} Nightwater · Rest well$/);
    // Another site id, another label from the same set.
    expect(home.sponsored).toBe('Sponsored Links');
  });

  it('Nightwater’s own pages and 404 text', async () => {
    const { page } = await watchedPage(session);
    for (const [path, h1] of [
      ['/info/contact', 'Contact'],
      ['/podcast', 'The Nightwater Podcast'],
    ] as const) {
      const response = await page.goto(second.url + path);
      expect(response?.status(), path).toBe(200);
      expect(await page.locator('h1').textContent()).toBe(h1);
    }
    const missing = await page.goto(`${second.url}/no/such/page`);
    expect(missing?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('This page has drifted off');
    expect(await page.locator('main').textContent()).toContain('The page you were looking for is not here.');
    await page.close();
  });
});
