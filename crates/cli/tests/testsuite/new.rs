//! `stillpoint new`: the site it writes checks without warnings and builds, with the real binary.

use crate::util::{SiteTest, stderr};

fn empty() -> SiteTest {
    SiteTest { tmp: tempfile::tempdir().unwrap() }
}

#[test]
fn new_site_checks_and_builds() {
    let t = empty();
    let out = t.run(&["new", "site", "--title", "Quiet \"Mind\"", "--id", "quiet-mind"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("stillpoint check site"));
    for f in [
        "stillpoint.toml",
        "data/topics.toml",
        "data/authors.toml",
        "articles/three-minute-breathing-space.md",
        "pages/about-us.md",
        "pages/privacy-policy.md",
        "pages/terms.md",
        "static/icons/quiet-mind-logo-small.png",
        ".gitignore",
    ] {
        assert!(t.site().join(f).is_file(), "{f} is written");
    }
    let gitignore = std::fs::read_to_string(t.site().join(".gitignore")).unwrap();
    assert!(gitignore.contains("/dist") && gitignore.contains(".stillpoint/"), "{gitignore}");
    let topics = std::fs::read_to_string(t.site().join("data/topics.toml")).unwrap();
    assert_eq!(topics.matches("[[category]]").count(), 7);
    assert_eq!(topics.matches("[[category.children]]").count(), 35);

    let out = t.run(&["check", "site", "--format", "json", "--deny-warnings"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(out.status.success(), "{doc:#}");
    assert_eq!(doc, serde_json::json!({"ok": true, "errors": [], "warnings": [], "accepted": 0}));

    t.build();
    let home = t.read("index.html");
    assert!(home.contains("Quiet &quot;Mind&quot;") || home.contains("Quiet \"Mind\""), "{home}");
    let article = t.read("articles/three-minute-breathing-space.html");
    assert!(article.contains("<h2 id=\"c-notice\">Notice</h2>"), "the article body is rendered");
    assert!(t.out().join("icons/quiet-mind-logo-small.png").is_file());
    let info: serde_json::Value = serde_json::from_str(&t.read(".stillpoint/build.json")).unwrap();
    assert_eq!(info["site"]["id"], "quiet-mind");
    assert_eq!(info["site"]["bucket"], "quiet-mind-site");
}

#[test]
fn defaults_come_from_the_directory_name() {
    let t = empty();
    let out = t.run(&["new", "quiet-mind"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let config = std::fs::read_to_string(t.tmp.path().join("quiet-mind/stillpoint.toml")).unwrap();
    assert!(config.contains("id = \"quiet-mind\""), "{config}");
    assert!(config.contains("title = \"Quiet Mind\""), "{config}");
    assert!(t.tmp.path().join("quiet-mind/static/icons/quiet-mind-logo-small.png").is_file());
}

#[test]
fn refuses_a_non_empty_directory_with_one_line() {
    let t = empty();
    std::fs::create_dir_all(t.site()).unwrap();
    std::fs::write(t.site().join("notes.txt"), "mine").unwrap();
    let out = t.run(&["new", "site"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: site is not empty"), "{err}");
    assert_eq!(std::fs::read_dir(t.site()).unwrap().count(), 1, "nothing was written");

    let out = t.run(&["new", "other", "--id", "Not A Slug"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--id `Not A Slug`"), "{}", stderr(&out));
    assert!(!t.tmp.path().join("other").exists());
}
