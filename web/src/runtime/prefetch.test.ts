import { describe, expect, it } from 'vitest';
import { canPrefetch, PrefetchQueue } from './prefetch';

describe('PrefetchQueue', () => {
  it('hands out pages in the order they came into view, a batch at a time', () => {
    const queue = new PrefetchQueue();
    for (const path of ['/a', '/b', '/c', '/d', '/e']) queue.enter(path);
    expect(queue.take(4)).toEqual(['/a', '/b', '/c', '/d']);
    expect(queue.take(4)).toEqual(['/e']);
    expect(queue.take(4)).toEqual([]);
  });

  it('drops a page whose links all left the view', () => {
    const queue = new PrefetchQueue();
    queue.enter('/a');
    queue.enter('/b');
    queue.enter('/b');
    queue.leave('/a');
    queue.leave('/b');
    expect(queue.take(4)).toEqual(['/b']);
  });

  it('forgets a page fetched at once (hover or focus)', () => {
    const queue = new PrefetchQueue();
    queue.enter('/a');
    queue.enter('/a');
    queue.remove('/a');
    expect(queue.size).toBe(0);
  });
});

function fakeNavigator(userAgent: string, connection?: { effectiveType?: string; saveData?: boolean }): Navigator {
  return { userAgent, connection } as unknown as Navigator;
}

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

describe('canPrefetch', () => {
  it('prefetches on a fast connection', () => {
    expect(canPrefetch(fakeNavigator(CHROME, { effectiveType: '4g', saveData: false }))).toBe(true);
  });

  it('prefetches where the connection is unknown', () => {
    expect(canPrefetch(fakeNavigator(CHROME))).toBe(true);
  });

  it.each([
    ['2g', { effectiveType: '2g' }],
    ['slow-2g', { effectiveType: 'slow-2g' }],
    ['Save-Data', { effectiveType: '4g', saveData: true }],
  ])('does not prefetch on %s', (_, connection) => {
    expect(canPrefetch(fakeNavigator(CHROME, connection))).toBe(false);
  });

  it.each([
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0)',
    'Screaming Frog SEO Spider/19.0',
    'some-crawler/1.0',
    'Crawling Agent',
  ])('does not prefetch for %s', (userAgent) => {
    expect(canPrefetch(fakeNavigator(userAgent, { effectiveType: '4g' }))).toBe(false);
  });
});
