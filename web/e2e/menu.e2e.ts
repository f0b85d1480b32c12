// The Classification menu in a real browser. Wider than 576 px: a dropdown with one submenu per
// category (hover or arrow keys open a submenu). 576 px or less: a popover holding an accordion.
// At every width: the button toggles it, Escape closes it and gives focus back to the button, and
// choosing a leaf goes to /{categorySlug}/{subcategorySlug} with the menu closed.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import { gotoHydrated } from './pages.ts';

const base = inject('baseURL');

const SLEEP = /Sleep Enhancement/;
const SLEEP_HREF = '/enhance-sleep-guided-meditation';
const LEAF = /Sleep Hygiene Practices/;
const LEAF_HREF = '/enhance-sleep-guided-meditation/sleep-hygiene-practices';

let session: Session;
let errors: string[];

beforeAll(async () => {
  session = await launch();
});
afterAll(async () => {
  await session.close();
});

async function openAt(width: number, path = '/'): Promise<Page> {
  const watched = await watchedPage(session);
  errors = watched.errors;
  await watched.page.setViewportSize({ width, height: 800 });
  await gotoHydrated(watched.page, base + path);
  return watched.page;
}

async function done(page: Page): Promise<void> {
  expect(errors).toEqual([]);
  await page.close();
}

const trigger = (page: Page): Locator => page.getByRole('button', { name: 'Classification', exact: true });

/** The accessible name of the focused element (its aria-label or text), for focus assertions. */
const focusedName = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '';
  });

const focusedRole = (page: Page): Promise<string | null> =>
  page.evaluate(() => document.activeElement?.getAttribute('role') ?? document.activeElement?.tagName ?? null);

/** Visible within the window horizontally (a menu cut off at the edge cannot be used). */
async function expectInsideWindow(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box).not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(width);
}

/**
 * Moves the pointer onto `item` and along it to the left, as a hand does. A pointer that jumps
 * straight down from an open submenu's trigger still looks headed for that submenu, which stays open.
 */
async function sweepLeftAcross(page: Page, item: Locator): Promise<void> {
  const box = await item.boundingBox();
  if (!box) throw new Error('menu item not visible');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 8, y, { steps: 4 });
  await page.mouse.move(box.x + 16, y, { steps: 8 });
}

describe('at 1280 px: a dropdown with nested submenus', () => {
  const menu = (page: Page) => page.getByRole('menu', { name: 'Classification' });
  const submenu = (page: Page) => page.getByRole('menu', { name: SLEEP });

  it('does not open on hover of the button; a click opens it and a second click closes it', async () => {
    const page = await openAt(1280);
    await trigger(page).hover();
    expect(await trigger(page).getAttribute('aria-haspopup')).toBe('menu');
    expect(await trigger(page).getAttribute('aria-expanded')).toBe('false');
    expect(await menu(page).count()).toBe(0);

    await trigger(page).click();
    await menu(page).waitFor();
    expect(await trigger(page).getAttribute('aria-expanded')).toBe('true');
    expect(await menu(page).getByText('Classification', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await expectInsideWindow(page, menu(page));

    await trigger(page).click();
    await menu(page).waitFor({ state: 'detached' });
    expect(await trigger(page).getAttribute('aria-expanded')).toBe('false');
    await done(page);
  });

  it('closes on a click outside', async () => {
    const page = await openAt(1280);
    await trigger(page).click();
    await menu(page).waitFor();
    // Well clear of the menu, which opens under the button at the left.
    await page.mouse.click(1250, 700);
    await menu(page).waitFor({ state: 'detached' });
    await done(page);
  });

  it('opens a category submenu on hover, with its subcategories and a More link to the category', async () => {
    const page = await openAt(1280);
    await trigger(page).click();
    await menu(page).getByRole('menuitem', { name: SLEEP }).hover();
    await submenu(page).waitFor();
    const items = submenu(page).getByRole('menuitem');
    expect(await items.count()).toBe(6);
    expect(await submenu(page).getByRole('menuitem', { name: LEAF }).getAttribute('href')).toBe(LEAF_HREF);
    const more = submenu(page).getByRole('menuitem', { name: /^More/ });
    expect(await more.getAttribute('href')).toBe(SLEEP_HREF);
    await expectInsideWindow(page, submenu(page));

    // Moving the pointer onto the next category (away from the open submenu) swaps the submenu.
    await sweepLeftAcross(page, menu(page).getByRole('menuitem', { name: /Stress Reduction/ }));
    await page.getByRole('menu', { name: /Stress Reduction/ }).waitFor();
    await submenu(page).waitFor({ state: 'detached' });
    await done(page);
  });

  it('is operable from the keyboard; Escape closes it and returns focus to the button', async () => {
    const page = await openAt(1280);
    await trigger(page).focus();
    await page.keyboard.press('Enter');
    await menu(page).waitFor();
    await expect.poll(() => focusedName(page)).toMatch(/Mindfulness Meditation/);
    expect(await focusedRole(page)).toBe('menuitem');

    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedName(page)).toMatch(SLEEP);
    await page.keyboard.press('ArrowRight');
    await submenu(page).waitFor();
    await expect.poll(() => focusedName(page)).toMatch(/Guided Meditation for Sleep/);
    await page.keyboard.press('ArrowLeft');
    await submenu(page).waitFor({ state: 'detached' });
    await expect.poll(() => focusedName(page)).toMatch(SLEEP);

    await page.keyboard.press('Escape');
    await menu(page).waitFor({ state: 'detached' });
    await expect.poll(() => focusedName(page)).toBe('Classification');
    await done(page);
  });

  it('goes to the subcategory page and closes when a leaf is clicked', async () => {
    const page = await openAt(1280);
    await trigger(page).click();
    await menu(page).getByRole('menuitem', { name: SLEEP }).hover();
    await submenu(page).getByRole('menuitem', { name: LEAF }).click();
    await page.waitForURL(base + LEAF_HREF);
    await expect.poll(() => page.locator('h1').textContent()).toMatch(LEAF);
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await trigger(page).getAttribute('aria-expanded')).toBe('false');
    await done(page);
  });

  it('goes to the leaf chosen with Enter', async () => {
    const page = await openAt(1280);
    await trigger(page).focus();
    await page.keyboard.press('Enter');
    await menu(page).waitFor();
    // Each key acts on the focused item: wait for focus to land before the next key.
    await expect.poll(() => focusedName(page)).toMatch(/Mindfulness Meditation/);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedName(page)).toMatch(SLEEP);
    await page.keyboard.press('ArrowRight');
    await submenu(page).waitFor();
    await expect.poll(() => focusedName(page)).toMatch(/Guided Meditation for Sleep/);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}${SLEEP_HREF}/guided-meditation-for-sleep`);
    expect(await page.getByRole('menu').count()).toBe(0);
    await done(page);
  });

  it('is still the dropdown one pixel above the breakpoint (577 px)', async () => {
    const page = await openAt(577);
    await trigger(page).click();
    await menu(page).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await done(page);
  });
});

describe.each([576, 375])('at %i px: a popover holding an accordion', (width) => {
  const dialog = (page: Page) => page.getByRole('dialog', { name: 'Classification' });
  const section = (page: Page) => dialog(page).getByRole('button', { name: SLEEP });

  it('does not open on hover; a click opens it and a second click closes it', async () => {
    const page = await openAt(width);
    await expect.poll(() => trigger(page).getAttribute('aria-haspopup')).toBe('dialog');
    await trigger(page).hover();
    expect(await trigger(page).getAttribute('aria-expanded')).toBe('false');
    expect(await dialog(page).count()).toBe(0);

    await trigger(page).click();
    await dialog(page).waitFor();
    expect(await trigger(page).getAttribute('aria-expanded')).toBe('true');
    expect(await dialog(page).getByRole('heading', { name: 'Classification' }).isVisible()).toBe(true);
    expect(await page.getByRole('menu').count()).toBe(0);
    await expectInsideWindow(page, dialog(page));

    await trigger(page).click();
    await dialog(page).waitFor({ state: 'detached' });
    expect(await trigger(page).getAttribute('aria-expanded')).toBe('false');
    await done(page);
  });

  it('expands a category on click (not on hover), showing its subcategories and a More link', async () => {
    const page = await openAt(width);
    await trigger(page).click();
    await dialog(page).waitFor();
    expect(await section(page).getAttribute('aria-expanded')).toBe('false');
    await section(page).hover();
    expect(await section(page).getAttribute('aria-expanded')).toBe('false');

    await section(page).click();
    await expect.poll(() => section(page).getAttribute('aria-expanded')).toBe('true');
    const leaf = dialog(page).getByRole('link', { name: LEAF });
    await leaf.waitFor();
    expect(await leaf.getAttribute('href')).toBe(LEAF_HREF);
    expect(await dialog(page).getByRole('link', { name: /^More/ }).getAttribute('href')).toBe(SLEEP_HREF);

    // One section at a time.
    await dialog(page)
      .getByRole('button', { name: /Stress Reduction/ })
      .click();
    await expect.poll(() => section(page).getAttribute('aria-expanded')).toBe('false');
    await done(page);
  });

  it('is operable from the keyboard; Escape closes it and returns focus to the button', async () => {
    const page = await openAt(width);
    await trigger(page).focus();
    await page.keyboard.press('Enter');
    await dialog(page).waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null))
      .toBe(true);

    await section(page).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => section(page).getAttribute('aria-expanded')).toBe('true');
    await dialog(page)
      .getByRole('link', { name: /Guided Meditation for Sleep/ })
      .waitFor();
    await page.keyboard.press('Tab');
    await expect.poll(() => focusedName(page)).toMatch(/Guided Meditation for Sleep/);

    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    await expect.poll(() => focusedName(page)).toBe('Classification');
    await done(page);
  });

  it('goes to the subcategory page and closes when a leaf is chosen', async () => {
    const page = await openAt(width);
    await trigger(page).click();
    await section(page).click();
    await dialog(page).getByRole('link', { name: LEAF }).click();
    await page.waitForURL(base + LEAF_HREF);
    await expect.poll(() => page.locator('h1').textContent()).toMatch(LEAF);
    expect(await dialog(page).count()).toBe(0);
    expect(await trigger(page).getAttribute('aria-expanded')).toBe('false');
    await done(page);
  });
});
