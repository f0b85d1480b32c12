// Decodes every AVIF and WebP file of the given directories to a lossless PNG beside it
// (`x.avif` → `x.avif.png`), for the quality metric (images_metric reads PNG only). The same
// decoders (libheif + aom, libwebp) serve both tools' files.
//
//   node bench/images/decode.mjs DIR...

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

let n = 0;
for (const dir of process.argv.slice(2)) {
  for (const f of readdirSync(dir).filter((f) => /\.(avif|webp)$/.test(f))) {
    await sharp(join(dir, f)).toColourspace('srgb').png({ compressionLevel: 1 }).toFile(join(dir, `${f}.png`));
    n += 1;
  }
}
console.error(`decoded ${n} files`);
