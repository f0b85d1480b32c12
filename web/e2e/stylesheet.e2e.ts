// The site stylesheet: one cached, same-origin file linked from every page (no inline styles, so
// the server's CSP allows styles from 'self' only, with no hash or 'unsafe-inline'); the page is
// styled in full at its first paint, with script and without.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';

const base = inject('baseURL');
let withScript: Session;
let noScript: Session;

beforeAll(async () => {
  withScript = await launch({ viewport: { width: 375, height: 800 } });
  noScript = await launch({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
});
afterAll(async () => {
  await withScript.close();
  await noScript.close();
});

/**
 * What the page's styles say: the stylesheet links (href and media), inline `<style>` elements,
 * the regions' visibility, and the first page image's `object-fit` (`cover` comes from the site
 * stylesheet).
 */
type Styled = {
  sheets: { href: string; media: string }[];
  inline: number;
  pageVisibility: string;
  footerVisibility: string;
  imageFit: string;
};

const styled = (): Styled => {
  const sheets = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
  const image = document.querySelector('#sp-page img');
  return {
    sheets: sheets.map((l) => ({ href: new URL(l.href).pathname, media: l.media })),
    inline: document.querySelectorAll('style').length,
    pageVisibility: getComputedStyle(document.getElementById('sp-page') as HTMLElement).visibility,
    footerVisibility: getComputedStyle(document.getElementById('sp-footer') as HTMLElement).visibility,
    imageFit: image ? getComputedStyle(image).objectFit : 'no image',
  };
};

const SHEET = { href: expect.stringMatching(/^\/assets\/style-[\w-]+\.css$/), media: '' };

/** A page styled in full by the one site stylesheet. */
const FULLY_STYLED: Styled = {
  sheets: [SHEET],
  inline: 0,
  pageVisibility: 'visible',
  footerVisibility: 'visible',
  imageFit: 'cover',
};

describe('site stylesheet', () => {
  for (const path of ['/', '/articles/box-breathing-step-by-step', '/anxiety-management']) {
    it(`${path}: one linked stylesheet, allowed by a CSP without inline style elements`, async () => {
      const { page, errors } = await watchedPage(withScript);
      const response = await page.goto(base + path, { waitUntil: 'load' });
      const csp = response?.headers()['content-security-policy'] ?? '';
      // Stylesheets and <style> elements: the site's own only. Style attributes (the pictures'
      // placeholder colour and focal point) are allowed on their own (docs/serve.md).
      expect(csp).toContain("style-src 'self';");
      expect(csp).not.toMatch(/sha256-/);
      expect(csp.match(/unsafe-inline/g)).toEqual(['unsafe-inline']);
      expect(csp).toContain("style-src-attr 'unsafe-inline'");
      expect(await page.evaluate(styled)).toEqual(FULLY_STYLED);
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('without script, the page is styled in full and visible', async () => {
    const page = await noScript.context.newPage();
    await page.goto(`${base}/`, { waitUntil: 'load' });
    expect(await page.evaluate(styled)).toEqual(FULLY_STYLED);
    await page.close();
  });
});
