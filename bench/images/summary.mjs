// The Markdown summary of bench/images.sh from the JSON files of its OUT directory:
// sharp.json, ours.json, curve-s{N}.json, match-q{Q}.json and metric.json.
//
//   node bench/images/summary.mjs OUT

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';

const out = process.argv[2];
const read = (f) => JSON.parse(readFileSync(join(out, f), 'utf8'));
const sharp = read('sharp.json');
const ours = read('ours.json');
const metric = new Map(read('metric.json').map((m) => [resolve(m.dir), m]));
const scoreOf = (dir, format) => metric.get(resolve(out, dir))?.formats?.[format];
const runs = (prefix) =>
  readdirSync(out)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.json'))
    .map((f) => ({ dir: f.slice(0, -5), ...read(f) }));

const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const f3 = (x) => x.toFixed(3);
const kb = (b) => `${Math.round(b / 1024).toLocaleString('en')} KiB`;
const pct = (x, total) => `${Math.round((100 * x) / total)} %`;
const score = (s) => (s ? `${f1(s.mean)} (min ${f1(s.min)})` : '—');

const lines = [];
const p = (s = '') => lines.push(s);
const ratio = ours.images_per_second / sharp.images_per_second;
const o = ours.settings;

p(`## Image pipeline against sharp (${new Date().toISOString().slice(0, 10)})`);
p();
p(`${cpus()[0]?.model ?? 'CPU'}, one thread each, same run. ${sharp.images} JPEG photographs`);
p(`(mate-backgrounds nature/), ${sharp.renditions} renditions each: widths 320/640/960/1280 × AVIF + WebP.`);
p(`sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}, aom ${sharp.versions.aom}, libwebp`);
p(`${sharp.versions.webp}; concurrency ${sharp.threads.concurrency}, UV_THREADPOOL_SIZE=${sharp.threads.uv_threadpool_size}):`);
p(`AVIF quality ${sharp.settings.avif.quality} effort ${sharp.settings.avif.effort}, WebP quality ${sharp.settings.webp.quality}.`);
p(`Stillpoint (crates/media, images_bench): AVIF quality ${o.avif_quality} speed ${o.avif_speed} (ravif/rav1e),`);
p(`WebP quality ${o.webp_quality} method ${o.webp_method}.`);
p();
p('### Throughput');
p();
p('| | wall | images/s | renditions/s |');
p('| --- | ---: | ---: | ---: |');
for (const [name, r] of [
  ['sharp', sharp],
  ['Stillpoint', ours],
]) {
  p(`| ${name} | ${f1(r.wall_seconds)} s | ${f3(r.images_per_second)} | ${f2(r.renditions / r.wall_seconds)} |`);
}
p();
p(`Stillpoint / sharp: **${f2(ratio)}×** the images per second.`);
p();
p('### Where the time goes');
p();
const t = ours.timings;
p('| Stillpoint | seconds | share |');
p('| --- | ---: | ---: |');
for (const k of ['decode', 'resize', 'avif', 'webp', 'other']) {
  const label = { decode: 'decode + orient', resize: 'resize (cascade)', avif: 'AVIF', webp: 'WebP', other: 'file I/O, rest' }[k];
  p(`| ${label} | ${f2(t[k])} | ${pct(t[k], ours.wall_seconds)} |`);
}
p();
const ss = sharp.seconds_by_format;
p('sharp runs one libvips pipeline per rendition (JPEG decode with shrink-on-load, rotate,');
p(`resize and encode fused): the AVIF pipelines took ${f1(ss.avif)} s (${pct(ss.avif, sharp.wall_seconds)}),`);
p(`the WebP ones ${f1(ss.webp)} s (${pct(ss.webp, sharp.wall_seconds)}).`);
p();
p('### Size and quality');
p();
p('SSIMULACRA2 (crate `ssimulacra2` 0.5; 100 = identical, ≥ 70 "high quality") of every rendition');
p('against the same lossless reference: the source decoded, oriented and resized straight to the');
p("rendition's size with Lanczos3 by Stillpoint's resizer. All renditions decoded by sharp (libheif +");
p("aom, libwebp). Mean over the 48 renditions of a format (lowest in brackets).");
p();
p('| format | tool | bytes | SSIMULACRA2 |');
p('| --- | --- | ---: | ---: |');
for (const format of ['avif', 'webp']) {
  p(`| ${format.toUpperCase()} | sharp | ${kb(sharp.bytes[format])} | ${score(scoreOf('sharp', format))} |`);
  p(`| ${format.toUpperCase()} | Stillpoint | ${kb(ours.bytes[format])} | ${score(scoreOf('ours', format))} |`);
}
p();
const curve = runs('curve-s').sort((a, b) => a.settings.avif_speed - b.settings.avif_speed);
if (curve.length) {
  p(`### AVIF speed curve (Stillpoint, quality ${curve[0].settings.avif_quality}, AVIF only)`);
  p();
  p('| speed | AVIF time | images/s (AVIF only) | bytes | SSIMULACRA2 |');
  p('| ---: | ---: | ---: | ---: | ---: |');
  for (const r of curve) {
    p(`| ${r.settings.avif_speed} | ${f1(r.timings.avif)} s | ${f3(r.images_per_second)} | ${kb(r.bytes.avif)} | ${score(scoreOf(r.dir, 'avif'))} |`);
  }
  p();
}
const match = runs('match-q').sort((a, b) => a.settings.avif_quality - b.settings.avif_quality);
if (match.length) {
  const s = scoreOf('sharp', 'avif');
  p(`### AVIF quality against sharp's score (Stillpoint, speed ${match[0].settings.avif_speed})`);
  p();
  p('| quality | AVIF time | bytes | SSIMULACRA2 |');
  p('| ---: | ---: | ---: | ---: |');
  p(`| sharp q${sharp.settings.avif.quality} e${sharp.settings.avif.effort} | ${f1(ss.avif)} s¹ | ${kb(sharp.bytes.avif)} | ${score(s)} |`);
  p(`| ${o.avif_quality} | ${f1(ours.timings.avif)} s | ${kb(ours.bytes.avif)} | ${score(scoreOf('ours', 'avif'))} |`);
  for (const r of match) {
    p(`| ${r.settings.avif_quality} | ${f1(r.timings.avif)} s | ${kb(r.bytes.avif)} | ${score(scoreOf(r.dir, 'avif'))} |`);
  }
  p();
  p("¹ sharp's AVIF pipelines, decode and resize included.");
  p();
}
if (!existsSync(join(out, 'metric.json'))) p('(no metric)');
console.log(lines.join('\n'));
