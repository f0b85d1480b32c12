// An article's body and head are written once, in the article's HTML. Its page-data leaves them
// out (at 10,000 articles the bodies alone are 56 MiB not written twice), and the runtime takes
// them from the HTML: from the document when it hydrates the page it was loaded with, and from
// the page's HTML, fetched beside its page-data, when it navigates to it.
import type { PageData } from '../protocol';
import { ROOTS } from './document';
import { headIn } from './head';

/** The attribute of the element that holds an article's rendered Markdown. */
export const BODY_ATTRIBUTE = 'data-body';

/** Whether `data` is an article's page-data still without what its HTML holds. */
export function needsDocument(data: PageData): boolean {
  return data.componentChunkName === 'Article' && !('bodyHtml' in data.result.pageContext);
}

/** Whether the page at `path` may be an article (then its HTML is fetched with its page-data). */
export function mayNeedDocument(path: string): boolean {
  return path.startsWith('/articles/');
}

/** The article body in `root` (the document, or a page's parsed HTML); null when it has none. */
export function bodyIn(root: ParentNode): string | null {
  return root.querySelector(`#${ROOTS.page.id} [${BODY_ATTRIBUTE}]`)?.innerHTML ?? null;
}

/** A page's HTML text as a document (not attached: nothing in it loads or runs). */
export function parseHtml(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

/**
 * `data` with the body and head of `doc` in place (the head only when page-data has none);
 * null when `doc` has no article body.
 */
export function completeFrom(data: PageData, doc: Document): PageData | null {
  const bodyHtml = bodyIn(doc);
  if (bodyHtml === null) return null;
  const pageContext = { ...data.result.pageContext, bodyHtml } as PageData['result']['pageContext'];
  const head = (data.result as Partial<PageData['result']>).head ?? headIn(doc);
  return { ...data, result: { pageContext, head } };
}
