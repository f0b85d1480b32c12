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

/** How long to wait for the first paint before running anyway (a hidden tab does not paint). */
const NO_PAINT_MS = 1000;

/**
 * Runs `run` once, after the page's first contentful paint (the browser's paint timing entry;
 * the next animation frame where that is not reported), or after NO_PAINT_MS without one.
 */
export function afterFirstPaint(run: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  const timer = setTimeout(once, NO_PAINT_MS);
  const painted = () => {
    clearTimeout(timer);
    once();
  };
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    requestAnimationFrame(() => setTimeout(painted, 0));
    return;
  }
  const observer = new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    painted();
  });
  observer.observe({ type: 'paint', buffered: true });
}
