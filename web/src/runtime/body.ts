// An article's body is written once, in the article's HTML. Its page-data leaves `bodyHtml` out
// (at 10,000 articles that is 56 MiB not written twice), and the runtime takes the body from the
// HTML: from the document when it hydrates the page it was loaded with, and from the page's HTML,
// fetched beside its page-data, when it navigates to it.
import type { PageData } from '../protocol';
import { ROOTS } from './document';

/** The attribute of the element that holds an article's rendered Markdown. */
export const BODY_ATTRIBUTE = 'data-body';

/** Whether `data` is an article's page-data still without its body. */
export function needsBody(data: PageData): boolean {
  return data.componentChunkName === 'Article' && !('bodyHtml' in data.result.pageContext);
}

/** Whether the page at `path` may be an article (then its HTML is fetched with its page-data). */
export function mayNeedBody(path: string): boolean {
  return path.startsWith('/articles/');
}

/** The article body in `root` (the document, or a page's parsed HTML); null when it has none. */
export function bodyIn(root: ParentNode): string | null {
  return root.querySelector(`#${ROOTS.page.id} [${BODY_ATTRIBUTE}]`)?.innerHTML ?? null;
}

/** The body in a page's HTML text. */
export function bodyInHtml(html: string): string | null {
  return bodyIn(new DOMParser().parseFromString(html, 'text/html'));
}

/** `data` with the body in place. */
export function withBody(data: PageData, bodyHtml: string): PageData {
  const pageContext = { ...data.result.pageContext, bodyHtml } as PageData['result']['pageContext'];
  return { ...data, result: { ...data.result, pageContext } };
}
