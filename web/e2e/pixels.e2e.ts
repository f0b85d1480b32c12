// The screenshot reader the theme tests rely on: a PNG written here with every row filter decodes
// to the pixels it was made from, and the dominant colour is the one covering most of the image.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodePng, dominantColour, parseCssRgb, parseHex, toHex } from './pixels.ts';

/** A PNG of `rows` (RGB triples), each row written with filter `filters[y]` (0–4). */
function png(rows: number[][][], filters: number[], colourType = 2): Buffer {
  const width = rows[0]?.length ?? 0;
  const channels = colourType === 6 ? 4 : 3;
  const raw: number[] = [];
  const flat = rows.map((row) => row.flatMap((p) => (channels === 4 ? [...p, 255] : p)));
  flat.forEach((line, y) => {
    const filter = filters[y] ?? 0;
    raw.push(filter);
    line.forEach((value, x) => {
      const left = x >= channels ? (line[x - channels] ?? 0) : 0;
      const up = y > 0 ? (flat[y - 1]?.[x] ?? 0) : 0;
      const upLeft = y > 0 && x >= channels ? (flat[y - 1]?.[x - channels] ?? 0) : 0;
      const p = left + up - upLeft;
      const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
      const paeth = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      const predicted = [0, left, up, (left + up) >> 1, paeth][filter] ?? 0;
      raw.push((value - predicted) & 0xff);
    });
  });
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data, Buffer.alloc(4)]); // the CRC is not checked
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(rows.length, 4);
  ihdr.set([8, colourType, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from(raw))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
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
  it.each([2, 6])('reads every row filter (colour type %i)', (colourType) => {
    const image = decodePng(png(ROWS, [0, 1, 2, 3, 4], colourType));
    expect([image.width, image.height]).toEqual([4, 5]);
    expect([...image.pixels]).toEqual(ROWS.flat(2));
  });

  it('refuses what it cannot read', () => {
    expect(() => decodePng(Buffer.from('GIF89a'))).toThrow(/not a PNG/);
  });
});

describe('colours', () => {
  it('finds the colour covering most of an image, and its share', () => {
    const { colour, share } = dominantColour(decodePng(png(ROWS, [4, 4, 4, 4, 4])));
    expect(toHex(colour)).toBe('#f8f2ea');
    expect(share).toBeCloseTo(14 / 20);
  });

  it('parses #rrggbb and rgb()', () => {
    expect(parseHex('#463C9E')).toEqual([70, 60, 158]);
    expect(parseCssRgb('rgba(70, 60, 158, 0.5)')).toEqual([70, 60, 158]);
    expect(() => parseHex('indigo')).toThrow();
  });
});
