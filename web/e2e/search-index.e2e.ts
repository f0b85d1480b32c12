// The search index in a real browser against the built demo: nothing of it loads with the page,
// a query fetches a few of its files (each once), and the box lists exactly the titles the
// matching rule picks, newest first, read from the index files the builder wrote.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { derivedSlug, matches, wordKeys } from '../src/search/client.ts';
import { MAX_SUGGESTIONS } from '../src/search/suggest.ts';
import { launch, type Session, watchedPage } from './browser.ts';
import { gotoHydrated } from './pages.ts';

const base = inject('baseURL');
const dist = inject('distDir');

let session: Session;

beforeAll(async () => {
  session = await launch();
});
afterAll(async () => {
  await session.close();
});

/** Every file of the index, as paths under the site root. */
function indexFiles(dir = 'search'): string[] {
  return readdirSync(join(dist, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? indexFiles(`${dir}/${e.name}`) : [`${dir}/${e.name}`],
  );
}

/** The demo's articles newest first, read back from the chunk files. */
function articlesNewestFirst(): { title: string; href: string }[] {
  const name = indexFiles().find((f) => /^search\/manifest\.json$/.test(f)) as string;
  const manifest = JSON.parse(readFileSync(join(dist, name), 'utf8')) as {
    docs: number;
    chunkSize: number;
    segmentSize: number;
    segments: [string, string][];
  };
  const docs: { title: string; href: string }[] = [];
  for (let j = 0; j * manifest.chunkSize < manifest.docs; j++) {
    const [folder] = manifest.segments[Math.floor((j * manifest.chunkSize) / manifest.segmentSize)] ?? [''];
    const chunk = JSON.parse(readFileSync(join(dist, 'search', `${folder}/c${j}.json`), 'utf8')) as [
      string,
      number[],
      number?,
      string?,
    ][];
    for (const [title, , keep, tail] of chunk) {
      const slug = keep === undefined ? derivedSlug(title) : derivedSlug(title).slice(0, keep) + tail;
      docs.push({ title, href: `/articles/${slug}` });
    }
  }
  return docs.reverse();
}

function watchSearchRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/search/')) seen.push(path.slice(1));
  });
  return seen;
}

const box = (page: Page) => page.getByRole('combobox', { name: 'Search articles' });
const listedArticles = (page: Page) =>
  page
    .getByRole('listbox', { name: 'Search suggestions' })
    .locator('[role="option"][target="_blank"]')
    .evaluateAll((links) =>
      links.map((a) => ({ title: a.textContent?.trim() ?? '', href: a.getAttribute('href') ?? '' })),
    );

describe('search index', () => {
  it('loads nothing with the page and a few files, each once, while typing', async () => {
    const { page, errors } = await watchedPage(session);
    const requested = watchSearchRequests(page);
    await gotoHydrated(page, `${base}/`);
    await page.waitForLoadState('networkidle');
    expect(requested).toEqual([]);

    await box(page).click();
    await box(page).pressSequentially('breathing', { delay: 30 });
    await expect.poll(() => listedArticles(page).then((l) => l.length)).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    const all = indexFiles();
    expect(requested.filter((f) => /^search\/manifest\./.test(f))).toHaveLength(1);
    expect(new Set(requested).size).toBe(requested.length);
    expect(requested.every((f) => all.includes(f))).toBe(true);
    // Not the whole index: the manifest, a directory shard per key typed at most, the title
    // chunks of what is listed (and posting pieces where a key has them).
    expect(requested.length).toBeLessThan(all.length);
    const keys = new Set(['bre', 'brea', 'breat', 'breath', 'breathi', 'breathin', 'breathing'].flatMap(wordKeys));
    expect(requested.filter((f) => /^search\/k\d-/.test(f)).length).toBeLessThanOrEqual(keys.size);
    expect(errors).toEqual([]);
    await page.close();
  });

  it.each(['min', 'breathing', 'sleep body', 'BODY scan', 'a b', '(the', '🧘 x', 'zzzq'])(
    'lists the newest titles that hold every word of %j',
    async (text) => {
      const { page, errors } = await watchedPage(session);
      await gotoHydrated(page, `${base}/authors`);
      await box(page).fill(text);
      const want = articlesNewestFirst()
        .filter((a) => matches(a.title, text))
        .slice(0, MAX_SUGGESTIONS);
      if (want.length === 0) {
        await page.getByText(`No articles match “${text}”.`).waitFor();
      } else {
        // The box groups the list by topic, so compare the articles, not their order.
        const byHref = (a: { href: string }, b: { href: string }) => a.href.localeCompare(b.href);
        await expect.poll(async () => (await listedArticles(page)).sort(byHref)).toEqual([...want].sort(byHref));
      }
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
