import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchHit } from '../../search/client';
import { axeViolations } from '../../test/axe';
import { SearchBox } from './SearchBox';

const state = vi.hoisted(() => {
  const sleep = {
    category: { label: 'Sleep', href: '/sleep' },
    subcategory: { label: 'Scripts', href: '/sleep/scripts' },
  };
  const focus = {
    category: { label: 'Focus', href: '/focus' },
    subcategory: { label: 'At Work', href: '/focus/at-work' },
  };
  const hits: SearchHit[] = [
    { title: 'Body Scan for Sleep', href: '/articles/body-scan', groups: [sleep] },
    { title: 'A Short Body Break at Work', href: '/articles/body-break', groups: [focus, sleep] },
    { title: 'Sleep Story (Night)', href: '/articles/sleep-story', groups: [sleep] },
  ];
  return { loaded: false, hits };
});

vi.mock('../../search/client', async (importOriginal) => {
  state.loaded = true;
  const actual = await importOriginal<typeof import('../../search/client')>();
  return {
    ...actual,
    search: vi.fn(async (_url: string, text: string) => state.hits.filter((hit) => actual.matches(hit.title, text))),
  };
});

const combobox = () => screen.getByRole('combobox');

let opened: string[] = [];
const recordClicks = (event: MouseEvent) => {
  const link = (event.target as Element).closest('a');
  if (link) opened.push(`${link.getAttribute('href')} ${link.getAttribute('target') ?? ''}`.trim());
};

beforeEach(() => {
  opened = [];
  document.addEventListener('click', recordClicks);
});

afterEach(() => {
  document.removeEventListener('click', recordClicks);
});

describe('SearchBox', () => {
  it('loads the search client on first focus, not with the page', async () => {
    const user = userEvent.setup();
    render(<SearchBox manifestUrl="/search/m.json" emptyImage={null} />);
    expect(state.loaded).toBe(false);
    await user.click(combobox());
    await waitFor(() => expect(state.loaded).toBe(true));
  });

  it('is a labelled combobox with the Search placeholder', () => {
    render(<SearchBox manifestUrl="/search/m.json" emptyImage={null} />);
    expect(screen.getByRole('combobox', { name: 'Search articles' }).getAttribute('placeholder')).toBe('Search');
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
  });

  it('suggests nothing for two characters or fewer', async () => {
    const user = userEvent.setup();
    render(<SearchBox manifestUrl="/search/m.json" emptyImage={null} />);
    await user.type(combobox(), 'bo');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
  });

  it('groups results under "Category → Subcategory" headings linking to both pages', async () => {
    const user = userEvent.setup();
    render(<SearchBox manifestUrl="/search/m.json" emptyImage={null} />);
    await user.type(combobox(), 'body');
    const listbox = await screen.findByRole('listbox');
    expect(combobox().getAttribute('aria-expanded')).toBe('true');

    const groups = within(listbox).getAllByRole('group');
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['Sleep → Scripts', 'Focus → At Work']);
    const [sleep] = groups;
    if (!sleep) throw new Error('no group');
    expect(within(sleep).getByRole('option', { name: 'Sleep' }).getAttribute('href')).toBe('/sleep');
    expect(within(sleep).getByRole('option', { name: 'Scripts' }).getAttribute('href')).toBe('/sleep/scripts');

    const result = within(sleep).getByRole('option', { name: 'Body Scan for Sleep' });
    expect(result.getAttribute('href')).toBe('/articles/body-scan');
    expect(result.getAttribute('target')).toBe('_blank');
    expect(result.getAttribute('rel')).toBe('noopener');
  });

  it('matches the typed words literally', async () => {
    const user = userEvent.setup();
    render(<SearchBox manifestUrl="/search/m.json" emptyImage={null} />);
    await user.type(combobox(), 'story (night');
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getByRole('option', { name: 'Sleep Story (Night)' })).toBeTruthy();
  });

  it('moves through options with the arrow keys and opens the active one with Enter, keeping the text', async () => {
    const user = userEvent.setup();
    render(<SearchBox manifestUrl="/search/m.json" emptyImage={null} />);
    await user.type(combobox(), 'body scan');
    const listbox = await screen.findByRole('listbox');
    const options = within(listbox).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Sleep', 'Scripts', 'Body Scan for Sleep']);

    await user.keyboard('{ArrowDown}');
    expect(combobox().getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    expect(options[0]?.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowUp}');
    expect(combobox().getAttribute('aria-activedescendant')).toBe(options[2]?.id);
    await user.keyboard('{ArrowDown}');
    expect(combobox().getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    await user.keyboard('{ArrowUp}{Enter}');

    expect(opened).toEqual(['/articles/body-scan _blank']);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect((combobox() as HTMLInputElement).value).toBe('body scan');
    expect(document.activeElement).toBe(combobox());
  });

  it('closes on Escape keeping the text; a second Escape clears it', async () => {
    const user = userEvent.setup();
    render(<SearchBox manifestUrl="/search/m.json" emptyImage={null} />);
    await user.type(combobox(), 'body');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect((combobox() as HTMLInputElement).value).toBe('body');
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('listbox')).toBeTruthy();
    await user.keyboard('{Escape}{Escape}');
    expect((combobox() as HTMLInputElement).value).toBe('');
  });

  it('shows the built-in empty-state image and a sentence when nothing matches', async () => {
    const user = userEvent.setup();
    const { container } = render(<SearchBox manifestUrl="/search/m.json" emptyImage={null} />);
    await user.type(combobox(), 'zzz');
    expect(await screen.findByText(/No articles match “zzz”/)).toBeTruthy();
    expect(container.querySelector('svg[width="96"]')).not.toBeNull();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('No articles match.');
  });

  it("shows the site's empty-state image when it has one", async () => {
    const user = userEvent.setup();
    const { container } = render(<SearchBox manifestUrl="/search/m.json" emptyImage="/images/search-empty.svg" />);
    await user.type(combobox(), 'zzz');
    await screen.findByText(/No articles match “zzz”/);
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/images/search-empty.svg');
  });

  it('has no axe violations with suggestions open', async () => {
    const user = userEvent.setup();
    const { container } = render(<SearchBox manifestUrl="/search/m.json" emptyImage={null} />);
    await user.type(combobox(), 'body');
    await screen.findByRole('listbox');
    await user.keyboard('{ArrowDown}');
    expect(await axeViolations(container)).toEqual([]);
  });
});
