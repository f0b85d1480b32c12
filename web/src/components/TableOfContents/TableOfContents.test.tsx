import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TocEntry } from '../../protocol';
import { nestToc, TableOfContents } from './TableOfContents';

const entries: TocEntry[] = [
  { id: 'a', text: 'Arrive', level: 2 },
  { id: 'b', text: 'Breathe', level: 3 },
  { id: 'c', text: 'Scan', level: 2 },
  { id: 'd', text: 'Rest', level: 2 },
];

describe('TableOfContents', () => {
  it('is shown from four entries on, with links to the headings', () => {
    render(<TableOfContents entries={entries} />);
    const nav = screen.getByRole('navigation', { name: 'On this page' });
    expect(Array.from(nav.querySelectorAll('a'), (a) => a.getAttribute('href'))).toEqual(['#a', '#b', '#c', '#d']);
  });

  it('is absent for shorter articles', () => {
    const { container } = render(<TableOfContents entries={entries.slice(0, 3)} />);
    expect(container.innerHTML).toBe('');
  });

  it('nests h3 entries under the preceding h2', () => {
    expect(nestToc(entries).map((s) => [s.entry.id, s.children.map((c) => c.id)])).toEqual([
      ['a', ['b']],
      ['c', []],
      ['d', []],
    ]);
    expect(nestToc([{ id: 'x', text: 'X', level: 3 }])).toHaveLength(1);
  });
});
