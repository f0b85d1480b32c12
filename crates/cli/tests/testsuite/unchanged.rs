//! A build with nothing changed since the last one says so before it reads its cache or opens
//! the output (crates/site/src/build/unchanged.rs); anything that did change is built, and the
//! files the stamps name as changed are the only articles read again.

use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::util::{SiteTest, edit, stderr, walk};

/// Dates every file of the site below `dir` ten seconds back (not the build's own files in
/// `.stillpoint/`), so that its stamp can be trusted now: a file written in the two seconds
/// before a build counts as changed. Its change time stays new.
fn settle(dir: &Path) {
    let past = SystemTime::now() - Duration::from_secs(10);
    for path in walk(dir).into_iter().filter(|p| !p.starts_with(dir.join(".stillpoint"))) {
        std::fs::File::options().write(true).open(&path).unwrap().set_modified(past).unwrap();
    }
}

/// A site whose files are settled, built twice: the second build recorded what it built from.
fn recorded() -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    settle(&t.site());
    t.build();
    t.build();
    assert!(t.site().join(".stillpoint/unchanged.json").is_file(), "the build recorded its inputs");
    t
}

fn build_verified(t: &SiteTest) -> String {
    let out = t.run(&["build", "site", "--out", "dist", "--verify"]);
    let err = stderr(&out);
    assert!(out.status.success() && err.contains("Verified"), "{err}");
    err
}

#[test]
fn a_build_with_nothing_changed_does_not_read_its_cache() {
    let t = recorded();
    let cache = t.site().join(".stillpoint/build-cache.bin");
    std::fs::write(&cache, b"not a cache").unwrap();
    let err = stderr(&t.build());
    assert!(err.contains("Built 22 pages (3 articles)"), "{err}");
    assert!(err.contains("rendered 0, 0 files changed, 0 removed, 96 unchanged"), "{err}");
    assert!(!err.contains("corrupt"), "the cache was not read: {err}");
    // An edit is built, from a cache it then finds corrupt.
    edit(&t, "articles/body-scan.md", "Breathe slowly.", "Breathe very slowly.");
    let err = build_verified(&t);
    assert!(err.contains("is corrupt"), "{err}");
    assert!(t.read("articles/body-scan.html").contains("Breathe very slowly."));
}

#[test]
fn an_edit_whose_file_looks_old_is_built() {
    let t = recorded();
    edit(&t, "articles/body-scan.md", "Breathe slowly.", "Breathe very slowly.");
    // Its modification time back where it was: the change time and size still tell.
    settle(&t.site());
    let err = build_verified(&t);
    assert!(err.contains("rendered 1, 1 file changed"), "{err}");
    assert!(t.read("articles/body-scan.html").contains("Breathe very slowly."));
    let err = stderr(&t.build());
    assert!(err.contains("rendered 0, 0 files changed"), "{err}");
}

#[test]
fn added_and_removed_articles_are_built() {
    let t = recorded();
    let text = std::fs::read_to_string(t.site().join("articles/breathing.md")).unwrap();
    let slug = text.lines().find_map(|l| l.strip_prefix("slug: ")).unwrap().trim().to_string();
    let added = text.replacen(&format!("slug: {slug}"), "slug: an-added-article", 1);
    std::fs::write(t.site().join("articles/an-added-article.md"), added).unwrap();
    std::fs::remove_file(t.site().join("articles/untagged.md")).unwrap();
    settle(&t.site());
    build_verified(&t);
    assert!(t.out().join("articles/an-added-article.html").is_file());
    assert!(!t.read("index.html").contains("untagged"), "the removed article is gone");
}

#[test]
fn a_static_file_and_the_configuration_are_inputs() {
    let t = recorded();
    std::fs::write(t.site().join("static/robots-note.txt"), "hello").unwrap();
    settle(&t.site());
    build_verified(&t);
    assert_eq!(t.read("robots-note.txt"), "hello");
    edit(&t, "stillpoint.toml", "title = \"", "title = \"Edited ");
    settle(&t.site());
    build_verified(&t);
    assert!(t.read("index.html").contains("Edited "));
}

#[test]
fn an_output_changed_since_is_built_again() {
    let t = recorded();
    // What a killed `dev` session leaves: a live generation without its manifest.
    let gens = t.tmp.path().join(".dist.gens");
    for g in ["a", "b"] {
        let _ = std::fs::remove_file(gens.join(format!("{g}.manifest")));
    }
    let err = build_verified(&t);
    assert!(!err.contains("96 unchanged"), "the output was written afresh: {err}");
    assert!(gens.join("a.manifest").is_file() || gens.join("b.manifest").is_file());
}

#[test]
fn another_environment_is_not_taken_for_the_last_build() {
    let t = recorded();
    let out = t.run(&["build", "site", "--out", "dist", "--drafts"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("preview: drafts are published"), "{err}");
    assert!(!err.contains("rendered 0, 0 files changed"), "a preview is built: {err}");
}

#[test]
fn a_scheduled_article_is_published_once_its_time_has_come() {
    let t = recorded();
    let at = jiff::Timestamp::now() + jiff::SignedDuration::from_secs(5);
    let text = std::fs::read_to_string(t.site().join("articles/breathing.md")).unwrap();
    let date = text.lines().find(|l| l.starts_with("date: ")).unwrap();
    let slug = text.lines().find(|l| l.starts_with("slug: ")).unwrap();
    let soon = text
        .replacen(date, &format!("date: {}", at.strftime("%Y-%m-%dT%H:%M:%S+00:00")), 1)
        .replacen(slug, "slug: published-soon", 1);
    std::fs::write(t.site().join("articles/published-soon.md"), soon).unwrap();
    settle(&t.site());
    let page = t.out().join("articles/published-soon.html");
    assert!(stderr(&t.build()).contains("next scheduled"));
    assert!(!page.exists());
    let err = stderr(&t.build());
    assert!(err.contains("next scheduled"), "an unchanged build still says what is next: {err}");
    assert!(!page.exists());
    while jiff::Timestamp::now() < at + jiff::SignedDuration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(200));
    }
    build_verified(&t);
    assert!(page.is_file(), "published when due, with no file changed");
}

#[test]
fn what_a_build_warns_of_is_reported_by_every_build() {
    let t = SiteTest::from_fixture("minimal");
    let draft = "---\ntitle: [never closed\ndraft: true\nslug: wip\n---\nBody\n";
    std::fs::write(t.site().join("articles/wip.md"), draft).unwrap();
    settle(&t.site());
    for _ in 0..3 {
        let err = stderr(&t.build());
        assert!(err.contains("in a draft (not published): articles/wip.md:2:"), "{err}");
    }
    assert!(!t.site().join(".stillpoint/unchanged.json").exists());
}

#[test]
fn an_edit_saved_just_before_the_build_is_built_and_so_is_the_next() {
    let t = recorded();
    edit(&t, "articles/body-scan.md", "Breathe slowly.", "Breathe very slowly.");
    build_verified(&t);
    assert!(t.read("articles/body-scan.html").contains("Breathe very slowly."));
    // Too fresh to be trusted when it was recorded: still counted as changed, and read again.
    edit(&t, "articles/body-scan.md", "Breathe very slowly.", "Breathe ever so slowly.");
    settle(&t.site());
    build_verified(&t);
    assert!(t.read("articles/body-scan.html").contains("Breathe ever so slowly."));
}
