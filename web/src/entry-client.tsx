// Hydration. The Rust builder wrote the document: `<body data-template data-path data-build data-site>`
// with three containers holding server HTML. This entry fetches the page's data and the site data,
// loads the template's chunk, and hydrates the three React roots.
import './styles/tokens.css';
import './styles/global.css';
import type { ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { Footer } from './components/Footer/Footer';
import { Header } from './components/Header/Header';
import { Page } from './components/Page/Page';
import type { TemplateName, TemplateProps } from './protocol';
import { type PageAttributes, ROOTS, readPageAttributes } from './runtime/document';
import { fetchPageData, fetchSiteData } from './runtime/pageData';

type PageProps = TemplateProps[TemplateName];
type TemplateModule = { default: ComponentType<PageProps> };

// One lazy chunk per template (`src/templates/{Name}.tsx` in the Vite manifest).
const templateChunks = import.meta.glob<TemplateModule>('./templates/*.tsx');

async function loadTemplate(name: string): Promise<ComponentType<PageProps>> {
  const load = templateChunks[`./templates/${name}.tsx`];
  if (!load) throw new Error(`missing component chunk for template "${name}"`);
  return (await load()).default;
}

function container(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the document`);
  return element;
}

async function hydrateSlices(page: PageAttributes): Promise<void> {
  const site = await fetchSiteData(page.site);
  hydrateRoot(container(ROOTS.header.id), <Header site={site} />, {
    identifierPrefix: ROOTS.header.identifierPrefix,
  });
  hydrateRoot(container(ROOTS.footer.id), <Footer site={site} />, {
    identifierPrefix: ROOTS.footer.identifierPrefix,
  });
}

async function hydratePage(page: PageAttributes): Promise<void> {
  const [data, template] = await Promise.all([
    fetchPageData(page.path).catch((error: unknown) => {
      console.error(`page resources for ${page.path} not found. Not rendering React`);
      throw error;
    }),
    loadTemplate(page.template),
  ]);
  hydrateRoot(container(ROOTS.page.id), <Page template={template} props={data.result.pageContext} />, {
    identifierPrefix: ROOTS.page.identifierPrefix,
  });
}

function start(body: HTMLElement): Promise<unknown> {
  const page = readPageAttributes(body);
  if (!page) return Promise.resolve();
  return Promise.allSettled([hydrateSlices(page), hydratePage(page)]).then((results) => {
    for (const result of results) if (result.status === 'rejected') console.error(result.reason);
  });
}

void start(document.body);
