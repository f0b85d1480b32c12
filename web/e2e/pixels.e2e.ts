// The screenshot reader the theme tests rely on: a PNG decodes to the RGB pixels it was made from,
// and the dominant colour is the one covering most of the image.
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodePng, dominantColour, parseCssRgb, parseHex, toHex } from './pixels.ts';

/** An opaque PNG of `rows` (RGB triples). */
function png(rows: number[][][]): Buffer {
  const image = new PNG({ width: rows[0]?.length ?? 0, height: rows.length });
  image.data = Buffer.from(rows.flat().flatMap((p) => [...p, 255]));
  return PNG.sync.write(image);
}

const A = [70, 60, 158];
const B = [248, 242, 234];
const C = [12, 200, 3];
const ROWS = [
  [A, B, B, C],
  [B, A, B, B],
  [B, B, C, B],
  [C, B, B, A],
  [B, B, B, B],
];

describe('decodePng', () => {
  it('reads the RGB pixels of a PNG, dropping alpha', () => {
    const image = decodePng(png(ROWS));
    expect([image.width, image.height]).toEqual([4, 5]);
    expect([...image.pixels]).toEqual(ROWS.flat(2));
  });

  it('refuses what it cannot read', () => {
    expect(() => decodePng(Buffer.from('GIF89a'))).toThrow();
  });
});

describe('colours', () => {
  it('finds the colour covering most of an image, and its share', () => {
    const { colour, share } = dominantColour(decodePng(png(ROWS)));
    expect(toHex(colour)).toBe('#f8f2ea');
    expect(share).toBeCloseTo(14 / 20);
  });

  it('parses #rrggbb and rgb()', () => {
    expect(parseHex('#463C9E')).toEqual([70, 60, 158]);
    expect(parseCssRgb('rgba(70, 60, 158, 0.5)')).toEqual([70, 60, 158]);
    expect(() => parseHex('indigo')).toThrow();
  });
});
