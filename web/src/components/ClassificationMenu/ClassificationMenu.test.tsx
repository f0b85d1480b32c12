import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations } from '../../test/axe';
import { site } from '../../test/fixtures';
import { setViewportWidth } from '../../test/setup';
import { ClassificationMenu } from './ClassificationMenu';

const trigger = () => screen.getByRole('button', { name: 'Classification' });

// The open menus are loaded on first use (a dynamic import of Radix). Loading them before the
// tests keeps that first load, which on a busy machine takes longer than a waitFor waits, out of
// the first test that opens a menu.
beforeAll(async () => {
  await Promise.all([import('./MenuWide'), import('./MenuNarrow')]);
});

async function openMenu(user: ReturnType<typeof userEvent.setup>) {
  await user.click(trigger());
  await waitFor(() => expect(trigger().getAttribute('aria-expanded')).toBe('true'));
}

describe('ClassificationMenu on wide windows (> 576px)', () => {
  beforeEach(() => setViewportWidth(1280));

  it('renders a closed menu button on the server and first render', () => {
    render(<ClassificationMenu categories={site.categories} />);
    expect(trigger().getAttribute('aria-expanded')).toBe('false');
    expect(trigger().getAttribute('aria-haspopup')).toBe('menu');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('renders a link to the sitemap beside the button, for browsers without JavaScript', () => {
    const { container } = render(<ClassificationMenu categories={site.categories} />);
    const links = container.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('/sitemap');
    expect(links[0]?.textContent).toBe('Classification');
  });

  it('toggles a dropdown menu titled Classification with the button', async () => {
    const user = userEvent.setup();
    render(<ClassificationMenu categories={site.categories} />);
    await openMenu(user);
    const menu = screen.getByRole('menu', { name: 'Classification' });
    expect(within(menu).getByText('Classification')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(trigger());
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(trigger().getAttribute('aria-expanded')).toBe('false');
  });

  it('offers one submenu per category with children, each with a More link to the category', async () => {
    const user = userEvent.setup();
    render(<ClassificationMenu categories={site.categories} />);
    await openMenu(user);
    const menu = screen.getByRole('menu', { name: 'Classification' });
    const sleep = within(menu).getByRole('menuitem', { name: /Sleep Enhancement/ });
    expect(sleep.getAttribute('aria-haspopup')).toBe('menu');
    // A category without children is a plain link.
    expect(
      within(menu)
        .getByRole('menuitem', { name: /Resources and Tools/ })
        .getAttribute('href'),
    ).toBe('/resources-and-tools');

    sleep.focus();
    await user.keyboard('{ArrowRight}');
    const submenu = await screen.findByRole('menu', { name: /Sleep Enhancement/ });
    const more = within(submenu).getByRole('menuitem', { name: /^More/ });
    expect(more.getAttribute('href')).toBe('/enhance-sleep-guided-meditation');
    const leaf = within(submenu).getByRole('menuitem', { name: /Guided Meditation for Sleep/ });
    expect(leaf.getAttribute('href')).toBe('/enhance-sleep-guided-meditation/guided-meditation-for-sleep');
  });

  it('closes when a leaf is chosen', async () => {
    const user = userEvent.setup();
    render(<ClassificationMenu categories={site.categories} />);
    await openMenu(user);
    within(screen.getByRole('menu'))
      .getByRole('menuitem', { name: /Sleep Enhancement/ })
      .focus();
    await user.keyboard('{ArrowRight}');
    const submenu = await screen.findByRole('menu', { name: /Sleep Enhancement/ });
    await user.click(within(submenu).getByRole('menuitem', { name: /Sleep Hygiene/ }));
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(trigger().getAttribute('aria-expanded')).toBe('false');
  });

  it('closes on Escape and returns focus to the button', async () => {
    const user = userEvent.setup();
    render(<ClassificationMenu categories={site.categories} />);
    await openMenu(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger()));
  });

  it('focuses the first item when opened from the keyboard', async () => {
    const user = userEvent.setup();
    render(<ClassificationMenu categories={site.categories} />);
    trigger().focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Classification' });
    await waitFor(() => expect(document.activeElement).toBe(within(menu).getAllByRole('menuitem')[0]));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(menu).getAllByRole('menuitem')[1]);
  });

  it('opens on the first ArrowDown on the closed button, focusing the first item', async () => {
    const user = userEvent.setup();
    render(<ClassificationMenu categories={site.categories} />);
    trigger().focus();
    await user.keyboard('{ArrowDown}');
    const menu = await screen.findByRole('menu', { name: 'Classification' });
    await waitFor(() => expect(document.activeElement).toBe(within(menu).getAllByRole('menuitem')[0]));
  });

  it('moves to the item whose words (after the emoji) start with the typed letter', async () => {
    const user = userEvent.setup();
    render(<ClassificationMenu categories={site.categories} />);
    trigger().focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Classification' });
    await waitFor(() => expect(document.activeElement).toBe(within(menu).getAllByRole('menuitem')[0]));
    await user.keyboard('r');
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/^\S+ Resources and Tools/));
  });

  it('has no axe violations, closed and open', async () => {
    const user = userEvent.setup();
    render(<ClassificationMenu categories={site.categories} />);
    expect(await axeViolations(document.body)).toEqual([]);
    await openMenu(user);
    expect(await axeViolations(document.body)).toEqual([]);
  });
});

describe('ClassificationMenu on narrow windows (≤ 576px)', () => {
  beforeEach(() => setViewportWidth(375));

  it('opens a popover titled Classification holding an accordion', async () => {
    const user = userEvent.setup();
    render(<ClassificationMenu categories={site.categories} />);
    expect(trigger().getAttribute('aria-haspopup')).toBe('dialog');
    await openMenu(user);
    const dialog = screen.getByRole('dialog', { name: 'Classification' });
    expect(within(dialog).getByRole('heading', { name: 'Classification' })).toBeTruthy();
    expect(screen.queryByRole('menu')).toBeNull();

    const section = within(dialog).getByRole('button', { name: /Sleep Enhancement/ });
    expect(section.getAttribute('aria-expanded')).toBe('false');
    await user.click(section);
    expect(section.getAttribute('aria-expanded')).toBe('true');
    expect(within(dialog).getByRole('link', { name: /^More/ }).getAttribute('href')).toBe(
      '/enhance-sleep-guided-meditation',
    );
  });

  it('closes when a leaf is chosen', async () => {
    const user = userEvent.setup();
    render(<ClassificationMenu categories={site.categories} />);
    await openMenu(user);
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /Sleep Enhancement/ }));
    await user.click(within(dialog).getByRole('link', { name: /Sleep Hygiene/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(trigger().getAttribute('aria-expanded')).toBe('false');
  });

  it('closes on Escape and returns focus to the button', async () => {
    const user = userEvent.setup();
    render(<ClassificationMenu categories={site.categories} />);
    await openMenu(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger()));
  });

  it('has no axe violations when open', async () => {
    const user = userEvent.setup();
    render(<ClassificationMenu categories={site.categories} />);
    await openMenu(user);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: /Sleep Enhancement/ }));
    expect(await axeViolations(document.body)).toEqual([]);
  });
});
