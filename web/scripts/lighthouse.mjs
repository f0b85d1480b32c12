#!/usr/bin/env node
// Lighthouse benchmark (not a test): builds each example site with the release binary, serves it
// with `stillpoint serve` on 127.0.0.1, and runs Lighthouse RUNS times per page on mobile (the
// default emulation: Moto G, 4× CPU slowdown, slow 4G) and desktop, with Debian's Chromium. Prints
// the median of each category score and of LCP, TBT and CLS.
//
//   make lighthouse                     (RUNS=5 by default; SITE, FORMS, PAGES, LIGHTHOUSE_BIN, CHROME_PATH)
//   make lighthouse SITE=examples/second-site FORMS=mobile
//
// SITE is a comma-separated list of site directories (default: the demo and the second example);
// PAGES replaces every site's own list of pages (a home page, an article and a category).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CHROMIUM_ARGS } from './chromium.mjs';
import { serve } from './serve.mjs';

const repo = resolve(import.meta.dirname, '../..');
const bin = process.env.STILLPOINT_BIN ?? join(repo, 'target/release/stillpoint');
const lighthouse = process.env.LIGHTHOUSE_BIN ?? join(repo, 'target/lighthouse/node_modules/.bin/lighthouse');
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const runs = Number(process.env.RUNS ?? 5);
/** The pages measured on each example site: its home page, an article and a category. */
const SITE_PAGES = {
  'examples/demo': '/,/articles/ten-minute-mindfulness-of-breath,/anxiety-management',
  'examples/second-site': '/,/articles/twenty-minute-yoga-nidra,/yoga-nidra',
};
const sites = (process.env.SITE ?? Object.keys(SITE_PAGES).join(','))
  .split(',')
  .map((site) => site.trim().replace(/\/+$/, ''))
  .filter(Boolean);
const pagesOf = (site) => (process.env.PAGES ?? SITE_PAGES[site] ?? '/').split(',');
const forms = (process.env.FORMS ?? 'mobile,desktop').split(',');
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS].join(' ');

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function runLighthouse(url, formFactor, work, n) {
  const out = join(work, `lh-${formFactor}-${n}.json`);
  const args = [
    url,
    '--quiet',
    '--output=json',
    `--output-path=${out}`,
    `--only-categories=${CATEGORIES.join(',')}`,
    `--chrome-flags=${CHROME_FLAGS} --user-data-dir=${mkdtempSync(join(work, 'profile-'))}`,
  ];
  if (formFactor === 'desktop') args.push('--preset=desktop');
  const run = spawnSync(lighthouse, args, { encoding: 'utf8', env: { ...process.env, CHROME_PATH: chrome } });
  if (run.status !== 0) throw new Error(`lighthouse failed on ${url}:\n${run.stderr}`);
  const lhr = JSON.parse(readFileSync(out, 'utf8'));
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]));
  const audit = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    ...scores,
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    failing: CATEGORIES.flatMap((c) =>
      (lhr.categories[c]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => `${c}:${ref.id}`),
    ),
  };
}

/** Every file under `dir`, as URL paths from `root`. */
function filesUnder(root, dir) {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${join(entry.parentPath, entry.name).slice(root.length + 1)}`);
}

/**
 * `stillpoint serve` compresses a file the first time it is asked for it (hydrate.js: about
 * 0.4 s), as a CDN does on its first miss. A visitor of a deployed site meets neither, so every
 * page measured and every script, stylesheet and page-data file is asked for once beforehand.
 */
async function warm(base, dist, paths) {
  const files = [...paths, ...filesUnder(dist, 'assets'), ...filesUnder(dist, 'page-data')];
  for (const path of files) {
    await fetch(base + path, { headers: { 'accept-encoding': 'br, gzip' } }).then((r) => r.arrayBuffer());
  }
}

const work = mkdtempSync(join(tmpdir(), 'stillpoint-lighthouse-'));
try {
  console.log(`Lighthouse ${runs}× per page, medians (Chromium ${chrome})`);
  for (const [n, site] of sites.entries()) {
    const dist = join(work, `dist-${n}`);
    const built = spawnSync(bin, ['build', resolve(repo, site), '--out', dist], {
      encoding: 'utf8',
      env: { ...process.env, STILLPOINT_WEB: process.env.STILLPOINT_WEB ?? join(repo, 'web/dist') },
    });
    if (built.status !== 0) throw new Error(`stillpoint build ${site} failed:\n${built.stderr}`);
    const { url: base, server } = await serve(bin, dist);
    try {
      await warm(base, dist, pagesOf(site));
      console.log(`\n${site}`);
      console.log('form     page                                     perf a11y best  seo   LCP ms  TBT ms    CLS');
      for (const formFactor of forms) {
        for (const path of pagesOf(site)) {
          const results = [];
          for (let r = 0; r < runs; r += 1) results.push(runLighthouse(base + path, formFactor, work, r));
          const m = (key) => median(results.map((result) => result[key]));
          const row = [
            formFactor.padEnd(8),
            path.padEnd(40),
            ...CATEGORIES.map((c) => String(m(c)).padStart(4)),
            String(Math.round(m('lcp'))).padStart(7),
            String(Math.round(m('tbt'))).padStart(7),
            m('cls').toFixed(3).padStart(6),
          ];
          console.log(row.join(' '));
          const failing = [...new Set(results.flatMap((result) => result.failing))];
          if (failing.length > 0) console.log(`         below 100 in some run: ${failing.join(', ')}`);
        }
      }
    } finally {
      server.kill('SIGTERM');
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
