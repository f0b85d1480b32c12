//! Content that is not a plain file: a pipe where a page or an article should be is an error
//! naming it (never a read that waits for a writer), and symbolic links under `articles/` and
//! `static/` are not followed, with a warning naming each.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::util::{SiteTest, stderr};

/// Far longer than a check or build of the minimal site takes: past it, the command hangs.
const LIMIT: Duration = Duration::from_secs(120);

fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

#[test]
fn a_pipe_as_a_page_or_an_article_is_an_error_not_a_hang() {
    let t = SiteTest::from_fixture("minimal");
    mkfifo(&t.site().join("pages/about-us.md"));
    mkfifo(&t.site().join("articles/piped.md"));
    for args in [&["check", "site"][..], &["build", "site", "--out", "dist"]] {
        let out = t.run_bounded(args, LIMIT);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("--> pages/about-us.md"), "{args:?}: {err}");
        assert!(err.contains("`pages/about-us.md` is not a regular file"), "{args:?}: {err}");
        assert!(err.contains("`articles/piped.md` is not a regular file"), "{args:?}: {err}");
    }
    assert!(!t.out().exists(), "nothing was written");
}

#[test]
fn symlinks_in_articles_and_static_are_not_followed_and_warned_about() {
    let t = SiteTest::from_fixture("minimal");
    let site = t.site();
    std::os::unix::fs::symlink(site.join("articles/body-scan.md"), site.join("articles/linked.md"))
        .unwrap();
    let icon = site.join("static/icons/calm-logo-small.png");
    std::os::unix::fs::symlink(&icon, site.join("static/icons/linked.png")).unwrap();

    let out = t.run_bounded(&["check", "site", "--format", "json"], LIMIT);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["errors"], serde_json::json!([]), "{doc:#}");
    let links: Vec<(&str, &str)> = doc["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["kind"] == "symlink_not_followed")
        .map(|w| (w["file"].as_str().unwrap(), w["message"].as_str().unwrap()))
        .collect();
    assert_eq!(
        links,
        [
            ("articles/linked.md", "a symbolic link: symlinks are not followed, so it is left out"),
            (
                "static/icons/linked.png",
                "a symbolic link: symlinks are not followed, so it is left out"
            ),
        ],
        "{doc:#}"
    );

    t.build();
    assert!(t.out().join("icons/calm-logo-small.png").is_file());
    assert!(!t.out().join("icons/linked.png").exists(), "the link is not copied");
    assert!(!t.out().join("articles/linked.html").exists(), "the linked article is not built");
}
