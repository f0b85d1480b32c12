import { render, screen } from '@testing-library/react';
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

  it('has no axe violations', async () => {
    const { container } = render(<Header site={site} />);
    expect(await axeViolations(container)).toEqual([]);
  });
});
