import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../../test/axe';
import { cards } from '../../test/fixtures';
import { SHOW_MORE_INITIAL, SHOW_MORE_STEP, ShowMoreGrid } from './ShowMoreGrid';

const articleCount = () => screen.getAllByRole('article').length;

describe('ShowMoreGrid', () => {
  it('shows 8 cards, then 12 more per "Show more", and hides the button when none are left', async () => {
    const user = userEvent.setup();
    render(<ShowMoreGrid cards={cards(1, 30)} />);
    expect([SHOW_MORE_INITIAL, SHOW_MORE_STEP]).toEqual([8, 12]);
    expect(articleCount()).toBe(8);
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(articleCount()).toBe(20);
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(articleCount()).toBe(30);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('moves focus to the first revealed card', async () => {
    const user = userEvent.setup();
    render(<ShowMoreGrid cards={cards(1, 10)} />);
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(document.activeElement?.textContent).toBe('A Calm Practice Number 9');
  });

  it('has no button when 8 or fewer cards exist', () => {
    render(<ShowMoreGrid cards={cards(1, 8)} />);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('has no axe violations', async () => {
    const { container } = render(<ShowMoreGrid cards={cards(1, 12)} />);
    expect(await axeViolations(container)).toEqual([]);
  });
});
