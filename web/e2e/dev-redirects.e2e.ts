// `stillpoint dev` and redirects, in Chromium: an article's alias answers with a redirect to the
// article; when an article's slug changes, the tab open on its old URL goes to the new one and
// the terminal says which alias keeps the old URL working.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import { stillpointBin, stop } from './global-setup.ts';
import { runtimeReady, within } from './runtime-support.ts';

const repo = resolve(import.meta.dirname, '../..');
const TITLE = 'Rest Without Guilt';

let work = '';
let site = '';
let base = '';
let log = '';
let server: ChildProcess | undefined;
let session: Session | undefined;

/** Writes an article as editors save: a temporary file renamed over it. */
function save(article: string, edit: (text: string) => string): void {
  const path = join(site, article);
  writeFileSync(`${path}.tmp`, edit(readFileSync(path, 'utf8')));
  renameSync(`${path}.tmp`, path);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'stillpoint-dev-redirects-e2e-'));
  site = join(work, 'site');
  cpSync(join(repo, 'crates/cli/tests/fixtures/minimal'), site, { recursive: true });
  save('articles/breathing.md', (text) =>
    text.replace('slug: breathing\n', 'slug: breathing\naliases: [/old/breathing/]\n'),
  );
  const child = spawn(stillpointBin(), ['dev', site, '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, STILLPOINT_WEB: process.env.STILLPOINT_WEB ?? join(repo, 'web/dist') },
  });
  server = child;
  base = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`stillpoint dev did not start:\n${log}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m?.[1]) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.on('exit', (code) => fail(new Error(`stillpoint dev exited (${code}):\n${log}`)));
  });
});

afterAll(async () => {
  await session?.close();
  await stop(server);
  rmSync(work, { recursive: true, force: true });
});

const heading = (page: import('playwright-core').Page) =>
  page.evaluate(() => document.querySelector('#sp-page h1')?.textContent ?? '');

describe('stillpoint dev redirects', () => {
  it('answers an alias with a redirect to the article', async () => {
    const direct = await fetch(`${base}/old/breathing/`, { redirect: 'manual' });
    expect(direct.status).toBe(301);
    expect(direct.headers.get('location')).toBe('/articles/breathing');
    session = await launch();
    const { page } = await watchedPage(session);
    await page.goto(`${base}/old/breathing.html`);
    expect(new URL(page.url()).pathname).toBe('/articles/breathing');
    await session.close();
    session = undefined;
  });

  it('follows a renamed slug from the open tab, and says which alias to add', async () => {
    session = await launch();
    const { page, errors } = await watchedPage(session);
    await page.goto(`${base}/articles/rest-without-guilt`);
    await runtimeReady(page);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.stillpointDev), within)
      .toBe('connected');
    save('articles/untagged.md', (text) => text.replace('slug: rest-without-guilt\n', 'slug: rest-renamed\n'));
    await expect.poll(() => new URL(page.url()).pathname, within).toBe('/articles/rest-renamed');
    await expect.poll(() => heading(page), within).toBe(TITLE);
    await expect
      .poll(() => log, within)
      .toContain('add to articles/untagged.md: aliases: [/articles/rest-without-guilt]');
    expect(errors.filter((e) => e.startsWith('pageerror') || e.includes('/__stillpoint/'))).toEqual([]);
  });
});
