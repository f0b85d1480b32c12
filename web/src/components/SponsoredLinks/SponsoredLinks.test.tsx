import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../../test/axe';
import { SponsoredLinks } from './SponsoredLinks';

const items = [
  '<a href="https://partner.example" rel="sponsored noopener">Partner</a>',
  'Plain text and <a href="https://other.example" rel="sponsored noopener">Other</a>',
];

describe('SponsoredLinks', () => {
  it.each(['Sponsored Links', 'Partner Links', 'Recommended Sites', 'Related Resources'])(
    'passes the label %j through as the region name and heading',
    (label) => {
      render(<SponsoredLinks sponsored={{ label, items }} />);
      const region = screen.getByRole('complementary', { name: label });
      expect(screen.getByRole('heading', { name: label })).toBeTruthy();
      expect(region.querySelectorAll('li')).toHaveLength(2);
    },
  );

  it('renders the sanitised item HTML as list items', () => {
    render(<SponsoredLinks sponsored={{ label: 'Partner Links', items }} />);
    const partner = screen.getByRole('link', { name: 'Partner' });
    expect(partner.getAttribute('href')).toBe('https://partner.example');
    expect(partner.getAttribute('rel')).toBe('sponsored noopener');
    expect(screen.getByText(/Plain text and/)).toBeTruthy();
  });

  it('is absent when the page has no sponsored block', () => {
    const { container } = render(<SponsoredLinks sponsored={null} />);
    expect(container.innerHTML).toBe('');
  });

  it('has no axe violations', async () => {
    const { container } = render(<SponsoredLinks sponsored={{ label: 'Partner Links', items }} />);
    expect(await axeViolations(container)).toEqual([]);
  });
});
