// One URL of the demo site (examples/demo) per page kind, shared by the browser tests.
import type { Page } from 'playwright-core';

export type PageKind = {
  /** Short name, used in test names and screenshot file names. */
  readonly kind: string;
  readonly path: string;
  /** HTTP status `stillpoint serve` answers with. */
  readonly status: number;
  /** The page's one h1. */
  readonly h1: string | RegExp;
};

export const PAGE_KINDS: readonly PageKind[] = [
  { kind: 'home', path: '/', status: 200, h1: 'Guided meditations for a calmer you' },
  {
    kind: 'article',
    path: '/articles/box-breathing-step-by-step',
    status: 200,
    h1: 'Box Breathing: A Step-by-Step Guide for Stressful Moments',
  },
  { kind: 'category', path: '/anxiety-management', status: 200, h1: /Anxiety Management/ },
  { kind: 'subcategory', path: '/anxiety-management/relaxation-strategies', status: 200, h1: /Relaxation Strategies/ },
  {
    kind: 'subsubcategory',
    path: '/understanding-mindfulness/techniques-for-mindfulness/breath-awareness',
    status: 200,
    h1: /Breath Awareness/,
  },
  { kind: 'authors', path: '/authors', status: 200, h1: /Mindfulness Experts/i },
  { kind: 'author', path: '/authors/freya-castellane', status: 200, h1: 'Freya Castellane' },
  { kind: 'about', path: '/info/about-us', status: 200, h1: 'About Us' },
  { kind: 'privacy', path: '/privacy-policy', status: 200, h1: 'Privacy Policy' },
  { kind: 'terms', path: '/terms', status: 200, h1: 'Terms of Service' },
  { kind: 'sitemap', path: '/sitemap', status: 200, h1: 'Sitemap' },
  { kind: 'not-found', path: '/no/such/page', status: 404, h1: 'Page Not Found' },
];

/** The server-error page is a file (`/500.html`), served as any other; shown on a server error. */
export const SERVER_ERROR: PageKind = {
  kind: 'server-error',
  path: '/500.html',
  status: 200,
  h1: 'Something Went Wrong',
};

/** The two widths every page kind is checked at: a desktop window and a small phone. */
export const WIDTHS = [1280, 375] as const;

/** The 404 document's own status shows up as a console message; it is not a page error. */
export const isNotFoundStatusNoise = (error: string): boolean =>
  /Failed to load resource: the server responded with a status of 404/.test(error);

/**
 * Opens `url` and waits until React has hydrated the header, so clicks reach their handlers (React
 * marks each element it owns with a `__reactProps$…` key).
 */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => {
    const button = document.querySelector('#sp-header button');
    return button !== null && Object.keys(button).some((key) => key.startsWith('__reactProps$'));
  });
}
