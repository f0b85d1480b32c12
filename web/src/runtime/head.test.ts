import { beforeEach, describe, expect, it } from 'vitest';
import type { PageHead } from '../protocol';
import { applyHead, headIn } from './head';

// The head the builder writes for an article (the parts a navigation changes).
const SERVER_HEAD = `
<title>Body Scan | S</title>
<meta name="description" content="Scan.">
<link rel="canonical" href="https://s.example/articles/body-scan">
<meta property="og:site_name" content="S">
<meta property="og:type" content="article">
<meta property="og:title" content="Body Scan | S">
<meta property="og:description" content="Scan.">
<meta property="og:url" content="https://s.example/articles/body-scan">
<meta property="og:image" content="https://s.example/i.svg">
<meta property="article:published_time" content="2025-03-02">
<meta name="twitter:card" content="summary_large_image">
<link rel="stylesheet" href="/assets/entry.css">
<script type="application/ld+json">{"@type":"Article"}</script>
<script type="application/ld+json">{"@type":"BreadcrumbList"}</script>`;

const LISTING: PageHead = {
  title: 'Anxiety | S',
  description: 'Calm.',
  canonical: 'https://s.example/anxiety/page/2',
  ogType: 'website',
  image: null,
  published: null,
  prev: '/anxiety',
  next: '/anxiety/page/3',
  noindex: false,
};

const attr = (selector: string, name: string) => document.head.querySelector(selector)?.getAttribute(name) ?? null;

beforeEach(() => {
  document.head.innerHTML = SERVER_HEAD;
});

describe('applyHead', () => {
  it('updates title, description, canonical and the social tags', () => {
    applyHead(LISTING);
    expect(document.title).toBe('Anxiety | S');
    expect(attr('meta[name="description"]', 'content')).toBe('Calm.');
    expect(attr('link[rel="canonical"]', 'href')).toBe('https://s.example/anxiety/page/2');
    expect(attr('meta[property="og:type"]', 'content')).toBe('website');
    expect(attr('meta[property="og:title"]', 'content')).toBe('Anxiety | S');
    expect(attr('meta[property="og:url"]', 'content')).toBe('https://s.example/anxiety/page/2');
    expect(attr('meta[name="twitter:card"]', 'content')).toBe('summary');
    expect(document.head.querySelector('meta[name^="twitter:"]:not([name="twitter:card"])')).toBeNull();
  });

  it('removes what the new page does not have and adds what it has', () => {
    applyHead(LISTING);
    expect(document.head.querySelector('meta[property="og:image"]')).toBeNull();
    expect(document.head.querySelector('meta[property="article:published_time"]')).toBeNull();
    expect(attr('link[rel="prev"]', 'href')).toBe('/anxiety');
    expect(attr('link[rel="next"]', 'href')).toBe('/anxiety/page/3');
  });

  it('removes the JSON-LD blocks, which describe the page left (crawlers read them in the HTML)', () => {
    applyHead(LISTING);
    expect(document.head.querySelectorAll('script[type="application/ld+json"]')).toHaveLength(0);
  });

  it('gives an error page no canonical and asks robots not to index it', () => {
    applyHead({ ...LISTING, title: 'Page Not Found | S', canonical: '', noindex: true, prev: null, next: null });
    expect(document.head.querySelector('link[rel="canonical"]')).toBeNull();
    expect(document.head.querySelector('meta[property="og:url"]')).toBeNull();
    expect(attr('meta[name="robots"]', 'content')).toBe('noindex');
    applyHead(LISTING);
    expect(document.head.querySelector('meta[name="robots"]')).toBeNull();
  });

  it('leaves the site-wide elements alone', () => {
    applyHead(LISTING);
    expect(attr('meta[property="og:site_name"]', 'content')).toBe('S');
    expect(attr('link[rel="stylesheet"]', 'href')).toBe('/assets/entry.css');
    expect(document.head.querySelectorAll('title')).toHaveLength(1);
  });
});

describe('headIn', () => {
  it('reads the head the builder wrote', () => {
    expect(headIn(document)).toEqual({
      title: 'Body Scan | S',
      description: 'Scan.',
      canonical: 'https://s.example/articles/body-scan',
      ogType: 'article',
      image: 'https://s.example/i.svg',
      published: '2025-03-02',
      prev: null,
      next: null,
      noindex: false,
    });
  });

  it('reads back what applyHead set', () => {
    applyHead(LISTING);
    expect(headIn(document)).toEqual(LISTING);
    applyHead({ ...LISTING, noindex: true, prev: null });
    expect(headIn(document)).toEqual({ ...LISTING, noindex: true, prev: null });
  });
});
