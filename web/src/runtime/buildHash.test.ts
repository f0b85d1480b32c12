import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkBuildHash, RELOAD_GUARD } from './buildHash';

function serve(...answers: (string | number)[]) {
  let n = 0;
  const fetch = vi.fn(async () => {
    const answer = answers[Math.min(n++, answers.length - 1)];
    return typeof answer === 'number'
      ? new Response('', { status: answer })
      : new Response(JSON.stringify({ webpackCompilationHash: answer }), { status: 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('checkBuildHash', () => {
  it('does nothing when the deployed build is the running one', async () => {
    serve('b1');
    const reload = vi.fn();
    expect(await checkBuildHash('b1', reload, memoryStorage())).toBe('current');
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads once per session on a mismatch, never twice', async () => {
    serve('b2');
    const reload = vi.fn();
    const storage = memoryStorage();
    expect(await checkBuildHash('b1', reload, storage)).toBe('reloading');
    expect(storage.getItem(RELOAD_GUARD)).toBe('b2');
    // The reloaded page (say it still came from a stale cache) finds the guard and stays.
    expect(await checkBuildHash('b1', reload, storage)).toBe('stale');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does not reload without a session storage to guard the reload', async () => {
    serve('b2');
    const reload = vi.fn();
    expect(await checkBuildHash('b1', reload, null)).toBe('stale');
    expect(reload).not.toHaveBeenCalled();
  });

  it('retries app-data on any non-200 answer', async () => {
    vi.useFakeTimers();
    const fetch = serve(503, 304, 'b2');
    const checked = checkBuildHash('b1', vi.fn(), memoryStorage());
    await vi.runAllTimersAsync();
    expect(await checked).toBe('reloading');
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('gives up quietly when app-data cannot be read', async () => {
    vi.useFakeTimers();
    const fetch = serve(503);
    const reload = vi.fn();
    const checked = checkBuildHash('b1', reload, memoryStorage());
    await vi.runAllTimersAsync();
    expect(await checked).toBe('unknown');
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(reload).not.toHaveBeenCalled();
  });
});
