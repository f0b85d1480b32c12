#!/usr/bin/env node
// Measures the search index of a built site: its size, what typical queries download when typed
// one key at a time, and how long each keystroke takes, in Chromium.
//
//   node scripts/search-bench.mjs SITE_DIST [--queries "sleep,body scan,…"] [--json out.json] [--node-server]
//
// SITE_DIST is the output of `stillpoint build` (for instance of the 100,000-article corpus:
//   python3 bench/gen_corpus.py --articles 100000 --out /tmp/corpus100k
//   ../target/release/stillpoint build /tmp/corpus100k --out /tmp/site100k --web dist).
// The site is served with `stillpoint serve` ($STILLPOINT_BIN, default ../target/release/stillpoint),
// or with `--node-server` by a plain Node static server, and driven with $CHROMIUM (default
// /usr/bin/chromium). Sizes are given raw, gzip -9 and brotli -11:
// what a compressing host or precompressed siblings would send.
//
// Per query, from a fresh browser profile (nothing cached):
//   - typed: the search box on the home page gets the query one key at a time, each key sent once
//     the list has answered the previous one; every file fetched under /search/ is counted.
//   - key→list: the time from a key press to the last change it made to the search box's DOM,
//     per keystroke that searches and changes the list; "again": the same typing once more in the
//     same page, every file already fetched (the keystroke without the network).
//   - engine: the search client called directly in the page for each prefix, cold (files fetched
//     over loopback) and then warm (all files cached): the compute part of a keystroke.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium.mjs';

const DEFAULT_QUERIES = [
  'sleep',
  'anxiety',
  'breathing',
  'gratitude',
  'body scan',
  'yoga nidra',
  'night owls',
  'teachers',
  '5-minute',
  'meditation for sleep',
  'why rest matters',
  'meditation teachers',
  'journaling ritual nurses',
  'meditaion',
];

const args = process.argv.slice(2);
const dist = args.find((a) => !a.startsWith('--') && !isOptionValue(a));
function isOptionValue(a) {
  const i = args.indexOf(a);
  return i > 0 && args[i - 1]?.startsWith('--');
}
function option(name) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}
if (!dist) {
  console.error('usage: node scripts/search-bench.mjs SITE_DIST [--queries "a,b"] [--json out.json]');
  process.exit(2);
}
const root = resolve(dist);
const queries = option('queries')?.split(',') ?? DEFAULT_QUERIES;
const bin = process.env.STILLPOINT_BIN ?? resolve(import.meta.dirname, '../../target/release/stillpoint');

// ---- sizes ---------------------------------------------------------------------------------------

const sizes = new Map();
function size(rel) {
  let s = sizes.get(rel);
  if (!s) {
    const bytes = readFileSync(join(root, rel));
    s = {
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }).length,
    };
    sizes.set(rel, s);
  }
  return s;
}
function walk(dir, out = []) {
  for (const name of readdirSync(join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) walk(rel, out);
    else out.push(rel);
  }
  return out;
}
function sum(list) {
  const t = { files: list.length, raw: 0, gzip: 0, brotli: 0 };
  for (const rel of list) {
    const s = size(rel);
    t.raw += s.raw;
    t.gzip += s.gzip;
    t.brotli += s.brotli;
  }
  return t;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const started = Date.now();
const indexFiles = walk('search');
const kinds = {
  manifest: indexFiles.filter((f) => /\/manifest\.json$/.test(f)),
  shards: indexFiles.filter((f) => /\/k\d-\d+\.[^/]+\.bin$/.test(f)),
  chunks: indexFiles.filter((f) => /\/c\d+\.json$/.test(f)),
  pieces: indexFiles.filter((f) => /\/[0-9a-f]+\.\d+\.bin$/.test(f)),
};
const total = sum(indexFiles);
const articles = JSON.parse(readFileSync(join(root, kinds.manifest[0] ?? ''), 'utf8')).docs;
console.log(`site: ${root} (${articles} articles)`);
console.log(
  `search index: ${total.files} files, ${kb(total.raw)} raw, ${kb(total.gzip)} gzip, ${kb(total.brotli)} brotli` +
    ` (sized in ${((Date.now() - started) / 1000).toFixed(0)} s)`,
);
for (const [kind, list] of Object.entries(kinds)) {
  const t = sum(list);
  console.log(
    `  ${kind.padEnd(8)} ${String(t.files).padStart(6)} files  ${kb(t.raw).padStart(11)} raw  ${kb(t.gzip).padStart(11)} gzip  ${kb(t.brotli).padStart(11)} brotli`,
  );
}

// ---- browser -------------------------------------------------------------------------------------

/**
 * A plain static server for `--node-server`: the same files without `stillpoint serve`, for telling
 * the index's own latency from the server's (Node answers with TCP_NODELAY).
 */
function startNodeServer() {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
  const server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    if (path.includes('..')) path = '/';
    let file = join(root, path);
    try {
      if (!existsSync(file) && existsSync(`${file}.html`)) file = `${file}.html`;
      else if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const body = readFileSync(file);
      response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404);
      response.end();
    }
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${server.address().port}`, server })),
  );
}

function startServer() {
  if (args.includes('--node-server')) return startNodeServer();
  const server = spawn(bin, ['serve', root, '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((ok, fail) => {
    let log = '';
    const timer = setTimeout(() => fail(new Error(`stillpoint serve did not start:\n${log}`)), 20_000);
    server.stderr.on('data', (chunk) => {
      log += chunk.toString();
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        ok({ url: m[1], server });
      }
    });
    server.on('exit', (code) => fail(new Error(`stillpoint serve exited (${code}):\n${log}`)));
  });
}

async function freshPage(base) {
  const profile = mkdtempSync(join(tmpdir(), 'stillpoint-search-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const fetched = [];
  let inFlight = 0;
  const isSearch = (request) => new URL(request.url()).pathname.startsWith('/search/');
  page.on('request', (request) => {
    if (isSearch(request)) inFlight++;
  });
  page.on('requestfinished', (request) => {
    if (!isSearch(request)) return;
    inFlight--;
    fetched.push(new URL(request.url()).pathname.slice(1));
  });
  page.on('requestfailed', (request) => {
    if (isSearch(request)) inFlight--;
  });
  await page.goto(`${base}/`, { waitUntil: 'load' });
  return {
    page,
    fetched,
    async idle() {
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 5));
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const percentile = (list, p) => {
  if (list.length === 0) return Number.NaN;
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (n) => `${n.toFixed(1)} ms`;

/**
 * Types `text` into the search box one key at a time, waiting for the network to go quiet after
 * each. Per searching keystroke that changed the list, ms from the key event to the last change of
 * the search box's DOM; keystrokes whose answer left the list as it was are counted apart.
 */
async function typeQuery(session, text) {
  const { page } = session;
  const box = page.locator('input[role="combobox"]').first();
  await box.focus();
  const latencies = [];
  let unchanged = 0;
  for (let i = 1; i <= text.length; i++) {
    const typed = text.slice(0, i);
    await page.evaluate(() => {
      const bench = { pressed: 0, changed: undefined };
      window.__bench = bench;
      document.addEventListener('keydown', (e) => (bench.pressed = e.timeStamp), { once: true, capture: true });
      bench.observer = new MutationObserver(() => (bench.changed = performance.now()));
      bench.observer.observe(document.querySelector('search'), {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeFilter: ['aria-expanded', 'aria-selected', 'href', 'class'],
      });
    });
    await page.keyboard.type(typed.at(-1));
    const latency = await page.evaluate(
      () =>
        new Promise((done) => {
          const bench = window.__bench;
          const check = () => {
            const now = performance.now();
            if (bench.changed !== undefined && now - bench.changed > 50) {
              bench.observer.disconnect();
              done(bench.changed - bench.pressed);
            } else if (bench.changed === undefined && now - bench.pressed > 1000) {
              bench.observer.disconnect();
              done(null);
            } else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        }),
    );
    await session.idle();
    if (typed.trim().length <= 2) continue;
    if (latency === null) unchanged++;
    else latencies.push(latency);
  }
  return { latencies, unchanged };
}

/** Calls the client's `search` in the page for every prefix of `text`: cold, then warm. */
async function engine(page, clientUrl, manifestUrl, text) {
  return page.evaluate(
    async ({ clientUrl, manifestUrl, text }) => {
      const client = await import(clientUrl);
      const run = async () => {
        const out = [];
        for (let i = 3; i <= text.length; i++) {
          const t0 = performance.now();
          const hits = await client.search(manifestUrl, text.slice(0, i));
          out.push({ ms: performance.now() - t0, hits: hits.length });
        }
        return out;
      };
      const cold = await run();
      const warm = await run();
      return { cold, warm };
    },
    { clientUrl, manifestUrl, text },
  );
}

const { url: base, server } = await startServer();
const results = [];
try {
  const clientFile = readdirSync(join(root, 'assets')).find((f) => /^client-[\w-]+\.js$/.test(f));
  const manifestUrl = `/${kinds.manifest[0]}`;
  console.log(`\nper query, typed one key at a time into the search box on / (fresh profile, served by ${base}):`);
  console.log(
    `${'query'.padEnd(26)} ${'files'.padStart(5)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)} ${'brotli'.padStart(10)}  key→list p50/max     again p50/max         engine cold/warm max`,
  );
  for (const query of queries) {
    const typed = await freshPage(base);
    const { latencies, unchanged } = await typeQuery(typed, query);
    const files = [...new Set(typed.fetched)];
    // Again in the same page, every file now at hand: the keystroke without the network.
    await typed.page.locator('input[role="combobox"]').first().fill('');
    await typed.page.waitForTimeout(100);
    const again = await typeQuery(typed, query);
    await typed.close();
    const t = sum(files);

    const direct = await freshPage(base);
    const timing = clientFile ? await engine(direct.page, `/assets/${clientFile}`, manifestUrl, query) : null;
    await direct.close();
    const coldMax = timing ? Math.max(...timing.cold.map((r) => r.ms)) : Number.NaN;
    const warmMax = timing ? Math.max(...timing.warm.map((r) => r.ms)) : Number.NaN;
    const hits = timing?.warm.at(-1)?.hits ?? Number.NaN;
    results.push({
      query,
      files: t.files,
      raw: t.raw,
      gzip: t.gzip,
      brotli: t.brotli,
      latencies,
      unchanged,
      warmLatencies: again.latencies,
      timing,
      hits,
    });
    console.log(
      `${JSON.stringify(query).padEnd(26)} ${String(t.files).padStart(5)} ${kb(t.raw).padStart(10)} ${kb(t.gzip).padStart(10)} ${kb(t.brotli).padStart(10)}  ${`${ms(percentile(latencies, 50))} / ${ms(Math.max(...latencies))}`.padEnd(20)}  ${`${ms(percentile(again.latencies, 50))} / ${ms(Math.max(...again.latencies))}`.padEnd(20)}  ${ms(coldMax)} / ${ms(warmMax)}  (${hits} hits; ${unchanged} keys left the list as it was)`,
    );
  }
} finally {
  if (server.kill) server.kill('SIGTERM');
  else server.close();
}

const gz = results.map((r) => r.gzip);
const lat = results.flatMap((r) => r.latencies).filter((n) => !Number.isNaN(n));
const latWarm = results.flatMap((r) => r.warmLatencies).filter((n) => !Number.isNaN(n));
const warm = results.flatMap((r) => r.timing?.warm.map((w) => w.ms) ?? []);
console.log(
  `\ntyped queries: gzip median ${kb(percentile(gz, 50))}, max ${kb(Math.max(...gz))};` +
    ` key→list p50 ${ms(percentile(lat, 50))}, p95 ${ms(percentile(lat, 95))}, max ${ms(Math.max(...lat))};` +
    ` again (cached) p50 ${ms(percentile(latWarm, 50))}, p95 ${ms(percentile(latWarm, 95))}, max ${ms(Math.max(...latWarm))};` +
    ` engine warm p50 ${ms(percentile(warm, 50))}, max ${ms(Math.max(...warm))}`,
);
const out = option('json');
if (out)
  writeFileSync(
    out,
    `${JSON.stringify({ site: root, articles, index: { total, kinds: Object.fromEntries(Object.entries(kinds).map(([k, l]) => [k, sum(l)])) }, results }, null, 2)}\n`,
  );
