import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint } from './early';

afterEach(() => {
  document.head.innerHTML = '';
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('afterFirstPaint', () => {
  it('runs once after a frame where paint timing is not reported', async () => {
    const run = vi.fn();
    afterFirstPaint(run);
    expect(run).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    await new Promise((done) => setTimeout(done, 1100));
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs after a second at the latest when no frame comes', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal('requestAnimationFrame', () => 0);
    const run = vi.fn();
    afterFirstPaint(run);
    vi.advanceTimersByTime(999);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
