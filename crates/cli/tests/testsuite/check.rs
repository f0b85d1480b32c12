//! `stillpoint check` and `build` on broken sites: every error kind, with file, line and hint.

use crate::util::{SiteTest, stderr};

fn check_fails(case: &str) -> String {
    let t = SiteTest::invalid(case);
    let out = t.run(&["check", "site"]);
    assert_eq!(out.status.code(), Some(1), "{case} should fail:\n{}", stderr(&out));
    stderr(&out)
}

#[test]
fn minimal_fixture_is_valid() {
    let t = SiteTest::from_fixture("minimal");
    let out = t.run(&["check", "site"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("no errors found (3 articles, 2 authors"), "{}", stderr(&out));
    assert!(!t.out().exists(), "check writes nothing");
}

macro_rules! invalid_case {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            insta::assert_snapshot!(check_fails(stringify!($name)));
        }
    )*};
}

invalid_case!(
    unknown_category,
    duplicate_slug,
    unknown_author,
    malformed_front_matter,
    invalid_toml,
    missing_field,
    broken_link,
    many_files,
    reserved_slug,
    invalid_image,
);

#[test]
fn all_errors_are_reported_at_once() {
    let t = SiteTest::invalid("unknown_category");
    crate::util::copy_sources(&crate::util::fixtures().join("invalid/unknown_author"), &t.site());
    std::fs::write(
        t.site().join("articles/y.md"),
        "---\ntitle: Y\nslug: y\nentities:\n  - category: nope\n---\n",
    )
    .unwrap();
    std::fs::write(
        t.site().join("articles/z.md"),
        "---\ntitle: Z\nslug: z\nentities:\n  - category: sleepEnhancement\n---\nSee [y](/articles/y) and [gone](/articles/gone).\n",
    )
    .unwrap();
    let out = t.run(&["check", "site"]);
    let err = stderr(&out);
    // The unknown_author fixture replaced x.md; y.md adds an unknown category; z.md links to an
    // article that does not exist, found in the same pass as the front matter errors.
    assert!(err.contains("unknown author `Nobody Known`"), "{err}");
    assert!(err.contains("unknown category `nope`"), "{err}");
    assert!(err.contains("link to `/articles/gone`"), "{err}");
    assert!(!err.contains("link to `/articles/y`"), "y loaded; its own error is enough: {err}");
    assert!(err.contains("3 content errors found"), "{err}");
}

/// Several broken files: every error of every file, each with a hint specific to it (a typo's
/// likely meaning, another generator's name for a field, quoting a value with a colon).
#[test]
fn every_error_of_every_file_with_specific_hints() {
    let err = check_fails("many_files");
    for expected in [
        "unknown field `tags`",
        "unknown field `summary`",
        "unknown field `cover`",
        "hint: Stillpoint calls this field `entities`",
        "missing required field `title`",
        "unknown category `sleepEnhancment`",
        "hint: did you mean `sleepEnhancement`?",
        "hint: quote the value",
        "hint: did you mean `title`?",
        "hint: did you mean `Maya Lindqvist`?",
        "hint: did you mean `filed_under_other`?",
        "hint: did you mean `/articles/body-scan`?",
    ] {
        assert!(err.contains(expected), "`{expected}` in:\n{err}");
    }
    assert!(!err.contains("CONTENT.md"), "{err}");
    // The category, author and link of files with front matter errors are checked too.
    assert!(err.contains("11 content errors found"), "{err}");
}

/// A subcategory key close to a real one and another generator's shortcode are warnings, so a
/// site with them is no longer "no problems found".
#[test]
fn a_near_miss_subcategory_and_a_shortcode_are_warnings() {
    let t = SiteTest::from_fixture("minimal");
    std::fs::write(
        t.site().join("articles/hugo.md"),
        "---\ntitle: Hugo\nslug: hugo\nentities:\n  - category: anxietyManagement\n    subcategories:\n      - subcategory: relaxation\n---\nWatch:\n\n{{< youtube abc123 >}}\n\n```\n{{< in a code block: fine >}}\n```\n",
    )
    .unwrap();
    let out = t.run(&["check", "site"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("no problems found"), "{err}");
    insta::assert_snapshot!(err);
}

#[test]
fn image_urls_of_every_kind_are_refused_at_their_line() {
    let t = SiteTest::from_fixture("minimal");
    for (i, bad) in [
        "javascript:alert(1)",
        "data:image/png;base64,AAAA",
        "//evil.example/x.png",
        "http://x.example/a.png",
    ]
    .iter()
    .enumerate()
    {
        std::fs::write(
            t.site().join(format!("articles/bad-{i}.md")),
            format!("---\ntitle: B\nslug: bad-{i}\nimage: \"{bad}\"\nentities:\n  - category: sleepEnhancement\n---\nB.\n"),
        )
        .unwrap();
    }
    let out = t.run(&["check", "site", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = doc["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 4, "{doc:#}");
    for (i, e) in errors.iter().enumerate() {
        assert_eq!(e["file"], format!("articles/bad-{i}.md"), "{doc:#}");
        assert_eq!(
            (e["line"].as_u64(), e["kind"].as_str()),
            (Some(4), Some("invalid_image")),
            "{doc:#}"
        );
    }
}

/// Text nested past the limit is refused by `check` and `build` at the line where it passes it,
/// before it reaches the HTML parser (whose time grows with the square of the depth).
#[test]
fn text_nested_too_deep_is_an_error_at_its_line() {
    let t = SiteTest::from_fixture("minimal");
    let deep = format!(
        "---\ntitle: Deep\nslug: deep\nentities:\n  - category: sleepEnhancement\n---\nIntro <b>x</b>.\n\n{}deep\n",
        "> ".repeat(100_000)
    );
    std::fs::write(t.site().join("articles/deep.md"), deep).unwrap();
    for args in [&["check", "site"][..], &["build", "site", "--out", "dist"]] {
        let out = t.run(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("nested more than 100 levels deep"), "{args:?}: {err}");
        assert!(err.contains("--> articles/deep.md:9:201"), "{args:?}: {err}");
    }
}

/// A name at the top of `static/` is reserved like the build's own: the category's pages would
/// share its folder.
#[test]
fn a_category_slug_may_not_take_a_name_of_static() {
    let t = SiteTest::from_fixture("minimal");
    let topics = t.site().join("data/topics.toml");
    let text = std::fs::read_to_string(&topics).unwrap();
    std::fs::write(&topics, text.replace("\"enhance-sleep-guided-meditation\"", "\"icons\""))
        .unwrap();
    let err = check_fails_in(&t);
    assert!(err.contains("`icons` is reserved: the build writes /icons/"), "{err}");
    assert!(err.contains("--> data/topics.toml:3:8"), "{err}");
}

fn check_fails_in(t: &SiteTest) -> String {
    let out = t.run(&["check", "site"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    stderr(&out)
}

/// A link into an article whose own file has an error is not reported as well, whatever the
/// file's name: the article's slug is known as far as its front matter parsed.
#[test]
fn a_link_to_an_article_with_errors_is_not_reported_twice() {
    let t = SiteTest::from_fixture("minimal");
    std::fs::write(
        t.site().join("articles/old-name.md"),
        "---\ntitle: Renamed\nslug: new-name\ntags: [x]\nentities:\n  - category: sleepEnhancement\n---\nText.\n",
    )
    .unwrap();
    std::fs::write(
        t.site().join("articles/z.md"),
        "---\ntitle: Z\nslug: z\nentities:\n  - category: sleepEnhancement\n---\nSee [it](/articles/new-name).\n",
    )
    .unwrap();
    let err = check_fails_in(&t);
    assert!(err.contains("unknown field `tags`"), "{err}");
    assert!(!err.contains("link to `/articles/new-name`"), "{err}");
    assert!(err.contains("1 content error found"), "{err}");
}

/// The same when the front matter does not parse at all: the slug its `slug:` line gives is
/// taken, not the file's name.
#[test]
fn a_link_to_an_article_whose_front_matter_does_not_parse_is_not_reported_twice() {
    let t = SiteTest::from_fixture("minimal");
    std::fs::write(
        t.site().join("articles/old-name.md"),
        "---\ntitle: [Renamed\nslug: new-name\nentities:\n  - category: sleepEnhancement\n---\nText.\n",
    )
    .unwrap();
    std::fs::write(
        t.site().join("articles/z.md"),
        "---\ntitle: Z\nslug: z\nentities:\n  - category: sleepEnhancement\n---\nSee [it](/articles/new-name) and [that](/articles/old-name).\n",
    )
    .unwrap();
    let err = check_fails_in(&t);
    assert!(err.contains("articles/old-name.md"), "{err}");
    assert!(!err.contains("link to `/articles/new-name`"), "{err}");
    assert!(err.contains("link to `/articles/old-name`"), "the file's name is no page: {err}");
    assert!(err.contains("2 content errors found"), "{err}");
}
