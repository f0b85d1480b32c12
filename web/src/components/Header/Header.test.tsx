import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../../test/axe';
import { site } from '../../test/fixtures';
import { Header } from './Header';

describe('Header', () => {
  it('links the logo home, with the site logo image and the brand', () => {
    render(<Header site={site} />);
    const home = screen.getByRole('link', { name: 'Stillpoint home' });
    expect(home.getAttribute('href')).toBe('/');
    const logo = screen.getByRole('img', { name: 'Stillpoint home' });
    expect(logo.getAttribute('src')).toBe('/icons/stillpoint-logo-small.png');
    expect([logo.getAttribute('width'), logo.getAttribute('height')]).toEqual(['32', '32']);
    expect(home.textContent).toContain('Stillpoint');
  });

  it('holds the Classification menu button and the search box', () => {
    render(<Header site={site} />);
    expect(screen.getByRole('button', { name: 'Classification' })).toBeTruthy();
    expect(screen.getByRole('combobox').getAttribute('placeholder')).toBe('Search');
  });

  it('has no links of its own unless the site configures some', () => {
    render(<Header site={site} />);
    expect(screen.queryByRole('navigation', { name: 'Site' })).toBeNull();
  });

  it('lists the configured header links in a navigation landmark', async () => {
    const headerLinks = [
      { label: 'Podcast', href: '/podcast' },
      { label: 'Shop', href: 'https://shop.example' },
    ];
    const { container } = render(<Header site={{ ...site, headerLinks }} />);
    const nav = screen.getByRole('navigation', { name: 'Site' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Podcast', '/podcast'],
      ['Shop', 'https://shop.example'],
    ]);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('has no axe violations', async () => {
    const { container } = render(<Header site={site} />);
    expect(await axeViolations(container)).toEqual([]);
  });
});
