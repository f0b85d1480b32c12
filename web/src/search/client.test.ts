import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { derivedSlug, fnv1a32, matches, preloadIndex, SEARCH_LIMIT, search, wordKeys } from './client';
import { shouldSuggest } from './suggest';

// The index the Rust builder writes for a small corpus in a small layout (several segments, pieces
// and shards), with the corpus itself: crates/site/src/search_index/tests.rs keeps it current.
type Fixture = { manifest: string; docs: [string, string, number[]][]; files: Record<string, string> };
const fixture = JSON.parse(readFileSync(`${import.meta.dirname}/fixtures/index.json`, 'utf8')) as Fixture;
const manifest = JSON.parse(fixture.files[fixture.manifest] as string) as { groups: string[][] };

/** The corpus newest first, as search lists it. */
const newestFirst = fixture.docs.map(([title, slug, groups], id) => ({ id, title, slug, groups })).reverse();

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

let prefixes = 0;
let requested: string[] = [];
/** Each request's `?v=` (segment files carry their segment's version). */
const versions = new Map<string, string | null>();
let failing = new Set<string>();

/** Serves the fixture under a fresh prefix (so no test shares another's cache); returns its manifest URL. */
function serve(): string {
  const prefix = `/site${++prefixes}`;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (href: string) => {
      const [url = '', query = ''] = href.split('?');
      requested.push(url);
      versions.set(url, new URLSearchParams(query).get('v'));
      const path = url.slice(prefix.length);
      const body = fixture.files[path];
      if (!url.startsWith(prefix) || body === undefined) return new Response('', { status: 404 });
      if (failing.delete(path)) return new Response('', { status: 503 });
      return new Response(path.endsWith('.json') ? body : hexBytes(body));
    }),
  );
  return prefix + fixture.manifest;
}

/** What search must answer: the rule applied to every title, newest first. */
function expected(text: string, limit = SEARCH_LIMIT) {
  if (!shouldSuggest(text)) return [];
  return newestFirst
    .filter((d) => matches(d.title, text))
    .slice(0, limit)
    .map((d) => ({ title: d.title, href: `/articles/${d.slug}` }));
}

beforeEach(() => {
  requested = [];
  failing = new Set();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

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
  ])('%j with %j → %s', (title, text, want) => {
    expect(matches(title, text)).toBe(want);
  });
});

describe('index keys', () => {
  it.each([
    ['body', ['bod', 'ody']],
    ['ab', ['ab']],
    ['x', ['x']],
    ['aaaa', ['aaa']],
    ['οδος', ['οδο', 'δοσ']],
    ['🧘x', ['🧘x']],
    ['(.*', ['(.*']],
  ])('%j → %j', (word, keys) => {
    expect(wordKeys(word)).toEqual(keys);
  });

  it('hashes keys with FNV-1a over UTF-8', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });

  it.each([
    ['A 10-Minute Body Scan', 'a-10-minute-body-scan'],
    ['  (Calm) & Clear!  ', 'calm-clear'],
    ['Straße der Stille', 'stra-e-der-stille'],
    ['🧘', ''],
  ])('derives the slug of %j as the builder does', (title, slug) => {
    expect(derivedSlug(title)).toBe(slug);
  });
});

describe('search over the built index', () => {
  it('lists the newest matches with their article links and topics', async () => {
    const url = serve();
    const hits = await search(url, 'body scan');
    expect(hits.map(({ title, href }) => ({ title, href }))).toEqual(expected('body scan'));
    expect(hits.length).toBeGreaterThan(0);
    const byTitle = new Map(newestFirst.map((d) => [d.title, d]));
    for (const hit of hits) {
      const groups = (byTitle.get(hit.title)?.groups ?? []).map((g) => {
        const [label, href, subLabel, subHref] = manifest.groups[g] as string[];
        return { category: { label, href }, subcategory: { label: subLabel, href: subHref } };
      });
      expect(hit.groups).toEqual(groups);
    }
  });

  it('stops at one more than the box lists', async () => {
    const url = serve();
    const all = expected('e e', 1000);
    expect(all.length).toBeGreaterThan(SEARCH_LIMIT);
    const hits = await search(url, 'e e');
    expect(hits.map(({ title, href }) => ({ title, href }))).toEqual(all.slice(0, SEARCH_LIMIT));
  });

  it('finds exactly what the matching rule finds, for every word of every title', async () => {
    const url = serve();
    const texts = new Set<string>();
    for (const d of newestFirst) {
      const words = d.title.split(/\s+/).filter(Boolean);
      for (const w of words) texts.add(w.length > 2 ? w : `${w} ${words[0]}`);
      texts.add(words.slice(0, 2).join(' ').toUpperCase());
    }
    for (const text of texts) {
      if (text.trim().length <= 2) continue;
      const hits = await search(url, text, 1000);
      expect(
        hits.map(({ title, href }) => ({ title, href })),
        text,
      ).toEqual(expected(text, 1000));
    }
  });

  it('finds exactly what the matching rule finds for pieces of titles', async () => {
    const url = serve();
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 300; i++) {
      const title = Array.from((newestFirst[random(newestFirst.length)] as { title: string }).title);
      const start = random(title.length);
      const piece = title.slice(start, start + 1 + random(8)).join('');
      const text = `${piece} ${random(3) === 0 ? (newestFirst[random(20)]?.title.split(' ')[0] ?? '') : ''}`;
      if (text.trim().length <= 2) continue;
      const hits = await search(url, text);
      expect(
        hits.map(({ title: t, href }) => ({ title: t, href })),
        text,
      ).toEqual(expected(text));
    }
  });

  it.each([
    '(the',
    '4-7-8 (',
    '.*',
    '[a]',
    'calm [a] + .* ?',
    'ΟΔΟΣ',
    'οδος πρ',
    'İstanbul',
    'straße',
    'ärger',
    '🧘 nature',
    '🌿',
    '🌿 with',
    'ｆｕｌｌ',
    '睡眠の',
    'ǆemal',
    'zen garden',
    'zzz',
    'qx q',
  ])('matches %j literally, case-insensitive', async (text) => {
    const url = serve();
    const hits = await search(url, text, 1000);
    expect(hits.map(({ title, href }) => ({ title, href }))).toEqual(expected(text, 1000));
  });

  it('asks for each segment file with its segment version, so caches never mix two', async () => {
    const url = serve();
    await search(url, 'body');
    const segments = (JSON.parse(fixture.files[fixture.manifest] as string) as { segments: [string, string][] })
      .segments;
    const files = requested.filter((u) => /\/search\/\d+\//.test(u));
    expect(files.length).toBeGreaterThan(0);
    for (const u of files) {
      const folder = /\/search\/(\d+)\//.exec(u)?.[1];
      expect(versions.get(u)).toBe(segments.find(([f]) => f === folder)?.[1]);
    }
  });

  it('never suggests for two characters or fewer, and fetches nothing for them', async () => {
    const url = serve();
    expect(await search(url, 'ab')).toEqual([]);
    expect(await search(url, '  e ')).toEqual([]);
    expect(requested).toEqual([]);
  });

  it('fetches one chunk and no postings for a word in one title', async () => {
    const url = serve();
    expect((await search(url, 'sabah')).map((h) => h.title)).toEqual(["İstanbul'da Sabah Meditasyonu"]);
    const files = requested.map((u) => u.replace(/^\/site\d+\/search\//, ''));
    expect(files.filter((f) => f.startsWith('manifest.'))).toHaveLength(1);
    expect(files.filter((f) => /^k3-/.test(f)).length).toBeLessThanOrEqual(wordKeys('sabah').length);
    expect(files.filter((f) => /\/c\d+\.json$/.test(f))).toHaveLength(1);
    expect(files.filter((f) => /\/[0-9a-f]+\.\d+\.bin$/.test(f))).toEqual([]);
  });

  it.each(['body', 'calm body', 'night relief', 'gentle morning', 'quokka zebra'])(
    'fetches the title chunks of the listed matches of %j only',
    async (text) => {
      const url = serve();
      const want = newestFirst.filter((d) => matches(d.title, text)).slice(0, SEARCH_LIMIT);
      const chunkSize = (JSON.parse(fixture.files[fixture.manifest] as string) as { chunkSize: number }).chunkSize;
      const spanned = new Set(want.map((d) => Math.floor(d.id / chunkSize)));
      await search(url, text);
      const chunks = requested.filter((u) => /\/c\d+\.json$/.test(u)).map((u) => Number(/c(\d+)\.json$/.exec(u)?.[1]));
      expect(new Set(chunks)).toEqual(spanned);
      expect(spanned.size).toBeGreaterThan(0);
    },
  );

  it.each(['calm body', 'night relief', 'gentle morning', 'body scan'])(
    'fetches the postings of one key per word of %j at most',
    async (text) => {
      const url = serve();
      await search(url, text);
      const keys = new Set(
        requested.flatMap((u) => {
          const hexKey = /\/([0-9a-f]+)\.\d+\.bin(\?|$)/.exec(u)?.[1];
          return hexKey ? [Buffer.from(hexKey, 'hex').toString('utf8')] : [];
        }),
      );
      const words = text.split(' ');
      for (const word of words)
        expect([...keys].filter((k) => wordKeys(word).includes(k)).length).toBeLessThanOrEqual(1);
      expect([...keys].every((k) => words.some((w) => wordKeys(w).includes(k)))).toBe(true);
    },
  );

  it('shares one request per file between searches and keeps what it fetched', async () => {
    const url = serve();
    await Promise.all([search(url, 'body scan'), search(url, 'body sc'), search(url, 'scan body')]);
    expect(new Set(requested).size).toBe(requested.length);
    const before = requested.length;
    await search(url, 'body scan');
    expect(requested.length).toBe(before);
  });

  it('forgets a failed fetch, so the next keystroke tries again', async () => {
    const url = serve();
    const shardOfBody = Object.keys(fixture.files).filter((p) => /\/k3-\d+\./.test(p));
    for (const p of shardOfBody) failing.add(p);
    await expect(search(url, 'body')).rejects.toThrow(/503/);
    const hits = await search(url, 'body');
    expect(hits.map(({ title, href }) => ({ title, href }))).toEqual(expected('body'));
  });

  it('preloads the manifest once for the searches that follow', async () => {
    const url = serve();
    await preloadIndex(url);
    expect(requested).toEqual([url]);
    await search(url, 'calm');
    expect(requested.filter((u) => u === url)).toHaveLength(1);
  });

  it('retries a manifest that failed to load', async () => {
    const url = serve();
    failing.add(fixture.manifest);
    await expect(search(url, 'calm')).rejects.toThrow(/503/);
    expect((await search(url, 'calm')).length).toBeGreaterThan(0);
  });
});
