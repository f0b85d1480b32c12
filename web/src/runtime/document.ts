// What the Rust-written document shell tells the client about the page it holds.

/** The `<body>` data attributes written by the builder. */
export type PageAttributes = {
  /** The template name (`componentChunkName`). */
  readonly template: string;
  /** The page's route, e.g. `/articles/body-scan`. */
  readonly path: string;
  /** Build hash: a digest of the emitted JS and CSS. */
  readonly build: string;
  /** Hash of the SiteData file, `/page-data/sq/d/{site}.json`. */
  readonly site: string;
};

/** The containers the three React roots hydrate, and the `useId` prefix of each (ids stay unique). */
export const ROOTS = {
  header: { id: 'sp-header', identifierPrefix: 'h-' },
  page: { id: 'sp-page', identifierPrefix: 'p-' },
  footer: { id: 'sp-footer', identifierPrefix: 'f-' },
} as const;

/** Reads the body's data attributes; null when the document was not written by the builder. */
export function readPageAttributes(body: HTMLElement): PageAttributes | null {
  const { template, path, build, site } = body.dataset;
  if (!template || !path || build === undefined || !site) return null;
  return { template, path, build, site };
}
