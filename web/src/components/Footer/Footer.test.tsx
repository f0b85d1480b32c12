import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SiteData } from '../../protocol';
import { axeViolations } from '../../test/axe';
import { site } from '../../test/fixtures';
import { Footer } from './Footer';

describe('Footer', () => {
  it('shows the Categories, Info, Contacts and Mail labels', () => {
    render(<Footer site={site} />);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(['Categories', 'Info', 'Contacts', 'Mail']);
  });

  it('links every category at /{categorySlug}', () => {
    render(<Footer site={site} />);
    const categories = screen.getByRole('heading', { name: 'Categories' }).parentElement as HTMLElement;
    expect(
      within(categories)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/enhance-sleep-guided-meditation', '/focus-and-productivity', '/resources-and-tools']);
  });

  it('links the info pages, the mail address and the three networks by name', () => {
    render(<Footer site={site} />);
    const hrefs = screen.getAllByRole('link').map((a) => a.getAttribute('href'));
    for (const href of ['/authors', '/privacy-policy', '/terms', '/info/about-us', '/sitemap']) {
      expect(hrefs).toContain(href);
    }
    expect(screen.getByRole('link', { name: 'hello@stillpoint.example' }).getAttribute('href')).toBe(
      'mailto:hello@stillpoint.example',
    );
    expect(screen.getByRole('link', { name: 'Video' }).getAttribute('href')).toBe(
      'https://www.youtube.com/@stillpoint',
    );
    expect(screen.getByRole('link', { name: 'Social feed' }).getAttribute('href')).toBe('https://x.com/stillpoint');
    expect(screen.getByRole('link', { name: 'Photos' }).getAttribute('href')).toBe(
      'https://www.instagram.com/stillpoint',
    );
  });

  it('uses the configured titles, Info links, networks in their order and copyright line', () => {
    const custom: SiteData = {
      ...site,
      social: [
        { label: 'Spotify', href: 'https://open.spotify.com/show/1', icon: 'spotify' },
        { label: 'Mastodon', href: 'https://m.example/@still', icon: 'mastodon' },
      ],
      footer: {
        titles: { categories: 'Topics', info: 'About', contacts: 'Follow', mail: 'Write to us' },
        links: [{ label: 'Contact', href: '/info/contact' }],
        copyright: 'Still Waters, since 2026',
      },
    };
    const { container } = render(<Footer site={custom} />);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(['Topics', 'About', 'Follow', 'Write to us']);
    const about = screen.getByRole('heading', { name: 'About' }).parentElement as HTMLElement;
    expect(
      within(about)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/info/contact']);
    const follow = screen.getByRole('heading', { name: 'Follow' }).parentElement as HTMLElement;
    expect(
      within(follow)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Spotify', 'Mastodon']);
    const icons = [...container.querySelectorAll('[data-icon]')].map((i) => i.getAttribute('data-icon'));
    expect(icons).toEqual(['spotify', 'link']);
    expect(screen.getByText('Still Waters, since 2026')).toBeTruthy();
    expect(screen.queryByText('Video')).toBeNull();
  });

  it('leaves out the Contacts and Info columns when they have no links', () => {
    render(<Footer site={{ ...site, social: [], footer: { ...site.footer, links: [] } }} />);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(['Categories', 'Mail']);
  });

  it('ends with the copyright line: year and brand', () => {
    render(<Footer site={site} />);
    expect(screen.getByText('© 2025 Stillpoint')).toBeTruthy();
  });

  it('has no axe violations', async () => {
    const { container } = render(<Footer site={site} />);
    expect(await axeViolations(container)).toEqual([]);
  });
});
