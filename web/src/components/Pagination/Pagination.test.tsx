import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../../test/axe';
import { Pagination, pageWindow } from './Pagination';

const first = '/sleep';

describe('pageWindow', () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [5, 10, [1, 'gap', 4, 5, 6, 'gap', 10]],
    [3, 10, [1, 2, 3, 4, 'gap', 10]],
    [10, 10, [1, 'gap', 9, 10]],
  ])('page %i of %i → %j', (page, pages, expected) => {
    expect(pageWindow(page, pages)).toEqual(expected);
  });
});

describe('Pagination', () => {
  it('renders nothing for a single page', () => {
    const { container } = render(<Pagination pagination={{ page: 1, pages: 1, prev: null, next: null, first }} />);
    expect(container.innerHTML).toBe('');
  });

  it('links prev and next with rel and marks the current page', () => {
    render(<Pagination pagination={{ page: 2, pages: 10, prev: '/sleep', next: '/sleep/page/3', first }} />);
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    expect(nav.querySelector('a[rel="prev"]')?.getAttribute('href')).toBe('/sleep');
    expect(nav.querySelector('a[rel="next"]')?.getAttribute('href')).toBe('/sleep/page/3');
    expect(screen.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Page 1' }).getAttribute('href')).toBe('/sleep');
    expect(screen.getByRole('link', { name: 'Page 3' }).getAttribute('href')).toBe('/sleep/page/3');
    expect(screen.getByRole('link', { name: 'Page 10' }).getAttribute('href')).toBe('/sleep/page/10');
  });

  it('has no axe violations', async () => {
    const { container } = render(
      <Pagination pagination={{ page: 5, pages: 10, prev: '/sleep/page/4', next: '/sleep/page/6', first }} />,
    );
    expect(await axeViolations(container)).toEqual([]);
  });
});
