import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
    expect(screen.getByRole('link', { name: 'Video' }).getAttribute('href')).toBe(site.social.video);
    expect(screen.getByRole('link', { name: 'Social feed' }).getAttribute('href')).toBe(site.social.feed);
    expect(screen.getByRole('link', { name: 'Photos' }).getAttribute('href')).toBe(site.social.photo);
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
