#!/usr/bin/env node
// The two screenshots of docs/theme.md: the home page of the demo (the engine's default theme) and
// of the second example site (its own [theme]), 1280×800, light scheme. Builds each site with the
// binary, serves it with `stillpoint serve` on 127.0.0.1, and photographs it with Debian's
// Chromium (never a downloaded browser). When pngquant and optipng are installed (Debian packages
// of the same names) the PNGs are quantised and recompressed; either way each must stay under
// 250 KB, so the docs stay light.
//
//   node web/scripts/theme-screenshots.mjs      (STILLPOINT_BIN, STILLPOINT_WEB, CHROMIUM)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium.mjs';
import { serve } from './serve.mjs';

const repo = resolve(import.meta.dirname, '../..');
const bin = process.env.STILLPOINT_BIN ?? join(repo, 'target/release/stillpoint');
const web = process.env.STILLPOINT_WEB ?? join(repo, 'web/dist');
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const MAX_BYTES = 250 * 1024;
const SHOTS = [
  { site: 'examples/demo', out: 'docs/images/theme-default.png' },
  { site: 'examples/second-site', out: 'docs/images/theme-second-site.png' },
];
const ARGS = [...CHROMIUM_ARGS, '--force-color-profile=srgb', '--hide-scrollbars'];

/** Quantises and recompresses `file` in place with pngquant and optipng, when they are installed. */
function optimise(file) {
  const has = (tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;
  if (has('pngquant')) {
    spawnSync('pngquant', ['--force', '--skip-if-larger', '--quality=80-95', '--strip', '--output', file, file], {
      stdio: 'inherit',
    });
  }
  if (has('optipng')) spawnSync('optipng', ['-quiet', '-o5', '-strip', 'all', file], { stdio: 'inherit' });
}

const work = mkdtempSync(join(tmpdir(), 'stillpoint-theme-shots-'));
const context = await chromium.launchPersistentContext(join(work, 'profile'), {
  executablePath,
  headless: true,
  args: ARGS,
  viewport: { width: 1280, height: 800 },
  colorScheme: 'light',
  reducedMotion: 'reduce',
});
try {
  for (const [n, { site, out }] of SHOTS.entries()) {
    const dist = join(work, `dist-${n}`);
    const built = spawnSync(bin, ['build', join(repo, site), '--out', dist], {
      encoding: 'utf8',
      env: { ...process.env, STILLPOINT_WEB: web, SOURCE_DATE_EPOCH: '1767225600' },
    });
    if (built.status !== 0) throw new Error(`stillpoint build ${site} failed:\n${built.stderr}`);
    const { url, server } = await serve(bin, dist);
    try {
      const page = await context.newPage();
      await page.goto(`${url}/`, { waitUntil: 'networkidle' });
      await page.evaluate(async () => {
        for (const img of document.images) img.loading = 'eager';
        await document.fonts.ready;
      });
      await page.waitForFunction(() => [...document.images].every((img) => img.complete));
      const file = join(repo, out);
      writeFileSync(file, await page.screenshot({ type: 'png' }));
      optimise(file);
      const bytes = statSync(file).size;
      console.log(`${out}: ${Math.round(bytes / 1024)} KB`);
      if (bytes > MAX_BYTES) throw new Error(`${out} is ${bytes} bytes, over ${MAX_BYTES}`);
      await page.close();
    } finally {
      server.kill('SIGTERM');
    }
  }
} finally {
  await context.close();
  rmSync(work, { recursive: true, force: true });
}
