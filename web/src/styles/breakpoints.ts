// The one definition of the layout breakpoint. The spec: "window width 576 or less" is narrow
// (the Classification menu becomes a popover with an accordion). CSS uses it as `@media (--narrow)`
// and `@media (--wide)`, expanded at build time by the plugin in vite.config.ts; TypeScript
// uses `NARROW_QUERY` with matchMedia.

export const NARROW_MAX_WIDTH = 576;

export const NARROW_QUERY = `(max-width: ${NARROW_MAX_WIDTH}px)`;

/** The exact complement of NARROW_QUERY (no gap at fractional widths). */
export const WIDE_QUERY = `not all and ${NARROW_QUERY}`;

export const customMedia: Readonly<Record<string, string>> = {
  '--narrow': NARROW_QUERY,
  '--wide': WIDE_QUERY,
};
