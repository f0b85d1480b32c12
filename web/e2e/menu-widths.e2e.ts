// The wide Classification menu at every width above the 576 px breakpoint: each category's flyout
// lies inside the window (between 577 and ~760 px there is no room for the panel and a flyout side
// by side under the button, so the panel moves left), a leaf click navigates and closes the menu,
// ArrowDown on the closed button opens it, and typing a letter finds an item by its words.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import { gotoHydrated } from './pages.ts';

const base = inject('baseURL');
const WIDTHS = [577, 600, 640, 700, 768, 900, 1024, 1280];

let session: Session;
beforeAll(async () => {
  session = await launch();
});
afterAll(async () => {
  await session.close();
});

const trigger = (page: Page): Locator => page.getByRole('button', { name: 'Classification', exact: true });
const menu = (page: Page): Locator => page.getByRole('menu', { name: 'Classification' });

async function openAt(width: number): Promise<{ page: Page; errors: string[] }> {
  const watched = await watchedPage(session);
  await watched.page.setViewportSize({ width, height: 800 });
  await gotoHydrated(watched.page, `${base}/`);
  return watched;
}

/** Every box of `items` lies wholly inside a window `width` × `height` px. */
async function expectAllInside(items: Locator, width: number, height: number): Promise<void> {
  const boxes = await items.evaluateAll((elements) =>
    elements.map((el) => {
      const r = el.getBoundingClientRect();
      return { text: el.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    }),
  );
  expect(boxes.length).toBeGreaterThan(0);
  for (const box of boxes) {
    const where = `${box.text} at ${width} px: ${Math.round(box.left)}..${Math.round(box.right)}`;
    expect(box.left, where).toBeGreaterThanOrEqual(0);
    expect(box.right, where).toBeLessThanOrEqual(width);
    expect(box.top, where).toBeGreaterThanOrEqual(0);
    expect(box.bottom, where).toBeLessThanOrEqual(height);
  }
}

describe.each(WIDTHS)('at %i px', (width) => {
  it('shows every submenu item inside the window', async () => {
    const { page, errors } = await openAt(width);
    await trigger(page).click();
    await menu(page).waitFor();
    await expectAllInside(menu(page).getByRole('menuitem'), width, 800);

    const categories = menu(page).locator('[role="menuitem"][aria-haspopup="menu"]');
    const count = await categories.count();
    expect(count).toBeGreaterThanOrEqual(6);
    for (let i = 0; i < count; i += 1) {
      const category = categories.nth(i);
      const name = (await category.textContent())?.replace('›', '').trim() ?? '';
      await category.hover();
      const submenu = page.getByRole('menu', { name });
      await submenu.waitFor();
      // Radix places the flyout after it is shown; wait until it stops moving.
      await expect
        .poll(() =>
          submenu.evaluate((el) => el.closest('[data-radix-popper-content-wrapper]')?.getAttribute('style') ?? ''),
        )
        .not.toContain('translate(0px, -200%)');
      await expectAllInside(submenu.getByRole('menuitem'), width, 800);
      expect(await submenu.getByRole('menuitem', { name: /^More/ }).isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      await menu(page).waitFor({ state: 'detached' });
      await trigger(page).click();
      await menu(page).waitFor();
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('goes to a leaf chosen with the pointer and closes the menu', async () => {
    const { page, errors } = await openAt(width);
    await trigger(page).click();
    await menu(page)
      .getByRole('menuitem', { name: /Focus and Productivity/ })
      .hover();
    const submenu = page.getByRole('menu', { name: /Focus and Productivity/ });
    const leaf = submenu.getByRole('menuitem', { name: /Productivity Boosting Techniques/ });
    const href = await leaf.getAttribute('href');
    expect(href).toBe('/focus-and-productivity/productivity-boosting-techniques');
    await leaf.click();
    await page.waitForURL(`${base}${href}`);
    await expect.poll(() => page.locator('h1').textContent()).toMatch(/Productivity Boosting Techniques/);
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await trigger(page).getAttribute('aria-expanded')).toBe('false');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('from the keyboard (1024 px)', () => {
  const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

  it('opens on the first ArrowDown on the closed button, focusing the first item', async () => {
    const { page, errors } = await openAt(1024);
    await trigger(page).focus();
    await page.keyboard.press('ArrowDown');
    await menu(page).waitFor();
    await expect.poll(() => focusedText(page)).toMatch(/Mindfulness Meditation/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('moves to the item whose words (after the emoji) start with a typed letter', async () => {
    const { page, errors } = await openAt(1024);
    await trigger(page).focus();
    await page.keyboard.press('ArrowDown');
    await menu(page).waitFor();
    await expect.poll(() => focusedText(page)).toMatch(/Mindfulness Meditation/);
    await page.keyboard.press('a');
    await expect.poll(() => focusedText(page)).toMatch(/^\S+ Anxiety Management/);
    // Radix forgets typed letters after a second; a new letter then starts a new search.
    await page.waitForTimeout(1100);
    await page.keyboard.press('r');
    await expect.poll(() => focusedText(page)).toMatch(/^\S+ Resources and Tools/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
