import type { ReactNode } from 'react';
import { escapeHtml } from '../../lib/escapeHtml';
import type { Picture as PictureData, Renditions } from '../../protocol';
import { type CardLayout, type Slot, sizesFor } from './sizes';

type Props = {
  readonly picture: PictureData;
  /** Where the image sits: gives `sizes` (./sizes.ts). */
  readonly slot: Slot;
  /** For a card: how its grid is laid out. */
  readonly layout?: CardLayout;
  /** The page's LCP image: `fetchpriority="high"`, never lazy. */
  readonly priority?: boolean;
  /** Above the fold but not the LCP image: loaded at once, at the normal priority. */
  readonly eager?: boolean;
  /** Shown beside text that says the same (a card's title, an author's name): empty alt. */
  readonly decorative?: boolean;
  readonly className?: string;
};

/**
 * What stands in for the image while it loads, under it: the dominant colour and the blurred
 * preview (sized to cover the box by global.css), so the slot is never an empty box and the page
 * never jumps (width and height are always given). The focal point is the object-position, for
 * the slots that crop (cards 16:9 and phone thumbnails 4:3, the 2:1 cover, the author circles).
 */
function placeholder({ color, preview, position }: PictureData): string | undefined {
  const declarations = [
    color && `background-color:${color}`,
    preview && `background-image:url("${preview}")`,
    position && `object-position:${position}`,
  ].filter(Boolean);
  return declarations.length > 0 ? declarations.join(';') : undefined;
}

/** The `<source>`s of a picture, in order. */
const FORMATS = [
  ['image/avif', 'avif'],
  ['image/webp', 'webp'],
] as const;

/** The srcset of one format: `/media/k-320.avif 320w,…` (the builder writes the same for body images). */
export function srcsetOf({ stem, widths }: Renditions, ext: string): string {
  return widths.map((w) => `${stem}-${w}.${ext} ${w}w`).join(',');
}

/** An attribute: ` name="value"` with the value escaped, or nothing when there is no value. */
function attribute(name: string, value: string | undefined): string {
  return value === undefined ? '' : ` ${name}="${escapeHtml(value)}"`;
}

/** The `<source>` per format of a set of renditions drawn at `sizes`. */
function sourcesOf({ stem, widths }: Renditions, sizes: string): string {
  const safe = { stem: escapeHtml(stem), widths };
  const sizesAttribute = attribute('sizes', sizes);
  let html = '';
  for (const [type, ext] of FORMATS) html += `<source type="${type}" srcset="${srcsetOf(safe, ext)}"${sizesAttribute}>`;
  return html;
}

/**
 * The sources written so far, by `sizes` and then by stem (a stem names the processed image, so
 * it also decides the widths). An article's card is shown on a dozen pages or more (its
 * listings, its topics, other articles' related cards), and a build's worker renders thousands
 * of them: their sources are written once. Bounded: a slot's memo is emptied when full.
 */
const SOURCES = new Map<string, Map<string, string>>();
const SOURCES_KEPT = 20_000;

function rememberedSourcesOf(renditions: Renditions, sizes: string): string {
  let bySizes = SOURCES.get(sizes);
  if (bySizes === undefined) {
    bySizes = new Map();
    SOURCES.set(sizes, bySizes);
  }
  let html = bySizes.get(renditions.stem);
  if (html === undefined) {
    if (bySizes.size >= SOURCES_KEPT) bySizes.clear();
    html = sourcesOf(renditions, sizes);
    bySizes.set(renditions.stem, html);
  }
  return html;
}

/** What goes inside `<picture>`: a `<source>` per format when there are renditions, then the `<img>`. */
function pictureContent(picture: PictureData, sizes: string, img: ImgOptions): string {
  const html = picture.renditions ? rememberedSourcesOf(picture.renditions, sizes) : '';
  const loading = img.priority || img.eager ? '' : ' loading="lazy"';
  const priority = img.priority ? ' fetchpriority="high"' : '';
  const alt = img.decorative ? '' : escapeHtml(picture.alt);
  return `${html}<img${attribute('class', img.className)} src="${escapeHtml(picture.src)}" width="${picture.width}" height="${picture.height}" alt="${alt}"${loading}${priority} decoding="async"${attribute('style', placeholder(picture))}>`;
}

type ImgOptions = Pick<Props, 'priority' | 'eager' | 'decorative' | 'className'>;

/**
 * An image as `<picture>`: an AVIF and a WebP `<source>` when the pipeline made renditions, then
 * the `<img>` (the original format's one file, or an SVG or a remote image as it is) with its
 * width and height.
 *
 * The picture's content is written as one string of markup rather than as elements: it is static
 * (nothing in it is interactive, and it is the same on the server and in the browser), and server
 * rendering it as four elements cost four times as much (12.5 µs against 3.3 µs a card, about a
 * second of a 10,000-article build: docs/images.md). The builder writes body images the same way
 * (render/picture.rs).
 */
export function Picture({
  picture,
  slot,
  layout,
  priority = false,
  eager = false,
  decorative = false,
  className,
}: Props): ReactNode {
  const html = pictureContent(picture, sizesFor(slot, layout), { priority, eager, decorative, className });
  // biome-ignore lint/security/noDangerouslySetInnerHtml: every value is escaped (escapeHtml).
  return <picture dangerouslySetInnerHTML={{ __html: html }} />;
}
