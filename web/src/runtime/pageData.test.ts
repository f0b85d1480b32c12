import { afterEach, describe, expect, it, vi } from 'vitest';
import { FetchError, fetchJson, pageDataUrl, siteDataUrl } from './pageData';

describe('pageDataUrl', () => {
  it.each([
    ['/', '/page-data/index/page-data.json'],
    ['/authors', '/page-data/authors/page-data.json'],
    ['/a/b', '/page-data/a/b/page-data.json'],
    ['/a/b/', '/page-data/a/b/page-data.json'],
    ['/articles/body-scan', '/page-data/articles/body-scan/page-data.json'],
  ])('maps %s to %s', (path, url) => {
    expect(pageDataUrl(path)).toBe(url);
  });
});

describe('siteDataUrl', () => {
  it('puts the hash under sq/d', () => {
    expect(siteDataUrl('abc123')).toBe('/page-data/sq/d/abc123.json');
  });
});

describe('fetchJson', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('returns the parsed body of a 200', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"a":1}', { status: 200 })),
    );
    await expect(fetchJson('/x.json')).resolves.toEqual({ a: 1 });
  });

  it('throws a FetchError carrying the status otherwise', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('nope', { status: 404 })),
    );
    const error = await fetchJson('/x.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as FetchError).status).toBe(404);
  });
});
