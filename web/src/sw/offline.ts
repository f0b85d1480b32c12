// The page the service worker shows for a page it has not kept, when the network is unreachable.
// Plain HTML with the site's own stylesheet: no script and no inline style (the site's CSP).
import { escapeHtml } from '../lib/escapeHtml';

export type SavedArticle = { readonly href: string; readonly title: string };

/** The text of a page's `<title>` without the ` | {brand}` ending, from its HTML. */
export function titleOf(html: string, brand: string): string | null {
  const match = /<title>([^<]*)<\/title>/.exec(html);
  if (!match?.[1]) return null;
  const title = match[1]
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  const suffix = ` | ${brand}`;
  return title.endsWith(suffix) ? title.slice(0, -suffix.length) : title;
}

export type OfflinePage = {
  readonly brand: string;
  readonly css: readonly string[];
  /** The path that could not be shown. */
  readonly path: string;
  readonly saved: readonly SavedArticle[];
};

export function offlineHtml({ brand, css, path, saved }: OfflinePage): string {
  const e = escapeHtml;
  const links = css.map((href) => `<link rel="stylesheet" href="${e(href)}">`).join('\n');
  const list = saved.length
    ? `<h2>Articles saved on this device</h2>\n<ul>\n${saved
        .map((a) => `<li><a href="${e(a.href)}">${e(a.title)}</a></li>`)
        .join('\n')}\n</ul>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>You're offline | ${e(brand)}</title>
${links}
</head>
<body>
<main id="main" class="sp-offline">
<p class="sp-offline-brand"><a href="/">${e(brand)}</a></p>
<h1>You're offline</h1>
<p>This page hasn't been saved on this device yet, so it can't be shown without a connection. Articles you have read here before open offline.</p>
${list}
<p><a href="${e(path)}">Try again</a> once you're back online.</p>
</main>
</body>
</html>
`;
}
