// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { renderPage, renderSlices, templates } from './entry-server';
import { pageProps, site, templateNames } from './test/fixtures';

const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;

describe('renderPage', () => {
  it('knows every template of the protocol', () => {
    expect(Object.keys(templates).sort()).toEqual([...templateNames].sort());
  });

  it.each(templateNames)('%s renders <main id="main"> with exactly one h1', (name) => {
    const html = renderPage(name, pageProps[name]);
    expect(count(html, /<h1[\s>]/g)).toBe(1);
    expect(html).toMatch(/<main id="main" tabindex="-1"/);
    expect(html).not.toMatch(/^<link/);
  });

  it('renders the sponsored block before <main> when the page has one', () => {
    const html = renderPage('Article', pageProps.Article);
    expect(html).toMatch(/^<aside[^>]* aria-label="Partner Links"/);
    expect(html.indexOf('<main')).toBeGreaterThan(0);
  });

  it('renders no sponsored block when it is null', () => {
    expect(renderPage('Home', pageProps.Home)).not.toContain('<aside');
  });

  it('uses the exact titles of the home sections and the error pages', () => {
    const home = renderPage('Home', pageProps.Home);
    for (const title of ['Have More Awesome Stuff', 'Top Stories', 'Popular Articles']) {
      expect(home).toContain(`>${title}</h2>`);
    }
    expect(renderPage('NotFound', pageProps.NotFound)).toContain('>Page Not Found</h1>');
    expect(renderPage('ServerError', pageProps.ServerError)).toContain('>Something Went Wrong</h1>');
  });

  it('throws for an unknown template', () => {
    expect(() => renderPage('Nope' as 'Home', pageProps.Home)).toThrow(/unknown template "Nope"/);
  });
});

describe('renderSlices', () => {
  it('renders the header and footer with the menu button, search box and footer labels', () => {
    const { header, footer } = renderSlices(site);
    expect(header).toMatch(/^<header/);
    expect(header).toContain('>Classification</button>');
    expect(header).toContain('placeholder="Search"');
    expect(footer).toMatch(/^<footer/);
    expect(footer).toContain('© 2025 Stillpoint');
  });
});
