import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLiveRegions, LOADING_TEXT, NOTICE_DELAY_MS } from './liveRegions';

beforeEach(() => {
  vi.useFakeTimers();
  document.body.innerHTML = '';
});
afterEach(() => {
  vi.useRealTimers();
});

const notice = () => document.querySelector<HTMLElement>('[role="status"]');

describe('live regions', () => {
  it('are polite regions in the document from the start, empty', () => {
    createLiveRegions();
    expect(notice()?.getAttribute('aria-live')).toBe('polite');
    expect(notice()?.textContent).toBe('');
    expect(document.querySelector('[data-nav-announcer]')?.getAttribute('aria-live')).toBe('polite');
  });

  it('show the loading notice only after a second', () => {
    const live = createLiveRegions();
    live.pending();
    vi.advanceTimersByTime(NOTICE_DELAY_MS - 1);
    expect(notice()?.dataset.state).toBe('idle');
    vi.advanceTimersByTime(1);
    expect(notice()?.dataset.state).toBe('loading');
    expect(notice()?.textContent).toBe(LOADING_TEXT);
  });

  it('hide the notice as soon as the navigation settles', () => {
    const live = createLiveRegions();
    live.pending();
    vi.advanceTimersByTime(NOTICE_DELAY_MS);
    live.settled();
    expect(notice()?.dataset.state).toBe('idle');
    expect(notice()?.textContent).toBe('');
  });

  it('never show the notice for a navigation faster than a second', () => {
    const live = createLiveRegions();
    live.pending();
    vi.advanceTimersByTime(NOTICE_DELAY_MS / 2);
    live.settled();
    vi.advanceTimersByTime(NOTICE_DELAY_MS * 2);
    expect(notice()?.dataset.state).toBe('idle');
  });

  it('announce the new page', () => {
    const live = createLiveRegions();
    live.announce('Body Scan');
    vi.advanceTimersToNextFrame();
    expect(document.querySelector('[data-nav-announcer]')?.textContent).toBe('Navigated to Body Scan');
  });
});
