#!/usr/bin/env node
// Edit-to-screen latency of `stillpoint dev`: the time from writing an article's Markdown file
// (a temporary renamed over it, as editors save) to the edit being in the DOM of a Chromium tab
// that has the article open. `--edit body` (the default) appends a sentence to the body, the
// authoring loop; `--edit title` retitles the article, which also changes every listing that
// shows it. Reports the median (and spread) of N edits, when the tab was told of the rebuild (the
// server's part of an edit), and the dev server's peak memory (its own and its render workers').
//
//   node bench/dev-latency.mjs SITE [--edits 20] [--edit body|title] [--bin target/release/stillpoint]
//                                   [--article articles/x.md] [--chromium /usr/bin/chromium]
//                                   [--uncovered] [--log FILE] [--results DIR]
//
// `--uncovered` compares, in one session, an article with a cover and one without: the copy's
// next article with a cover loses it (`image`, `image_alt`), each article is open in its own tab,
// and the edits alternate between the two (N each), so both are measured in the same sitting, on
// the same site and the same machine load. The figures are given for each.
//
// The first edit is reported on its own (`first_ms`): it may wait for what `dev` does once after
// its first build (filling the output's second generation, when it has not been idle long enough
// to do it). The median and p90 are over the edits after it. `--results DIR` also writes the
// figures there, as `dev-{site}-{edit}-{stamp}.json` and a Markdown table beside it.
//
// SITE is copied to a temporary directory first (it is never modified). The times are taken
// on one clock: Node's and the page's `performance.timeOrigin + performance.now()`.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CHROMIUM_ARGS } from '../web/scripts/chromium.mjs';

const repo = resolve(import.meta.dirname, '..');
const { chromium } = createRequire(join(repo, 'web/package.json'))('playwright-core');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    edits: { type: 'string', default: '20' },
    edit: { type: 'string', default: 'body' },
    bin: { type: 'string', default: join(repo, 'target/release/stillpoint') },
    article: { type: 'string' },
    chromium: { type: 'string', default: process.env.CHROMIUM ?? '/usr/bin/chromium' },
    log: { type: 'string' },
    results: { type: 'string' },
    uncovered: { type: 'boolean', default: false },
  },
});
if (positionals.length !== 1) {
  console.error('usage: node bench/dev-latency.mjs SITE [--edits N] [--bin PATH] [--article REL] [--chromium PATH]');
  process.exit(2);
}
const edits = Number(values.edits);
if (!['body', 'title'].includes(values.edit)) {
  console.error('--edit is body or title');
  process.exit(2);
}

/** Peak resident memory (VmHWM, KiB) of a process and of its children, from /proc. */
function peakKiB(pid) {
  const hwm = (p) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean);
  } catch {}
  return { own: hwm(pid), workers: children.map(hwm).reduce((a, b) => a + b, 0) };
}
const now = () => performance.timeOrigin + performance.now();

function* markdownFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* markdownFiles(path);
    else if (entry.name.endsWith('.md')) yield path;
  }
}

/** An article the bench can edit: its file, route and whether it has a cover; null if it is none. */
function articleOf(file) {
  const text = readFileSync(file, 'utf8');
  if (!text.startsWith('---') || !/^title:.*$/m.test(text)) return null;
  const slug = /^slug:\s*["']?([^"'\s]+)/m.exec(text)?.[1] ?? basename(file, '.md');
  return { file, route: `/articles/${slug}`, covered: /^image:/m.test(text) };
}

/**
 * The articles to edit: `--article` (else the first one), and with `--uncovered` the next article
 * with a cover, whose cover the copy loses. With `--uncovered` the first must have a cover too.
 */
function pickArticles(site) {
  const chosen = values.article ? join(site, values.article) : null;
  const files = function* () {
    if (chosen) yield chosen;
    yield* markdownFiles(join(site, 'articles'));
  };
  const wanted = values.uncovered ? 2 : 1;
  const picked = [];
  for (const file of files()) {
    if (picked.length === wanted) break;
    if (picked.some((a) => a.file === file)) continue;
    const article = articleOf(file);
    if (article && (!values.uncovered || article.covered)) picked.push(article);
    else if (file === chosen) throw new Error(`${values.article}: not an article${values.uncovered ? ' with a cover' : ''}`);
  }
  if (picked.length < wanted) {
    throw new Error(`${site}/articles has no ${values.uncovered ? 'two articles with covers' : 'article with a title'}`);
  }
  if (values.uncovered) {
    const bare = picked[1];
    writeFileSync(bare.file, readFileSync(bare.file, 'utf8').replace(/^image(_[a-z]+)?:.*\n/gm, ''));
    bare.covered = false;
  }
  return picked;
}

function startDev(site) {
  const child = spawn(values.bin, ['dev', site, '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const builds = [];
  let log = '';
  const ready = new Promise((ok, fail) => {
    child.stderr.on('data', (chunk) => {
      log += chunk.toString();
      for (const m of chunk.toString().matchAll(/build \d+: .* in ([\d.]+) s/g)) builds.push(Number(m[1]));
      const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(log)?.[1];
      if (url) ok(url);
    });
    child.on('exit', (code) => fail(new Error(`stillpoint dev exited (${code}):\n${log}`)));
  });
  return { child, ready, builds, log: () => log };
}

/** Opens an article in a tab of its own, once the page is hydrated and connected to `dev`. */
async function openTab(context, url) {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(
    () => document.documentElement.dataset.navigation === 'ready' && document.documentElement.dataset.stillpointDev === 'connected',
    null,
    { timeout: 60_000 },
  );
  // A second listener to the dev server's events: when the tab is told of each rebuild, which
  // splits an edit's time into the server's (save → told) and the tab's (told → on screen).
  await page.evaluate(() => {
    window.__told = [];
    const events = new EventSource('/__stillpoint/events');
    events.addEventListener('message', (message) => {
      if (JSON.parse(message.data).type === 'rebuilt') window.__told.push(performance.timeOrigin + performance.now());
    });
    return new Promise((ok) => events.addEventListener('open', ok, { once: true }));
  });
  return page;
}

/** Edit `i` of a tab's article: the time from the save to the edit in its DOM, and to the tab being told. */
async function measureEdit(tab, i) {
  const { page, article } = tab;
  await page.bringToFront();
  const probe = `Latency probe ${i} ${Date.now()}`;
  // In the page: the time the edit first shows (the h1, or anywhere in the page for a body edit).
  const seen = page.evaluate(
    ([expected, where]) =>
      new Promise((ok) => {
        const check = () => {
          const shown =
            where === 'title'
              ? document.querySelector('#sp-page h1')?.textContent === expected
              : document.querySelector('#sp-page')?.textContent.includes(expected);
          if (shown) {
            observer.disconnect();
            ok(performance.timeOrigin + performance.now());
            return true;
          }
          return false;
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        check();
      }),
    [probe, values.edit],
  );
  await new Promise((r) => setTimeout(r, 50)); // the observer is installed
  const old = readFileSync(article.file, 'utf8');
  const text = values.edit === 'title' ? old.replace(/^title:.*$/m, `title: "${probe}"`) : `${old}\n${probe}.\n`;
  const tmp = `${article.file}.tmp`;
  const written = now();
  writeFileSync(tmp, text);
  renameSync(tmp, article.file);
  const shown = await Promise.race([
    seen,
    new Promise((_, fail) => setTimeout(() => fail(new Error(`edit ${i}: the ${values.edit} edit did not appear in 60 s`)), 60_000)),
  ]);
  tab.samples.push(shown - written);
  const told = (await page.evaluate(() => window.__told.splice(0))).filter((t) => t > written);
  if (told.length > 0) tab.toldAfter.push(told[told.length - 1] - written);
  await new Promise((r) => setTimeout(r, 300));
}

/** A tab's figures: the first edit apart, the median and spread of the others. */
function figures(tab) {
  const { samples, toldAfter } = tab;
  const steady = samples.length > 1 ? samples.slice(1) : samples;
  const sorted = [...steady].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const toldSorted = [...toldAfter].sort((a, b) => a - b);
  return {
    article: relative(site, tab.article.file),
    cover: tab.article.covered,
    first_ms: Math.round(samples[0]),
    median_ms: Math.round(at(0.5)),
    p90_ms: Math.round(at(0.9)),
    min_ms: Math.round(sorted[0]),
    max_ms: Math.round(sorted[sorted.length - 1]),
    median_told_ms: toldSorted.length ? Math.round(toldSorted[Math.floor(toldSorted.length / 2)]) : null,
    steady: steady.length,
  };
}

const work = mkdtempSync(join(tmpdir(), 'stillpoint-dev-latency-'));
const site = join(work, 'site');
cpSync(resolve(positionals[0]), site, { recursive: true, filter: (src) => !src.includes('/.stillpoint') });
const articles = pickArticles(site);
const dev = startDev(site);
const profile = join(work, 'profile');
let context;
try {
  const base = await dev.ready;
  context = await chromium.launchPersistentContext(profile, {
    executablePath: values.chromium,
    headless: true,
    // Each tab is brought to the front before its edit; none is slowed for having been behind.
    args: [...CHROMIUM_ARGS, '--disable-renderer-backgrounding', '--disable-background-timer-throttling'],
  });
  const tabs = [];
  for (const article of articles) tabs.push({ article, page: await openTab(context, base + article.route), samples: [], toldAfter: [] });
  const initialBuilds = dev.builds.length;
  // With two articles the edits alternate, so each is measured across the whole sitting.
  for (let i = 1; i <= edits; i++) for (const tab of tabs) await measureEdit(tab, i);
  const builds = dev.builds.slice(initialBuilds).sort((a, b) => a - b);
  const peak = peakKiB(dev.child.pid);
  const session = {
    site: relative(process.cwd(), resolve(positionals[0])) || '.',
    edit: values.edit,
    edits,
    rebuilds: builds.length,
    median_build_s: builds.length ? builds[Math.floor(builds.length / 2)] : null,
    peak_mib: Math.round(peak.own / 1024),
    peak_workers_mib: Math.round(peak.workers / 1024),
  };
  const each = tabs.map(figures);
  for (const f of each) {
    console.log(
      `${values.edit} edit → DOM: median ${f.median_ms} ms, p90 ${f.p90_ms} ms, min ${f.min_ms} ms, max ${f.max_ms} ms ` +
        `(the tab told of the rebuild after a median ${f.median_told_ms} ms) ` +
        `over the ${f.steady} edits after the first (${f.first_ms} ms) of ${f.article}` +
        `${values.uncovered ? (f.cover ? ' (with its cover)' : ' (its cover taken out)') : ''} ` +
        `(${session.rebuilds} rebuilds, median build ${session.median_build_s} s; ` +
        `peak memory ${session.peak_mib} MiB + ${session.peak_workers_mib} MiB of render workers)`,
    );
  }
  // One article: the figures as they always were; two: each article's beside the session's.
  const { steady, cover, ...first } = each[0];
  const result = values.uncovered ? { ...session, articles: each } : { ...session, ...first };
  console.log(JSON.stringify(result));
  if (values.results) {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
    const kind = values.uncovered ? `${values.edit}-uncovered` : values.edit;
    const name = `dev-${basename(resolve(positionals[0]))}-${kind}-${stamp}`;
    mkdirSync(values.results, { recursive: true });
    writeFileSync(join(values.results, `${name}.json`), `${JSON.stringify(result, null, 1)}\n`);
    const per = (label, value) => [label, ...each.map(value)];
    const rows = [
      per('article', (f) => `${f.article}${values.uncovered ? (f.cover ? ' (cover)' : ' (no cover)') : ''}`),
      per('edits', () => edits),
      per('first edit → DOM', (f) => `${f.first_ms} ms`),
      per('median edit → DOM (after the first)', (f) => `${f.median_ms} ms`),
      per('p90', (f) => `${f.p90_ms} ms`),
      per('min / max', (f) => `${f.min_ms} / ${f.max_ms} ms`),
      per('tab told of the rebuild (median)', (f) => `${f.median_told_ms} ms`),
    ];
    const table = [
      `| ${values.edit} edit, ${session.site} |${each.map(() => ' |').join('')}`,
      `|---|${each.map(() => '---|').join('')}`,
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      `| median rebuild | ${session.median_build_s} s${each.slice(1).map(() => ' |').join('')} |`,
      `| peak memory | ${session.peak_mib} MiB + ${session.peak_workers_mib} MiB of render workers${each.slice(1).map(() => ' |').join('')} |`,
    ].join('\n');
    writeFileSync(join(values.results, `${name}.md`), `${table}\n`);
    console.log(`figures: ${join(values.results, name)}.{json,md}`);
  }
} finally {
  await context?.close();
  // Stopped, it saves its build cache into the site copy: wait for it before removing that.
  const exited = new Promise((ok) => (dev.child.exitCode === null ? dev.child.once('exit', ok) : ok()));
  dev.child.kill('SIGINT');
  await exited;
  // The dev server's terminal output (with STILLPOINT_LOG=stillpoint_site=debug, where each rebuild's time goes).
  if (values.log) writeFileSync(values.log, dev.log());
  rmSync(work, { recursive: true, force: true });
}
