// The JSON that crosses from the Rust builder to the Node SSR worker, and from the built site to
// the browser (page-data). It mirrors `crates/site/src/props.rs` (props) and
// `crates/site/src/protocol.rs` (the envelopes) field for field. The Rust tests write one sample of
// every envelope, and the URLs of the output layout, to `protocol.samples.json` (and fail when it is
// stale); `protocol.samples.test.ts` reads them with the runtime's parsers and the worker's handler.
//
// Everything here is plain data, already decided by the builder: labels are normalised, dates
// are formatted, URLs are absolute paths, HTML strings are sanitised (raw HTML in Markdown is kept
// as written only when the site sets `[markdown] unsafe_html = true`). Components only arrange it.

/** A labelled internal or external link. `href` is an absolute path (`/authors`) or a full URL. */
export type Link = { readonly label: string; readonly href: string };

/** A node of the topic tree as the menu, footer and sitemap need it. */
export type TopicNode = {
  readonly key: string;
  readonly slug: string;
  /** Title with its emoji, as written in data/topics.toml. */
  readonly title: string;
  readonly description: string;
  /** `/{categorySlug}` or `/{categorySlug}/{subcategorySlug}`. */
  readonly href: string;
  /** Children in file order; empty for leaves (subcategories). */
  readonly children: readonly TopicNode[];
};

/** A network of `[site.social]`; `icon` is a known network's key (`youtube`, `rss`, …) or `link`. */
export type SocialLink = { readonly label: string; readonly href: string; readonly icon: string };

/** Site-wide data: shipped once per build as `/page-data/sq/d/{hash}.json` and used by the slices. */
export type SiteData = {
  readonly id: string;
  /** `site.title`; every page title ends with ` | {brand}`. */
  readonly brand: string;
  /** Canonical origin without a trailing slash. */
  readonly url: string;
  readonly description: string;
  /** `/icons/{id}-logo-small.png`. */
  readonly logo: string;
  readonly contactEmail: string;
  /** `[site.social]` in file order; empty: no Contacts column. */
  readonly social: readonly SocialLink[];
  /** `[footer]`: column headings, the Info column's links and the copyright line (year and brand filled in). */
  readonly footer: {
    readonly titles: {
      readonly categories: string;
      readonly info: string;
      readonly contacts: string;
      readonly mail: string;
    };
    readonly links: readonly Link[];
    readonly copyright: string;
  };
  /** `[header] links`: extra links beside the menu (usually none). */
  readonly headerLinks: readonly Link[];
  /** The whole topic tree (categories with their subcategories), in file order. */
  readonly categories: readonly TopicNode[];
  /** Copyright year for the footer. */
  readonly year: number;
  /** URL of the search manifest (content-hashed); loaded on first focus of the search box. */
  readonly searchManifest: string;
  /** Empty-state image for a search with no match (`/images/search-empty.svg` when the site has one). */
  readonly searchEmptyImage: string | null;
};

/**
 * A processed image, ready for a `<picture>` (components/Picture). Raster images come from the
 * builder's image pipeline (AVIF and WebP renditions at widths no larger than the source, the
 * original format as the one fallback file); an SVG of the site or a remote `https://` image has
 * no `renditions`, and is shown as a plain `<img>`.
 */
export type Picture = {
  /** Fallback URL: the original-format rendition (largest ≤ 1280 px) | the SVG's path | the https URL. */
  readonly src: string;
  /** Intrinsic size, oriented (a remote https image: the slot's default, 1200×675). */
  readonly width: number;
  readonly height: number;
  readonly alt: string;
  /** The AVIF and WebP renditions, `{stem}-{width}.avif|webp` at each width; null for SVG and https images. */
  readonly renditions: Renditions | null;
  /** Dominant colour `#rrggbb`, shown under the image while it loads. */
  readonly color: string | null;
  /** A tiny blurred preview (`data:image/webp;base64,…`), shown under the image while it loads; absent on cards. */
  readonly preview?: string;
  /** Focal point `"30% 60%"` (`image_focus`), the object-position where a slot crops; absent when none. */
  readonly position?: string;
};

/** An image's renditions: pages carry the stem and the widths, and build the srcsets. */
export type Renditions = {
  /** `/media/{key}`. */
  readonly stem: string;
  /** Ascending. */
  readonly widths: readonly number[];
};

/** A guided-meditation recording (`audio:` in the front matter), a file of the site. */
export type Recording = {
  /** `/media/…` URL of the file. */
  readonly src: string;
  /** MIME type: `audio/mp4` (AAC in .m4a), `audio/mpeg`, `audio/ogg; codecs=opus`… */
  readonly type: string;
  /** Duration read from the file at build time. */
  readonly seconds: number;
};

export type ArticleCard = {
  /** `/articles/{slug}`: also the card's key. */
  readonly href: string;
  readonly title: string;
  /** Empty on related-article cards, which are a short list of titles. */
  readonly description: string;
  /** ISO date `YYYY-MM-DD`; shown as `March 2, 2025` (lib/dateLabel.ts). */
  readonly date: string;
  readonly author: Link | null;
  /** Cover image, or null. Cards show it decoratively (its alt is empty: the title beside it says what it is), with its colour, not its preview, while it loads. */
  readonly image: Picture | null;
  readonly readingMinutes: number;
  /**
   * Length of the article's guided-meditation recording in whole minutes, rounded to the nearest
   * and at least 1 (as the player's caption rounds `seconds`); null without audio.
   */
  readonly audioMinutes: number | null;
  /**
   * The article's first category → subcategory, for a small eyebrow label on cards; null when
   * that is the subcategory the page is about (its listing, or a related article's).
   */
  readonly topic: Link | null;
};

/** The paid-links block under the header; null (no block at all) when the page has none. */
export type Sponsored = {
  /** One of Sponsored Links, Partner Links, Recommended Sites, Related Resources (by site id). */
  readonly label: string;
  /** Sanitised HTML fragments: links (rel="sponsored noopener") and inline text only. */
  readonly items: readonly string[];
} | null;

export type Pagination = {
  /** 1-based. */
  readonly page: number;
  readonly pages: number;
  readonly prev: string | null;
  readonly next: string | null;
  /** Page 1's href (the listing's own route); page n ≥ 2 is `{first}/page/{n}` (`pageHref`). */
  readonly first: string;
};

export type TocEntry = { readonly id: string; readonly text: string; readonly level: 2 | 3 };

type Common = {
  /** The page's route, e.g. `/articles/body-scan` (`/` for home). */
  readonly path: string;
  readonly sponsored: Sponsored;
  /** Home → … → this page's parent; empty on home. */
  readonly breadcrumbs: readonly Link[];
};

export type HomeProps = Common & {
  /** The h1 and the paragraph under it (`[home] heading`, `lead`; an empty lead: no paragraph). */
  readonly heading: string;
  readonly lead: string;
  /** The sections' headings (`[home.top_stories]`, `[home.popular]`, `[home.more]` `title`). */
  readonly titles: { readonly topStories: string; readonly popular: string; readonly more: string };
  /** Each section below is empty when hidden (`show = false`) or when no article is left for it: an empty section is not rendered. */
  readonly featured: readonly ArticleCard[]; // 4
  readonly topStories: readonly ArticleCard[]; // 12, newest first
  readonly popular: readonly ArticleCard[]; // 8
  /** "Have More Awesome Stuff": the first 8 are shown, each "Show more" reveals 12 more. */
  readonly more: readonly ArticleCard[];
};

export type ArticleProps = Common & {
  readonly title: string;
  readonly description: string;
  /** ISO date `YYYY-MM-DD`; shown as `March 2, 2025` (lib/dateLabel.ts). */
  readonly date: string;
  /** `updated` from the front matter (ISO date), when given; shown as "Updated March 9, 2025". */
  readonly updated?: string;
  /** A draft, in a preview only (`dev`, `build --drafts`): the page shows a "Draft" badge. */
  readonly draft?: boolean;
  readonly author: (Link & { readonly role: string }) | null;
  readonly readingMinutes: number;
  /** The cover: the page's LCP image (fetched with high priority, never lazy). */
  readonly image: Picture | null;
  /** The guided-meditation recording, shown as a player under the article's header. */
  readonly audio: Recording | null;
  /**
   * Rendered Markdown; headings carry ids matching `toc`. Not in page-data: the article's HTML holds
   * it (in the element with `data-body`), and the runtime takes it from there (runtime/fromDocument.ts).
   */
  readonly bodyHtml: string;
  /** h2/h3 headings; shown as a table of contents when the article is long (≥ 4 entries). */
  readonly toc: readonly TocEntry[];
  /** Up to 4 other articles from the same subcategory, without descriptions. */
  readonly related: readonly ArticleCard[];
  /** Category → subcategory pairs the article is filed under. */
  readonly topics: readonly { readonly category: Link; readonly subcategory: Link }[];
  /** Sub-subcategory pages. */
  readonly tags: readonly Link[];
  /** Canonical absolute URL, for the copy-link button. */
  readonly url: string;
};

/** Category, Subcategory and Subsubcategory pages. */
export type ListingProps = Common & {
  readonly title: string;
  readonly description: string;
  /**
   * Category: its subcategories; Subcategory: its sub-subcategories; Subsubcategory: empty.
   * On the first page only (empty on page 2 on).
   */
  readonly children: readonly Link[];
  readonly articles: readonly ArticleCard[]; // at most 24
  readonly total: number;
  readonly pagination: Pagination;
  readonly cover: string | null;
};

export type AuthorSummary = {
  readonly name: string;
  readonly href: string;
  /** meta_title, e.g. "Maya Lindqvist, MBSR Teacher". */
  readonly role: string;
  /** First sentence or two of the biography, plain text. */
  readonly summary: string;
  readonly articleCount: number;
  /** `photo` of authors.toml; null: the initials stand in. */
  readonly photo: Picture | null;
};

export type AuthorsProps = Common & {
  readonly title: string;
  readonly authors: readonly AuthorSummary[];
};

export type AuthorProps = Common & {
  readonly name: string;
  readonly role: string;
  /** `photo` of authors.toml; null: the initials stand in. */
  readonly photo: Picture | null;
  readonly bioHtml: string;
  readonly articles: readonly ArticleCard[];
  readonly total: number;
  readonly pagination: Pagination;
};

export type InfoProps = Common & { readonly title: string; readonly bodyHtml: string };

export type SitemapProps = Common & {
  readonly title: string;
  readonly categories: readonly {
    readonly category: Link;
    readonly subcategories: readonly { readonly subcategory: Link; readonly subsubcategories: readonly Link[] }[];
  }[];
  readonly authors: readonly Link[];
  readonly pages: readonly Link[];
  /** Every article once, under its first category (`null`: filed under none); up to 1000 a page. */
  readonly articles: readonly { readonly category: Link | null; readonly articles: readonly Link[] }[];
  /** `/sitemap`, then `/sitemap/page/{n}`; page 1 alone carries the topic tree, authors and pages. */
  readonly pagination: Pagination;
};

/** NotFound and ServerError. */
export type ErrorProps = Common & {
  /** The page's name (its `<title>` before ` | {brand}`). */
  readonly title: string;
  /** The h1 (`[not_found] heading` on the 404 page). */
  readonly heading: string;
  readonly description: string;
};

export type TemplateProps = {
  Home: HomeProps;
  Article: ArticleProps;
  Category: ListingProps;
  Subcategory: ListingProps;
  Subsubcategory: ListingProps;
  Authors: AuthorsProps;
  Author: AuthorProps;
  Info: InfoProps;
  Sitemap: SitemapProps;
  NotFound: ErrorProps;
  ServerError: ErrorProps;
};

/** Also the `componentChunkName` of page-data, and the file name `src/templates/{name}.tsx`. */
export type TemplateName = keyof TemplateProps;

// ---- Rust builder → Node worker: one JSON object per line on stdin ----

export type WorkerRequest =
  | { readonly id: number; readonly type: 'render'; readonly template: TemplateName; readonly props: TemplateProps[TemplateName] }
  | { readonly id: number; readonly type: 'slices'; readonly site: SiteData };

// ---- Node worker → Rust builder: one JSON object per line on stdout ----
// The worker prints `{"type":"ready"}` once it has loaded, before reading any request. A `rendered`
// line is followed by exactly `bytes` bytes of the page's HTML in UTF-8, unescaped: the builder
// reads the page as it is instead of parsing it out of a JSON string.

export type WorkerResponse =
  | { readonly type: 'ready' }
  | { readonly id: number; readonly type: 'rendered'; readonly bytes: number }
  | { readonly id: number; readonly type: 'slices'; readonly header: string; readonly footer: string }
  /** `id` is -1 when the request line could not be read at all. */
  | { readonly id: number; readonly type: 'error'; readonly message: string };

/** An answer as the worker makes it, before it is written: a rendered page holds its HTML. */
export type WorkerAnswer =
  | Exclude<WorkerResponse, { readonly type: 'rendered' }>
  | { readonly id: number; readonly type: 'rendered'; readonly html: string };

// ---- The built site → the browser ----

/**
 * The page's own part of the document head (the builder writes the same values into the HTML), so a
 * client-side navigation can update title, description, canonical, OpenGraph, Twitter and JSON-LD.
 */
export type PageHead = {
  /** Full title, ending with ` | {brand}`. */
  readonly title: string;
  readonly description: string;
  /** Absolute URL; empty for the error pages, which have none. */
  readonly canonical: string;
  /** `website`, `article` or `profile`. */
  readonly ogType: string;
  /** Absolute image URL for OpenGraph (and a large Twitter card). */
  readonly image: string | null;
  /** ISO date, for articles. */
  readonly published: string | null;
  readonly prev: string | null;
  readonly next: string | null;
  readonly noindex: boolean;
};

/** `/page-data/{path}/page-data.json` (`index` for `/`). */
export type PageData = {
  readonly componentChunkName: TemplateName;
  readonly path: string;
  readonly matchPath: null;
  /** An article's page-data has no `head` (nor `bodyHtml`): the runtime adds them from its HTML. */
  readonly result: { readonly pageContext: TemplateProps[TemplateName]; readonly head: PageHead };
  /** `[hash]` of `/page-data/sq/d/{hash}.json` (SiteData). */
  readonly staticQueryHashes: readonly string[];
  /** `{header: "header", footer: "footer"}`: `/slice-data/{name}.json`. */
  readonly slicesMap: Readonly<Record<string, string>>;
  readonly webpackCompilationHash: string;
};

/** `/page-data/app-data.json`. */
export type AppData = { readonly webpackCompilationHash: string };

/** `/slice-data/{name}.json`: the props of a slice (both slices take SiteData). */
export type SliceData = { readonly componentChunkName: 'Header' | 'Footer'; readonly result: { readonly sliceContext: SiteData } };
