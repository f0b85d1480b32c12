// First-load budget of every template, from the Vite manifest: the entry chunk, the hydration chunk
// it loads after the first paint (React included), the template chunk and its static imports, and the CSS of all of them, each gzip-compressed
// as `gzip -c file | wc -c` does. Exits 1 when a page is over budget. Run after `npm run build`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Bytes, gzip-compressed (1 KB = 1000 bytes, the stricter reading). `beforePaint`: the entry and
 * its static imports, all the JavaScript a page loads before its first paint; `js`: everything
 * hydration loads as well (the entry's split from hydration costs about 1 KB of that; the media,
 * 1 KB more: the Picture component every page with images uses, and on articles the audio
 * player's shell and the video facades' listener, whose code loads only when used).
 */
const BUDGET = { beforePaint: 5_000, js: 73_000, css: 15_000 };
const dist = new URL('../dist/client/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const gzipped = (file) => gzipSync(readFileSync(join(dist, file)), { level: 6 }).length;

/** The chunks a key loads before it can run: itself and its static imports, transitively. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) closure(dep, seen);
  return seen;
}

const entry = 'src/entry-client.tsx';
const hydration = 'src/hydrate.tsx';
const templates = Object.keys(manifest).filter((key) => key.startsWith('src/templates/'));
const beforePaint = [...closure(entry)].reduce((sum, key) => sum + gzipped(manifest[key].file), 0);
let failed = beforePaint > BUDGET.beforePaint;
console.log(`before the first paint: js ${beforePaint} bytes${failed ? ' OVER BUDGET' : ''}`);
console.log('template'.padEnd(16), 'js bytes'.padStart(9), 'css bytes'.padStart(10));
for (const key of templates.sort()) {
  const chunks = new Set([...closure(entry), ...closure(hydration), ...closure(key)]);
  const js = new Set([...chunks].map((k) => manifest[k].file));
  const css = new Set([...chunks].flatMap((k) => manifest[k].css ?? []));
  const jsBytes = [...js].reduce((sum, file) => sum + gzipped(file), 0);
  const cssBytes = [...css].reduce((sum, file) => sum + gzipped(file), 0);
  const over = jsBytes > BUDGET.js || cssBytes > BUDGET.css;
  failed ||= over;
  const name = key.slice('src/templates/'.length, -'.tsx'.length);
  console.log(name.padEnd(16), String(jsBytes).padStart(9), String(cssBytes).padStart(10), over ? 'OVER BUDGET' : '');
}
console.log(
  `budget (gzip): before the first paint js ${BUDGET.beforePaint} bytes; first load js ${BUDGET.js} bytes, css ${BUDGET.css} bytes`,
);
process.exit(failed ? 1 : 0);
