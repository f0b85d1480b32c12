// The critical styles: inline in <head> and allowed by the server's CSP (no violation), the site
// stylesheet applied without blocking the first paint, the page shown once it has applied; and
// with script off, the <noscript> stylesheet styles the whole page at once.
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
 * What the page's styles say: the site sheet links' media, the regions' visibility, and the first
 * page image's `object-fit` (`cover` comes only from the site sheet, never from the critical styles).
 */
type Styled = { media: string[]; pageVisibility: string; footerVisibility: string; imageFit: string };

const styled = (): Styled => {
  const sheets = [...document.querySelectorAll<HTMLLinkElement>('head link[rel="stylesheet"]')];
  const image = document.querySelector('#sp-page img');
  return {
    media: sheets.map((l) => l.media),
    pageVisibility: getComputedStyle(document.getElementById('sp-page') as HTMLElement).visibility,
    footerVisibility: getComputedStyle(document.getElementById('sp-footer') as HTMLElement).visibility,
    imageFit: image ? getComputedStyle(image).objectFit : 'no image',
  };
};

describe('critical styles', () => {
  for (const path of ['/', '/articles/box-breathing-step-by-step', '/anxiety-management']) {
    it(`${path}: inline styles pass the CSP and the site stylesheet applies`, async () => {
      const { page, errors } = await watchedPage(withScript);
      const response = await page.goto(base + path, { waitUntil: 'load' });
      const csp = response?.headers()['content-security-policy'] ?? '';
      expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
      expect(await page.locator('head > style').count()).toBe(1);
      await expect
        .poll(() => page.evaluate(styled))
        .toMatchObject({
          media: ['all'],
          pageVisibility: 'visible',
          footerVisibility: 'visible',
          imageFit: 'cover',
        });
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('without script, the page is styled in full and visible', async () => {
    const page = await noScript.context.newPage();
    await page.goto(`${base}/`, { waitUntil: 'load' });
    // The deferred link stays print-only; the <noscript> copy (parsed as a stylesheet) applies.
    expect(await page.evaluate(styled)).toEqual({
      media: ['print', ''],
      pageVisibility: 'visible',
      footerVisibility: 'visible',
      imageFit: 'cover',
    });
    await page.close();
  });
});
