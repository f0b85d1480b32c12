#!/usr/bin/env node
// What queries cost against a search index on disk, counted as web/scripts/search-bench.mjs counts
// them in Chromium, without a browser or a built site: the real search client
// (web/src/search/client.ts, bundled with rolldown as the web build does) runs in Node with `fetch` reading
// ROOT/search/. Per query, from a fresh client (nothing cached): the manifest is preloaded (as the
// first focus of the box does), then the query is typed one key at a time, each prefix searched
// once the previous one has answered; every distinct file fetched counts, raw and gzip -9.
//
//   node bench/search-queries.mjs ROOT [--queries "sleep,body scan,…"] [--json out.json] [--per-key]
//
// --per-key prints, under each query, what each keystroke fetched that was not fetched before.
//
// ROOT holds search/manifest.json (a built site, or what examples/search_index.rs writes).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const here = dirname(new URL(import.meta.url).pathname);
const web = resolve(here, '../web');
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const perKey = args.includes('--per-key');
const root = args.find((a, i) => !a.startsWith('--') && !['--queries', '--json'].includes(args[i - 1] ?? ''));
if (!root) {
  console.error('usage: node bench/search-queries.mjs ROOT [--queries "a,b"] [--json out.json]');
  process.exit(2);
}

// The same queries as the browser benchmark, read from it so the two never drift apart.
const benchSource = readFileSync(join(web, 'scripts/search-bench.mjs'), 'utf8');
const listed = /const DEFAULT_QUERIES = \[([\s\S]*?)\];/.exec(benchSource)?.[1] ?? '';
const queries = option('queries')?.split(',') ?? [...listed.matchAll(/'([^']*)'/g)].map((m) => m[1]);

// The client, as the browser runs it: bundled by the web build's own bundler (rolldown).
const { build } = await import(pathToFileURL(createRequire(join(web, 'package.json')).resolve('rolldown')).href);
const out = mkdtempSync(join(tmpdir(), 'stillpoint-search-client-'));
await build({
  input: join(web, 'src/search/client.ts'),
  output: { format: 'esm', file: join(out, 'client.mjs') },
  write: true,
  logLevel: 'silent',
});
const client = await import(pathToFileURL(join(out, 'client.mjs')).href);
rmSync(out, { recursive: true, force: true });

const fetched = new Map(); // host → Set of paths
globalThis.fetch = async (url) => {
  const u = new URL(url);
  const files = fetched.get(u.host) ?? new Set();
  fetched.set(u.host, files);
  try {
    const bytes = readFileSync(join(root, decodeURIComponent(u.pathname)));
    files.add(u.pathname.slice(1));
    return new Response(bytes, { status: 200 });
  } catch {
    return new Response('', { status: 404 });
  }
};

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
const percentile = (list, p) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const docs = JSON.parse(readFileSync(join(root, 'search/manifest.json'), 'utf8')).docs;
console.log(`search index at ${resolve(root)}/search (${docs} titles); per query, typed one key at a time:`);
console.log(
  `${'query'.padEnd(26)} ${'files'.padStart(5)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)} ${'brotli'.padStart(10)} ${'hits'.padStart(5)}`,
);
const results = [];
for (const [i, query] of queries.entries()) {
  const host = `q${i}.bench`;
  const manifestUrl = `http://${host}/search/manifest.json`;
  await client.preloadIndex(manifestUrl);
  let hits = [];
  for (let k = 1; k <= query.length; k++) {
    const before = new Set(fetched.get(host) ?? []);
    hits = await client.search(manifestUrl, query.slice(0, k));
    if (perKey) {
      const kinds = {};
      for (const file of fetched.get(host) ?? []) {
        if (before.has(file)) continue;
        const kind = /\/c\d+\.json$/.test(file) ? 'chunks' : /\/k\d-/.test(file) ? 'shards' : /manifest/.test(file) ? 'manifest' : 'pieces';
        kinds[kind] ??= { files: 0, gzip: 0 };
        kinds[kind].files++;
        kinds[kind].gzip += size(file).gzip;
      }
      const parts = Object.entries(kinds).map(([kind, t]) => `${kind} ${t.files} (${kb(t.gzip)} gzip)`);
      console.log(`  ${JSON.stringify(query.slice(0, k)).padEnd(28)} ${parts.join(', ') || 'nothing'}`);
    }
  }
  const files = [...(fetched.get(host) ?? [])];
  const raw = files.reduce((t, f) => t + size(f).raw, 0);
  const gzip = files.reduce((t, f) => t + size(f).gzip, 0);
  const brotli = files.reduce((t, f) => t + size(f).brotli, 0);
  results.push({ query, files: files.length, raw, gzip, brotli, hits: hits.length });
  console.log(
    `${query.padEnd(26)} ${String(files.length).padStart(5)} ${kb(raw).padStart(10)} ${kb(gzip).padStart(10)} ${kb(brotli).padStart(10)} ${String(hits.length).padStart(5)}`,
  );
}
const summary = {};
for (const unit of ['raw', 'gzip', 'brotli']) {
  const list = results.map((r) => r[unit]);
  summary[unit] = { median: percentile(list, 50), p90: percentile(list, 90), worst: Math.max(...list) };
  const s = summary[unit];
  console.log(`${unit.padEnd(6)}: median ${kb(s.median)}, p90 ${kb(s.p90)}, worst ${kb(s.worst)}`);
}
const json = option('json');
if (json) writeFileSync(json, `${JSON.stringify({ docs, results, summary }, null, 2)}\n`);
