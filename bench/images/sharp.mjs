// The anchor of bench/images.sh: sharp with one thread makes the AVIF and WebP renditions
// Stillpoint's image pipeline makes, from the same photographs at the same widths.
//
//   UV_THREADPOOL_SIZE=1 node bench/images/sharp.mjs SOURCE_DIR OUT_DIR > sharp.json
//
// For each JPEG of SOURCE_DIR (sorted by name): .rotate(), resize to each of 320/640/960/1280
// px no wider than the source (the source's own width as the widest when it is narrower),
// AVIF {quality: 50, effort: 4} and WebP {quality: 75}, written to OUT_DIR/{name}-{width}.{ext}.
// Prints JSON: wall seconds, images, renditions, bytes per format, per-image seconds.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';

// libuv reads this when its pool starts: before sharp is loaded.
process.env.UV_THREADPOOL_SIZE ??= '1';
const { default: sharp } = await import('sharp');

const WIDTHS = [320, 640, 960, 1280];
const AVIF = { quality: 50, effort: 4 };
const WEBP = { quality: 75 };

const [sourceDir, outDir] = process.argv.slice(2);
if (!sourceDir || !outDir) {
  console.error('usage: node sharp.mjs SOURCE_DIR OUT_DIR');
  process.exit(2);
}
sharp.concurrency(1);
mkdirSync(outDir, { recursive: true });

/** The rendition widths for a source `width` wide, as crates/media's `widths`. */
function widths(width) {
  const widest = Math.min(width, WIDTHS[WIDTHS.length - 1]);
  return [...WIDTHS.filter((w) => w < widest), widest];
}

const files = readdirSync(sourceDir)
  .filter((f) => /\.jpe?g$/i.test(f))
  .sort();
const bytes = { avif: 0, webp: 0 };
// Each rendition is one libvips pipeline (decode with shrink-on-load, rotate, resize, encode):
// its time, summed per format, is sharp's nearest to a breakdown.
const seconds = { avif: 0, webp: 0 };
const images = [];
let renditions = 0;
const start = process.hrtime.bigint();
for (const file of files) {
  const t0 = process.hrtime.bigint();
  const input = readFileSync(join(sourceDir, file));
  const meta = await sharp(input).metadata();
  // Orientations 5–8 swap the sides.
  const width = (meta.orientation ?? 1) >= 5 ? meta.height : meta.width;
  const name = basename(file, extname(file));
  const out = [];
  for (const w of widths(width)) {
    for (const [format, options] of [
      ['avif', AVIF],
      ['webp', WEBP],
    ]) {
      const r0 = process.hrtime.bigint();
      const { data, info } = await sharp(input)
        .rotate()
        .resize({ width: w })
        [format](options)
        .toBuffer({ resolveWithObject: true });
      const s = Number(process.hrtime.bigint() - r0) / 1e9;
      seconds[format] += s;
      writeFileSync(join(outDir, `${name}-${w}.${format}`), data);
      bytes[format] += data.length;
      renditions += 1;
      out.push({ width: info.width, height: info.height, format, bytes: data.length, seconds: s });
    }
  }
  images.push({ file, seconds: Number(process.hrtime.bigint() - t0) / 1e9, renditions: out });
}
const wall = Number(process.hrtime.bigint() - start) / 1e9;

const result = {
  tool: 'sharp',
  versions: {
    sharp: sharp.versions.sharp,
    vips: sharp.versions.vips,
    aom: sharp.versions.aom,
    webp: sharp.versions.webp,
  },
  threads: { concurrency: sharp.concurrency(), uv_threadpool_size: process.env.UV_THREADPOOL_SIZE },
  settings: { widths: WIDTHS, avif: AVIF, webp: WEBP },
  wall_seconds: wall,
  images: images.length,
  renditions,
  images_per_second: images.length / wall,
  bytes,
  seconds_by_format: seconds,
  per_image: images,
};
console.log(JSON.stringify(result, null, 2));
