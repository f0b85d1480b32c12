// Client-side navigation. A plain click on a link to a page of the site loads the page's data and
// its template chunk and renders it in place: no document load. The URL, title, meta, canonical and
// JSON-LD follow; scroll goes to the top (or the fragment) and comes back on back/forward; focus
// moves to the new h1, which is announced. Whatever cannot be done in place (resolve.ts says when)
// is a full page load of the same URL. Under `stillpoint dev`, REFRESH_EVENT renders the page on
// screen again from fresh page data, in place: scroll and focus stay.
import type { PageData, SiteData } from '../protocol';
import { REFRESH_EVENT } from './boot';
import type { PageAttributes } from './document';
import { fragmentTarget } from './fragment';
import { applyHead } from './head';
import { eventAnchor, isPlainClick, pageLinkUrl } from './links';
import { createLiveRegions } from './liveRegions';
import { createLoader, type Loader, pageKey } from './loader';
import { startPrefetch } from './prefetch';
import { type Resolved, resolvePage } from './resolve';
import type { SaveMessage } from './serviceWorker';
import type { View } from './view';

export type NavigationStart = {
  readonly view: View;
  /** The first document's body attributes: its build hash is the running bundle's. */
  readonly page: PageAttributes;
  /** What the first page was hydrated with. */
  readonly data: PageData;
  readonly site: SiteData;
};

type Mode = 'push' | 'replace' | 'pop' | 'refresh';
type Ready = Extract<Resolved, { kind: 'render' }>;
type HistoryState = { readonly key: string };

const newKey = () => Math.random().toString(36).slice(2, 10);

function historyKey(state: unknown): string | null {
  return typeof state === 'object' && state !== null && typeof (state as HistoryState).key === 'string'
    ? (state as HistoryState).key
    : null;
}

/** Whether a full load of `path` would find a file there (HEAD answers 200). */
async function isFile(path: string): Promise<boolean> {
  try {
    return (await fetch(path, { method: 'HEAD' })).status === 200;
  } catch {
    return false;
  }
}

function scrollToTop(hash: string): void {
  const target = fragmentTarget(hash);
  if (target) target.scrollIntoView({ behavior: 'instant' });
  else window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
}

/** Focus on the page's h1 (without scrolling), so keyboard and screen-reader users start there. */
function focusHeading(): string {
  const h1 = document.querySelector<HTMLElement>('#sp-page h1') ?? document.querySelector<HTMLElement>('main');
  if (!h1) return document.title;
  if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
  h1.focus({ preventScroll: true });
  return h1.textContent?.trim() || document.title;
}

/**
 * Asks the service worker (once there is one) to keep a page's HTML, so a visited article opens
 * offline: a client-side navigation only fetched its data. Not with Save-Data on.
 */
function saveForOffline(path: string): void {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  if (connection?.saveData || !navigator.serviceWorker) return;
  const message: SaveMessage = { type: 'save', urls: [path] };
  void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage(message));
}

export function startNavigation(start: NavigationStart): void {
  const { view } = start;
  const build = start.page.build;
  let siteHash = start.page.site;
  const loader: Loader = createLoader();
  loader.seed(start.page.path, start.data);
  loader.seedSiteData(siteHash, start.site);
  const live = createLiveRegions();
  const scroll = new Map<string, number>();
  let key = historyKey(window.history.state) ?? newKey();
  window.history.replaceState({ ...(window.history.state ?? {}), key }, '');
  let latest = 0;
  /** The pathname of the page on screen. */
  let shownPathname = window.location.pathname;

  window.addEventListener('scroll', () => scroll.set(key, window.scrollY), { passive: true });

  const fullLoad = (url: URL, mode: Mode) => {
    if (mode === 'pop' || mode === 'refresh') window.location.reload();
    else window.location.assign(url.href);
  };

  const render = (url: URL, mode: Mode, ready: Ready, restore: number | undefined) => {
    if (mode === 'push') {
      key = newKey();
      window.history.pushState({ key }, '', url.href);
    } else if (mode === 'replace') {
      window.history.replaceState({ ...(window.history.state ?? {}), key }, '', url.href);
    }
    if (ready.site) {
      view.renderSite(ready.site);
      siteHash = ready.siteHash;
      document.body.dataset.site = siteHash;
    }
    view.renderPage(ready.data.componentChunkName, ready.data.result.pageContext);
    applyHead(ready.data.result.head);
    document.body.dataset.template = ready.data.componentChunkName;
    document.body.dataset.path = ready.data.path;
    shownPathname = url.pathname;
    if (mode === 'refresh') return;
    if (restore !== undefined) window.scrollTo({ top: restore, left: 0, behavior: 'instant' });
    else scrollToTop(url.hash);
    live.announce(focusHeading());
    if (ready.data.componentChunkName === 'Article') saveForOffline(url.pathname);
  };

  /** `restore`: the scroll position to return to (back/forward). */
  const navigate = async (url: URL, mode: Mode, restore?: number) => {
    const token = ++latest;
    live.pending();
    try {
      const resolved = await resolvePage(pageKey(url.pathname), { loader, view, build, siteHash, isFile });
      if (token !== latest) return;
      if (resolved.kind === 'render') render(url, mode, resolved, restore);
      else fullLoad(url, mode);
    } catch (error) {
      // Rendering failed: the page loads in full, never blank.
      console.error(error);
      if (token === latest) fullLoad(url, mode);
    } finally {
      if (token === latest) live.settled();
    }
  };

  document.addEventListener('click', (event) => {
    if (!isPlainClick(event)) return;
    const anchor = eventAnchor(event);
    const url = anchor && pageLinkUrl(anchor, window.location);
    if (!url) return;
    event.preventDefault();
    scroll.set(key, window.scrollY);
    // A link to the page already shown replaces its history entry, as the browser would.
    void navigate(url, url.href === window.location.href ? 'replace' : 'push');
  });

  window.addEventListener('popstate', (event) => {
    const url = new URL(window.location.href);
    key = historyKey(event.state) ?? newKey();
    if (historyKey(event.state) === null) window.history.replaceState({ ...(event.state ?? {}), key }, '');
    // A fragment (or query) change within the page shown: the browser has already scrolled.
    if (pageKey(url.pathname) === pageKey(shownPathname)) return;
    // Read now: the browser's own restoration (on the old page) is about to overwrite it.
    void navigate(url, 'pop', scroll.get(key));
  });

  window.addEventListener(REFRESH_EVENT, (event) => {
    event.preventDefault();
    const url = new URL(window.location.href);
    void loader.refresh(url.pathname);
    void navigate(url, 'refresh');
  });

  startPrefetch(loader, view);
  document.documentElement.dataset.navigation = 'ready';
}
