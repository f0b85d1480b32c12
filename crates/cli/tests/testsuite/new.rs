//! `stillpoint new`: the site it writes checks without errors (its placeholders warn:
//! `new_starter.rs`) and builds, with the real binary.

use crate::util::{SiteTest, stderr};

fn empty() -> SiteTest {
    SiteTest { tmp: tempfile::tempdir().unwrap() }
}

#[test]
fn new_site_checks_and_builds() {
    let t = empty();
    let out = t.run(&["new", "site", "--title", "Quiet \"Mind\"", "--id", "quiet-mind"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let next: Vec<&str> = stdout.lines().skip_while(|l| *l != "Next:").skip(1).collect();
    assert!(next[0].trim_start().starts_with("stillpoint dev site "), "dev first: {stdout}");
    assert!(next[1].trim_start().starts_with("stillpoint check site "), "{stdout}");
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

    let out = t.run(&["check", "site", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(out.status.success(), "{doc:#}");
    assert_eq!(doc["errors"], serde_json::json!([]), "{doc:#}");
    // Beside the placeholders, the starter's topics are there to be written for: one warning
    // says how many are empty.
    let others: Vec<_> =
        doc["warnings"].as_array().unwrap().iter().filter(|w| w["kind"] != "placeholder").collect();
    assert_eq!(others.len(), 1, "{doc:#}");
    assert_eq!(others[0]["kind"], "empty_topics");

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

#[test]
fn new_article_writes_a_draft_that_checks_and_refuses_to_overwrite() {
    let t = SiteTest::from_fixture("minimal");
    let args = [
        "new",
        "article",
        "Evening \"Wind-Down\" Scan",
        "--category",
        "sleepEnhancement",
        "--subcategory",
        "guidedMeditationForSleep",
        "--author",
        "Maya Lindqvist",
        "--dir",
        "site",
    ];
    let out = t.run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("site/articles/evening-wind-down-scan.md"), "{stdout}");
    assert!(stdout.contains("stillpoint dev site"), "{stdout}");
    let text =
        std::fs::read_to_string(t.site().join("articles/evening-wind-down-scan.md")).unwrap();
    assert!(
        text.contains("draft: true\n") && text.contains("subcategory: guidedMeditationForSleep")
    );
    assert!(text.contains("title: \"Evening \\\"Wind-Down\\\" Scan\""), "{text}");

    // Checked as published, drafts included: its front matter is valid as written.
    let out = t.run(&["check", "site", "--drafts", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(out.status.success(), "{doc:#}");
    assert_eq!(doc["errors"], serde_json::json!([]));
    // Left out of the published site until `draft: true` goes.
    t.build();
    assert!(!t.out().join("articles/evening-wind-down-scan.html").exists());

    let again = t.run(&args);
    assert!(!again.status.success());
    assert!(stderr(&again).contains("exists already"), "{}", stderr(&again));
    assert_eq!(
        std::fs::read_to_string(t.site().join("articles/evening-wind-down-scan.md")).unwrap(),
        text,
        "not overwritten"
    );
}

#[test]
fn new_article_names_an_unknown_key_and_suggests_the_near_one() {
    let t = SiteTest::from_fixture("minimal");
    let out = t.run(&["new", "article", "X", "--category", "sleepEnhancment", "--dir", "site"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out)
            .contains("unknown category `sleepEnhancment`; did you mean `sleepEnhancement`?"),
        "{}",
        stderr(&out)
    );
    let out = t.run(&[
        "new",
        "article",
        "X",
        "--category",
        "sleepEnhancement",
        "--author",
        "Nobody",
        "--dir",
        "site",
    ]);
    assert!(
        stderr(&out).contains("unknown author `Nobody`; one of: Maya Lindqvist"),
        "{}",
        stderr(&out)
    );
    assert!(!t.site().join("articles/x.md").exists());
}
