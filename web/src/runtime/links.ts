// Which links the runtime handles: same-origin links to pages of the site. Everything else (other
// origins, files such as /rss.xml, new tabs, downloads, modified clicks) is left to the browser.

/** Paths under these prefixes are data or files, never pages. */
const NOT_PAGES = ['/page-data/', '/slice-data/', '/assets/', '/__'];

/** Whether a same-origin path names a page (a route), not a file or data. */
export function isPagePath(pathname: string): boolean {
  if (NOT_PAGES.some((prefix) => pathname.startsWith(prefix))) return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !last.includes('.');
}

/** The page a link leads to, when the runtime may load it itself; null otherwise. */
export function pageLinkUrl(anchor: Element, here: Location | URL): URL | null {
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  const href = anchor.getAttribute('href');
  if (href === null) return null;
  const target = anchor.getAttribute('target');
  if (target && target !== '_self') return null;
  if (anchor.hasAttribute('download') || anchor.relList.contains('external')) return null;
  let url: URL;
  try {
    url = new URL(href, here.href);
  } catch {
    return null;
  }
  if (url.origin !== here.origin || !isPagePath(url.pathname)) return null;
  // A jump within this page: the browser scrolls to the fragment.
  if (url.hash && url.pathname === here.pathname && url.search === here.search) return null;
  return url;
}

/** The anchor an event happened on (the target or an ancestor), if any. */
export function eventAnchor(event: Event): Element | null {
  const target = event.target;
  return target instanceof Element ? target.closest('a[href]') : null;
}

/** A plain primary-button click: no modifier keys (new tab, new window, download). */
export function isPlainClick(event: MouseEvent): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.ctrlKey &&
    !event.shiftKey &&
    !event.altKey
  );
}
