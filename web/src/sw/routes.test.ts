import { describe, expect, it } from 'vitest';
import { cacheNames, isArticlePage, staleCaches, strategyFor } from './routes';

const origin = 'https://calm.example';
const url = (path: string) => new URL(path, origin);

describe('strategyFor', () => {
  it.each([
    ['/assets/entry-client-x1.js', 'asset'],
    ['/assets/Article-x2.css', 'asset'],
    ['/', 'page'],
    ['/articles/body-scan', 'page'],
    ['/page-data/articles/body-scan/page-data.json', 'page'],
    ['/page-data/app-data.json', 'page'],
    ['/icons/calm-logo-small.png', 'page'],
    ['/media/0123456789abcdef-640.avif', 'asset'],
    ['/media/0123456789abcdef-1280.jpg', 'asset'],
    ['/images/covers/calm.svg', 'page'],
    ['/media/3f2a9c0d1e4b5a67-body-scan.m4a', 'pass'],
    ['/media/evening.opus', 'pass'],
    ['/audio/evening.MP3', 'pass'],
    ['/sw.js', 'pass'],
  ])('GET %s → %s', (path, strategy) => {
    expect(strategyFor('GET', url(path), origin)).toBe(strategy);
  });

  it('leaves a range request to the browser (a media element reading part of a file)', () => {
    expect(strategyFor('GET', url('/media/0123456789abcdef-640.avif'), origin, true)).toBe('pass');
    expect(strategyFor('GET', url('/articles/body-scan'), origin, true)).toBe('pass');
  });

  it('leaves other methods and other origins to the browser', () => {
    expect(strategyFor('HEAD', url('/authors'), origin)).toBe('pass');
    expect(strategyFor('POST', url('/authors'), origin)).toBe('pass');
    expect(strategyFor('GET', new URL('https://cdn.example/assets/a.js'), origin)).toBe('pass');
  });
});

describe('caches', () => {
  it('are named by build', () => {
    expect(cacheNames('b2')).toEqual({ pages: 'stillpoint-pages-b2', assets: 'stillpoint-assets-b2' });
  });

  it("are stale when they are another build's", () => {
    const names = [
      'stillpoint-pages-b1',
      'stillpoint-assets-b1',
      'stillpoint-pages-b2',
      'stillpoint-assets-b2',
      'other',
    ];
    expect(staleCaches(names, 'b2')).toEqual(['stillpoint-pages-b1', 'stillpoint-assets-b1']);
  });
});

describe('isArticlePage', () => {
  it.each([
    ['/articles/body-scan', true],
    ['/articles/body-scan/', true],
    ['/page-data/articles/body-scan/page-data.json', false],
    ['/articles', false],
    ['/authors/maya', false],
  ])('%s → %s', (path, expected) => {
    expect(isArticlePage(url(path))).toBe(expected);
  });
});
