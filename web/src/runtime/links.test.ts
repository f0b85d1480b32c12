import { describe, expect, it } from 'vitest';
import { isPagePath, isPlainClick, pageLinkUrl } from './links';

const here = new URL('https://calm.example/articles/body-scan');

function anchor(href: string, attributes: Record<string, string> = {}): HTMLAnchorElement {
  const a = document.createElement('a');
  a.setAttribute('href', href);
  for (const [name, value] of Object.entries(attributes)) a.setAttribute(name, value);
  return a;
}

describe('isPagePath', () => {
  it.each([
    ['/', true],
    ['/authors', true],
    ['/anxiety-management/other/box-breathing', true],
    ['/rss.xml', false],
    ['/images/covers/a.svg', false],
    ['/page-data/index/page-data.json', false],
    ['/page-data/authors', false],
    ['/assets/entry', false],
    ['/__third-party-proxy', false],
  ])('%s → %s', (path, expected) => {
    expect(isPagePath(path)).toBe(expected);
  });
});

describe('pageLinkUrl', () => {
  it('takes a link to another page of the site', () => {
    expect(pageLinkUrl(anchor('/authors'), here)?.href).toBe('https://calm.example/authors');
  });

  it('takes a relative link and keeps its query and fragment', () => {
    expect(pageLinkUrl(anchor('other?x=1#part'), here)?.href).toBe('https://calm.example/articles/other?x=1#part');
  });

  it('takes an absolute link to the same origin', () => {
    expect(pageLinkUrl(anchor('https://calm.example/terms'), here)?.pathname).toBe('/terms');
  });

  it('takes a link to the page shown (it replaces the entry)', () => {
    expect(pageLinkUrl(anchor('/articles/body-scan'), here)?.pathname).toBe('/articles/body-scan');
  });

  it.each([
    ['another origin', anchor('https://elsewhere.example/authors')],
    ['another scheme', anchor('http://calm.example/authors')],
    ['a file', anchor('/rss.xml')],
    ['a fragment of this page', anchor('#how-to-practise')],
    ['a fragment of this page by path', anchor('/articles/body-scan#how-to-practise')],
    ['a new tab', anchor('/authors', { target: '_blank' })],
    ['a download', anchor('/authors', { download: '' })],
    ['rel=external', anchor('/authors', { rel: 'external noopener' })],
    ['mail', anchor('mailto:hello@calm.example')],
  ])('leaves %s to the browser', (_, a) => {
    expect(pageLinkUrl(a, here)).toBeNull();
  });

  it('leaves an element that is not an HTML anchor', () => {
    expect(pageLinkUrl(document.createElement('button'), here)).toBeNull();
  });
});

describe('isPlainClick', () => {
  const click = (init: MouseEventInit) => new MouseEvent('click', { cancelable: true, ...init });

  it('is a primary click without modifiers', () => {
    expect(isPlainClick(click({ button: 0 }))).toBe(true);
  });

  it.each([
    ['ctrl', { ctrlKey: true }],
    ['meta', { metaKey: true }],
    ['shift', { shiftKey: true }],
    ['alt', { altKey: true }],
    ['middle button', { button: 1 }],
  ])('is not a click with %s', (_, init) => {
    expect(isPlainClick(click(init))).toBe(false);
  });

  it('is not a click another handler has taken', () => {
    const event = click({});
    event.preventDefault();
    expect(isPlainClick(event)).toBe(false);
  });
});
