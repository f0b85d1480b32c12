import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PageData, SiteData } from '../protocol';
import type { Loader, PageResource } from './loader';
import { NOT_FOUND_PATH, type ResolveContext, resolvePage, SERVER_ERROR_PATH } from './resolve';
import { MissingTemplateError, type View } from './view';

function pageData(template: string, overrides: Partial<Record<keyof PageData, unknown>> = {}): PageData {
  return {
    componentChunkName: template,
    path: '/x',
    matchPath: null,
    result: { pageContext: {}, head: {} },
    staticQueryHashes: ['site-1'],
    slicesMap: {},
    webpackCompilationHash: 'build-1',
    ...overrides,
  } as unknown as PageData;
}

const pages: Record<string, PageResource> = {
  '/article': { kind: 'page', data: pageData('Article') },
  '/gone': { kind: 'not-found' },
  '/broken': { kind: 'server-error' },
  '/down': { kind: 'failed', status: 503 },
  '/old': { kind: 'page', data: pageData('Article', { webpackCompilationHash: 'build-0' }) },
  '/new-site': { kind: 'page', data: pageData('Article', { staticQueryHashes: ['site-2'] }) },
  '/lost-site': { kind: 'page', data: pageData('Article', { staticQueryHashes: ['site-9'] }) },
  '/unknown-template': { kind: 'page', data: pageData('Nope') },
  [NOT_FOUND_PATH]: { kind: 'page', data: pageData('NotFound') },
  [SERVER_ERROR_PATH]: { kind: 'page', data: pageData('ServerError') },
};

function context(overrides: Partial<ResolveContext> = {}): ResolveContext {
  const loader: Loader = {
    loadPage: async (path) => pages[path] ?? { kind: 'not-found' },
    refresh: async (path) => pages[path] ?? { kind: 'not-found' },
    loadSiteData: async (hash) => {
      if (hash === 'site-2') return { brand: 'New' } as SiteData;
      throw new Error('no such site data');
    },
    has: () => false,
    seed: () => undefined,
    seedSiteData: () => undefined,
  };
  const view: View = {
    prepare: async (template) => {
      if (template === 'Nope') throw new MissingTemplateError(template);
    },
    renderPage: () => undefined,
    renderSite: () => undefined,
  };
  return { loader, view, build: 'build-1', siteHash: 'site-1', isFile: async () => false, ...overrides };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('resolvePage', () => {
  it('renders a page in place', async () => {
    const resolved = await resolvePage('/article', context());
    expect(resolved).toMatchObject({ kind: 'render', site: null, siteHash: 'site-1' });
    expect(resolved.kind === 'render' && resolved.data.componentChunkName).toBe('Article');
  });

  it('shows the 404 page for a path with no page and no file', async () => {
    const resolved = await resolvePage('/gone', context());
    expect(resolved.kind === 'render' && resolved.data.componentChunkName).toBe('NotFound');
  });

  it('loads in full a path with no page where a HEAD finds a file', async () => {
    const isFile = vi.fn(async () => true);
    expect(await resolvePage('/gone', context({ isFile }))).toEqual({ kind: 'full-load', reason: 'file' });
    expect(isFile).toHaveBeenCalledWith('/gone');
  });

  it('shows the 500 page for a server error, without asking for a file', async () => {
    const isFile = vi.fn(async () => true);
    const resolved = await resolvePage('/broken', context({ isFile }));
    expect(resolved.kind === 'render' && resolved.data.componentChunkName).toBe('ServerError');
    expect(isFile).not.toHaveBeenCalled();
  });

  it('loads in full when the page could not be fetched', async () => {
    expect(await resolvePage('/down', context())).toEqual({ kind: 'full-load', reason: 'failed' });
  });

  it('loads in full page-data of another build', async () => {
    expect(await resolvePage('/old', context())).toEqual({ kind: 'full-load', reason: 'build-changed' });
  });

  it('brings new site data along when the page names another file', async () => {
    expect(await resolvePage('/new-site', context())).toMatchObject({
      kind: 'render',
      site: { brand: 'New' },
      siteHash: 'site-2',
    });
  });

  it('loads in full when the site data cannot be read', async () => {
    expect(await resolvePage('/lost-site', context())).toEqual({ kind: 'full-load', reason: 'site-data-failed' });
  });

  it('loads in full, with a console error, when the template chunk is missing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await resolvePage('/unknown-template', context())).toEqual({
      kind: 'full-load',
      reason: 'missing-template',
    });
    expect(error).toHaveBeenCalledWith('missing component chunk for template "Nope"');
  });

  it('loads in full when the template chunk fails to load', async () => {
    const view: View = {
      prepare: async () => {
        throw new TypeError('Failed to fetch dynamically imported module');
      },
      renderPage: () => undefined,
      renderSite: () => undefined,
    };
    expect(await resolvePage('/article', context({ view }))).toEqual({ kind: 'full-load', reason: 'chunk-failed' });
  });
});
