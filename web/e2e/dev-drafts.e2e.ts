// `stillpoint dev` shows drafts, each marked: on a copy of the minimal fixture with a draft
// article added, the draft's page has a visible "Draft" badge above its title, and a published
// article's page has none.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import { stillpointBin, stop } from './global-setup.ts';
import { runtimeReady } from './runtime-support.ts';

const repo = resolve(import.meta.dirname, '../..');
const DRAFT = `---
title: "Moonlit Wind-Down, Half Written"
slug: moonlit-wind-down
date: 2025-06-01
draft: true
entities:
  - category: sleepEnhancement
---
Not finished yet.
`;

let work = '';
let base = '';
let server: ChildProcess | undefined;
let session: Session | undefined;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'stillpoint-dev-drafts-e2e-'));
  const site = join(work, 'site');
  cpSync(join(repo, 'crates/cli/tests/fixtures/minimal'), site, { recursive: true });
  writeFileSync(join(site, 'articles/moonlit.md'), DRAFT);
  const child = spawn(stillpointBin(), ['dev', site, '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, STILLPOINT_WEB: process.env.STILLPOINT_WEB ?? join(repo, 'web/dist') },
  });
  server = child;
  base = await new Promise<string>((ok, fail) => {
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m?.[1]) ok(m[1]);
    });
    child.on('exit', (code) => fail(new Error(`stillpoint dev exited (${code}):\n${log}`)));
  });
  session = await launch({ viewport: { width: 1000, height: 700 } });
});

afterAll(async () => {
  await session?.close();
  await stop(server);
  rmSync(work, { recursive: true, force: true });
});

describe('stillpoint dev with a draft', () => {
  it('shows the draft with a visible Draft badge, and published articles without one', async () => {
    if (!session) throw new Error('no browser');
    const { page } = await watchedPage(session);
    await page.goto(`${base}/articles/moonlit-wind-down`);
    await runtimeReady(page);
    const badge = page.locator('#sp-page [data-draft]');
    expect(await badge.textContent()).toBe('Draft');
    expect(await badge.isVisible()).toBe(true);
    const box = await badge.boundingBox();
    const title = await page.locator('#sp-page h1').boundingBox();
    expect(box && title && box.y < title.y).toBe(true);

    await page.goto(`${base}/articles/body-scan`);
    await runtimeReady(page);
    expect(await page.locator('#sp-page h1').textContent()).toBe('A 10-Minute Body Scan for Deeper Sleep');
    expect(await page.locator('#sp-page [data-draft]').count()).toBe(0);
  });
});
