// Debian's Chromium through playwright-core, with the flags this machine needs, and a page that
// records every console error and uncaught exception.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../scripts/chromium.mjs';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export type Session = {
  readonly browser: Browser;
  readonly context: BrowserContext;
  close(): Promise<void>;
};

/** The flags Chromium needs on this machine (no sandbox as root, no network of its own). */
export { CHROMIUM_ARGS };

/** A fresh browser with its own profile directory; `args` are added to `CHROMIUM_ARGS`. */
export async function launch(options: BrowserContextOptions = {}, args: readonly string[] = []): Promise<Session> {
  const profile = mkdtempSync(join(tmpdir(), 'stillpoint-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...args],
    viewport: { width: 1280, height: 800 },
    ...options,
  });
  const browser = context.browser() as Browser;
  return {
    browser,
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export type WatchedPage = { readonly page: Page; readonly errors: string[] };

/** A new page in `session` that collects console errors and page errors into `errors`. */
export async function watchedPage(session: Session): Promise<WatchedPage> {
  const page = await session.context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') {
      errors.push(`console: ${msg.text()} (${msg.location().url})`);
    }
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return { page, errors };
}

/** A layout shift the page made without user input, and the elements that moved. */
export type LayoutShift = { readonly value: number; readonly sources: string[] };

/** Records every layout shift of `page` from the very start of each document, before any of the page's own scripts; read them with `layoutShifts`. */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: { value: number; sources: string[] }[] = [];
    Object.assign(window, { __layoutShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        const sources = (entry.sources ?? []).map((source) =>
          source.node instanceof Element
            ? `${source.node.tagName.toLowerCase()}.${source.node.className}`
            : String(source.node?.nodeName),
        );
        shifts.push({ value: entry.value, sources });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shifts `recordLayoutShifts` has seen on the current document. */
export function layoutShifts(page: Page): Promise<LayoutShift[]> {
  return page.evaluate(() => (window as unknown as { __layoutShifts: LayoutShift[] }).__layoutShifts);
}
