// `stillpoint dev` in Chromium: on a copy of the minimal fixture, an edit of an article's title
// (saved as editors do: a temporary renamed over the file) shows in the open tab without a
// document load and without moving the scroll position; broken front matter shows the error
// overlay (file, line, hint) over the last good page, and fixing it removes the overlay. A
// production service worker left on the same origin is removed, with its caches.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import { serve, stillpointBin, stop } from './global-setup.ts';
import { markWindow, recordDocumentLoads, runtimeReady, windowMarker, within } from './runtime-support.ts';

const repo = resolve(import.meta.dirname, '../..');
const ARTICLE = 'articles/body-scan.md';
const TITLE = 'A 10-Minute Body Scan for Deeper Sleep';

let work = '';
let site = '';
let base = '';
let server: ChildProcess | undefined;
let session: Session | undefined;

/** Starts `stillpoint dev SITE --port 0`; resolves with its base URL once it listens. */
function startDev(dir: string, port = '0', ...args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(stillpointBin(), ['dev', dir, '--host', '127.0.0.1', '--port', port, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, STILLPOINT_WEB: process.env.STILLPOINT_WEB ?? join(repo, 'web/dist') },
  });
  return new Promise((ok, fail) => {
    let log = '';
    const timer = setTimeout(() => fail(new Error(`stillpoint dev did not start:\n${log}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m?.[1]) {
        clearTimeout(timer);
        ok({ url: m[1], child });
      }
    });
    child.on('exit', (code) => fail(new Error(`stillpoint dev exited (${code}):\n${log}`)));
  });
}

/** Writes the article as editors save: a temporary file renamed over it. */
function save(edit: (text: string) => string): void {
  const path = join(site, ARTICLE);
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, edit(readFileSync(path, 'utf8')));
  renameSync(tmp, path);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'stillpoint-dev-e2e-'));
  site = join(work, 'site');
  cpSync(join(repo, 'crates/cli/tests/fixtures/minimal'), site, { recursive: true });
  // A long article, so the page can be scrolled.
  const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1}: breathe in, breathe out.`);
  writeFileSync(join(site, ARTICLE), `${readFileSync(join(site, ARTICLE), 'utf8')}\n${paragraphs.join('\n\n')}\n`);
  const started = await startDev(site);
  base = started.url;
  server = started.child;
});

afterAll(async () => {
  await session?.close();
  await stop(server);
  rmSync(work, { recursive: true, force: true });
});

async function openArticle(): Promise<{ page: Page; errors: string[]; loads: string[] }> {
  session = await launch({ viewport: { width: 1000, height: 600 } });
  const { page, errors } = await watchedPage(session);
  const loads = recordDocumentLoads(page);
  await page.goto(`${base}/articles/body-scan`);
  await runtimeReady(page);
  await expect
    .poll(() => page.evaluate(() => document.documentElement.dataset.stillpointDev), within)
    .toBe('connected');
  await markWindow(page);
  return { page, errors, loads };
}

const heading = (page: Page) => page.evaluate(() => document.querySelector('#sp-page h1')?.textContent ?? '');

describe('stillpoint dev', () => {
  it('shows an edited title in place, keeping the document and the scroll position', async () => {
    const { page, errors, loads } = await openArticle();
    expect(await heading(page)).toBe(TITLE);
    await page.evaluate(() => window.scrollTo({ top: 700, behavior: 'instant' }));
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(600);

    save((text) => text.replace(TITLE, 'A Body Scan, Edited Live'));
    await expect.poll(() => heading(page), within).toBe('A Body Scan, Edited Live');
    await expect.poll(() => page.evaluate(() => document.title), within).toContain('A Body Scan, Edited Live');
    expect(await windowMarker(page)).toBe('kept');
    expect(loads).toEqual(['/articles/body-scan']);
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThanOrEqual(2);

    // The dev server keeps service workers away: none is registered on this origin.
    const workers = await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);
    expect(workers).toBe(0);
    // Nothing the dev client did failed (the fixture's own console noise aside).
    expect(errors.filter((e) => e.startsWith('pageerror') || e.includes('/__stillpoint/'))).toEqual([]);
    save((text) => text.replace('A Body Scan, Edited Live', TITLE));
    await expect.poll(() => heading(page), within).toBe(TITLE);
    await session?.close();
    session = undefined;
  });

  it('shows an edited body in place (the body is in the HTML only, not in page-data)', async () => {
    const { page, errors, loads } = await openArticle();
    const paragraph = (n: number) =>
      page.evaluate((n) => document.querySelectorAll('#sp-page [data-body] p')[n]?.textContent ?? '', n);
    const last = await page.evaluate(() => document.querySelectorAll('#sp-page [data-body] p').length - 1);
    expect(await paragraph(last)).toBe('Paragraph 60: breathe in, breathe out.');
    save((text) => text.replace('Paragraph 60: breathe in, breathe out.', 'Paragraph 60: edited live.'));
    await expect.poll(() => paragraph(last), within).toBe('Paragraph 60: edited live.');
    expect(await windowMarker(page)).toBe('kept');
    expect(loads).toEqual(['/articles/body-scan']);
    expect(errors.filter((e) => e.startsWith('pageerror') || e.includes('/__stillpoint/'))).toEqual([]);
    save((text) => text.replace('Paragraph 60: edited live.', 'Paragraph 60: breathe in, breathe out.'));
    await expect.poll(() => paragraph(last), within).toBe('Paragraph 60: breathe in, breathe out.');
    await session?.close();
    session = undefined;
  });

  it('shows content errors in an overlay until they are fixed', async () => {
    const { page, loads } = await openArticle();
    const overlay = page.locator('#stillpoint-dev-overlay[role="alertdialog"]');
    expect(await overlay.count()).toBe(0);

    save((text) => text.replace(/^title: .*$/m, 'title: [unclosed'));
    await overlay.waitFor({ state: 'visible', timeout: within.timeout });
    const text = await overlay.innerText();
    expect(text).toContain(`${ARTICLE}:2:`);
    expect(text).toContain('malformed front matter');
    expect(text).toContain('hint:');
    expect(await overlay.getAttribute('aria-labelledby')).toBe('sp-dev-title');
    // Focus moves into the dialog; the last good page is still there beneath it.
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('sp-dev-dismiss');
    expect(await heading(page)).toBe(TITLE);

    // Escape dismisses it; a reload shows it again (the error is still there).
    await page.keyboard.press('Escape');
    expect(await overlay.count()).toBe(0);
    await page.reload();
    await overlay.waitFor({ state: 'visible', timeout: within.timeout });
    await runtimeReady(page);
    await markWindow(page);

    save((text) => text.replace('title: [unclosed', `title: "Fixed: ${TITLE}"`));
    await overlay.waitFor({ state: 'detached', timeout: within.timeout });
    await expect.poll(() => heading(page), within).toBe(`Fixed: ${TITLE}`);
    expect(await windowMarker(page)).toBe('kept');
    expect(loads).toEqual(['/articles/body-scan', '/articles/body-scan']);
  });

  it('removes a production service worker left on the same origin, and its caches', async () => {
    const prod = join(work, 'prod');
    const built = spawnSync(stillpointBin(), ['build', site, '--out', prod], {
      encoding: 'utf8',
      env: { ...process.env, STILLPOINT_WEB: process.env.STILLPOINT_WEB ?? join(repo, 'web/dist') },
    });
    expect(built.status, built.stderr).toBe(0);
    const served = await serve(prod);
    const port = new URL(served.url).port;
    session = await launch();
    const { page } = await watchedPage(session);
    await page.goto(`${served.url}/articles/body-scan`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), within).toBe(true);
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).length), within).toBeGreaterThan(0);
    await new Promise<void>((done) => {
      served.server.once('exit', () => done());
      served.server.kill('SIGTERM');
    });

    // `stillpoint dev` on the same origin (its own output directory: another one is running).
    const dev = await startDev(site, port, '--out', join(work, 'dev-2'));
    try {
      expect(dev.url).toBe(served.url);
      await page.goto(`${dev.url}/articles/body-scan`);
      await expect
        .poll(() => page.evaluate(() => document.documentElement.dataset.stillpointDev ?? null), within)
        .toBe('connected');
      await expect
        .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), within)
        .toBe(0);
      await expect.poll(() => page.evaluate(async () => (await caches.keys()).length), within).toBe(0);
      await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller), within).toBe(null);
    } finally {
      await stop(dev.child);
    }
  });
});
