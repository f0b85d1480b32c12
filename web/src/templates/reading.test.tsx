// Reading-quality rules the templates carry: the sitemap lists every article it is given, grouped
// by category; an author with no articles gets a sentence, not an empty "Articles by …" section.
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { pageProps } from '../test/fixtures';
import Author from './Author';
import Sitemap from './Sitemap';

describe('Sitemap', () => {
  it('lists every article under a heading for its category', () => {
    const props = pageProps.Sitemap;
    render(<Sitemap {...props} />);
    const section = screen.getByRole('region', { name: 'Articles' });
    for (const group of props.articles) {
      const heading = within(section).getByRole('heading', {
        level: 3,
        name: group.category?.label ?? 'Other articles',
      });
      const list = heading.nextElementSibling as HTMLElement;
      const links = within(list).getAllByRole('link');
      expect(links.map((a) => a.getAttribute('href'))).toEqual(group.articles.map((a) => a.href));
    }
    const total = props.articles.reduce((n, g) => n + g.articles.length, 0);
    expect(within(section).getAllByRole('link').length).toBe(total + props.articles.filter((g) => g.category).length);
  });

  it('shows only articles and page links past its first page', () => {
    const props = {
      ...pageProps.Sitemap,
      path: '/sitemap/page/2',
      title: 'Sitemap (Page 2)',
      categories: [],
      authors: [],
      pages: [],
      pagination: { page: 2, pages: 2, prev: '/sitemap', next: null, first: '/sitemap' },
    };
    render(<Sitemap {...props} />);
    expect(screen.queryByRole('heading', { name: 'Categories' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Authors' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Articles' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Pages of the sitemap' });
    expect(within(nav).getByRole('link', { name: /1/ }).getAttribute('href')).toBe('/sitemap');
  });
});

describe('Author', () => {
  it('lists the articles of an author who has some', () => {
    render(<Author {...pageProps.Author} />);
    expect(screen.getByRole('heading', { name: 'Articles by Maya Lindqvist' })).toBeTruthy();
  });

  it('says so in a sentence when the author has no article, with no empty section', () => {
    const props = {
      ...pageProps.Author,
      articles: [],
      total: 0,
      pagination: { ...pageProps.Author.pagination },
    };
    render(<Author {...props} />);
    expect(screen.queryByRole('heading', { name: /Articles by/ })).toBeNull();
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.getByText(/has not published an article here yet/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'browse every article' }).getAttribute('href')).toBe('/sitemap');
  });
});
