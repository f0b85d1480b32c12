// What the page's first script does before hydration's JavaScript arrives: start the requests
// hydration needs, and wait for the first paint so that nothing fetched for hydration competes
// with the page's own HTML, stylesheet and images.
import type { ComponentType } from 'react';
import type { PageData, SiteData } from '../protocol';
import type { PageAttributes } from './document';
import { fetchPageData, fetchSiteData } from './pageData';
import { loadTemplate, type PageProps } from './templates';

/** The requests hydration waits for, started by the entry. */
export type EarlyFetches = {
  readonly site: Promise<SiteData>;
  readonly data: Promise<PageData>;
  readonly template: Promise<ComponentType<PageProps>>;
};

/** Starts fetching the site data, the page data and the template's chunk for `page`, in parallel. */
export function startFetches(page: PageAttributes): EarlyFetches {
  const early = {
    site: fetchSiteData(page.site),
    data: fetchPageData(page.path),
    template: loadTemplate(page.template),
  };
  // Hydration handles failures when it awaits these; until then they are not "unhandled".
  for (const promise of Object.values(early)) promise.catch(() => undefined);
  return early;
}

/** How long to wait for a frame before running anyway (a hidden tab produces none). */
const NO_FRAME_MS = 200;

/** Runs `run` once, after the browser has produced its next frame (the first paint on load). */
export function afterNextPaint(run: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, NO_FRAME_MS);
}

/**
 * The site stylesheet is linked `media="print" data-deferred` (with a `<noscript>` copy) so that it
 * never blocks the first paint, which the inline critical styles cover: applies it once loaded.
 */
export function applyDeferredStylesheets(doc: Document): void {
  for (const link of doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][data-deferred]')) {
    const apply = () => {
      link.media = 'all';
    };
    if (link.sheet) apply();
    else link.addEventListener('load', apply, { once: true });
  }
}
