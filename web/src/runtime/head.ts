// Updates the document head after a client-side navigation, from page-data's `result.head` (for
// an article, the head of its HTML, read by `headIn`): the same elements, with the same values,
// that the builder writes into each page's HTML, except the JSON-LD blocks, which are for
// crawlers (they read the HTML): the old page's are removed.
import type { PageHead } from '../protocol';

type MetaKey = readonly ['name' | 'property', string];

/** Sets (or, for null, removes) `<meta {attr}="{key}" content>`. */
function setMeta(doc: Document, [attr, key]: MetaKey, content: string | null): void {
  let meta = doc.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (content === null) {
    meta?.remove();
    return;
  }
  if (!meta) {
    meta = doc.createElement('meta');
    meta.setAttribute(attr, key);
    doc.head.append(meta);
  }
  meta.content = content;
}

/** Sets (or, for null, removes) `<link rel="{rel}" href>`. */
function setLink(doc: Document, rel: string, href: string | null): void {
  let link = doc.head.querySelector<HTMLLinkElement>(`link[rel="${rel}"]`);
  if (href === null) {
    link?.remove();
    return;
  }
  if (!link) {
    link = doc.createElement('link');
    link.rel = rel;
    doc.head.append(link);
  }
  link.setAttribute('href', href);
}

export function applyHead(head: PageHead, doc: Document = document): void {
  doc.title = head.title;
  const canonical = head.canonical === '' ? null : head.canonical;
  setMeta(doc, ['name', 'description'], head.description);
  setMeta(doc, ['name', 'robots'], head.noindex ? 'noindex' : null);
  setLink(doc, 'canonical', canonical);
  setLink(doc, 'prev', head.prev);
  setLink(doc, 'next', head.next);
  setMeta(doc, ['property', 'og:type'], head.ogType);
  setMeta(doc, ['property', 'og:title'], head.title);
  setMeta(doc, ['property', 'og:description'], head.description);
  setMeta(doc, ['property', 'og:url'], canonical);
  setMeta(doc, ['property', 'og:image'], head.image);
  setMeta(doc, ['property', 'article:published_time'], head.published);
  setMeta(doc, ['name', 'twitter:card'], head.image ? 'summary_large_image' : 'summary');
  for (const old of doc.head.querySelectorAll('script[type="application/ld+json"]')) old.remove();
}

/** The head a document was written with: what `applyHead` would set, read back. */
export function headIn(doc: Document): PageHead {
  const meta = (attr: string, key: string) =>
    doc.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`)?.getAttribute('content') ?? null;
  const link = (rel: string) => doc.head.querySelector(`link[rel="${rel}"]`)?.getAttribute('href') ?? null;
  return {
    title: doc.title,
    description: meta('name', 'description') ?? '',
    canonical: link('canonical') ?? '',
    ogType: meta('property', 'og:type') ?? 'website',
    image: meta('property', 'og:image'),
    published: meta('property', 'article:published_time'),
    prev: link('prev'),
    next: link('next'),
    noindex: meta('name', 'robots')?.includes('noindex') ?? false,
  };
}
