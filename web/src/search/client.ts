// The search client. It reads the index the builder writes under /search/ (the format is described
// in crates/site/src/search_index.rs) a few small files at a time: the manifest once, then per query
// the directory shards of its keys, the posting pieces it needs and the title chunks of its first
// candidates. Every file is fetched at most once (one request in flight per file) and kept, so a
// keystroke usually costs a file or two, or nothing.
import type { Link } from '../protocol';
import { MAX_SUGGESTIONS, shouldSuggest } from './suggest';

export type SearchHit = {
  title: string;
  href: string;
  groups: { category: Link; subcategory: Link }[];
};

/** Matches listed by `search` at most: one more than the box shows, so it can tell there are more. */
export const SEARCH_LIMIT = MAX_SUGGESTIONS + 1;

const WHITESPACE = /\s+/;

/** The words of a query: lower-cased, split on whitespace. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().split(WHITESPACE).filter(Boolean);
}

/**
 * The matching rule: the text is split on whitespace and every word must occur in the title,
 * case-insensitive, as plain text (`(` or `.` are ordinary characters, never a pattern).
 */
export function matches(title: string, text: string): boolean {
  const words = wordsOf(text);
  return words.length > 0 && hasAll(title.toLowerCase(), words);
}

function hasAll(lowerTitle: string, words: readonly string[]): boolean {
  return words.every((word) => lowerTitle.includes(word));
}

/**
 * The index keys a lower-cased word is looked up by: its trigrams, or the word itself when it is
 * shorter than three characters (code points, so an emoji is one). Final sigma is folded into σ,
 * as the builder folds it in titles. A title holding the word holds every one of these keys.
 */
export function wordKeys(word: string): string[] {
  const chars = Array.from(word.replaceAll('ς', 'σ'));
  const n = Math.min(3, chars.length);
  const keys = new Set<string>();
  for (let i = 0; n > 0 && i + n <= chars.length; i++) keys.add(chars.slice(i, i + n).join(''));
  return [...keys];
}

/** The slug the builder leaves out of a chunk when it is this: ASCII letters and digits, `-` between. */
export function derivedSlug(title: string): string {
  let out = '';
  let dash = false;
  for (const ch of title) {
    const c = ch.charCodeAt(0);
    if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122)) {
      out += ch;
      dash = false;
    } else if (c >= 65 && c <= 90) {
      out += String.fromCharCode(c + 32);
      dash = false;
    } else if (!dash && out !== '') {
      out += '-';
      dash = true;
    }
  }
  return out.endsWith('-') ? out.slice(0, -1) : out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** FNV-1a (32 bits) of the UTF-8 bytes: which directory shard holds a key. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const b of encoder.encode(text)) {
    h ^= b;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function hex(text: string): string {
  let out = '';
  for (const b of encoder.encode(text)) out += b.toString(16).padStart(2, '0');
  return out;
}

type Manifest = {
  format: number;
  docs: number;
  chunkSize: number;
  segmentSize: number;
  /** Mean bytes of a chunk file. */
  chunkBytes: number;
  /** Each segment's folder and the version of its files (added to their URLs). */
  segments: [folder: string, version: string][];
  /** Shard file names of the 1-, 2- and 3-grams. */
  shards: [string[], string[], string[]];
  groups: [categoryLabel: string, categoryHref: string, subLabel: string, subHref: string][];
};

/** Part of a key's postings; covers ids down to its `min` (down to 0 for the oldest piece). */
type Piece = { readonly min: number; readonly bytes: number; ids: Uint32Array | null };

type Entry = {
  readonly key: string;
  readonly df: number;
  /** All ids, ascending, when the directory holds them; else null and the pieces hold them. */
  readonly ids: Uint32Array | null;
  /** Newest first. */
  readonly pieces: readonly Piece[];
};

type Doc = { readonly title: string; readonly lower: string; readonly slug: string; readonly groups: number[] };

type ChunkEntry = [title: string, groups: number[]] | [title: string, groups: number[], keep: number, tail: string];

/** The first stretch of ids looked through is at least this many chunks. */
const FIRST_WINDOW_CHUNKS = 4;
/**
 * Stretches are sized to hold about this many times the matches still wanted, as far as the rarest
 * key (then the matches found so far) tells: fewer round trips for rare words, few bytes for common ones.
 */
const WINDOW_SLACK = 2;
/** What a request costs beyond its body, in bytes (headers both ways), when weighing fetches. */
const REQUEST_BYTES = 400;

function reader(bytes: Uint8Array) {
  let at = 0;
  return {
    done: () => at >= bytes.length,
    varint(): number {
      let n = 0;
      let shift = 0;
      for (;;) {
        const b = bytes[at++];
        if (b === undefined) throw new Error('search index: truncated number');
        n += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) return n;
        shift += 7;
      }
    },
    text(length: number): string {
      const s = decoder.decode(bytes.subarray(at, at + length));
      at += length;
      return s;
    },
  };
}

/** Ascending ids written as gaps after `previous` (the first id is `previous + 1 + gap`). */
function readIds(read: ReturnType<typeof reader>, previous: number, count: number | null): Uint32Array {
  const ids: number[] = [];
  let id = previous;
  while (count === null ? !read.done() : ids.length < count) {
    id += read.varint() + 1;
    ids.push(id);
  }
  return Uint32Array.from(ids);
}

function contains(ids: Uint32Array, id: number): boolean {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ids[mid] as number) < id) lo = mid + 1;
    else hi = mid;
  }
  return ids[lo] === id;
}

/** One site's index: what has been fetched of it, and the query over it. */
class SearchIndex {
  private readonly shards = new Map<string, Promise<Map<string, Entry>>>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly chunks = new Map<number, Doc[]>();

  constructor(
    private readonly base: string,
    private readonly manifest: Manifest,
  ) {}

  /** Fetches `url` once: callers share the request; a failed one is forgotten, to be tried again. */
  private once<T>(url: string, load: (response: Response) => Promise<T>): Promise<T> {
    let pending = this.inFlight.get(url) as Promise<T> | undefined;
    if (!pending) {
      pending = fetch(url).then((response) => {
        if (!response.ok) throw new Error(`search index file ${url} answered ${response.status}`);
        return load(response);
      });
      this.inFlight.set(url, pending);
      pending.catch(() => this.inFlight.delete(url));
    }
    return pending;
  }

  private async bytes(url: string): Promise<Uint8Array> {
    return this.once(url, async (response) => new Uint8Array(await response.arrayBuffer()));
  }

  private entry(key: string): Promise<Entry | undefined> {
    const n = Array.from(key).length as 1 | 2 | 3;
    const names = this.manifest.shards[n - 1] ?? [];
    const name = names[fnv1a32(key) % names.length];
    if (name === undefined) return Promise.resolve(undefined);
    let shard = this.shards.get(name);
    if (!shard) {
      shard = this.bytes(this.base + name).then((bytes) => this.parseShard(bytes));
      this.shards.set(name, shard);
      shard.catch(() => this.shards.delete(name));
    }
    return shard.then((entries) => entries.get(key));
  }

  private parseShard(bytes: Uint8Array): Map<string, Entry> {
    const entries = new Map<string, Entry>();
    const read = reader(bytes);
    while (!read.done()) {
      const key = read.text(read.varint());
      const df = read.varint();
      const count = read.varint();
      if (count === 0) {
        entries.set(key, { key, df, ids: readIds(read, -1, df), pieces: [] });
        continue;
      }
      const pieces: Piece[] = [];
      let previous = this.manifest.docs;
      for (let n = count; n > 0; n--) {
        const min = previous - 1 - read.varint();
        pieces.push({ min, bytes: read.varint(), ids: null });
        previous = min;
      }
      entries.set(key, { key, df, ids: null, pieces });
    }
    return entries;
  }

  /** The piece whose stretch of ids holds `id`: the newest one starting at or below it. */
  private pieceAt(entry: Entry, id: number): Piece {
    const { pieces } = entry;
    let lo = 0;
    let hi = pieces.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((pieces[mid] as Piece).min <= id) hi = mid;
      else lo = mid + 1;
    }
    return pieces[lo] as Piece;
  }

  /** The pieces of `entry` that cover some of the ids `[lo, hi)`. */
  private piecesIn(entry: Entry, lo: number, hi: number): Piece[] {
    const out: Piece[] = [];
    for (let i = 0; i < entry.pieces.length; i++) {
      const piece = entry.pieces[i] as Piece;
      const top = i === 0 ? this.manifest.docs : (entry.pieces[i - 1] as Piece).min;
      const bottom = i === entry.pieces.length - 1 ? 0 : piece.min;
      if (bottom < hi && top > lo) out.push(piece);
    }
    return out;
  }

  private async load(entry: Entry, pieces: readonly Piece[]): Promise<void> {
    const { segmentSize, segments } = this.manifest;
    await Promise.all(
      pieces
        .filter((piece) => piece.ids === null)
        .map(async (piece) => {
          const segment = segments[Math.floor(piece.min / segmentSize)];
          const bytes = await this.bytes(this.segmentUrl(segment, `${hex(entry.key)}.${piece.min}.bin`));
          piece.ids ??= Uint32Array.of(piece.min, ...readIds(reader(bytes), piece.min, null));
        }),
    );
  }

  /** Whether `id`'s title holds the key; undefined while the piece that knows is not loaded. */
  private has(entry: Entry, id: number): boolean | undefined {
    if (entry.ids) return contains(entry.ids, id);
    const piece = this.pieceAt(entry, id);
    return piece.ids ? contains(piece.ids, id) : undefined;
  }

  /** The ids in `[lo, hi)` holding the key, newest first; the covering pieces must be loaded. */
  private idsIn(entry: Entry, lo: number, hi: number): number[] {
    const lists = entry.ids ? [entry.ids] : this.piecesIn(entry, lo, hi).map((p) => p.ids as Uint32Array);
    const out: number[] = [];
    for (const ids of lists) {
      for (let i = ids.length - 1; i >= 0; i--) {
        const id = ids[i] as number;
        if (id >= lo && id < hi) out.push(id);
      }
    }
    return out.sort((a, b) => b - a);
  }

  /** A file of a segment: stable names, so the segment's version keeps caches from mixing two. */
  private segmentUrl(segment: [string, string] | undefined, file: string): string {
    const [folder, version] = segment ?? ['', ''];
    return `${this.base}${folder}/${file}?v=${version}`;
  }

  private chunkOf(id: number): number {
    return Math.floor(id / this.manifest.chunkSize);
  }

  private async loadChunk(j: number): Promise<void> {
    if (this.chunks.has(j)) return;
    const { chunkSize, segmentSize, segments } = this.manifest;
    const segment = segments[Math.floor((j * chunkSize) / segmentSize)];
    const list = await this.once(this.segmentUrl(segment, `c${j}.json`), (r) => r.json() as Promise<ChunkEntry[]>);
    if (this.chunks.has(j)) return;
    this.chunks.set(
      j,
      list.map(([title, groups, keep, tail]) => ({
        title,
        lower: title.toLowerCase(),
        slug: keep === undefined ? derivedSlug(title) : derivedSlug(title).slice(0, keep) + tail,
        groups,
      })),
    );
  }

  private doc(id: number): Doc {
    const docs = this.chunks.get(this.chunkOf(id));
    const doc = docs?.[id % this.manifest.chunkSize];
    if (!doc) throw new Error(`search index: no title for document ${id}`);
    return doc;
  }

  /**
   * Whether fetching the pieces of `entry` over `[lo, hi)` (`cost` bytes) is likely cheaper than
   * fetching the titles it would rule out. `candidates` is how many ids are left in the stretch and
   * `chunks` how many title chunks not yet loaded they fall in.
   */
  private worthLoading(entry: Entry, cost: number, candidates: number, chunks: number): boolean {
    if (chunks === 0) return false;
    const density = entry.df / this.manifest.docs;
    const perChunk = candidates / chunks;
    const chunksLeft = chunks * (1 - (1 - density) ** perChunk);
    return (chunks - chunksLeft) * (this.manifest.chunkBytes + REQUEST_BYTES) > cost;
  }

  /**
   * Starts fetching the pieces over `[lo, hi)` of each key in `entries` that would rule out more
   * title chunks than it costs, with `candidates` ids left in `chunks` chunks not yet loaded. Each
   * key is weighed alone, as if the others ruled out nothing: `entries` holds one key per word, and
   * words are close to independent.
   */
  private worthwhile(entries: readonly Entry[], lo: number, hi: number, candidates: number, chunks: number) {
    const loads: Promise<void>[] = [];
    for (const entry of entries) {
      const pieces = entry.ids ? [] : this.piecesIn(entry, lo, hi).filter((p) => p.ids === null);
      if (pieces.length === 0) continue;
      const cost = pieces.reduce((sum, p) => sum + p.bytes + REQUEST_BYTES, 0);
      if (this.worthLoading(entry, cost, candidates, chunks)) loads.push(this.load(entry, pieces));
    }
    return loads;
  }

  /** The newest `limit` documents whose title holds every word, newest first. */
  async find(words: readonly string[], limit: number): Promise<number[]> {
    const keys = [...new Set(words.flatMap(wordKeys))];
    const found = await Promise.all(keys.map((key) => this.entry(key)));
    const entries: Entry[] = [];
    for (const entry of found) {
      if (!entry) return []; // no title holds this key
      entries.push(entry);
    }
    entries.sort((a, b) => a.df - b.df);
    const [driver, ...others] = entries;
    if (!driver) return [];
    // The keys worth weighing: each word's rarest, the driver's word aside. A word's other keys
    // mostly hold the same titles as its rarest (every title with `journaling` holds `jou`, `our`
    // and `urn`), so once that one has thinned the candidates they rule out almost nothing, and
    // weighing them as independent would fetch their pieces for it; the titles check the rest.
    const rarest = new Set(
      words.map((word) => {
        const own = new Set(wordKeys(word));
        return entries.find((entry) => own.has(entry.key)) as Entry;
      }),
    );
    rarest.delete(driver);
    const weighed = [...rarest];

    // No id below the driver's oldest can hold every key.
    const oldest = driver.ids ? (driver.ids[0] as number) : (driver.pieces.at(-1) as Piece).min;
    const { docs, chunkSize } = this.manifest;
    const hits: number[] = [];
    let hi = docs;
    let size = Math.max(FIRST_WINDOW_CHUNKS * chunkSize, Math.ceil((WINDOW_SLACK * limit * docs) / driver.df));
    while (hits.length < limit && hi > oldest) {
      const lo = Math.max(0, hi - size);
      await this.load(driver, this.piecesIn(driver, lo, hi));
      let candidates = this.idsIn(driver, lo, hi).filter((id) => others.every((e) => this.has(e, id) !== false));
      // Fetch, all at once, the pieces of the other keys worth theirs, and rule out what they can.
      const chunks = new Set(candidates.map((id) => this.chunkOf(id)).filter((j) => !this.chunks.has(j))).size;
      const loads = this.worthwhile(weighed, lo, hi, candidates.length, chunks);
      if (loads.length > 0) {
        await Promise.all(loads);
        candidates = candidates.filter((id) => others.every((e) => this.has(e, id) !== false));
      }

      // Check the candidates' titles in order, fetching only as many chunks as could still be needed.
      for (let at = 0; at < candidates.length && hits.length < limit; ) {
        const batch = candidates.slice(at, at + limit - hits.length);
        at += batch.length;
        await Promise.all(batch.map((id) => this.loadChunk(this.chunkOf(id))));
        for (const id of batch) if (hasAll(this.doc(id).lower, words)) hits.push(id);
      }
      // The next stretch: big enough for the matches still wanted at the rate found so far, and
      // at least twice this one.
      const scanned = docs - lo;
      const needed = hits.length > 0 ? (WINDOW_SLACK * (limit - hits.length) * scanned) / hits.length : 0;
      size = Math.max(2 * size, Math.ceil(needed));
      hi = lo;
    }
    return hits;
  }

  hit(id: number): SearchHit {
    const doc = this.doc(id);
    return {
      title: doc.title,
      href: `/articles/${doc.slug}`,
      groups: doc.groups.flatMap((g) => {
        const group = this.manifest.groups[g];
        if (!group) return [];
        const [catLabel, catHref, subLabel, subHref] = group;
        return [{ category: { label: catLabel, href: catHref }, subcategory: { label: subLabel, href: subHref } }];
      }),
    };
  }
}

const indexes = new Map<string, Promise<SearchIndex>>();

function loadIndex(manifestUrl: string): Promise<SearchIndex> {
  let pending = indexes.get(manifestUrl);
  if (!pending) {
    pending = fetch(manifestUrl).then(async (response) => {
      if (!response.ok) throw new Error(`search manifest ${manifestUrl} answered ${response.status}`);
      const manifest = (await response.json()) as Manifest;
      if (manifest.format !== 2)
        throw new Error(`search manifest ${manifestUrl} has unknown format ${manifest.format}`);
      return new SearchIndex(manifestUrl.slice(0, manifestUrl.lastIndexOf('/') + 1), manifest);
    });
    // A failed load is forgotten, so the next keystroke tries again.
    pending.catch(() => indexes.delete(manifestUrl));
    indexes.set(manifestUrl, pending);
  }
  return pending;
}

/**
 * Starts loading a site's index (its manifest) ahead of the first search, on first focus of the
 * box for instance, so the first suggestions wait for one round trip less. A failure is forgotten:
 * the first search tries again and reports it.
 */
export function preloadIndex(manifestUrl: string): Promise<void> {
  return loadIndex(manifestUrl).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * The articles whose title matches `text`, newest first: at most `limit` of them (by default one
 * more than the box lists, so more than MAX_SUGGESTIONS hits means "and more"). Nothing for a text
 * too short to suggest (two characters or fewer).
 */
export async function search(manifestUrl: string, text: string, limit = SEARCH_LIMIT): Promise<SearchHit[]> {
  const words = wordsOf(text);
  if (!shouldSuggest(text) || words.length === 0 || limit <= 0) return [];
  const index = await loadIndex(manifestUrl);
  const ids = await index.find(words, limit);
  return ids.map((id) => index.hit(id));
}
