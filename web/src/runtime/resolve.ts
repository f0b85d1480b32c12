// What a navigation to a path shows: a page to render in place, or a full page load and why.
// The loader's answers map to the DESIGN.md rules: not-found → the 404 page (a full load when a
// HEAD finds a file at the path), server-error → the 500 page, failed → a full load; page-data of
// another build, site data that cannot be read, or a template chunk that is missing or does not
// load → a full load, never a blank page.
import type { PageData, SiteData } from '../protocol';
import type { Loader } from './loader';
import { MissingTemplateError, type View } from './view';

/** Routes of the error pages' page-data. */
export const NOT_FOUND_PATH = '/404';
export const SERVER_ERROR_PATH = '/500';

export type FullLoadReason =
  | 'file'
  | 'failed'
  | 'build-changed'
  | 'site-data-failed'
  | 'missing-template'
  | 'chunk-failed';

export type Resolved =
  | {
      readonly kind: 'render';
      readonly data: PageData;
      /** New site data for the header and footer, when the page names another site data file. */
      readonly site: SiteData | null;
      readonly siteHash: string;
    }
  | { readonly kind: 'full-load'; readonly reason: FullLoadReason };

export type ResolveContext = {
  readonly loader: Loader;
  readonly view: View;
  /** The running bundle's build hash. */
  readonly build: string;
  /** Hash of the site data the header and footer show. */
  readonly siteHash: string;
  /** Whether a HEAD of `path` answers 200 (a file lives there). */
  readonly isFile: (path: string) => Promise<boolean>;
};

const fullLoad = (reason: FullLoadReason): Resolved => ({ kind: 'full-load', reason });

export async function resolvePage(path: string, ctx: ResolveContext): Promise<Resolved> {
  const resource = await ctx.loader.loadPage(path);
  let data: PageData;
  if (resource.kind === 'page') {
    data = resource.data;
  } else if (resource.kind === 'failed') {
    return fullLoad('failed');
  } else {
    if (resource.kind === 'not-found' && (await ctx.isFile(path))) return fullLoad('file');
    const error = await ctx.loader.loadPage(resource.kind === 'not-found' ? NOT_FOUND_PATH : SERVER_ERROR_PATH);
    if (error.kind !== 'page') return fullLoad('failed');
    data = error.data;
  }
  if (data.webpackCompilationHash !== ctx.build) return fullLoad('build-changed');
  const siteHash = data.staticQueryHashes[0] ?? ctx.siteHash;
  let site: SiteData | null = null;
  if (siteHash !== ctx.siteHash) {
    try {
      site = await ctx.loader.loadSiteData(siteHash);
    } catch {
      return fullLoad('site-data-failed');
    }
  }
  try {
    await ctx.view.prepare(data.componentChunkName);
  } catch (error) {
    if (error instanceof MissingTemplateError) {
      console.error(error.message);
      return fullLoad('missing-template');
    }
    return fullLoad('chunk-failed');
  }
  return { kind: 'render', data, site, siteHash };
}
