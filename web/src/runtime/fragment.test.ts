import { afterEach, describe, expect, it, vi } from 'vitest';
import { followUnprefixedFragments, fragmentTarget } from './fragment';

afterEach(() => {
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

describe('fragmentTarget', () => {
  it('finds the id as written first', () => {
    document.body.innerHTML = '<h2 id="why">a</h2><h2 id="c-why">b</h2>';
    expect(fragmentTarget('#why')?.textContent).toBe('a');
  });

  it('finds a content heading by the id it had before the content prefix', () => {
    document.body.innerHTML = '<h2 id="c-why-it-works">Why it works</h2>';
    expect(fragmentTarget('#why-it-works')?.id).toBe('c-why-it-works');
    expect(fragmentTarget('#c-why-it-works')?.id).toBe('c-why-it-works');
  });

  it('decodes the fragment and is null for none or an unknown id', () => {
    document.body.innerHTML = '<h2 id="c-ruhe-üben">x</h2>';
    expect(fragmentTarget('#ruhe-%C3%BCben')?.id).toBe('c-ruhe-üben');
    expect(fragmentTarget('')).toBeNull();
    expect(fragmentTarget('#')).toBeNull();
    expect(fragmentTarget('#nothing')).toBeNull();
    expect(fragmentTarget('#%E0%A4%A')).toBeNull();
  });
});

describe('followUnprefixedFragments', () => {
  it('scrolls to the prefixed heading on load and on hashchange', () => {
    document.body.innerHTML = '<h2 id="c-first">1</h2><h2 id="c-second">2</h2>';
    const scrolled: string[] = [];
    const spy = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      scrolled.push(this.id);
    });
    window.history.replaceState(null, '', '/#first');
    followUnprefixedFragments();
    window.location.hash = '#second';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(scrolled).toEqual(['c-first', 'c-second']);
    spy.mockRestore();
  });
});
