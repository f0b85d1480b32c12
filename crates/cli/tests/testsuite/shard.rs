//! `stillpoint build --shard i/N`: N shard builds of one site are disjoint and together equal the
//! whole build, byte for byte; each validates the whole site; a shard build never spoils the
//! cache of a whole build.

use std::collections::BTreeMap;
use std::path::Path;

use crate::util::{SiteTest, stderr, tree};

/// The demo site: fifty articles, which SHA-256 of their slugs spreads 19/13/18 over three shards.
fn demo() -> SiteTest {
    SiteTest::demo()
}

fn build(t: &SiteTest, args: &[&str]) {
    let out = t.run(&[&["build", "site"], args].concat());
    assert!(out.status.success(), "build {args:?} failed:\n{}", stderr(&out));
}

/// The published files of an output (everything but `.stillpoint/`), path → bytes.
fn published(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    tree(dir).into_iter().filter(|(rel, _)| !rel.starts_with(".stillpoint/")).collect()
}

fn build_info(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join(".stillpoint/build.json")).unwrap()).unwrap()
}

#[test]
fn three_shards_are_disjoint_and_their_union_is_the_whole_build() {
    let t = demo();
    build(&t, &["--out", "whole"]);
    let whole = published(&t.tmp.path().join("whole"));
    assert!(whole.contains_key("index.html") && whole.len() > 50, "{}", whole.len());

    let mut union: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for i in 0..3 {
        let out = format!("shard-{i}");
        build(&t, &["--out", &out, "--shard", &format!("{i}/3")]);
        let dir = t.tmp.path().join(&out);
        let info = build_info(&dir);
        assert_eq!(info["shard"], serde_json::json!({"index": i, "count": 3}), "{info}");
        assert_eq!(info["site"], build_info(&t.tmp.path().join("whole"))["site"]);
        let files = published(&dir);
        let articles = files.keys().filter(|k| k.ends_with(".html")).count();
        assert!(articles > 0, "shard {i} holds no page");
        if i > 0 {
            let shared: Vec<_> = files
                .keys()
                .filter(|k| !k.starts_with("articles/") && !k.starts_with("page-data/articles/"))
                .collect();
            assert!(shared.is_empty(), "shard {i} holds shared files: {shared:?}");
        }
        for (rel, bytes) in files {
            assert!(!union.contains_key(&rel), "{rel} is in two shards");
            union.insert(rel, bytes);
        }
    }
    let missing: Vec<_> = whole.keys().filter(|k| !union.contains_key(*k)).collect();
    let extra: Vec<_> = union.keys().filter(|k| !whole.contains_key(*k)).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing {missing:?}, extra {extra:?}");
    let differ: Vec<_> = whole.iter().filter(|(k, v)| union[*k] != **v).map(|(k, _)| k).collect();
    assert!(differ.is_empty(), "differ from the whole build: {differ:?}");
    // A whole build writes no shard into its build information.
    assert!(build_info(&t.tmp.path().join("whole")).get("shard").is_none());
}

#[test]
fn a_whole_build_after_shard_builds_is_still_correct() {
    let t = demo();
    // Default caches: each shard keeps its own, beside the whole build's.
    build(&t, &["--out", "dist"]);
    build(&t, &["--out", "shard-1", "--shard", "1/3"]);
    assert!(t.site().join(".stillpoint/shard-1-of-3/build-cache.bin").is_file());
    build(&t, &["--out", "dist", "--verify"]);
    // One cache and one output shared on purpose: the shard build leaves a shard's output, and
    // the whole build after it must still equal a clean build.
    build(&t, &["--out", "mixed", "--cache", "c"]);
    build(&t, &["--out", "mixed", "--cache", "c", "--shard", "2/3"]);
    build(&t, &["--out", "mixed", "--cache", "c", "--verify"]);
    let mixed = published(&t.tmp.path().join("mixed"));
    assert_eq!(mixed, published(&t.tmp.path().join("dist")));
    // And the other way round: a shard build after a whole build in the same output holds only
    // its files.
    build(&t, &["--out", "mixed", "--cache", "c", "--shard", "1/3", "--verify"]);
    assert_eq!(published(&t.tmp.path().join("mixed")), published(&t.tmp.path().join("shard-1")));
}

#[test]
fn every_shard_validates_the_whole_site() {
    let t = SiteTest::invalid("unknown_category");
    std::fs::write(
        t.site().join("articles/z.md"),
        "---\ntitle: Z\nslug: z\nentities:\n  - category: sleepEnhancement\n---\n[gone](/articles/gone)\n",
    )
    .unwrap();
    for shard in ["0/2", "1/2"] {
        let out = t.run(&["build", "site", "--out", "dist", "--shard", shard]);
        assert_eq!(out.status.code(), Some(1), "{shard}");
        let err = stderr(&out);
        assert!(err.contains("unknown category"), "{shard}: {err}");
        assert!(err.contains("link to `/articles/gone`"), "{shard}: {err}");
        assert!(err.contains("2 content errors found"), "{shard}: {err}");
    }
}

#[test]
fn a_bad_shard_is_a_usage_error() {
    let t = SiteTest::from_fixture("minimal");
    for (arg, reason) in [
        ("3/2", "the shard index must be below 2"),
        ("2/2", "the shard index must be below 2"),
        ("x/2", "not a shard index"),
        ("0/0", "the shard count must be at least 1"),
        ("1", "is not i/N"),
    ] {
        let out = t.run(&["build", "site", "--shard", arg]);
        assert_eq!(out.status.code(), Some(2), "{arg}");
        let err = stderr(&out);
        let first = err.lines().next().unwrap_or("");
        assert!(first.starts_with("error: invalid value"), "{arg}: {err}");
        assert!(first.contains("--shard") && first.contains(reason), "{arg}: {err}");
        assert!(!t.out().exists(), "{arg}: nothing is written");
    }
}
