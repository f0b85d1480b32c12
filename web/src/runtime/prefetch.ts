// Prefetch: the page-data (and template chunk) of pages whose links are in view are queued, and
// every 3 seconds, in an idle period, the next 4 are fetched; links leaving the view leave the
// queue; hovering, touching or focusing a link fetches its page at once. Nothing is prefetched on a
// 2g connection, with Save-Data on, or for bots.

import { whenIdle } from './idle';
import { eventAnchor, pageLinkUrl } from './links';
import type { Loader } from './loader';
import { pageKey } from './loader';
import type { View } from './view';

export const BATCH_SIZE = 4;
export const BATCH_INTERVAL_MS = 3000;
const BOTS = /bot|crawler|spider|crawling/i;

type Connection = { readonly effectiveType?: string; readonly saveData?: boolean };

/** Whether this visitor's browser should prefetch at all. */
export function canPrefetch(nav: Navigator = navigator): boolean {
  const connection = (nav as Navigator & { connection?: Connection }).connection;
  if (connection?.saveData) return false;
  if (connection?.effectiveType?.includes('2g')) return false;
  return !BOTS.test(nav.userAgent);
}

/**
 * Pages waiting to be prefetched, in the order their links came into view. A page stays queued
 * while at least one link to it is in view.
 */
export class PrefetchQueue {
  private readonly visible = new Map<string, number>();

  enter(path: string): void {
    this.visible.set(path, (this.visible.get(path) ?? 0) + 1);
  }

  leave(path: string): void {
    const count = (this.visible.get(path) ?? 0) - 1;
    if (count > 0) this.visible.set(path, count);
    else this.visible.delete(path);
  }

  remove(path: string): void {
    this.visible.delete(path);
  }

  get size(): number {
    return this.visible.size;
  }

  /** Takes up to `n` pages off the front of the queue. */
  take(n: number): string[] {
    const batch = [...this.visible.keys()].slice(0, n);
    for (const path of batch) this.visible.delete(path);
    return batch;
  }
}

export type Prefetcher = {
  /** Fetches a page now (hover, focus), unless it is loaded or loading. */
  now(path: string): void;
  stop(): void;
};

const idle = (callback: () => void): void => whenIdle(callback, BATCH_INTERVAL_MS);

export function startPrefetch(loader: Loader, view: View, doc: Document = document): Prefetcher | null {
  if (!canPrefetch()) return null;
  const queue = new PrefetchQueue();
  /** Each observed link's page, as it was queued (a link's href could change). */
  const observed = new WeakMap<Element, string>();
  let lastBatch = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const fetchPage = (path: string) => {
    queue.remove(path);
    if (loader.has(path) || !canPrefetch()) return;
    loader
      .loadPage(path)
      .then((resource) => (resource.kind === 'page' ? view.prepare(resource.data.componentChunkName) : undefined))
      .catch(() => {
        // A prefetch that fails costs nothing: navigation tries again and handles the failure.
      });
  };

  const runBatch = () => {
    timer = undefined;
    idle(() => {
      lastBatch = performance.now();
      for (const path of queue.take(BATCH_SIZE)) fetchPage(path);
      schedule();
    });
  };

  const schedule = () => {
    if (timer !== undefined || queue.size === 0) return;
    timer = setTimeout(runBatch, Math.max(0, lastBatch + BATCH_INTERVAL_MS - performance.now()));
  };

  const pathOf = (link: Element): string | null => {
    const url = pageLinkUrl(link, window.location);
    if (!url) return null;
    const path = pageKey(url.pathname);
    return path === pageKey(window.location.pathname) || loader.has(path) ? null : path;
  };

  const viewport = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const queued = observed.get(entry.target);
      if (entry.isIntersecting && queued === undefined) {
        const path = pathOf(entry.target);
        if (path === null) continue;
        observed.set(entry.target, path);
        queue.enter(path);
      } else if (!entry.isIntersecting && queued !== undefined) {
        observed.delete(entry.target);
        queue.leave(queued);
      }
    }
    schedule();
  });

  const forget = (link: Element) => {
    viewport.unobserve(link);
    const queued = observed.get(link);
    if (queued === undefined) return;
    observed.delete(link);
    queue.leave(queued);
  };
  const linksIn = (node: Element) => [...(node.matches('a[href]') ? [node] : []), ...node.querySelectorAll('a[href]')];
  // A navigation replaces the page's links: the new ones are observed, the old ones forgotten.
  const changes = new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      for (const node of mutation.removedNodes) if (node instanceof Element) linksIn(node).forEach(forget);
      for (const node of mutation.addedNodes) {
        if (node instanceof Element) for (const link of linksIn(node)) viewport.observe(link);
      }
    }
  });

  const onIntent = (event: Event) => {
    const anchor = eventAnchor(event);
    const path = anchor && pathOf(anchor);
    if (path) fetchPage(path);
  };
  const intents = ['pointerover', 'touchstart', 'focusin'] as const;

  for (const link of doc.querySelectorAll('a[href]')) viewport.observe(link);
  changes.observe(doc.body, { childList: true, subtree: true });
  for (const type of intents) doc.addEventListener(type, onIntent, { capture: true, passive: true });

  return {
    now: fetchPage,
    stop() {
      viewport.disconnect();
      changes.disconnect();
      clearTimeout(timer);
      for (const type of intents) doc.removeEventListener(type, onIntent, true);
    },
  };
}
