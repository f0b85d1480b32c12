// The search box in a real browser against the demo's search index: suggestions only above two
// characters, grouped under `Category → Subcategory` headings whose two parts link to their pages,
// results opening in a new tab, the empty-state image, and regex characters taken literally.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import { gotoHydrated } from './pages.ts';

const base = inject('baseURL');

let session: Session;
let errors: string[];

beforeAll(async () => {
  session = await launch();
});
afterAll(async () => {
  await session.close();
});

async function openAt(width: number): Promise<Page> {
  const watched = await watchedPage(session);
  errors = watched.errors;
  await watched.page.setViewportSize({ width, height: 800 });
  await gotoHydrated(watched.page, `${base}/authors`);
  return watched.page;
}

async function done(page: Page): Promise<void> {
  expect(errors).toEqual([]);
  await page.close();
}

const box = (page: Page): Locator => page.getByRole('combobox', { name: 'Search articles' });
const listbox = (page: Page): Locator => page.getByRole('listbox', { name: 'Search suggestions' });
/** Article results: the options that open in a new tab (group headings open in the same one). */
const results = (page: Page): Locator => listbox(page).locator('[role="option"][target="_blank"]');
const resultTitles = async (page: Page): Promise<string[]> =>
  (await results(page).allInnerTexts()).map((text) => text.trim());

/**
 * Types `text` into an emptied box, key by key. The list keeps the previous results until the new
 * ones arrive, so callers wait for the outcome they expect (a title, or the empty state naming `text`).
 */
async function type(page: Page, text: string): Promise<void> {
  await box(page).fill('');
  await box(page).pressSequentially(text);
}

/** The empty state for exactly this text. */
const emptyFor = (page: Page, text: string): Locator =>
  page.getByText(`No articles match “${text}”.`, { exact: false });

describe.each([1280, 375])('search at %i px', (width) => {
  it('suggests nothing for two characters and suggests articles from the third', async () => {
    const page = await openAt(width);
    await box(page).click();
    await box(page).pressSequentially('bo');
    // Two characters: the box stays collapsed and says nothing.
    expect(await box(page).getAttribute('aria-expanded')).toBe('false');
    expect(await listbox(page).count()).toBe(0);

    await box(page).press('x');
    await listbox(page).waitFor();
    expect(await box(page).getAttribute('aria-expanded')).toBe('true');
    expect(await resultTitles(page)).toContain('Box Breathing: A Step-by-Step Guide for Stressful Moments');
    await expect.poll(() => page.locator('search [role="status"]').textContent()).toMatch(/^\d+ articles? found\.$/);

    // Back to two characters: the suggestions go away.
    await box(page).press('Backspace');
    await listbox(page).waitFor({ state: 'detached' });
    expect(await box(page).getAttribute('aria-expanded')).toBe('false');
    await done(page);
  });

  it('groups results under "Category → Subcategory" headings that link to both pages', async () => {
    const page = await openAt(width);
    await type(page, 'box breathing');
    const group = listbox(page).getByRole('group', { name: /Stress Reduction → .*Breathing Exercises for Stress/ });
    await expect
      .poll(() => group.locator('[role="option"][target="_blank"]').allInnerTexts())
      .toEqual(['Box Breathing: A Step-by-Step Guide for Stressful Moments']);
    // Shown in capitals by CSS: compare the text itself.
    expect(await group.textContent()).toMatch(/Stress Reduction\s*→\s*.*Breathing Exercises for Stress/);
    const [category, subcategory] = await group
      .locator('[role="option"]:not([target])')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(category).toBe('/stress-reduction-techniques');
    expect(subcategory).toBe('/stress-reduction-techniques/breathing-exercises-for-stress');
    // The other result sits under its own heading.
    await listbox(page)
      .getByRole('group', { name: /Mindfulness Meditation → / })
      .getByRole('option', { name: 'Box Breathing as a Doorway to Mindfulness' })
      .waitFor();

    // A heading link opens its topic page in the same tab.
    await group.getByRole('option', { name: /Breathing Exercises for Stress/ }).click();
    await page.waitForURL(`${base}/stress-reduction-techniques/breathing-exercises-for-stress`);
    await expect.poll(() => page.locator('h1').textContent()).toMatch(/Breathing Exercises for Stress/);
    await done(page);
  });

  it('opens a result in a new tab and keeps the text in the box', async () => {
    const page = await openAt(width);
    await type(page, 'box breathing');
    const result = results(page).filter({ hasText: 'Box Breathing: A Step-by-Step Guide' });
    await result.waitFor();
    expect(await result.getAttribute('target')).toBe('_blank');
    expect(await result.getAttribute('href')).toBe('/articles/box-breathing-step-by-step');
    const [tab] = await Promise.all([session.context.waitForEvent('page'), result.click()]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe(`${base}/articles/box-breathing-step-by-step`);
    expect(await tab.locator('h1').textContent()).toBe('Box Breathing: A Step-by-Step Guide for Stressful Moments');
    await tab.close();
    expect(page.url()).toBe(`${base}/authors`);
    expect(await box(page).inputValue()).toBe('box breathing');
    await done(page);
  });

  it('reaches results with the arrow keys and opens the active one with Enter', async () => {
    const page = await openAt(width);
    await type(page, 'walking meditation');
    await expect.poll(() => resultTitles(page)).toContain('A Walking Meditation for Your Lunch Break');
    await box(page).press('ArrowDown');
    const active = await box(page).getAttribute('aria-activedescendant');
    expect(active).toBeTruthy();
    expect(await page.locator(`[id="${active}"]`).getAttribute('aria-selected')).toBe('true');
    // Down past the heading links to the first article.
    let target = await page.locator(`[id="${active}"]`).getAttribute('target');
    for (let step = 0; step < 3 && target !== '_blank'; step++) {
      await box(page).press('ArrowDown');
      const id = await box(page).getAttribute('aria-activedescendant');
      target = await page.locator(`[id="${id}"]`).getAttribute('target');
    }
    expect(target).toBe('_blank');
    const [tab] = await Promise.all([session.context.waitForEvent('page'), box(page).press('Enter')]);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toMatch(/^\/articles\/[a-z0-9-]+$/);
    await tab.close();
    await done(page);
  });

  it('shows the empty-state image when nothing matches', async () => {
    const page = await openAt(width);
    await type(page, 'zebra quantum');
    await emptyFor(page, 'zebra quantum').waitFor();
    expect(await listbox(page).count()).toBe(0);
    const image = page.locator('search img');
    await image.waitFor();
    expect(await image.getAttribute('src')).toBe('/images/search-empty.svg');
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await page.locator('search [role="status"]').textContent()).toBe('No articles match.');
    await done(page);
  });

  it('takes regular-expression characters literally', async () => {
    const page = await openAt(width);
    // `(` alone would break a regular expression built from the input.
    await type(page, '(((');
    await emptyFor(page, '(((').waitFor();
    // `.*` would match every title; taken literally it matches none.
    await type(page, 'box .*');
    await emptyFor(page, 'box .*').waitFor();
    expect(await listbox(page).count()).toBe(0);
    // A literal `(` finds the one title that has it.
    await type(page, 'means (and');
    await expect.poll(() => resultTitles(page)).toEqual(["What Mindfulness Really Means (and What It Doesn't)"]);
    // And the search still works afterwards.
    await type(page, 'box');
    await expect.poll(() => resultTitles(page)).toContain('Box Breathing as a Doorway to Mindfulness');
    await done(page);
  });
});
