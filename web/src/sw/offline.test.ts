import { describe, expect, it } from 'vitest';
import { offlineHtml, titleOf } from './offline';

describe('titleOf', () => {
  it('reads the title without the brand', () => {
    expect(titleOf('<head><title>Sleep &amp; Rest | Calm</title></head>', 'Calm')).toBe('Sleep & Rest');
  });

  it('is null without a title', () => {
    expect(titleOf('<p>no head</p>', 'Calm')).toBeNull();
  });
});

describe('offlineHtml', () => {
  const html = offlineHtml({
    brand: 'Calm <Co>',
    css: ['/assets/entry-1.css'],
    path: '/articles/new',
    saved: [{ href: '/articles/a', title: 'Rest & <Sleep>' }],
  });

  it('says the page is offline, links the site CSS and lists the saved articles', () => {
    expect(html).toContain("<h1>You're offline</h1>");
    expect(html).toContain('<link rel="stylesheet" href="/assets/entry-1.css">');
    expect(html).toContain('<li><a href="/articles/a">Rest &amp; &lt;Sleep&gt;</a></li>');
    expect(html).toContain('<a href="/articles/new">Try again</a>');
  });

  it('escapes the brand and has no script or inline style (the CSP)', () => {
    expect(html).toContain('Calm &lt;Co&gt;');
    expect(html).not.toMatch(/<script|style=/);
  });

  it('has no list when nothing was saved', () => {
    expect(offlineHtml({ brand: 'C', css: [], path: '/x', saved: [] })).not.toContain('<ul>');
  });
});
