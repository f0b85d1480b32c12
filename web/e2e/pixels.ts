// Reading colours off Chromium's screenshots (decoded with pngjs) and the colour that covers most
// of an area, so a test can compare what is on screen with the colours a theme configures.
import { PNG } from 'pngjs';

export type Rgb = readonly [number, number, number];

export type Image = { readonly width: number; readonly height: number; readonly pixels: Uint8Array };

/** Decodes a PNG into RGB pixels (alpha is dropped: screenshots are opaque). */
export function decodePng(png: Buffer): Image {
  const { width, height, data } = PNG.sync.read(png);
  const pixels = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 3; c++) pixels[i * 3 + c] = data[i * 4 + c] ?? 0;
  }
  return { width, height, pixels };
}

/** The colour that covers the most pixels of `image`, and the share of the image it covers. */
export function dominantColour(image: Image): { readonly colour: Rgb; readonly share: number } {
  const counts = new Map<number, number>();
  const { pixels } = image;
  for (let i = 0; i < pixels.length; i += 3) {
    const key = ((pixels[i] ?? 0) << 16) | ((pixels[i + 1] ?? 0) << 8) | (pixels[i + 2] ?? 0);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [key, count] of counts) {
    if (count > bestCount) [best, bestCount] = [key, count];
  }
  return {
    colour: [(best >> 16) & 0xff, (best >> 8) & 0xff, best & 0xff],
    share: bestCount / (image.width * image.height),
  };
}

/** `#rrggbb` → [r, g, b]. */
export function parseHex(hex: string): Rgb {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [Number.parseInt(m[1] ?? '', 16), Number.parseInt(m[2] ?? '', 16), Number.parseInt(m[3] ?? '', 16)];
}

/** [r, g, b] → `#rrggbb`, for readable failures. */
export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** The largest difference of one channel between two colours. */
export function distance(a: Rgb, b: Rgb): number {
  return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
}

/** `rgb(1, 2, 3)` (what getComputedStyle returns for a colour) → [1, 2, 3]. */
export function parseCssRgb(css: string): Rgb {
  const m = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(css);
  if (!m) throw new Error(`not an rgb() colour: ${css}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}
