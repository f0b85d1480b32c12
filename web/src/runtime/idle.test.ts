import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from './idle';

const original = Object.getOwnPropertyDescriptor(window, 'requestIdleCallback');

afterEach(() => {
  if (original) Object.defineProperty(window, 'requestIdleCallback', original);
  else Reflect.deleteProperty(window, 'requestIdleCallback');
  vi.useRealTimers();
});

describe('whenIdle', () => {
  it('uses requestIdleCallback where the browser has it', () => {
    const ric = vi.fn();
    Object.defineProperty(window, 'requestIdleCallback', { value: ric, configurable: true, writable: true });
    const callback = vi.fn();
    whenIdle(callback, 3000);
    expect(ric).toHaveBeenCalledWith(callback, { timeout: 3000 });
  });

  it('falls back to a timer when an element of the page has the id requestIdleCallback', () => {
    vi.useFakeTimers();
    // What named access makes of `<p id="requestIdleCallback">` in a browser without the API.
    const element = document.createElement('p');
    element.id = 'requestIdleCallback';
    Object.defineProperty(window, 'requestIdleCallback', { value: element, configurable: true, writable: true });
    const callback = vi.fn();
    expect(() => whenIdle(callback, 3000)).not.toThrow();
    vi.runAllTimers();
    expect(callback).toHaveBeenCalledOnce();
  });
});
