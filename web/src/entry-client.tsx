// Hydration. The Rust builder wrote the document: `<body data-template data-path data-build data-site>`
// with three containers holding server HTML. This entry fetches the page's data and the site data,
// loads the template's chunk, and hydrates the three React roots. Then the runtime takes over: the
// build-hash check and the service worker at once, client-side navigation and prefetch when the
// browser is idle (src/runtime/: plain TypeScript, which renders through the `View` below).
import './styles/tokens.css';
import './styles/global.css';
import './runtime/runtime.css';
import type { ComponentType } from 'react';
import { flushSync } from 'react-dom';
import { hydrateRoot, type Root } from 'react-dom/client';
import { Footer } from './components/Footer/Footer';
import { Header } from './components/Header/Header';
import { Page } from './components/Page/Page';
import type { PageData, SiteData, TemplateName, TemplateProps } from './protocol';
import { loadNavigationSoon, registerServiceWorkerAfterLoad } from './runtime/boot';
import { checkBuildHash } from './runtime/buildHash';
import { type PageAttributes, ROOTS, readPageAttributes } from './runtime/document';
import { fetchPageData, fetchSiteData } from './runtime/pageData';
import { MissingTemplateError, type View } from './runtime/view';

type PageProps = TemplateProps[TemplateName];
type TemplateModule = { default: ComponentType<PageProps> };

// One lazy chunk per template (`src/templates/{Name}.tsx` in the Vite manifest).
const templateChunks = import.meta.glob<TemplateModule>('./templates/*.tsx');
const loadedTemplates = new Map<string, ComponentType<PageProps>>();

async function loadTemplate(name: string): Promise<ComponentType<PageProps>> {
  const known = loadedTemplates.get(name);
  if (known) return known;
  const load = templateChunks[`./templates/${name}.tsx`];
  if (!load) throw new MissingTemplateError(name);
  const template = (await load()).default;
  loadedTemplates.set(name, template);
  return template;
}

function container(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the document`);
  return element;
}

type Slices = { readonly site: SiteData; readonly header: Root; readonly footer: Root };

async function hydrateSlices(page: PageAttributes): Promise<Slices> {
  const site = await fetchSiteData(page.site);
  const header = hydrateRoot(container(ROOTS.header.id), <Header site={site} />, {
    identifierPrefix: ROOTS.header.identifierPrefix,
  });
  const footer = hydrateRoot(container(ROOTS.footer.id), <Footer site={site} />, {
    identifierPrefix: ROOTS.footer.identifierPrefix,
  });
  return { site, header, footer };
}

type HydratedPage = { readonly data: PageData; readonly root: Root };

async function hydratePage(page: PageAttributes): Promise<HydratedPage> {
  const [data, template] = await Promise.all([
    fetchPageData(page.path).catch((error: unknown) => {
      console.error(`page resources for ${page.path} not found. Not rendering React`);
      throw error;
    }),
    loadTemplate(page.template),
  ]);
  const root = hydrateRoot(container(ROOTS.page.id), <Page template={template} props={data.result.pageContext} />, {
    identifierPrefix: ROOTS.page.identifierPrefix,
  });
  return { data, root };
}

/** How the runtime renders: templates into the page root, site data into the header and footer. */
function createView(slices: Slices, page: HydratedPage): View {
  return {
    async prepare(template) {
      await loadTemplate(template);
    },
    renderPage(name, props) {
      const template = loadedTemplates.get(name);
      if (!template) throw new MissingTemplateError(name);
      // A new key per path: the next page starts with fresh component state.
      flushSync(() => page.root.render(<Page key={props.path} template={template} props={props} />));
    },
    renderSite(site) {
      flushSync(() => {
        slices.header.render(<Header site={site} />);
        slices.footer.render(<Footer site={site} />);
      });
    },
  };
}

function start(body: HTMLElement): void {
  const page = readPageAttributes(body);
  if (!page) return;
  void checkBuildHash(page.build).then((check) => {
    document.documentElement.dataset.buildCheck = check;
  });
  registerServiceWorkerAfterLoad(page);
  Promise.allSettled([hydrateSlices(page), hydratePage(page)]).then(([slices, hydrated]) => {
    for (const result of [slices, hydrated]) if (result.status === 'rejected') console.error(result.reason);
    if (slices.status === 'fulfilled' && hydrated.status === 'fulfilled') {
      const view = createView(slices.value, hydrated.value);
      loadNavigationSoon({ view, page, data: hydrated.value.data, site: slices.value.site });
    }
  });
}

start(document.body);
