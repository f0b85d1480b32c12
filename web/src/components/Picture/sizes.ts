// The `sizes` of every image slot, measured in Chromium from the CSS (web/src/styles, the card
// grids, the article cover and the author monograms) at 320, 375, 576, 577, 700, 768, 1024, 1100,
// 1280 and 1440 px. The page's content box is `100vw − 2 × --page-gutter`, the gutter being
// clamp(1rem, 0.6rem + 2vw, 2rem): 96vw − 19.2px up to 1120 px, then the 74rem column (1120 px of
// content). Every `calc` below is that width split into the grid's columns, less the gaps
// (0.75rem at ≤ 576 px, 1.5rem wider) and the card's 1px borders.
//
// Measured widths of the rendered image (CSS px):
//
// | slot                      | 375   | 768   | 1280  |
// |---------------------------|-------|-------|-------|
// | card, featured/dense grid | 338.8 | 345   | 260   |  home's featured, related, "more"
// | card, default dense grid  | 104   | 345   | 260   |  a 6.5rem thumbnail on phones
// | card, default roomy grid  | 104   | 345   | 355.3 |  listings, author pages, top stories
// | cover                     | 340.8 | 718.1 | 800   |  the article column, 50rem at most
// | author (author page)      | 56    | 67.8  | 80    |  clamp(3.5rem, 2.8rem + 3vw, 5rem)
// | avatar (authors list)     | 48    | 48    | 48    |
//
// Body images are written by the builder (render/picture.rs) in the article's 56ch text column:
// 340.8 / 499 / 531 px at 375 / 768 / 1280, so `(min-width:577px) 540px,96vw`.
//
// The attributes below round each `calc` up to its `vw` term (calc(32vw - 24px) is written 32vw):
// never under the measured width, so never a blurrier rendition, and at most 24 px (about 10 %,
// at the narrowest width of a step) over it, which a srcset whose candidates are 1.2× to 2× apart
// rarely notices. They are written without optional spaces: a page of cards carries the card's
// `sizes` twice per card, and a 10,000-article site shows about 95,000 cards (docs/images.md).

/** How the cards of a grid are laid out (CardGrid): the card slot's width depends on it. */
export type CardLayout = 'featured' | 'dense' | 'roomy';

export type Slot = 'card' | 'cover' | 'author' | 'avatar';

/** Phones (≤ 576 px) show a default card as a row with a 6.5rem (104 px) thumbnail. */
const THUMBNAIL = '(max-width:576px) 104px';

/** Up to four a row (15rem columns): from 1095 px four, from 820 px three, from 533 px two. */
const FOUR_A_ROW = '(min-width:1120px) 260px,(min-width:1095px) 24vw,(min-width:820px) 32vw,(min-width:533px) 48vw';

/** Up to three a row (17rem columns): from 920 px three, from 612 px two. */
const THREE_A_ROW = '(min-width:1120px) 356px,(min-width:920px) 32vw,(min-width:612px) 48vw';

/** One column: the page's content box (calc(96vw - 21px) less the card's borders). */
const ONE_COLUMN = '96vw';

export const CARD_SIZES: Readonly<Record<CardLayout, string>> = {
  featured: `${FOUR_A_ROW},${ONE_COLUMN}`,
  dense: `${THUMBNAIL},${FOUR_A_ROW},${ONE_COLUMN}`,
  roomy: `${THUMBNAIL},${THREE_A_ROW},${ONE_COLUMN}`,
};

export const SLOT_SIZES: Readonly<Record<Exclude<Slot, 'card'>, string>> = {
  cover: '(min-width:854px) 800px,96vw',
  author: '(min-width:1174px) 80px,(min-width:374px) calc(44.8px + 3vw),56px',
  avatar: '48px',
};

/** The `sizes` attribute of an image in `slot` (for a card: in a grid laid out as `layout`). */
export function sizesFor(slot: Slot, layout: CardLayout = 'roomy'): string {
  return slot === 'card' ? CARD_SIZES[layout] : SLOT_SIZES[slot];
}
