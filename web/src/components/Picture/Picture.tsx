import type { CSSProperties, ReactNode } from 'react';
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
function placeholder({ color, preview, position }: PictureData): CSSProperties | undefined {
  if (!color && !preview && !position) return undefined;
  return {
    backgroundColor: color ?? undefined,
    backgroundImage: preview ? `url("${preview}")` : undefined,
    objectPosition: position ?? undefined,
  };
}

/** The `<source>`s of a picture, in order. */
const FORMATS = [
  ['image/avif', 'avif'],
  ['image/webp', 'webp'],
] as const;

/** The srcset of one format: `/media/k-320.avif 320w, …` (the builder writes the same for body images). */
export function srcsetOf({ stem, widths }: Renditions, ext: string): string {
  return widths.map((w) => `${stem}-${w}.${ext} ${w}w`).join(', ');
}

/**
 * An image of the pipeline as `<picture>`: an AVIF and a WebP `<source>`, then the `<img>` with
 * the original format's one file as the fallback. An SVG or a remote image (no renditions) is a
 * plain `<img>` with its width and height.
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
  const img = (
    <img
      className={className}
      src={picture.src}
      width={picture.width}
      height={picture.height}
      alt={decorative ? '' : picture.alt}
      loading={priority || eager ? undefined : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      style={placeholder(picture)}
    />
  );
  const renditions = picture.renditions;
  if (!renditions) return img;
  const sizes = sizesFor(slot, layout);
  return (
    <picture>
      {FORMATS.map(([type, ext]) => (
        <source key={type} type={type} srcSet={srcsetOf(renditions, ext)} sizes={sizes} />
      ))}
      {img}
    </picture>
  );
}
