// The server HTML hydrates with no warning: renderPage/renderSlices output is put in the document
// exactly as the Rust shell writes it, then hydrated the way hydrate.tsx does.
import { act } from '@testing-library/react';
import type { ComponentType } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Footer } from './components/Footer/Footer';
import { Header } from './components/Header/Header';
import { Page } from './components/Page/Page';
import { renderPage, renderSlices, templates } from './entry-server';
import type { TemplateName, TemplateProps } from './protocol';
import { ROOTS } from './runtime/document';
import { pageProps, site, templateNames } from './test/fixtures';
import { setViewportWidth } from './test/setup';

let roots: Root[] = [];
let errors: ReturnType<typeof vi.spyOn>;
let warnings: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  errors = vi.spyOn(console, 'error');
  warnings = vi.spyOn(console, 'warn');
  vi.stubGlobal('IS_REACT_ACT_ENVIRONMENT', true);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => undefined }, configurable: true });
});

afterEach(() => {
  for (const root of roots) act(() => root.unmount());
  roots = [];
  document.body.innerHTML = '';
  errors.mockRestore();
  warnings.mockRestore();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'clipboard');
});

function writeShell<Name extends TemplateName>(name: Name, props: TemplateProps[Name]): void {
  const { header, footer } = renderSlices(site);
  document.body.innerHTML =
    '<a class="skip-link" href="#main">Skip to content</a>' +
    `<div id="${ROOTS.header.id}">${header}</div>` +
    `<div id="${ROOTS.page.id}">${renderPage(name, props)}</div>` +
    `<div id="${ROOTS.footer.id}">${footer}</div>`;
}

async function hydrate<Name extends TemplateName>(name: Name, props: TemplateProps[Name]): Promise<void> {
  const template = templates[name] as ComponentType<TemplateProps[Name]>;
  const element = (id: string) => document.getElementById(id) as HTMLElement;
  await act(async () => {
    roots = [
      hydrateRoot(element(ROOTS.header.id), <Header site={site} />, {
        identifierPrefix: ROOTS.header.identifierPrefix,
      }),
      hydrateRoot(element(ROOTS.page.id), <Page template={template} props={props} />, {
        identifierPrefix: ROOTS.page.identifierPrefix,
      }),
      hydrateRoot(element(ROOTS.footer.id), <Footer site={site} />, {
        identifierPrefix: ROOTS.footer.identifierPrefix,
      }),
    ];
  });
}

describe.each([1280, 375])('hydration at %ipx', (width) => {
  beforeEach(() => setViewportWidth(width));

  it.each(templateNames)('%s hydrates without errors or warnings', async (name) => {
    writeShell(name, pageProps[name]);
    const before = document.getElementById(ROOTS.page.id)?.innerHTML;
    await hydrate(name, pageProps[name]);
    expect(errors).not.toHaveBeenCalled();
    expect(warnings).not.toHaveBeenCalled();
    expect(document.querySelectorAll('h1')).toHaveLength(1);
    // Hydration adopted the server DOM rather than re-rendering it (effects may add, e.g. the copy button).
    if (name !== 'Article') expect(document.getElementById(ROOTS.page.id)?.innerHTML).toBe(before);
  });
});

it('the ids of the three roots never collide', () => {
  writeShell('Article', pageProps.Article);
  const ids = Array.from(document.querySelectorAll('[id]'), (element) => element.id);
  expect(new Set(ids).size).toBe(ids.length);
});
