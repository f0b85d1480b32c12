// Accessibility of every page kind in a real browser: no serious or critical axe-core violation at
// 1280 and 375 px (also with the menu and the search suggestions open), one h1, a skip link, a
// visible focus indicator, and pages that read and navigate with JavaScript turned off.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import { gotoHydrated, isNotFoundStatusNoise, PAGE_KINDS, SERVER_ERROR, WIDTHS } from './pages.ts';

const base = inject('baseURL');

let session: Session;

beforeAll(async () => {
  session = await launch();
});
afterAll(async () => {
  await session.close();
});

/** Serious and critical violations, one line each (rule, impact, first offending node). */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.each(WIDTHS)('axe at %i px', (width) => {
  for (const { kind, path, status } of [...PAGE_KINDS, SERVER_ERROR]) {
    it(`${kind} (${path}) has no serious or critical violations and one h1`, async () => {
      const { page, errors } = await watchedPage(session);
      await page.setViewportSize({ width, height: 900 });
      const response = await page.goto(base + path, { waitUntil: 'networkidle' });
      expect(response?.status()).toBe(status);
      expect(await page.locator('h1').count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors.filter((e) => !isNotFoundStatusNoise(e))).toEqual([]);
      await page.close();
    });
  }

  it('has no serious or critical violations with the Classification menu open', async () => {
    const { page } = await watchedPage(session);
    await page.setViewportSize({ width, height: 900 });
    await gotoHydrated(page, `${base}/`);
    await page.getByRole('button', { name: 'Classification', exact: true }).click();
    if (width > 576) {
      await page.getByRole('menuitem', { name: /Sleep Enhancement/ }).hover();
      await page.getByRole('menu', { name: /Sleep Enhancement/ }).waitFor();
    } else {
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /Sleep Enhancement/ })
        .click();
    }
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('has no serious or critical violations with search suggestions open', async () => {
    const { page } = await watchedPage(session);
    await page.setViewportSize({ width, height: 900 });
    await gotoHydrated(page, `${base}/`);
    await page.getByRole('combobox', { name: 'Search articles' }).pressSequentially('breath');
    await page.getByRole('listbox').waitFor();
    await page.getByRole('combobox', { name: 'Search articles' }).press('ArrowDown');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('keyboard', () => {
  it('reaches the skip link first; it shows on focus and moves focus to the main content', async () => {
    const { page } = await watchedPage(session);
    await gotoHydrated(page, `${base}/articles/box-breathing-step-by-step`);
    const skip = page.getByRole('link', { name: 'Skip to content' });
    const box = await skip.boundingBox();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(0);

    await page.keyboard.press('Tab');
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(async () => (await skip.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0);

    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
    // The next Tab continues inside the main content, past the header.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
    await page.close();
  });

  it('shows a visible focus indicator on every control reached by Tab', async () => {
    const { page } = await watchedPage(session);
    await gotoHydrated(page, `${base}/articles/box-breathing-step-by-step`);
    const seen: string[] = [];
    for (let step = 0; step < 25; step++) {
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2;
        const rect = el.getBoundingClientRect();
        return {
          name: `${el.tagName.toLowerCase()} “${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}”`,
          outline,
          sized: rect.width > 0 && rect.height > 0,
        };
      });
      if (!focus) continue;
      seen.push(focus.name);
      expect(focus.outline, `no focus outline on ${focus.name}`).toBe(true);
      expect(focus.sized, `focus on an invisible element: ${focus.name}`).toBe(true);
    }
    // The walk went through the header into the page.
    expect(seen.some((name) => name.includes('Classification'))).toBe(true);
    expect(seen.some((name) => name.startsWith('input'))).toBe(true);
    await page.close();
  });
});

describe('with JavaScript disabled', () => {
  let noScript: Session;

  beforeAll(async () => {
    noScript = await launch({ javaScriptEnabled: false });
  });
  afterAll(async () => {
    await noScript.close();
  });

  it('an article is fully readable', async () => {
    const { page } = await watchedPage(noScript);
    await page.goto(`${base}/articles/box-breathing-step-by-step`);
    expect(await page.locator('h1').textContent()).toBe('Box Breathing: A Step-by-Step Guide for Stressful Moments');
    const body = page.locator('main .prose');
    expect(await body.locator('h2').count()).toBeGreaterThan(3);
    expect((await body.textContent())?.length ?? 0).toBeGreaterThan(2000);
    expect(await body.isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: /table of contents|on this page/i }).count()).toBe(1);
    await page.close();
  });

  it('the footer links work as plain links', async () => {
    const { page } = await watchedPage(noScript);
    await page.goto(`${base}/articles/box-breathing-step-by-step`);
    const footer = page.locator('#sp-footer');
    await footer.getByRole('link', { name: 'Privacy policy' }).click();
    await page.waitForURL(`${base}/privacy-policy`);
    expect(await page.locator('h1').textContent()).toBe('Privacy Policy');

    await page
      .locator('#sp-footer')
      .getByRole('link', { name: /Anxiety Management/ })
      .click();
    await page.waitForURL(`${base}/anxiety-management`);
    expect(await page.locator('h1').textContent()).toMatch(/Anxiety Management/);
    await page.close();
  });

  it('the Classification menu is a plain link to the full topic list', async () => {
    const { page } = await watchedPage(noScript);
    await page.goto(`${base}/`);
    const header = page.locator('#sp-header');
    expect(await header.getByRole('button', { name: 'Classification' }).count()).toBe(0);
    await header.getByRole('link', { name: 'Classification' }).click();
    await page.waitForURL(`${base}/sitemap`);
    await page.getByRole('link', { name: /Sleep Hygiene Practices/ }).click();
    await page.waitForURL(`${base}/enhance-sleep-guided-meditation/sleep-hygiene-practices`);
    expect(await page.locator('h1').textContent()).toMatch(/Sleep Hygiene Practices/);
    await page.close();
  });
});
