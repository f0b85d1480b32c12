/**
 * The prefix of every id the article's own text carries (the engine's sanitiser gives it, so that
 * content can never take the id of a part of the page or of a browser global).
 */
export const CONTENT_ID_PREFIX = 'c-';

/**
 * The element a URL fragment names: the id itself, else the content's prefixed id, so a link
 * written before content ids were prefixed (`/articles/x#why-it-works`) still lands on its heading.
 */
export function fragmentTarget(hash: string, doc: Document = document): HTMLElement | null {
  if (!hash || hash === '#') return null;
  let id: string;
  try {
    id = decodeURIComponent(hash.slice(1));
  } catch {
    id = hash.slice(1);
  }
  return (
    doc.getElementById(id) ?? (id.startsWith(CONTENT_ID_PREFIX) ? null : doc.getElementById(CONTENT_ID_PREFIX + id))
  );
}

/**
 * Scrolls to the content heading an unprefixed fragment names, now and on every `hashchange`. The
 * browser has already scrolled when the id exists as written; this only covers the prefixed case.
 */
export function followUnprefixedFragments(win: Window = window): void {
  const follow = () => {
    const { hash } = win.location;
    if (!hash || win.document.getElementById(hash.slice(1))) return;
    fragmentTarget(hash, win.document)?.scrollIntoView();
  };
  follow();
  win.addEventListener('hashchange', follow);
}
