use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use proptest::prelude::*;
use serde_json::Value;

use super::*;

/// Small files, so a few dozen documents reach several segments, pieces and shards.
const SMALL: Layout = Layout { chunk: 8, segment: 32, piece: 8, inline_bytes: 3, shard_bytes: 96 };

fn doc(title: &str, slug: &str, groups: &[u32]) -> Doc {
    Doc { title: title.into(), slug: slug.into(), groups: groups.to_vec() }
}

fn groups() -> Vec<Group> {
    [["Sleep", "/sleep", "Scripts", "/sleep/scripts"], ["Focus", "/focus", "Work", "/focus/work"]]
        .map(|g| g.map(String::from))
        .to_vec()
}

/// Titles that reach the edges: case mappings that change length or depend on context, emoji,
/// regex characters, odd whitespace, slugs that are not derived from their titles.
const SPECIAL: &[(&str, &str)] = &[
    ("Breathing (the 4-7-8 way)", "breathing-the-4-7-8-way"),
    ("Calm [A] + .* ?", "calm-a"),
    ("ΟΔΟΣ ΠΡΟΣ ΤΗΝ ΗΡΕΜΙΑ", "odos-pros-tin-iremia"),
    ("İstanbul'da Sabah Meditasyonu", "istanbulda-sabah-meditasyonu"),
    ("Straße der Stille: Ärger loslassen", "strasse-der-stille"),
    ("🧘 Sitting With 🌿 Nature", "sitting-with-nature"),
    ("Zen\u{a0}garden\u{2003}walk\ttime", "zen-garden-walk-time"),
    ("Ｆｕｌｌｗｉｄｔｈ Calm", "fullwidth-calm"),
    ("睡眠のための瞑想", "sleep-meditation-ja"),
    ("A 10-Minute Body Scan (Part 2)", "a-10-minute-body-scan-2"),
    ("Body Scan for Deeper Sleep", "body-scan-for-deeper-sleep"),
    ("ǅemal's DŽ Practice", "dzemals-practice"),
    // Rare words: each in two titles, together in one (in another chunk than the other two).
    ("Quokka Calm", "quokka-calm"),
    ("Zebra Focus", "zebra-focus"),
    ("Quokka and Zebra Breathing", "quokka-and-zebra-breathing"),
];

const WORDS: &[&str] = &[
    "Body", "Scan", "Sleep", "Calm", "Breath", "Focus", "Mindful", "Walking", "Night", "Owls",
    "Gentle", "Morning", "Stress", "Relief", "Yoga", "Nidra", "for", "the", "with", "of",
];

/// A deterministic corpus of `n` documents, the special ones spread among generated titles.
fn corpus(n: usize) -> Vec<Doc> {
    let mut seed: u32 = 7;
    let mut next = move |m: usize| {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (seed >> 8) as usize % m
    };
    (0..n)
        .map(|i| {
            let groups: Vec<u32> = match i % 5 {
                0 => vec![],
                1 => vec![0, 1],
                2 => vec![1],
                _ => vec![0],
            };
            if i % 4 == 1
                && let Some(&(title, slug)) = SPECIAL.get(i / 4)
            {
                return doc(title, slug, &groups);
            }
            let words: Vec<&str> = (0..2 + next(4)).map(|_| WORDS[next(WORDS.len())]).collect();
            let title = format!("{} {}", words.join(" "), i);
            Doc { slug: derived_slug(&title), title, groups }
        })
        .collect()
}

/// Reads an index back the way the client does.
struct Reader {
    files: HashMap<String, Vec<u8>>,
    manifest: Value,
}

#[derive(Debug, PartialEq, Eq)]
struct Entry {
    df: usize,
    ids: Vec<u32>,
    /// 0 when the directory holds the ids.
    pieces: u32,
}

fn varint(bytes: &[u8], at: &mut usize) -> u32 {
    let mut n = 0u32;
    let mut shift = 0;
    loop {
        let b = bytes[*at];
        *at += 1;
        n |= u32::from(b & 0x7f) << shift;
        if b < 0x80 {
            return n;
        }
        shift += 7;
    }
}

impl Reader {
    fn new(index: &SearchIndex) -> Self {
        let files: HashMap<String, Vec<u8>> = index.files.iter().cloned().collect();
        assert_eq!(files.len(), index.files.len(), "no path is written twice");
        let manifest = serde_json::from_slice(&files[&index.manifest]).unwrap();
        Self { files, manifest }
    }

    fn num(&self, field: &str) -> usize {
        self.manifest[field].as_u64().unwrap() as usize
    }

    fn file(&self, name: &str) -> &[u8] {
        let path = search_file(name);
        self.files.get(&path).unwrap_or_else(|| panic!("{path} is not emitted"))
    }

    fn shard(&self, n: usize, i: usize) -> BTreeMap<String, Vec<u8>> {
        let name = self.manifest["shards"][n - 1][i].as_str().unwrap();
        let bytes = self.file(name);
        let mut out = BTreeMap::new();
        let mut at = 0;
        while at < bytes.len() {
            let start = at;
            let len = varint(bytes, &mut at) as usize;
            let key = std::str::from_utf8(&bytes[at..at + len]).unwrap().to_string();
            at += len;
            let df = varint(bytes, &mut at);
            let pieces = varint(bytes, &mut at);
            for _ in 0..if pieces == 0 { df } else { 2 * pieces } {
                varint(bytes, &mut at);
            }
            out.insert(key, bytes[start..at].to_vec());
        }
        out
    }

    fn shard_count(&self, n: usize) -> usize {
        self.manifest["shards"][n - 1].as_array().unwrap().len()
    }

    /// A key's entry with all its ids, ascending; None when no title holds it.
    fn entry(&self, key: &str) -> Option<Entry> {
        let n = key.chars().count();
        let bytes = self.shard(n, shard_of(key, self.shard_count(n))).remove(key)?;
        let mut at = 0;
        let len = varint(&bytes, &mut at) as usize;
        at += len;
        let df = varint(&bytes, &mut at) as usize;
        let pieces = varint(&bytes, &mut at);
        let mut ids = Vec::new();
        if pieces == 0 {
            let mut id = varint(&bytes, &mut at);
            ids.push(id);
            for _ in 1..df {
                id += varint(&bytes, &mut at) + 1;
                ids.push(id);
            }
        } else {
            let mut previous = self.num("docs") as u32;
            for _ in 0..pieces {
                let min = previous - 1 - varint(&bytes, &mut at);
                let byte_len = varint(&bytes, &mut at) as usize;
                let folder = self.manifest["segments"][min as usize / self.num("segmentSize")][0]
                    .as_str()
                    .unwrap();
                let piece = self.file(&format!("{folder}/{}.{min}.bin", hex::encode(key)));
                assert_eq!(piece.len(), byte_len, "the directory knows each piece's size");
                let mut piece_ids = vec![min];
                let mut p = 0;
                while p < piece.len() {
                    piece_ids.push(piece_ids.last().unwrap() + varint(piece, &mut p) + 1);
                }
                ids.splice(0..0, piece_ids);
                previous = min;
            }
        }
        assert_eq!(at, bytes.len());
        Some(Entry { df, ids, pieces })
    }

    fn docs(&self) -> Vec<Doc> {
        let (chunk, segment) = (self.num("chunkSize"), self.num("segmentSize"));
        let mut out = Vec::new();
        for j in 0..self.num("docs").div_ceil(chunk) {
            let folder = self.manifest["segments"][j * chunk / segment][0].as_str().unwrap();
            let list: Vec<Value> =
                serde_json::from_slice(self.file(&format!("{folder}/c{j}.json")))
                    .expect("chunks are JSON");
            for d in list {
                let d = d.as_array().unwrap();
                let title = d[0].as_str().unwrap().to_string();
                let groups = d[1].as_array().unwrap().iter().map(|g| g.as_u64().unwrap() as u32);
                let slug = match d.len() {
                    2 => derived_slug(&title),
                    4 => {
                        let keep = d[2].as_u64().unwrap() as usize;
                        format!("{}{}", &derived_slug(&title)[..keep], d[3].as_str().unwrap())
                    }
                    n => panic!("a chunk entry has 2 or 4 fields, not {n}"),
                };
                out.push(Doc { title, slug, groups: groups.collect() });
            }
        }
        out
    }
}

fn keys_of(title: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for_each_gram(title, |g| {
        keys.insert(g.to_string());
    });
    keys
}

/// The keys the client looks a query word up by: its trigrams, or the word when shorter.
fn word_keys(word: &str) -> BTreeSet<String> {
    let chars = fold(word);
    chars.windows(chars.len().clamp(1, 3)).map(|w| w.iter().collect()).collect()
}

/// The literal matching rule of DESIGN.md.
fn matches(title: &str, text: &str) -> bool {
    let title = title.to_lowercase();
    let text = text.to_lowercase();
    let mut words = text.split(is_js_space).filter(|w| !w.is_empty()).peekable();
    words.peek().is_some() && words.all(|w| title.contains(w))
}

#[test]
fn fold_lower_cases_fully_and_folds_final_sigma() {
    let s = |t: &str| fold(t).into_iter().collect::<String>();
    assert_eq!(s("Body SCAN"), "body scan");
    assert_eq!(s("ΟΔΟΣ"), "οδοσ", "final sigma becomes σ");
    assert_eq!(s("İS"), "i\u{307}s", "İ lower-cases to two characters");
    assert_eq!(s("Straße ǅ"), "straße ǆ");
    assert_eq!(s("🧘 Calm"), "🧘 calm");
    assert_eq!(s("ＦＵＬＬ"), "ｆｕｌｌ");
}

#[test]
fn grams_are_one_to_three_characters_without_whitespace() {
    let keys: Vec<String> = keys_of("Ab c").into_iter().collect();
    assert_eq!(keys, ["a", "ab", "b", "c"]);
    let keys = keys_of("🧘 Calm\u{a0}Zen");
    assert!(keys.contains("🧘") && keys.contains("cal") && keys.contains("zen"));
    assert!(!keys.iter().any(|k| k.contains(' ') || k.contains('\u{a0}')));
    assert!(keys_of("ΟΔΟΣ").contains("δοσ"));
}

#[test]
fn js_whitespace_is_the_regex_class() {
    for c in
        ['\t', '\n', '\u{0B}', '\u{0C}', '\r', ' ', '\u{A0}', '\u{1680}', '\u{2000}', '\u{2005}']
            .into_iter()
            .chain([
                '\u{200A}', '\u{2028}', '\u{2029}', '\u{202F}', '\u{205F}', '\u{3000}', '\u{FEFF}',
            ])
    {
        assert!(is_js_space(c), "{:?}", c);
    }
    for c in ['a', '-', '_', '\u{85}', '\u{180E}', '\u{200B}', '\u{200C}', '(', '🧘'] {
        assert!(!is_js_space(c), "{:?}", c);
    }
}

#[test]
fn derived_slugs_keep_ascii_letters_and_digits() {
    assert_eq!(derived_slug("A 10-Minute Body Scan"), "a-10-minute-body-scan");
    assert_eq!(derived_slug("  (Calm) & Clear!  "), "calm-clear");
    assert_eq!(derived_slug("Straße der Stille"), "stra-e-der-stille");
    assert_eq!(derived_slug("🧘"), "");
}

#[test]
fn pieces_stop_at_the_piece_size_and_at_segments() {
    let layout = Layout { chunk: 4, segment: 8, piece: 3, inline_bytes: 1, shard_bytes: 64 };
    let ids = [0, 1, 2, 3, 5, 7, 8, 9, 20];
    let cut: Vec<&[u32]> = pieces(&ids, layout);
    assert_eq!(cut, [&[0, 1, 2][..], &[3, 5, 7], &[8, 9], &[20]]);
}

#[test]
fn slugs_that_are_not_derived_are_kept_as_a_tail() {
    let docs = [
        doc("Calm Mind (Part 2)", "calm-mind-2", &[]),
        doc("Calm Mind", "calm-mind", &[1]),
        doc("🧘", "meditation", &[0]),
    ];
    let index = build_index(&docs, &groups(), SMALL);
    let chunk = index.files.iter().find(|(p, _)| p.ends_with("/c0.json")).unwrap();
    assert_eq!(
        std::str::from_utf8(&chunk.1).unwrap(),
        r#"[["Calm Mind (Part 2)",[],10,"2"],["Calm Mind",[1]],["🧘",[0],0,"meditation"]]"#
    );
    assert_eq!(Reader::new(&index).docs(), docs);
}

#[test]
fn the_index_reads_back_to_every_document_and_posting() {
    let docs = corpus(120);
    let index = build_index(&docs, &groups(), SMALL);
    let reader = Reader::new(&index);
    assert_eq!(reader.docs(), docs);
    assert_eq!(reader.num("docs"), docs.len());
    assert!(reader.manifest["segments"].as_array().unwrap().len() == 4);
    assert!((1..=3).all(|n| reader.shard_count(n) > 1), "small shards make several per length");

    let mut expected: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for (id, d) in docs.iter().enumerate() {
        for key in keys_of(&d.title) {
            expected.entry(key).or_default().push(id as u32);
        }
    }
    let mut inline = 0;
    for (key, ids) in &expected {
        let entry = reader.entry(key).unwrap_or_else(|| panic!("{key:?} is in the directory"));
        assert_eq!((entry.df, &entry.ids), (ids.len(), ids), "{key:?}");
        inline += usize::from(entry.pieces == 0);
    }
    assert!(inline > 0 && inline < expected.len(), "both inline and pieced keys occur");
    let stored: usize = (1..=3)
        .map(|n| (0..reader.shard_count(n)).map(|i| reader.shard(n, i).len()).sum::<usize>())
        .sum();
    assert_eq!(stored, expected.len(), "the directory holds exactly the keys of the titles");
    assert_eq!(reader.entry("zzz"), None);
    assert_eq!(reader.entry("ж"), None);
}

#[test]
fn a_query_finds_every_matching_title_through_its_keys() {
    let docs = corpus(120);
    let reader = Reader::new(&build_index(&docs, &groups(), SMALL));
    for text in [
        "body scan",
        "SCAN body",
        "(the",
        "4-7-8 (",
        ".*",
        "[a]",
        "οδος",
        "ΟΔΟΣ πρ",
        "i̇stanbul",
        "🧘 nature",
        "straße",
        "zen garden",
        "ｆｕｌ",
        "睡眠",
        "ǆemal",
        "yoga 1",
        "1 2",
        "quokka zebra",
    ] {
        let words: Vec<String> = text
            .to_lowercase()
            .split(is_js_space)
            .filter(|w| !w.is_empty())
            .map(String::from)
            .collect();
        let mut candidates: Option<BTreeSet<u32>> = None;
        for key in words.iter().flat_map(|w| word_keys(w)) {
            let ids: BTreeSet<u32> =
                reader.entry(&key).map(|e| e.ids.into_iter().collect()).unwrap_or_default();
            candidates = Some(match candidates {
                None => ids,
                Some(c) => c.intersection(&ids).copied().collect(),
            });
        }
        let candidates = candidates.unwrap();
        let found: Vec<u32> =
            (0..docs.len() as u32).filter(|&i| matches(&docs[i as usize].title, text)).collect();
        assert!(
            found.iter().all(|i| candidates.contains(i)),
            "{text:?}: {found:?} ⊆ {candidates:?}"
        );
        assert!(!found.is_empty(), "{text:?} matches something in the corpus");
    }
}

proptest! {
    /// Any piece of any title, in either case, that matches the title by the rule finds it among
    /// its candidates. (Upper-casing can stop a piece from matching: `ß` becomes `SS`.)
    #[test]
    fn every_substring_of_a_title_finds_it(i in 0usize..60, start in 0usize..40, len in 1usize..12, upper: bool) {
        let docs = corpus(60);
        let chars: Vec<char> = docs[i].title.chars().collect();
        let start = start % chars.len();
        let word: String = chars[start..(start + len).min(chars.len())].iter().collect();
        let word = if upper { word.to_uppercase() } else { word };
        prop_assume!(matches(&docs[i].title, &word));
        let reader = Reader::new(&build_index(&docs, &groups(), SMALL));
        for part in word.to_lowercase().split(is_js_space).filter(|w| !w.is_empty()) {
            for key in word_keys(part) {
                let entry = reader.entry(&key);
                prop_assert!(entry.is_some_and(|e| e.ids.contains(&(i as u32))), "{key:?} of {word:?}");
            }
        }
    }
}

#[test]
fn the_same_docs_give_the_same_bytes() {
    let docs = corpus(90);
    assert_eq!(build_index(&docs, &groups(), SMALL), build_index(&docs, &groups(), SMALL));
}

#[test]
fn a_changed_title_changes_only_the_files_that_hold_it() {
    let docs = corpus(90);
    let a = build_index(&docs, &groups(), SMALL);
    let mut changed = docs.clone();
    changed[3].title.push_str(" again");
    let b = build_index(&changed, &groups(), SMALL);
    assert_eq!(a.manifest, "search/manifest.json", "the manifest's name is stable");
    let manifest = |i: &SearchIndex| i.files.iter().find(|f| f.0 == i.manifest).unwrap().1.clone();
    assert_ne!(manifest(&a), manifest(&b));
    let versions = |i: &SearchIndex| {
        let m: Value = serde_json::from_slice(&manifest(i)).unwrap();
        m["segments"].as_array().unwrap().iter().map(|s| s[1].clone()).collect::<Vec<_>>()
    };
    let (va, vb) = (versions(&a), versions(&b));
    assert_ne!(va[0], vb[0], "the changed segment has a new version");
    assert_eq!(va[1..], vb[1..], "the others keep theirs");

    let files = |i: &SearchIndex| i.files.iter().cloned().collect::<BTreeMap<_, _>>();
    let (fa, fb) = (files(&a), files(&b));
    let differ: Vec<&String> = fa
        .keys()
        .chain(fb.keys().filter(|p| !fa.contains_key(*p)))
        .filter(|p| fa.get(*p) != fb.get(*p))
        .collect();
    // The title's chunk, the postings and directory shards of the keys it left and gained,
    // and the manifest: a handful of files, not the segment.
    assert!(differ.contains(&&"search/0/c0.json".to_string()), "{differ:?}");
    let in_segment = fa.keys().filter(|p| p.starts_with("search/0/")).count();
    let changed_in_segment = differ.iter().filter(|p| p.starts_with("search/0/")).count();
    assert!(changed_in_segment * 3 < in_segment, "{changed_in_segment} of {in_segment}");
    // A content-named shard never holds two contents.
    for (p, bytes) in &fa {
        if p.starts_with("search/k") {
            assert!(fb.get(p).is_none_or(|other| other == bytes), "{p}");
        }
    }
}

#[test]
fn publishing_an_article_keeps_the_files_of_older_segments() {
    let docs = corpus(100);
    let before = build_index(&docs[..99], &groups(), SMALL);
    let after = build_index(&docs, &groups(), SMALL);
    let segment = |i: &SearchIndex, s: &str| {
        i.files
            .iter()
            .filter(|(p, _)| p.starts_with(&format!("search/{s}/")))
            .cloned()
            .collect::<BTreeSet<_>>()
    };
    for s in ["0", "1", "2"] {
        assert_eq!(segment(&before, s), segment(&after, s), "segment {s} is untouched");
    }
    assert_ne!(segment(&before, "3"), segment(&after, "3"));
}

#[test]
fn an_empty_site_has_an_empty_index() {
    let index = build_index(&[], &[], Layout::DEFAULT);
    let reader = Reader::new(&index);
    assert_eq!(reader.num("docs"), 0);
    assert!(reader.docs().is_empty());
    assert_eq!(reader.entry("abc"), None);
}

#[test]
fn the_demo_site_is_indexed_oldest_first_with_its_topics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo");
    let site = stillpoint_content::load_site(&dir).expect("the demo loads");
    let catalog = stillpoint_content::build_catalog(&site);
    let ctx = PlanContext::new(&site, &catalog);
    let index = search_index(&ctx);
    let reader = Reader::new(&index);
    let docs = reader.docs();
    assert_eq!(docs.len(), site.articles.len());
    let newest = site.article(catalog.newest[0]);
    assert_eq!(docs.last().unwrap().slug, newest.slug, "the newest article has the last id");
    let groups = reader.manifest["groups"].as_array().unwrap();
    for d in &docs {
        let i = site.article_ids().find(|&i| site.article(i).slug == d.slug).unwrap();
        assert_eq!(d.title, site.article(i).title);
        let want: Vec<Value> = catalog
            .topics_of(i)
            .iter()
            .map(|&(ci, si)| {
                let (c, s) = (ctx.category_link(ci), ctx.subcategory_link(ci, si));
                json!([c.label, c.href, s.label, s.href])
            })
            .collect();
        let got: Vec<Value> = d.groups.iter().map(|&g| groups[g as usize].clone()).collect();
        assert_eq!(got, want, "{}", d.slug);
    }
}

/// The index the web client's tests read (web/src/search/fixtures/index.json): the files of
/// `corpus(120)` in the small layout (binary files as hex), and the documents themselves (oldest
/// first) to check answers against. After a change of format, rewrite it with
/// `STILLPOINT_UPDATE_FIXTURES=1 cargo test -p stillpoint-site search_index` (then
/// `npx biome format --write src/search/fixtures` in web/, whose layout it follows); the client's
/// tests then say whether the client still reads it.
#[test]
fn the_client_fixture_is_current() {
    let docs = corpus(120);
    let index = build_index(&docs, &groups(), SMALL);
    let files: BTreeMap<String, String> = index
        .files
        .iter()
        .map(|(path, bytes)| {
            let text = if path.ends_with(".json") {
                String::from_utf8(bytes.clone()).unwrap()
            } else {
                hex::encode(bytes)
            };
            (format!("/{path}"), text)
        })
        .collect();
    let fixture = json!({
        "manifest": format!("/{}", index.manifest),
        "docs": docs.iter().map(|d| json!([d.title, d.slug, d.groups])).collect::<Vec<_>>(),
        "files": files,
    });
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/search/fixtures/index.json");
    if std::env::var_os("STILLPOINT_UPDATE_FIXTURES").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, serde_json::to_string_pretty(&fixture).unwrap() + "\n").unwrap();
    }
    let current: Option<Value> =
        std::fs::read_to_string(&path).ok().and_then(|text| serde_json::from_str(&text).ok());
    assert!(
        current.as_ref() == Some(&fixture),
        "{} is out of date: run `STILLPOINT_UPDATE_FIXTURES=1 cargo test -p stillpoint-site search_index`",
        path.display()
    );
}
