// @vitest-environment node
// The Rust builder writes src/protocol.samples.json (crates/site/src/protocol/samples.rs, which fails
// when the file is stale): one sample of every envelope it emits and the URL of every file its output
// layout names. Here the web side reads them with its own parsers, paths and templates, so a change
// of shape or of layout on either side fails a test instead of a deployed site.
import { describe, expect, it, vi } from 'vitest';
import { renderPage, templates } from './entry-server';
import type { AppData, PageData, SiteData, SliceData, TemplateName, WorkerRequest, WorkerResponse } from './protocol';
import rawSamples from './protocol.samples.json';
import { needsDocument } from './runtime/fromDocument';
import { isPagePath } from './runtime/links';
import { parsePageData } from './runtime/loader';
import { APP_DATA_URL, pageDataUrl, siteDataUrl } from './runtime/pageData';
import { strategyFor } from './sw/routes';
import { pageProps, site as siteFixture } from './test/fixtures';
import { encodeAnswer, handleLine } from './worker/handle';

type Samples = {
  readonly layout: {
    readonly routes: readonly { readonly route: string; readonly html: string; readonly pageData: string }[];
    readonly siteData: { readonly hash: string; readonly url: string };
    readonly sliceData: Readonly<Record<string, string>>;
    readonly appData: string;
    readonly serviceWorker: string;
    readonly feeds: readonly string[];
    readonly dataDirs: readonly string[];
    readonly assetsDir: string;
    readonly searchDir: string;
  };
  readonly pageData: readonly PageData[];
  readonly sliceData: readonly SliceData[];
  readonly appData: AppData;
  readonly workerRequests: readonly WorkerRequest[];
  readonly workerResponses: readonly WorkerResponse[];
};

// JSON imports are typed with widened strings; the checks below are what makes this cast honest.
const samples = rawSamples as unknown as Samples;
const ORIGIN = 'https://site.example';

const keys = (value: object) => Object.keys(value).sort();
const responseOf = (type: WorkerResponse['type']) => {
  const sample = samples.workerResponses.find((r) => r.type === type);
  if (!sample) throw new Error(`no ${type} response sample`);
  return sample;
};

describe('the output layout', () => {
  it('puts every page-data where the runtime fetches it', () => {
    expect(samples.layout.routes.length).toBeGreaterThan(5);
    for (const { route, pageData } of samples.layout.routes) {
      expect(pageDataUrl(route)).toBe(pageData);
    }
  });

  it('names the site data and app-data files the runtime reads', () => {
    expect(siteDataUrl(samples.layout.siteData.hash)).toBe(samples.layout.siteData.url);
    expect(APP_DATA_URL).toBe(samples.layout.appData);
  });

  it('treats every route as a page and no data, asset or slice file as one', () => {
    for (const { route } of samples.layout.routes) expect(isPagePath(route)).toBe(true);
    for (const dir of [...samples.layout.dataDirs, samples.layout.assetsDir]) {
      expect(isPagePath(`${dir}x.json`)).toBe(false);
    }
    for (const url of Object.values(samples.layout.sliceData)) expect(isPagePath(url)).toBe(false);
    expect(isPagePath(samples.layout.appData)).toBe(false);
  });

  it('lets the service worker script pass its own worker untouched', () => {
    expect(strategyFor('GET', new URL(samples.layout.serviceWorker, ORIGIN), ORIGIN)).toBe('pass');
  });

  it('names a slice-data file for every slice page-data refers to', () => {
    for (const data of samples.pageData) {
      for (const name of Object.values(data.slicesMap)) expect(samples.layout.sliceData[name]).toBeDefined();
    }
  });
});

describe('page-data', () => {
  it('is accepted by the loader for every template', () => {
    const names = samples.pageData.map((p) => p.componentChunkName).sort();
    expect(names).toEqual(Object.keys(templates).sort());
    for (const data of samples.pageData) {
      expect(parsePageData(JSON.stringify(data)), data.path).toEqual(data);
      expect(data.matchPath).toBeNull();
      expect(data.staticQueryHashes).toEqual([samples.layout.siteData.hash]);
      expect(data.webpackCompilationHash).toBe(samples.appData.webpackCompilationHash);
      expect(data.result.pageContext.path).toBe(data.path);
    }
  });

  it('carries every field of the page head', () => {
    const head = ['canonical', 'description', 'image', 'next', 'noindex', 'ogType', 'prev', 'published', 'title'];
    for (const data of samples.pageData) {
      // An article's head is in its HTML: the runtime reads it with `headIn` (runtime/head.test.ts).
      if (needsDocument(data)) expect(data.result.head).toBeUndefined();
      else expect(keys(data.result.head)).toEqual(head);
    }
  });

  it('renders with its template on the server', () => {
    for (const data of samples.pageData) {
      const html = renderPage(data.componentChunkName as TemplateName, data.result.pageContext as never);
      expect(html.length, data.path).toBeGreaterThan(100);
    }
    const article = samples.pageData.find((p) => p.componentChunkName === 'Article');
    expect(article && needsDocument(article)).toBe(true);
    const info = samples.pageData.find((p) => p.componentChunkName === 'Info');
    const body = info && 'bodyHtml' in info.result.pageContext ? info.result.pageContext.bodyHtml : '';
    expect(body).toMatch(/^</);
  });
});

describe('the hand-written test fixtures', () => {
  // Component tests use src/test/fixtures.ts; its props must keep the shape the builder sends.
  const shape = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.length > 0 ? [shape(value[0])] : [];
    if (value === null || typeof value !== 'object') return typeof value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v === null ? 'null' : shape(v)]));
  };
  const fieldsOf = (value: object) => keys(value);

  it('have the fields of the props of every template', () => {
    for (const data of samples.pageData) {
      const fixture = pageProps[data.componentChunkName];
      // The props the templates render: an article's with the body the runtime adds.
      const props = needsDocument(data) ? { ...data.result.pageContext, bodyHtml: '' } : data.result.pageContext;
      expect(fieldsOf(fixture), data.componentChunkName).toEqual(fieldsOf(props));
    }
  });

  it('have the fields of the site data', () => {
    const slices = samples.workerRequests.find((r) => r.type === 'slices') as { site: SiteData } | undefined;
    expect(fieldsOf(siteFixture)).toEqual(fieldsOf(slices?.site ?? {}));
    expect(shape(siteFixture.categories[0])).toEqual(shape(slices?.site.categories[0]));
  });
});

describe('slice data and app-data', () => {
  it('gives each slice template the site data', () => {
    const slices = samples.workerRequests.find((r) => r.type === 'slices');
    const site = (slices as { site: SiteData } | undefined)?.site;
    expect(samples.sliceData.map((s) => s.componentChunkName)).toEqual(['Header', 'Footer']);
    for (const slice of samples.sliceData) expect(slice.result.sliceContext).toEqual(site);
  });

  it('names the build', () => {
    expect(keys(samples.appData)).toEqual(['webpackCompilationHash']);
    expect(samples.appData.webpackCompilationHash).toMatch(/^[0-9a-f]+$/);
  });
});

describe('the worker protocol', () => {
  it('answers every request the builder sends, in the shape the builder reads', () => {
    for (const request of samples.workerRequests) {
      const answer = handleLine(JSON.stringify(request));
      if (!answer) throw new Error('no answer');
      const written = encodeAnswer(answer).toString('utf8');
      const lineEnd = written.indexOf('\n');
      const response = JSON.parse(written.slice(0, lineEnd)) as WorkerResponse;
      const expected = request.type === 'render' ? 'rendered' : 'slices';
      expect(response).toMatchObject({ id: request.id, type: expected });
      expect(keys(response)).toEqual(keys(responseOf(expected)));
      const rest = written.slice(lineEnd + 1);
      if (response.type === 'rendered') {
        expect(rest).toContain('</h1>');
        expect(response.bytes).toBe(Buffer.byteLength(rest));
      } else {
        expect(rest).toBe('');
      }
    }
  });

  it('reports a bad line as the error the builder reads', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = handleLine('not json');
    expect(keys(response ?? {})).toEqual(keys(responseOf('error')));
    const sample = responseOf('error');
    expect(response).toMatchObject({ id: 'id' in sample ? sample.id : null, type: 'error' });
  });

  it('starts with the ready line the builder waits for', () => {
    expect(responseOf('ready')).toEqual({ type: 'ready' });
  });
});
