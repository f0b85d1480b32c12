//! Incremental builds: each kind of edit rewrites exactly the files it must, the output always
//! equals a clean build (`--verify`), and a killed build leaves the previous output intact.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::util::{SiteTest, stderr, tree};

type Tree = BTreeMap<String, Vec<u8>>;

fn snapshot(t: &SiteTest) -> Tree {
    tree(&t.out()).into_iter().collect()
}

/// Paths added, changed or removed between two outputs.
fn diff(before: &Tree, after: &Tree) -> BTreeSet<String> {
    let mut out: BTreeSet<String> =
        after.iter().filter(|(k, v)| before.get(*k) != Some(v)).map(|(k, _)| k.clone()).collect();
    out.extend(before.keys().filter(|k| !after.contains_key(*k)).cloned());
    out
}

fn edit(t: &SiteTest, rel: &str, from: &str, to: &str) {
    let path = t.site().join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{rel} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// Builds, asserting the output equals a clean build; returns stderr.
fn build_verified(t: &SiteTest) -> String {
    let out = t.run(&["build", "site", "--out", "dist", "--verify"]);
    let err = stderr(&out);
    assert!(out.status.success(), "build --verify failed:\n{err}");
    assert!(err.contains("Verified"), "{err}");
    err
}

/// Builds, applies `change`, builds again; returns the files the second build touched.
fn after_edit(change: impl FnOnce(&SiteTest)) -> (SiteTest, BTreeSet<String>) {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    let before = snapshot(&t);
    change(&t);
    build_verified(&t);
    let after = snapshot(&t);
    (t, diff(&before, &after))
}

const BODY_SCAN: [&str; 2] =
    ["articles/body-scan.html", "page-data/articles/body-scan/page-data.json"];

#[test]
fn a_second_build_without_changes_writes_nothing() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    let gens = t.tmp.path().join(".dist.gens");
    let stamp = |p: &Path| std::fs::symlink_metadata(p).unwrap().modified().unwrap();
    let link_before = stamp(&t.out());
    let err = stderr(&t.build());
    assert!(err.contains("rendered 0, 0 files changed, 0 removed"), "{err}");
    assert_eq!(stamp(&t.out()), link_before, "nothing swapped");
    assert!(gens.join("a.manifest").is_file());
}

#[test]
fn editing_an_article_body_rewrites_only_that_article() {
    let (_, touched) =
        after_edit(|t| edit(t, "articles/body-scan.md", "Breathe slowly.", "Breathe very slowly."));
    // The body is in the article's HTML only: its page-data does not change.
    assert_eq!(touched, BTreeSet::from([BODY_SCAN[0].to_string()]));
}

#[test]
fn editing_a_title_rewrites_the_pages_that_show_it_and_nothing_else() {
    let (_, touched) = after_edit(|t| {
        edit(
            t,
            "articles/body-scan.md",
            "A 10-Minute Body Scan for Deeper Sleep",
            "A Body Scan at Bedtime",
        )
    });
    for f in BODY_SCAN.iter().chain(&[
        "index.html",
        "enhance-sleep-guided-meditation.html",
        "enhance-sleep-guided-meditation/guided-meditation-for-sleep.html",
        "authors/maya-lindqvist.html",
        "rss.xml",
        "atom.xml",
        "search/manifest.json",
    ]) {
        assert!(touched.contains(*f), "{f} not rewritten: {touched:#?}");
    }
    for f in [
        "authors/rosa-villasenor.html",
        "info/about-us.html",
        "privacy-policy.html",
        "404.html",
        "sw.js",
        "page-data/app-data.json",
        "slice-data/header.json",
    ] {
        assert!(!touched.contains(f), "{f} rewritten: {touched:#?}");
    }
    assert!(!touched.iter().any(|f| f.starts_with("assets/") || f.starts_with("page-data/sq/")));
}

#[test]
fn adding_renaming_and_deleting_articles_follow_the_slug() {
    let (t, touched) = after_edit(|t| {
        let text = std::fs::read_to_string(t.site().join("articles/untagged.md")).unwrap();
        let copy = text.replacen("slug: rest-without-guilt", "slug: untagged-two", 1);
        std::fs::write(t.site().join("articles/untagged-two.md"), copy).unwrap();
    });
    assert!(touched.contains("articles/untagged-two.html"), "{touched:#?}");
    assert!(t.out().join("articles/untagged-two.html").is_file());

    let before = snapshot(&t);
    edit(&t, "articles/untagged-two.md", "slug: untagged-two", "slug: renamed");
    std::fs::rename(
        t.site().join("articles/untagged-two.md"),
        t.site().join("articles/renamed.md"),
    )
    .unwrap();
    build_verified(&t);
    let renamed = diff(&before, &snapshot(&t));
    assert!(renamed.contains("articles/renamed.html"));
    assert!(renamed.contains("articles/untagged-two.html"), "the old slug's page is removed");
    assert!(!t.out().join("articles/untagged-two").exists(), "its folder is removed too");

    std::fs::remove_file(t.site().join("articles/renamed.md")).unwrap();
    build_verified(&t);
    assert!(!t.out().join("articles/renamed").exists());
    assert!(!t.out().join("page-data/articles/renamed").exists());
}

#[test]
fn editing_an_author_rewrites_their_pages() {
    let (_, touched) = after_edit(|t| {
        edit(t, "data/authors.toml", "Rosa is a sleep coach.", "Rosa coaches sleep.")
    });
    assert!(touched.contains("authors/rosa-villasenor.html"), "{touched:#?}");
    assert!(!touched.contains("authors/maya-lindqvist.html"));
    assert!(!touched.contains("articles/body-scan.html"), "Maya's article is not Rosa's");
}

#[test]
fn editing_topics_or_config_rewrites_every_page() {
    for (file, from, to) in [
        ("data/topics.toml", "🌙 Rest well.", "🌙 Rest deeply."),
        ("stillpoint.toml", "title = \"Calm Test\"", "title = \"Calm Tests\""),
    ] {
        let (_, touched) = after_edit(|t| edit(t, file, from, to));
        for f in BODY_SCAN.iter().chain(&["index.html", "404.html", "info/about-us.html"]) {
            assert!(touched.contains(*f), "{file}: {f} not rewritten");
        }
    }
}

#[test]
fn changing_a_static_file_copies_only_it() {
    let (_, touched) = after_edit(|t| {
        std::fs::write(t.site().join("static/icons/calm-logo-small.png"), b"not really a png")
            .unwrap();
        std::fs::write(t.site().join("static/robots-extra.txt"), b"new").unwrap();
    });
    let expected: BTreeSet<String> =
        ["icons/calm-logo-small.png", "robots-extra.txt"].iter().map(|s| s.to_string()).collect();
    assert_eq!(touched, expected);
}

#[test]
fn a_corrupt_or_missing_cache_means_a_clean_build_with_a_note() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    std::fs::write(t.site().join(".stillpoint/build-cache.bin"), b"{ broken").unwrap();
    let err = build_verified(&t);
    assert!(err.contains("is corrupt") && err.contains("building everything"), "{err}");
    std::fs::remove_dir_all(t.site().join(".stillpoint")).unwrap();
    let err = build_verified(&t);
    assert!(err.contains("no build cache yet"), "{err}");
    let out = t.run(&["build", "site", "--out", "dist", "--no-cache"]);
    assert!(out.status.success());
}

#[test]
fn a_tampered_output_is_caught_by_verify() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    std::fs::write(t.out().join("robots.txt"), b"tampered").unwrap();
    std::fs::write(t.out().join("stray.html"), b"stray").unwrap();
    let gens = t.tmp.path().join(".dist.gens");
    // Tampering behind the manifest: the next build trusts it, and --verify says what differs.
    let out = t.run(&["build", "site", "--out", "dist", "--verify"]);
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("differs  robots.txt") && err.contains("extra    stray.html"), "{err}");
    assert!(gens.is_dir());
}

#[test]
fn a_killed_build_leaves_the_output_intact_and_no_leftovers_after_the_next() {
    let t = SiteTest::demo();
    t.build();
    let before = snapshot(&t);
    // Change every page (a config edit), then kill the rebuild while it renders.
    edit(&t, "stillpoint.toml", "title = \"Stillpoint\"", "title = \"Stillpoint Two\"");
    for delay_ms in [150, 400] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_stillpoint"))
            .args(["build", "site", "--out", "dist"])
            .current_dir(t.tmp.path())
            .env("STILLPOINT_WEB", crate::util::web_bundle())
            .env("STILLPOINT_IMAGE_CACHE", crate::util::image_cache())
            .env("SOURCE_DATE_EPOCH", crate::util::SOURCE_DATE_EPOCH)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let now = snapshot(&t);
        if now != before {
            // The build got as far as its swap: then the output is the new site, whole.
            let out = t.run(&["build", "site", "--out", "clean", "--no-cache"]);
            assert!(out.status.success());
            let clean: Tree = tree(&t.tmp.path().join("clean")).into_iter().collect();
            assert!(now == clean, "a killed build left a mixed output");
            std::fs::remove_file(t.tmp.path().join("clean")).unwrap();
            std::fs::remove_dir_all(t.tmp.path().join(".clean.gens")).unwrap();
            break;
        }
    }
    build_verified(&t);
    let mut beside: Vec<String> = std::fs::read_dir(t.tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    beside.sort();
    assert_eq!(beside, [".dist.gens", "dist", "site"]);
    let mut gens: Vec<String> = std::fs::read_dir(t.tmp.path().join(".dist.gens"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    gens.sort();
    // The live generation has its manifest. The spare has one too, unless the killed build
    // was stopped bringing it up to date after its swap and the build after it changed
    // nothing: then the spare is unknown, and the next build that changes something empties it.
    let live = std::fs::read_link(t.out()).unwrap();
    let live = live.file_name().unwrap().to_string_lossy();
    assert!(gens.contains(&format!("{live}.manifest")), "{gens:?}");
    gens.retain(|g| !g.ends_with(".manifest"));
    assert_eq!(gens, ["a", "b", "lock"]);
    let stray = crate::util::walk(&t.tmp.path().join(".dist.gens"))
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".stillpoint-tmp"))
        .count();
    assert_eq!(stray, 0, "no temporary files are left");
}

/// Sets every article file's modification time an hour back, so builds trust their stamps.
fn settle_articles(t: &SiteTest) {
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for entry in std::fs::read_dir(t.site().join("articles")).unwrap() {
        let file = std::fs::File::options().write(true).open(entry.unwrap().path()).unwrap();
        file.set_modified(past).unwrap();
    }
}

#[test]
fn unread_articles_are_read_when_a_content_error_needs_every_page_checked() {
    let t = SiteTest::from_fixture("minimal");
    settle_articles(&t);
    t.build(); // records the stamps: the next build reads no unchanged file
    let before = snapshot(&t);
    edit(&t, "articles/body-scan.md", "title:", "title: [unclosed");
    let out = t.run(&["build", "site", "--out", "dist"]);
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("articles/body-scan.md:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(snapshot(&t), before, "a failed build leaves the output as it was");

    edit(&t, "articles/body-scan.md", "title: [unclosed", "title:");
    assert_eq!(
        diff(&before, &{
            build_verified(&t);
            snapshot(&t)
        }),
        BTreeSet::new()
    );
}
