// Server rendering, used by the Node SSR worker (worker.ts) and by the tests. Templates are imported
// statically here: the table below is type-checked against protocol.ts, so a template whose props
// drift from its PageProps fails `tsc`.
import type { ComponentType, ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Footer } from './components/Footer/Footer';
import { Header } from './components/Header/Header';
import { Page } from './components/Page/Page';
import type { SiteData, TemplateName, TemplateProps } from './protocol';
import { ROOTS } from './runtime/document';
import Article from './templates/Article';
import Author from './templates/Author';
import Authors from './templates/Authors';
import Category from './templates/Category';
import Home from './templates/Home';
import Info from './templates/Info';
import NotFound from './templates/NotFound';
import ServerError from './templates/ServerError';
import Sitemap from './templates/Sitemap';
import Subcategory from './templates/Subcategory';
import Subsubcategory from './templates/Subsubcategory';

type Templates = { readonly [Name in TemplateName]: ComponentType<TemplateProps[Name]> };

export const templates: Templates = {
  Home,
  Article,
  Category,
  Subcategory,
  Subsubcategory,
  Authors,
  Author,
  Info,
  Sitemap,
  NotFound,
  ServerError,
};

// Without a <head> in the tree, React puts `<link rel="preload" as="image">` for eager images at the
// start of the string. The document head is written by the builder, so these are dropped: the
// fragment then holds exactly the tree the client hydrates (React would skip them anyway).
const LEADING_IMAGE_PRELOADS = /^(?:<link rel="preload"[^>]*\/>)+/;

function render(element: ReactElement, identifierPrefix: string): string {
  return renderToString(element, { identifierPrefix }).replace(LEADING_IMAGE_PRELOADS, '');
}

/** The HTML of `#sp-page`: the sponsored block (if any), then `<main id="main">` holding the template. */
export function renderPage<Name extends TemplateName>(template: Name, props: TemplateProps[Name]): string {
  if (!Object.hasOwn(templates, template)) throw new Error(`unknown template "${template}"`);
  const component: ComponentType<TemplateProps[Name]> = templates[template];
  return render(<Page template={component} props={props} />, ROOTS.page.identifierPrefix);
}

/** The header and footer slices: rendered once per build and stitched into every page. */
export function renderSlices(site: SiteData): { header: string; footer: string } {
  return {
    header: render(<Header site={site} />, ROOTS.header.identifierPrefix),
    footer: render(<Footer site={site} />, ROOTS.footer.identifierPrefix),
  };
}
