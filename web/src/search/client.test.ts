import { afterEach, describe, expect, it, vi } from 'vitest';
import { matches, search } from './client';

describe('matches', () => {
  it.each([
    ['A 10-Minute Body Scan for Deeper Sleep', 'body scan', true],
    ['A 10-Minute Body Scan for Deeper Sleep', 'SCAN body', true],
    ['A 10-Minute Body Scan for Deeper Sleep', 'body  \t scan ', true],
    ['A 10-Minute Body Scan for Deeper Sleep', 'body yoga', false],
    ['A 10-Minute Body Scan for Deeper Sleep', 'sleeping', false],
    ['Breathing (the 4-7-8 way)', '(the', true],
    ['Breathing (the 4-7-8 way)', '4-7-8 (', true],
    ['Breathing the 4-7-8 way', '(the', false],
    ['Focus at work', '.*', false],
    ['Focus at work', 'f.cus', false],
    ['Calm [A]', '[a]', true],
    ['Anything', '', false],
    ['Anything', '   ', false],
  ])('%j with %j → %s', (title, text, expected) => {
    expect(matches(title, text)).toBe(expected);
  });
});

describe('search', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('maps manifest docs to hits with article hrefs and topic links', async () => {
    const manifest = {
      docs: [
        ['Body Scan for Sleep', 'body-scan', [['Sleep', '/sleep', 'Guided', '/sleep/guided']]],
        ['Mindful Walking', 'walking', []],
      ],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(manifest))),
    );
    const hits = await search('/search/manifest-1.json', 'body');
    expect(hits).toEqual([
      {
        title: 'Body Scan for Sleep',
        href: '/articles/body-scan',
        groups: [
          { category: { label: 'Sleep', href: '/sleep' }, subcategory: { label: 'Guided', href: '/sleep/guided' } },
        ],
      },
    ]);
  });

  it('fetches the manifest once per url', async () => {
    const fetchMock = vi.fn(async () => new Response('{"docs":[]}'));
    vi.stubGlobal('fetch', fetchMock);
    await search('/search/manifest-2.json', 'abc');
    await search('/search/manifest-2.json', 'abcd');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
