import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../../test/axe';
import { COPIED_FOR_MS, CopyLinkButton } from './CopyLinkButton';

const url = 'https://stillpoint.example/articles/body-scan';

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

describe('CopyLinkButton', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
    Reflect.deleteProperty(navigator, 'clipboard');
  });

  it('copies the URL and shows "Copied!" for 3 seconds', async () => {
    const writeText = vi.fn(async () => undefined);
    stubClipboard(writeText);
    render(<CopyLinkButton url={url} />);
    const button = screen.getByRole('button', { name: 'Copy link' });

    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith(url);
    expect(button.textContent).toBe('Copied!');
    expect(button.getAttribute('data-state')).toBe('copied');

    act(() => vi.advanceTimersByTime(COPIED_FOR_MS - 1));
    expect(button.textContent).toBe('Copied!');
    act(() => vi.advanceTimersByTime(1));
    expect(button.textContent).toBe('Copy link');
    expect(COPIED_FOR_MS).toBe(3000);
  });

  it('restarts the 3 seconds on a second click', async () => {
    stubClipboard(async () => undefined);
    render(<CopyLinkButton url={url} />);
    const button = screen.getByRole('button');
    await act(async () => fireEvent.click(button));
    act(() => vi.advanceTimersByTime(2000));
    await act(async () => fireEvent.click(button));
    act(() => vi.advanceTimersByTime(2000));
    expect(button.textContent).toBe('Copied!');
    act(() => vi.advanceTimersByTime(1000));
    expect(button.textContent).toBe('Copy link');
  });

  it('says so when the copy fails', async () => {
    stubClipboard(async () => Promise.reject(new Error('denied')));
    render(<CopyLinkButton url={url} />);
    await act(async () => fireEvent.click(screen.getByRole('button')));
    expect(screen.getByRole('button').textContent).toBe('Copy failed');
  });

  it('stays invisible and disabled without the Clipboard API', () => {
    render(<CopyLinkButton url={url} />);
    const button = screen.getByRole('button', { hidden: true });
    expect(button.dataset.supported).toBe('false');
    expect(button.getAttribute('style')).toBeNull();
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it('has no axe violations', async () => {
    vi.useRealTimers();
    stubClipboard(async () => undefined);
    const { container } = render(<CopyLinkButton url={url} />);
    expect(await axeViolations(container)).toEqual([]);
  });
});
