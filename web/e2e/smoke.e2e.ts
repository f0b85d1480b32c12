// Build, serve, load: the home page, an article, a category and an unknown path render through
// `stillpoint serve` with no console errors.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';

const base = inject('baseURL');
let session: Session;

beforeAll(async () => {
  session = await launch();
});
afterAll(async () => {
  await session.close();
});

/** Expected console noise: the 404 document's own response status. */
const isStatusNoise = (e: string) => /Failed to load resource: the server responded with a status of 404/.test(e);

describe('smoke', () => {
  const pages: [string, number, string][] = [
    ['/', 200, 'Guided Meditations for a Calmer You | Stillpoint'],
    [
      '/articles/box-breathing-step-by-step',
      200,
      'Box Breathing: A Step-by-Step Guide for Stressful Moments | Stillpoint',
    ],
    ['/anxiety-management', 200, '🌿 Anxiety Management | Stillpoint'],
    ['/no/such/page', 404, 'Page Not Found | Stillpoint'],
  ];

  for (const [path, status, title] of pages) {
    it(`loads ${path} with status ${status} and no console errors`, async () => {
      const { page, errors } = await watchedPage(session);
      const response = await page.goto(base + path, { waitUntil: 'networkidle' });
      expect(response?.status()).toBe(status);
      expect(await page.title()).toBe(title);
      await expect.poll(() => page.locator('h1').count()).toBe(1);
      // Hydrated: the header's menu button is interactive.
      await page.locator('#sp-header button').first().waitFor();
      expect(errors.filter((e) => !isStatusNoise(e))).toEqual([]);
      await page.close();
    });
  }
});
