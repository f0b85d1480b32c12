import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Breadcrumbs } from './Breadcrumbs';

describe('Breadcrumbs', () => {
  it('lists the ancestors and marks the current page', () => {
    render(
      <Breadcrumbs
        items={[
          { label: 'Home', href: '/' },
          { label: 'Sleep', href: '/sleep' },
        ]}
        current={{ label: 'Body scan', href: '/articles/body-scan' }}
      />,
    );
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    const links = Array.from(nav.querySelectorAll('a'), (a) => a.textContent);
    expect(links).toEqual(['Home', 'Sleep', 'Body scan']);
    expect(screen.getByRole('link', { name: 'Body scan' }).getAttribute('aria-current')).toBe('page');
  });

  it('renders nothing without ancestors', () => {
    const { container } = render(<Breadcrumbs items={[]} current={{ label: 'Home', href: '/' }} />);
    expect(container.innerHTML).toBe('');
  });
});
