import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLoader, PAGE_RETRIES, pageKey, parsePageData } from './loader';

const PAGE = {
  componentChunkName: 'Info',
  path: '/terms',
  matchPath: null,
  result: { pageContext: { path: '/terms' }, head: { title: 'Terms | S' } },
  staticQueryHashes: ['s1'],
  slicesMap: { header: 'header', footer: 'footer' },
  webpackCompilationHash: 'b1',
};

type Answer = number | 'network-error' | { status: 200; body: string };

/** A fetch that gives the answers in order (the last one repeats), counting calls by URL. */
function fakeFetch(...answers: Answer[]) {
  const calls: string[] = [];
  const fetch = vi.fn(async (url: string) => {
    calls.push(url);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    if (typeof answer === 'number')
      return new Response(answer === 200 ? JSON.stringify(PAGE) : 'x', { status: answer });
    return new Response(answer?.body, { status: 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

const loader = () => createLoader({ retryDelay: () => 0 });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('pageKey', () => {
  it.each([
    ['/', '/'],
    ['/a/', '/a'],
    ['/a//', '/a'],
    ['/a/b', '/a/b'],
  ])('%s → %s', (path, key) => {
    expect(pageKey(path)).toBe(key);
  });
});

describe('parsePageData', () => {
  it('accepts page-data', () => {
    expect(parsePageData(JSON.stringify(PAGE))?.componentChunkName).toBe('Info');
  });

  it("accepts an article's page-data without a head (its HTML has it)", () => {
    const article = { ...PAGE, componentChunkName: 'Article', result: { pageContext: {} } };
    expect(parsePageData(JSON.stringify(article))?.componentChunkName).toBe('Article');
  });

  it.each([
    ['not JSON', '<!doctype html>'],
    ['an array', '[]'],
    ['no template', JSON.stringify({ ...PAGE, componentChunkName: undefined })],
    ['no head', JSON.stringify({ ...PAGE, result: { pageContext: {} } })],
    ['no build hash', JSON.stringify({ ...PAGE, webpackCompilationHash: 1 })],
  ])('rejects %s', (_, text) => {
    expect(parsePageData(text)).toBeNull();
  });
});

describe('loadPage', () => {
  it('fetches page-data once and keeps it', async () => {
    const calls = fakeFetch(200);
    const pages = loader();
    expect((await pages.loadPage('/terms')).kind).toBe('page');
    expect((await pages.loadPage('/terms/')).kind).toBe('page');
    expect(calls).toEqual(['/page-data/terms/page-data.json']);
  });

  it('shares one request between callers while it is in flight', async () => {
    const calls = fakeFetch(200);
    const pages = loader();
    const [a, b] = await Promise.all([pages.loadPage('/terms'), pages.loadPage('/terms')]);
    expect(a).toBe(b);
    expect(calls).toHaveLength(1);
  });

  it('calls a 404 not-found, without retrying', async () => {
    const calls = fakeFetch(404);
    expect(await loader().loadPage('/gone')).toEqual({ kind: 'not-found' });
    expect(calls).toHaveLength(1);
  });

  it('calls a 200 that is not page-data not-found', async () => {
    fakeFetch({ status: 200, body: '<!doctype html><title>x</title>' });
    expect(await loader().loadPage('/x')).toEqual({ kind: 'not-found' });
  });

  it('calls a 500 server-error, and asks again next time', async () => {
    const calls = fakeFetch(500, 200);
    const pages = loader();
    expect(await pages.loadPage('/terms')).toEqual({ kind: 'server-error' });
    expect((await pages.loadPage('/terms')).kind).toBe('page');
    expect(calls).toHaveLength(2);
  });

  it('retries other failures and succeeds on the third attempt', async () => {
    const calls = fakeFetch(503, 'network-error', 200);
    expect((await loader().loadPage('/terms')).kind).toBe('page');
    expect(calls).toHaveLength(3);
  });

  it(`gives up after ${PAGE_RETRIES} retries, and does not keep the failure`, async () => {
    const calls = fakeFetch(503);
    const pages = loader();
    expect(await pages.loadPage('/terms')).toEqual({ kind: 'failed', status: 503 });
    expect(calls).toHaveLength(1 + PAGE_RETRIES);
    expect(pages.has('/terms')).toBe(false);
  });

  it('does not retry while the browser is offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const calls = fakeFetch('network-error');
    expect(await loader().loadPage('/terms')).toEqual({ kind: 'failed', status: 0 });
    expect(calls).toHaveLength(1);
  });

  it('answers seeded pages without fetching', async () => {
    const calls = fakeFetch(500);
    const pages = loader();
    pages.seed('/terms', PAGE as never);
    expect((await pages.loadPage('/terms')).kind).toBe('page');
    expect(calls).toHaveLength(0);
  });
});

describe('loadSiteData', () => {
  it('fetches a site data file once', async () => {
    const calls = fakeFetch({ status: 200, body: '{"brand":"S"}' });
    const pages = loader();
    await pages.loadSiteData('h1');
    await pages.loadSiteData('h1');
    expect(calls).toEqual(['/page-data/sq/d/h1.json']);
  });

  it('fails once, says so on the console, and does not fetch again', async () => {
    const calls = fakeFetch(503);
    const pages = loader();
    await expect(pages.loadSiteData('h1')).rejects.toThrow('503');
    await expect(pages.loadSiteData('h1')).rejects.toThrow('503');
    expect(calls).toHaveLength(1);
    expect(console.error).toHaveBeenCalledWith('Failed to load the static query file /page-data/sq/d/h1.json');
  });
});

describe('refresh', () => {
  it('forgets every page and loads the one asked for past the HTTP cache', async () => {
    const inits: (RequestInit | undefined)[] = [];
    const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
      inits.push(init);
      return new Response(JSON.stringify(PAGE), { status: 200 });
    });
    vi.stubGlobal('fetch', fetch);
    const l = loader();
    await l.loadPage('/terms');
    await l.loadPage('/about');
    expect(fetch).toHaveBeenCalledTimes(2);
    const fresh = await l.refresh('/terms/');
    expect(fresh.kind).toBe('page');
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(fetch.mock.calls[2]?.[0]).toBe('/page-data/terms/page-data.json');
    expect(inits[2]).toEqual({ cache: 'no-cache' });
    // The refreshed page is kept; the others are loaded again when asked for.
    await l.loadPage('/terms');
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(l.has('/about')).toBe(false);
    await l.loadPage('/about');
    expect(fetch).toHaveBeenCalledTimes(4);
  });
});

describe('an article', () => {
  // As the builder writes it: no body and no head, both in the HTML.
  const ARTICLE = { ...PAGE, componentChunkName: 'Article', path: '/articles/a', result: { pageContext: {} } };
  const HTML =
    '<!doctype html><head><title>A | S</title></head><body><div id="sp-page"><main><div class="prose" data-body=""><p>Breathe <em>in</em>.</p></div></main></div></body>';

  /** A fetch answering page-data and HTML by URL, each from its own list of answers. */
  function byUrl(data: Answer[], html: Answer[]) {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(url);
        const list = url.startsWith('/page-data/') ? data : html;
        const seen = calls.filter((c) => c.startsWith('/page-data/') === url.startsWith('/page-data/')).length;
        const answer = list[Math.min(seen - 1, list.length - 1)];
        if (answer === 'network-error') throw new TypeError('Failed to fetch');
        if (typeof answer === 'number') return new Response('x', { status: answer });
        return new Response(answer?.body, { status: 200 });
      }),
    );
    return calls;
  }

  it('takes its body from its HTML, fetched beside its page-data', async () => {
    const calls = byUrl([{ status: 200, body: JSON.stringify(ARTICLE) }], [{ status: 200, body: HTML }]);
    const page = await loader().loadPage('/articles/a');
    expect(page.kind === 'page' && page.data.result.pageContext).toMatchObject({
      bodyHtml: '<p>Breathe <em>in</em>.</p>',
    });
    expect(page.kind === 'page' && page.data.result.head.title).toBe('A | S');
    expect(calls.sort()).toEqual(['/articles/a', '/page-data/articles/a/page-data.json']);
  });

  it('retries its HTML like its page-data', async () => {
    const calls = byUrl(
      [{ status: 200, body: JSON.stringify(ARTICLE) }],
      [503, 'network-error', { status: 200, body: HTML }],
    );
    expect((await loader().loadPage('/articles/a')).kind).toBe('page');
    expect(calls.filter((c) => c === '/articles/a')).toHaveLength(3);
  });

  it('is a full load when its HTML has no body or does not come', async () => {
    byUrl([{ status: 200, body: JSON.stringify(ARTICLE) }], [{ status: 200, body: '<p>moved</p>' }]);
    expect(await loader().loadPage('/articles/a')).toEqual({ kind: 'failed', status: 200 });
    byUrl([{ status: 200, body: JSON.stringify(ARTICLE) }], [503]);
    expect(await loader().loadPage('/articles/a')).toEqual({ kind: 'failed', status: 503 });
  });

  it('is not found when its page-data is not found, whatever its HTML', async () => {
    byUrl([404], [{ status: 200, body: HTML }]);
    expect(await loader().loadPage('/articles/a')).toEqual({ kind: 'not-found' });
  });

  it('keeps a body page-data already has (an older build)', async () => {
    const withBody = {
      ...PAGE,
      componentChunkName: 'Article',
      result: { ...PAGE.result, pageContext: { bodyHtml: '<p>old</p>' } },
    };
    byUrl([{ status: 200, body: JSON.stringify(withBody) }], [503]);
    const page = await loader().loadPage('/articles/a');
    expect(page.kind === 'page' && page.data.result.pageContext).toMatchObject({ bodyHtml: '<p>old</p>' });
  });
});
