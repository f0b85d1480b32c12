// Debian's Chromium through playwright-core, with the flags this machine needs, and a page that
// records every console error and uncaught exception.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export type Session = {
  readonly browser: Browser;
  readonly context: BrowserContext;
  close(): Promise<void>;
};

/** The flags Chromium needs on this machine (no sandbox as root, no network of its own). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

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
