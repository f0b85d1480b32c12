// Hydration, loaded by entry-client.ts once the page has painted. The Rust builder wrote the
// document: `<body data-template data-path data-build data-site>` with three containers holding
// server HTML. The entry has already started fetching the page's data, the site data and the
// template's chunk; this hydrates the three React roots with them. Then the runtime takes over: the
// build-hash check and the service worker at once, client-side navigation and prefetch when the
// browser is idle (src/runtime/: plain TypeScript, which renders through the `View` below).
import { type ReactNode, startTransition } from 'react';
import { flushSync } from 'react-dom';
import { hydrateRoot, type Root } from 'react-dom/client';
import { Footer } from './components/Footer/Footer';
import { Header } from './components/Header/Header';
import { Page } from './components/Page/Page';
import type { PageData, SiteData } from './protocol';
import { loadNavigationSoon, registerServiceWorkerAfterLoad } from './runtime/boot';
import { checkBuildHash } from './runtime/buildHash';
import { type PageAttributes, ROOTS } from './runtime/document';
import type { EarlyFetches } from './runtime/early';
import { followUnprefixedFragments } from './runtime/fragment';
import { completeFrom, needsDocument } from './runtime/fromDocument';
import { loadedTemplate, loadTemplate } from './runtime/templates';
import { MissingTemplateError, type View } from './runtime/view';

/**
 * Hydrates `element` into `container` as a transition: React then hydrates in slices of a few
 * milliseconds, yielding to the browser between them, instead of in one long task.
 */
function hydrateInSlices(id: string, element: ReactNode, identifierPrefix: string): Root {
  let root: Root | undefined;
  startTransition(() => {
    root = hydrateRoot(container(id), element, { identifierPrefix });
  });
  if (!root) throw new Error(`#${id} was not hydrated`);
  return root;
}

function container(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the document`);
  return element;
}

type Slices = { readonly site: SiteData; readonly header: Root; readonly footer: Root };

async function hydrateSlices(early: EarlyFetches): Promise<Slices> {
  const site = await early.site;
  const header = hydrateInSlices(ROOTS.header.id, <Header site={site} />, ROOTS.header.identifierPrefix);
  const footer = hydrateInSlices(ROOTS.footer.id, <Footer site={site} />, ROOTS.footer.identifierPrefix);
  return { site, header, footer };
}

type HydratedPage = { readonly data: PageData; readonly root: Root };

async function hydratePage(page: PageAttributes, early: EarlyFetches): Promise<HydratedPage> {
  const [fetched, template] = await Promise.all([
    early.data.catch((error: unknown) => {
      console.error(`page resources for ${page.path} not found. Not rendering React`);
      throw error;
    }),
    early.template,
  ]);
  // An article's page-data has no body or head: they are the server HTML's, read before React hydrates.
  const data = (needsDocument(fetched) && completeFrom(fetched, document)) || fetched;
  const root = hydrateInSlices(
    ROOTS.page.id,
    <Page template={template} props={data.result.pageContext} />,
    ROOTS.page.identifierPrefix,
  );
  return { data, root };
}

/** How the runtime renders: templates into the page root, site data into the header and footer. */
function createView(slices: Slices, page: HydratedPage): View {
  return {
    async prepare(template) {
      await loadTemplate(template);
    },
    renderPage(name, props) {
      const template = loadedTemplate(name);
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

/** Hydrates the page `early` was started for, then starts the runtime. */
export function hydrate(page: PageAttributes, early: EarlyFetches): void {
  void checkBuildHash(page.build).then((check) => {
    document.documentElement.dataset.buildCheck = check;
  });
  registerServiceWorkerAfterLoad(page);
  followUnprefixedFragments();
  Promise.allSettled([hydrateSlices(early), hydratePage(page, early)]).then(([slices, hydrated]) => {
    for (const result of [slices, hydrated]) if (result.status === 'rejected') console.error(result.reason);
    if (slices.status === 'fulfilled' && hydrated.status === 'fulfilled') {
      const view = createView(slices.value, hydrated.value);
      loadNavigationSoon({ view, page, data: hydrated.value.data, site: slices.value.site });
    }
  });
}
