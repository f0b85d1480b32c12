#!/usr/bin/env node
// Draws one light, calm SVG cover per demo article (examples/demo/articles/**.md) and points the
// article's `image:` front matter at it, so no listing page shows the same picture twice.
// Deterministic: the drawing comes from a hash of the slug, the palette from the category folder,
// so running it again rewrites the same files. The motif sits in the middle square of the 1200×630
// canvas, so a square or 4:3 thumbnail crop keeps all of it.
//
//   node web/scripts/demo-covers.mjs            (from the repository root)
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '../..');
const articles = join(repo, 'examples/demo/articles');
const outDir = join(repo, 'examples/demo/static/images/covers/articles');
const W = 1200;
const H = 630;
const CX = W / 2;
const CY = H / 2;

/** Base hue of each category folder: greens, blues, violets and warm tones, all kept pale. */
const HUES = {
  'understanding-mindfulness': 140,
  'enhance-sleep-guided-meditation': 230,
  'stress-reduction-techniques': 190,
  'anxiety-management': 100,
  'focus-and-productivity': 35,
  'personal-wellness-journeys': 15,
  'resources-and-tools': 270,
};

function fnv1a(text) {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** mulberry32: a small seeded generator, so every slug always draws the same picture. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hsl = (h, s, l) => `hsl(${Math.round(((h % 360) + 360) % 360)} ${s}% ${l}%)`;
const r1 = (n) => Math.round(n * 10) / 10;

const MOTIFS = {
  /** Concentric rings, the outer one open like a brush-drawn circle. */
  rings(rnd, hue) {
    const r = 150 + rnd() * 60;
    const gap = 120 + rnd() * 160;
    return [
      `<circle cx="${CX}" cy="${CY}" r="${r1(r + 70)}" fill="none" stroke="${hsl(hue, 30, 62)}" stroke-width="22" stroke-linecap="round" stroke-dasharray="${r1(2 * Math.PI * (r + 70) - gap)} ${r1(gap)}" transform="rotate(${Math.round(rnd() * 360)} ${CX} ${CY})" opacity="0.7"/>`,
      `<circle cx="${CX}" cy="${CY}" r="${r1(r)}" fill="${hsl(hue, 35, 95)}" opacity="0.75"/>`,
      `<circle cx="${CX}" cy="${CY}" r="${r1(r * 0.45)}" fill="${hsl(hue + 20, 30, 72)}" opacity="0.65"/>`,
    ];
  },
  /** Layered hills under a low sun. */
  hills(rnd, hue) {
    const sunX = CX - 120 + rnd() * 240;
    const out = [
      `<circle cx="${r1(sunX)}" cy="${r1(190 + rnd() * 60)}" r="${r1(60 + rnd() * 40)}" fill="${hsl(hue + 40, 60, 85)}"/>`,
    ];
    for (let i = 0; i < 3; i += 1) {
      const y = 360 + i * 70 + rnd() * 30;
      const peak = y - 80 - rnd() * 60;
      const px = 150 + rnd() * 900;
      out.push(
        `<path d="M0 ${r1(y + 30 - rnd() * 60)} Q ${r1(px)} ${r1(peak - 60)} ${W} ${r1(y + 40 - rnd() * 80)} V ${H} H 0 Z" fill="${hsl(hue + i * 8, 26, 80 - i * 6)}" opacity="0.85"/>`,
      );
    }
    return out;
  },
  /** Soft horizontal waves. */
  waves(rnd, hue) {
    const out = [];
    for (let i = 0; i < 5; i += 1) {
      const y = 170 + i * 70;
      const a = 25 + rnd() * 35;
      const phase = rnd() * 300;
      const x0 = -100 - phase;
      out.push(
        `<path d="M ${r1(x0)} ${y} Q ${r1(x0 + 150)} ${r1(y - a)} ${r1(x0 + 300)} ${y} T ${r1(x0 + 600)} ${y} T ${r1(x0 + 900)} ${y} T ${r1(x0 + 1200)} ${y} T ${r1(x0 + 1500)} ${y} T ${r1(x0 + 1800)} ${y}" fill="none" stroke="${hsl(hue + i * 6, 32, 72 - i * 3)}" stroke-width="${12 + i * 2}" stroke-linecap="round" opacity="0.75"/>`,
      );
    }
    return out;
  },
  /** A stack of balanced stones. */
  stones(rnd, hue) {
    const out = [];
    let y = 470;
    for (let i = 0; i < 4; i += 1) {
      const rx = 150 - i * 28 + rnd() * 20;
      const ry = 42 - i * 4 + rnd() * 8;
      const x = CX + (rnd() - 0.5) * 30;
      out.push(
        `<ellipse cx="${r1(x)}" cy="${r1(y)}" rx="${r1(rx)}" ry="${r1(ry)}" fill="${hsl(hue + i * 10, 18, 70 - i * 5)}"/>`,
      );
      y -= ry * 2 - 4;
    }
    out.push(`<ellipse cx="${CX}" cy="500" rx="260" ry="22" fill="${hsl(hue, 20, 80)}" opacity="0.6"/>`);
    return out;
  },
  /** Petals opening around a centre. */
  petals(rnd, hue) {
    const n = 6 + Math.floor(rnd() * 5);
    const len = 150 + rnd() * 50;
    const out = [];
    for (let i = 0; i < n; i += 1) {
      const angle = (360 / n) * i + rnd() * 8;
      out.push(
        `<ellipse cx="${CX}" cy="${r1(CY - len / 2)}" rx="${r1(36 + rnd() * 14)}" ry="${r1(len / 2)}" fill="${hsl(hue + i * 4, 40, 78)}" opacity="0.7" transform="rotate(${r1(angle)} ${CX} ${CY})"/>`,
      );
    }
    out.push(`<circle cx="${CX}" cy="${CY}" r="40" fill="${hsl(hue + 50, 55, 80)}"/>`);
    return out;
  },
  /** A crescent moon among a few stars. */
  moon(rnd, hue) {
    const r = 120 + rnd() * 40;
    const out = [
      `<circle cx="${CX}" cy="${CY}" r="${r1(r)}" fill="${hsl(hue + 30, 50, 92)}"/>`,
      `<circle cx="${r1(CX + r * 0.45)}" cy="${r1(CY - r * 0.25)}" r="${r1(r * 0.9)}" fill="${hsl(hue, 30, 80)}"/>`,
    ];
    for (let i = 0; i < 7; i += 1) {
      const x = CX - 300 + rnd() * 600;
      const y = 80 + rnd() * 470;
      if (Math.hypot(x - CX, y - CY) < r + 30) continue;
      out.push(`<circle cx="${r1(x)}" cy="${r1(y)}" r="${r1(4 + rnd() * 6)}" fill="${hsl(hue + 30, 50, 95)}"/>`);
    }
    return out;
  },
};

function cover(slug, category) {
  const rnd = random(fnv1a(slug));
  const hue = (HUES[category] ?? 160) + (rnd() - 0.5) * 40;
  const names = Object.keys(MOTIFS);
  const motif = names[fnv1a(`${slug}/motif`) % names.length];
  const id = `g-${slug}`;
  const shapes = MOTIFS[motif](rnd, hue);
  // A few faint dots at the far edges: pleasant on the wide cover, harmless when cropped away.
  for (let i = 0; i < 3; i += 1) {
    const x = rnd() < 0.5 ? 60 + rnd() * 200 : W - 60 - rnd() * 200;
    shapes.unshift(
      `<circle cx="${r1(x)}" cy="${r1(80 + rnd() * 470)}" r="${r1(20 + rnd() * 50)}" fill="${hsl(hue, 30, 90)}" opacity="0.6"/>`,
    );
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">`,
    `  <defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hsl(hue, 40, 95)}"/><stop offset="1" stop-color="${hsl(hue + 25, 32, 84)}"/></linearGradient></defs>`,
    `  <rect width="${W}" height="${H}" fill="url(#${id})"/>`,
    ...shapes.map((s) => `  ${s}`),
    '</svg>',
    '',
  ].join('\n');
}

mkdirSync(outDir, { recursive: true });
let count = 0;
for (const category of readdirSync(articles).sort()) {
  for (const file of readdirSync(join(articles, category)).sort()) {
    if (!file.endsWith('.md')) continue;
    const path = join(articles, category, file);
    const text = readFileSync(path, 'utf8');
    const slug = /^slug:\s*"?([^"\n]+)"?\s*$/m.exec(text)?.[1]?.trim() ?? file.replace(/\.md$/, '');
    writeFileSync(join(outDir, `${slug}.svg`), cover(slug, category));
    const image = `image: /images/covers/articles/${slug}.svg`;
    const updated = /^image:.*$/m.test(text)
      ? text.replace(/^image:.*$/m, image)
      : text.replace(/^---\n/, `---\n${image}\n`);
    if (updated !== text) writeFileSync(path, updated);
    count += 1;
  }
}
console.log(`Drew ${count} covers in ${outDir}`);
