//! The title search index. Nothing of it ships with a page: the search client
//! (web/src/search/client.ts) comes with the first focus of the search box and reads the index
//! piece by piece, the manifest once, then per query only the directory shards of its keys, the
//! posting pieces it needs and the title chunks of its first candidates. What one query costs
//! therefore grows with how far it has to look for its matches, not with the number of articles.
//!
//! # Model
//! Documents are the articles numbered oldest first (id 0 is the oldest): publishing a new
//! article appends an id, so the folders of older segments keep their bytes and names and only
//! the newest segment, the directory and the manifest change. The client walks ids downwards,
//! which lists results newest first.
//!
//! The matching rule (DESIGN.md, and `matches` in web/src/search/client.ts): the text is
//! lower-cased and split on whitespace, and every word must occur in the lower-cased title as
//! plain text. A word of three or more characters (Unicode scalar values) occurs only in titles
//! that hold all of its trigrams; a shorter word is its own key. So the keys are the 1-, 2- and
//! 3-grams of each lower-cased title that contain no whitespace, with final sigma `ς` folded to
//! `σ` (keys only; matching is untouched). Keys find candidates; the client checks each candidate's
//! title with the literal rule before listing it, so the index may over-approximate, never miss.
//!
//! # Files, all under `search/`
//! - `manifest.json`: document count, chunk and segment sizes, segment folders with their digests, shard
//!   files per gram length, the `Category → Subcategory` group table, and the mean chunk size
//!   (the client weighs fetching postings against fetching titles with it). Its name is stable,
//!   so the site data that points at it (and so every page) stays the same when a title changes;
//!   it is revalidated on every use, and every other file here is content-named and immutable.
//! - `k{n}-{i}.{hash}.bin`: directory shard `i` of the `n`-grams; a key lives in shard
//!   `fnv1a32(utf8(key)) mod count`. Per key, in key order: `len key df n`, then when `n` is 0
//!   the key's ids (ascending: the first, then gaps `id - previous - 1`), else its `n` pieces
//!   newest first as `(previous min - 1 - min) byte_length`, the previous min of the first being
//!   the document count. All numbers are unsigned LEB128.
//! - `{segment}/`: the files of ids `[segment·S, segment·S + S)`. Their names are stable, so a
//!   changed title rewrites only the files that hold it; the manifest gives each segment the
//!   digest of all its files, which the client adds to their URLs (`?v={digest}`) so no cache
//!   mixes two versions. They are revalidated like the manifest:
//!   - `c{j}.json`: titles of ids `[j·C, j·C + C)` as `[title, [group…]]`, or
//!     `[title, [group…], keep, tail]` when the slug is not [`derived_slug`] of the title (the
//!     slug is then `derived_slug(title)[..keep] + tail`);
//!   - `{hex(utf8(key))}.{min}.bin`: one piece of a key's postings (at most `piece` ids, never
//!     across a segment): the ids after `min`, ascending, as gaps (`id - previous - 1`).
//!
//! The directory shards' names carry a digest of their bytes, so they can be cached forever; the
//! same site always gives the same bytes.

use std::fmt::Write as _;

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde_json::json;
use stillpoint_content::fnv1a32;

use crate::emit::digest;
use crate::layout::search_file;
use crate::plan::PlanContext;

mod memo;
#[cfg(test)]
mod tests;

pub use memo::{DocSource, SearchMemo};

/// Sizes of the index's files. [`Layout::DEFAULT`] was chosen by measuring queries typed key by
/// key on generated sites of 100,000 articles (web/scripts/search-bench.mjs) and on the titles of
/// 1,000,000 (`make bench-search`): chunks of 16 titles, because a listed match costs the whole
/// chunk that holds its title, and at 1M the newest matches of a rare combination of words lie
/// far apart (docs/scale.md); tests use small sizes to reach every edge with few documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Titles per chunk file.
    pub chunk: usize,
    /// Ids per segment folder; a multiple of `chunk`.
    pub segment: usize,
    /// Ids per posting piece at most.
    pub piece: usize,
    /// Keys whose ids take at most this many bytes keep them in the directory: a request of
    /// their own would cost more than carrying them along.
    pub inline_bytes: usize,
    /// Directory bytes per shard, roughly: the shard count of each gram length follows from it.
    pub shard_bytes: usize,
}

impl Layout {
    pub const DEFAULT: Self =
        Self { chunk: 16, segment: 16384, piece: 2048, inline_bytes: 48, shard_bytes: 1024 };
}

/// One article as the index sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doc {
    pub title: String,
    pub slug: String,
    /// Indices into the group table, primary topic first.
    pub groups: Vec<u32>,
}

/// A `Category → Subcategory` heading: category label and href, subcategory label and href.
pub type Group = [String; 4];

/// The emitted files (paths relative to the site root) and the manifest's path among them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchIndex {
    pub manifest: String,
    pub files: Vec<(String, Vec<u8>)>,
}

/// The index of a site's articles, with [`Layout::DEFAULT`].
#[cfg(test)]
pub fn search_index(ctx: &PlanContext) -> SearchIndex {
    search_index_with(ctx, None, false)
}

/// The index of a site's articles, with [`Layout::DEFAULT`], updating `memo` (the last build's
/// documents and keys, kept by a `dev` session): when few titles changed, only their keys are
/// listed again. Without a memo to keep, the documents go as soon as their titles are encoded.
pub fn search_index_with(
    ctx: &PlanContext,
    memo: Option<&mut Option<SearchMemo>>,
    same_placement: bool,
) -> SearchIndex {
    let (pairs, groups) = site_groups(ctx);
    let catalog = ctx.catalog;
    let count = catalog.newest.len();
    // Oldest first: id 0 is the last of `newest`.
    let doc = |id: usize, buf: &mut Vec<u32>| {
        let i = catalog.newest[count - 1 - id];
        buf.clear();
        buf.extend(catalog.topics_of(i).iter().map(|p| {
            let g = pairs.binary_search(p).expect("every placement is in the table");
            u32::try_from(g).expect("fewer than 2^32 topics")
        }));
        let a = ctx.summary(i);
        (a.shown.title, a.placement.slug)
    };
    let source = |id: usize| Some(ctx.held(catalog.newest[count - 1 - id]));
    let docs = DocSource { count, doc: &doc, source: &source, same_groups: same_placement };
    match memo {
        Some(memo) => SearchMemo::update_from(memo, &docs, groups, Layout::DEFAULT),
        None => SearchMemo::build_once(&docs, &groups, Layout::DEFAULT),
    }
}

/// The `(category, subcategory)` placements of the site's articles, sorted and without repeats,
/// and the group table they index (sorted by category, then subcategory, as the topic tree orders
/// them).
fn site_groups(ctx: &PlanContext) -> (Vec<(usize, usize)>, Vec<Group>) {
    let mut pairs: Vec<(usize, usize)> = ctx.catalog.all_topics().copied().collect();
    pairs.sort_unstable();
    pairs.dedup();
    let groups = pairs
        .iter()
        .map(|&(ci, si)| {
            let (c, s) = (ctx.category_link(ci), ctx.subcategory_link(ci, si));
            [c.label, c.href, s.label, s.href]
        })
        .collect();
    (pairs, groups)
}

/// Builds every file of the index for `docs`, oldest first.
pub fn build_index(docs: &[Doc], groups: &[Group], layout: Layout) -> SearchIndex {
    encode(docs, groups, &postings(docs), layout)
}

/// Every file of the index for `docs`, whose keys are `postings`.
fn encode(docs: &[Doc], groups: &[Group], postings: &Postings, layout: Layout) -> SearchIndex {
    encode_keys(docs.len(), chunk_files(docs, layout), groups, [postings], layout)
}

/// The title chunks of `docs` (`c{j}.json`), in order.
fn chunk_files(docs: &[Doc], layout: Layout) -> Vec<Vec<u8>> {
    assert!(layout.chunk > 0);
    docs.par_chunks(layout.chunk).map(|chunk| chunk_json(chunk).into_bytes()).collect()
}

/// Every file of the index of `docs` documents, from their title chunks and their keys, given
/// in parts that share no key (each part's keys are encoded, then the part is dropped).
fn encode_keys<P: std::borrow::Borrow<Postings>>(
    docs: usize,
    chunks: Vec<Vec<u8>>,
    groups: &[Group],
    parts: impl IntoIterator<Item = P>,
    layout: Layout,
) -> SearchIndex {
    assert!(layout.chunk > 0 && layout.segment.is_multiple_of(layout.chunk) && layout.piece > 0);
    let count = to_u32(docs);
    let segments = docs.div_ceil(layout.segment);
    let mut segment_files: Vec<Vec<(String, Vec<u8>)>> = vec![Vec::new(); segments];

    let chunk_bytes: usize = chunks.iter().map(Vec::len).sum();
    for (j, bytes) in chunks.into_iter().enumerate() {
        segment_files[j * layout.chunk / layout.segment].push((format!("c{j}.json"), bytes));
    }

    // Directory entries, by gram length, in key order; each key's posting pieces beside.
    let mut entries: [Vec<(String, Vec<u8>)>; 3] = Default::default();
    for part in parts {
        let postings = as_text(part.borrow());
        let encoded: Vec<KeyFiles> =
            postings.par_iter().map(|(key, ids)| encode_key(key, ids, count, layout)).collect();
        for ((key, _), (entry, pieces)) in postings.into_iter().zip(encoded) {
            for (id, name, bytes) in pieces {
                segment_files[id as usize / layout.segment].push((name, bytes));
            }
            entries[key.chars().count() - 1].push((key, entry));
        }
    }
    for family in &mut entries {
        // Characters in code point order are their UTF-8 bytes in byte order.
        family.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    }

    let mut files = Vec::new();
    let mut segment_names = Vec::with_capacity(segments);
    for (s, mut list) in segment_files.into_iter().enumerate() {
        list.sort_by(|a, b| a.0.cmp(&b.0));
        let hash = digest(list.iter().flat_map(|(n, b)| [n.as_bytes(), b.as_slice()]));
        files.extend(list.into_iter().map(|(n, b)| (search_file(&format!("{s}/{n}")), b)));
        segment_names.push([s.to_string(), hash]);
    }

    let mut shard_names: [Vec<String>; 3] = Default::default();
    for (n, family) in entries.iter().enumerate() {
        let total: usize = family.iter().map(|(_, e)| e.len()).sum();
        let shards = total.div_ceil(layout.shard_bytes).max(1);
        let mut bytes = vec![Vec::new(); shards];
        for (key, entry) in family {
            bytes[shard_of(key, shards)].extend_from_slice(entry);
        }
        for (i, b) in bytes.into_iter().enumerate() {
            let name = format!("k{}-{i}.{}.bin", n + 1, digest([b.as_slice()]));
            files.push((search_file(&name), b));
            shard_names[n].push(name);
        }
    }

    let manifest = json!({
        "format": 2,
        "docs": count,
        "chunkSize": layout.chunk,
        "segmentSize": layout.segment,
        "chunkBytes": chunk_bytes.checked_div(docs.div_ceil(layout.chunk)).unwrap_or(0),
        "segments": segment_names,
        "shards": shard_names,
        "groups": groups,
    });
    let manifest = serde_json::to_vec(&manifest).expect("JSON values serialise");
    let path = search_manifest();
    files.push((path.clone(), manifest));
    SearchIndex { manifest: path, files }
}

/// A key's directory entry, and its posting pieces (when not inline) as (first id, name, bytes).
type KeyFiles = (Vec<u8>, Vec<(u32, String, Vec<u8>)>);

fn encode_key(key: &str, ids: &[u32], count: u32, layout: Layout) -> KeyFiles {
    let mut entry = Vec::new();
    let mut files = Vec::new();
    put_str(&mut entry, key);
    put_varint(&mut entry, to_u32(ids.len()));
    let mut inline = Vec::new();
    put_ids(&mut inline, ids);
    if inline.len() <= layout.inline_bytes {
        put_varint(&mut entry, 0);
        entry.extend_from_slice(&inline);
    } else {
        let pieces = pieces(ids, layout);
        put_varint(&mut entry, to_u32(pieces.len()));
        let mut previous = count;
        // Newest first: the order the client reads them in.
        for piece in pieces.iter().rev() {
            let mut bytes = Vec::new();
            put_gaps(&mut bytes, piece[0], &piece[1..]);
            put_varint(&mut entry, previous - 1 - piece[0]);
            put_varint(&mut entry, to_u32(bytes.len()));
            previous = piece[0];
            let name = format!("{}.{}.bin", hex::encode(key.as_bytes()), piece[0]);
            files.push((piece[0], name, bytes));
        }
    }
    (entry, files)
}

/// Where the manifest is: a stable name, so the site data that points at it need not change.
pub fn search_manifest() -> String {
    search_file("manifest.json")
}

/// Every key with the ids of the titles that hold it, ascending.
type Postings = FxHashMap<Gram, Vec<u32>>;

/// The keys of `docs`. The titles are read in parallel, a run of ids per task, and the runs'
/// lists joined in order.
fn postings(docs: &[Doc]) -> Postings {
    postings_part(docs, |d| &d.title, 0, 1)
}

/// The keys of the titles of `docs` that fall in part `part` of `parts` ([`Gram::part`]).
fn postings_part<T: Sync>(
    docs: &[T],
    title: impl Fn(&T) -> &str + Sync,
    part: usize,
    parts: usize,
) -> Postings {
    const RUN: usize = 4096;
    docs.par_chunks(RUN)
        .enumerate()
        .map(|(run, docs)| {
            let mut map = Postings::default();
            for (i, doc) in docs.iter().enumerate() {
                let id = to_u32(run * RUN + i);
                for_each_gram(title(doc), |gram| {
                    if gram.part(parts) != part {
                        return;
                    }
                    let ids = map.entry(gram).or_default();
                    // Ids arrive in order, so a gram met twice in one title is the last id pushed.
                    if ids.last() != Some(&id) {
                        ids.push(id);
                    }
                });
            }
            map
        })
        .reduce(Postings::default, |mut older, newer| {
            for (gram, ids) in newer {
                older.entry(gram).or_default().extend(ids);
            }
            older
        })
}

/// The keys as text, with their ids (in no order: the directory's entries are sorted once
/// every part's are made).
fn as_text(postings: &Postings) -> Vec<(String, &[u32])> {
    postings.iter().map(|(gram, ids)| (gram.to_string(), ids.as_slice())).collect()
}

/// A key: one to three characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Gram {
    len: u8,
    chars: [char; 3],
}

impl Gram {
    /// Which of `parts` parts of the keys this one is in.
    fn part(&self, parts: usize) -> usize {
        if parts == 1 {
            return 0;
        }
        let mut h = rustc_hash::FxHasher::default();
        std::hash::Hash::hash(self, &mut h);
        (std::hash::Hasher::finish(&h) % parts as u64) as usize
    }
}

impl std::fmt::Display for Gram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.chars[..usize::from(self.len)].iter().try_for_each(|&c| f.write_char(c))
    }
}

/// Calls `f` with every 1-, 2- and 3-gram of the folded title that holds no whitespace.
fn for_each_gram(title: &str, mut f: impl FnMut(Gram)) {
    let chars = fold(title);
    for len in 1..=3usize {
        for window in chars.windows(len) {
            if window.iter().any(|&c| is_js_space(c)) {
                continue;
            }
            let mut gram = Gram { len: len as u8, chars: ['\0'; 3] };
            gram.chars[..len].copy_from_slice(window);
            f(gram);
        }
    }
}

/// The characters keys are made of: the text lower-cased as JavaScript's `toLowerCase` does
/// (Unicode's full, locale-independent mapping, which Rust's `to_lowercase` shares), with the final
/// sigma folded into `σ` so that where a word ends can never hide a key.
pub fn fold(text: &str) -> Vec<char> {
    text.to_lowercase().chars().map(|c| if c == 'ς' { 'σ' } else { c }).collect()
}

/// What JavaScript's `\s` matches (WhiteSpace and LineTerminator): the separators of words.
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// The shard of the directory that holds `key`, out of `shards`.
pub fn shard_of(key: &str, shards: usize) -> usize {
    fnv1a32(key.as_bytes()) as usize % shards
}

/// A slug made from a title the way the client can repeat: ASCII letters and digits lower-cased,
/// every run of anything else one `-`, none at either end. Most slugs are this, and then the
/// chunk files leave them out.
pub fn derived_slug(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    let mut dash = false;
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
            dash = false;
        } else if !dash && !out.is_empty() {
            out.push('-');
            dash = true;
        }
    }
    if out.ends_with('-') {
        out.pop();
    }
    out
}

fn chunk_json(docs: &[Doc]) -> String {
    let mut out = String::from("[");
    for (i, doc) in docs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let title = serde_json::to_string(&doc.title).expect("a string serialises");
        let groups = serde_json::to_string(&doc.groups).expect("numbers serialise");
        write!(out, "[{title},{groups}").expect("writing to a String");
        let derived = derived_slug(&doc.title);
        if derived != doc.slug {
            // `derived` is ASCII, so the common prefix ends on a character boundary of the slug.
            let keep = derived.bytes().zip(doc.slug.bytes()).take_while(|(a, b)| a == b).count();
            let tail = serde_json::to_string(&doc.slug[keep..]).expect("a string serialises");
            write!(out, ",{keep},{tail}").expect("writing to a String");
        }
        out.push(']');
    }
    out.push(']');
    out
}

/// A key's ids cut into pieces of at most `layout.piece` ids, none across a segment, oldest first.
fn pieces(ids: &[u32], layout: Layout) -> Vec<&[u32]> {
    let mut out = Vec::new();
    let mut rest = ids;
    while let Some(&first) = rest.first() {
        let segment_end = (first as usize / layout.segment + 1) * layout.segment;
        let in_segment = rest.partition_point(|&id| (id as usize) < segment_end);
        let (piece, tail) = rest.split_at(in_segment.min(layout.piece));
        out.push(piece);
        rest = tail;
    }
    out
}

fn put_varint(out: &mut Vec<u8>, mut n: u32) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, to_u32(s.len()));
    out.extend_from_slice(s.as_bytes());
}

/// Ascending ids: the first as is, then gaps.
fn put_ids(out: &mut Vec<u8>, ids: &[u32]) {
    put_varint(out, ids[0]);
    put_gaps(out, ids[0], &ids[1..]);
}

/// Ascending ids after `previous`, as gaps (`id - previous - 1`).
fn put_gaps(out: &mut Vec<u8>, mut previous: u32, ids: &[u32]) {
    for &id in ids {
        put_varint(out, id - previous - 1);
        previous = id;
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).expect("fewer than 2^32 items")
}
