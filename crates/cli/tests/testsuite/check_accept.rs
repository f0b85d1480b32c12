//! Warnings accepted on purpose: per article (`accept:` in front matter) and per site
//! (`[check] accept` in stillpoint.toml). They are counted, not listed, and pass
//! `--deny-warnings`; an unknown code is an error.

use crate::util::{SiteTest, stderr};

fn append(t: &SiteTest, rel: &str, text: &str) {
    let path = t.site().join(rel);
    let old = std::fs::read_to_string(&path).unwrap();
    std::fs::write(path, old + text).unwrap();
}

/// The minimal fixture with breathing.md accepting `filed_under_other` for itself.
fn accepting_site() -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    let path = t.site().join("articles/breathing.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let text =
        text.replacen("slug: breathing\n", "slug: breathing\naccept: [filed_under_other]\n", 1);
    std::fs::write(path, text).unwrap();
    append(&t, "stillpoint.toml", "\n[check]\naccept = [\"unknown_subcategory\"]\n");
    t
}

#[test]
fn accepted_warnings_are_counted_not_shown_and_pass_deny_warnings() {
    let t = accepting_site();
    let out = t.run(&["check", "site", "--deny-warnings"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("warning:"), "{err}");
    assert!(err.contains("2 accepted warnings (not shown"), "{err}");
    assert!(err.contains("no problems found"), "{err}");

    let out = t.run(&["check", "site", "--format", "json", "--deny-warnings"]);
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc, serde_json::json!({"ok": true, "errors": [], "warnings": [], "accepted": 2}));
}

#[test]
fn an_article_accepts_only_for_itself() {
    let t = accepting_site();
    std::fs::write(
        t.site().join("articles/bare.md"),
        "---\ntitle: Bare\nslug: bare\nentities:\n  - category: sleepEnhancement\n---\nText.\n",
    )
    .unwrap();
    let out = t.run(&["check", "site", "--deny-warnings"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("--> articles/bare.md:5:15"), "{err}");
    assert!(!err.contains("--> articles/breathing.md"), "{err}");
    assert!(err.contains("1 content warning\n"), "{err}");
    assert!(err.contains("2 accepted warnings"), "{err}");
}

#[test]
fn an_unknown_code_is_an_error_with_did_you_mean() {
    let t = SiteTest::from_fixture("minimal");
    append(&t, "stillpoint.toml", "\n[check]\naccept = [\"author_without_article\"]\n");
    let out = t.run(&["check", "site"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "invalid value for `check.accept`: `author_without_article` is not a warning code"
        ),
        "{err}"
    );
    assert!(err.contains("hint: did you mean `author_without_articles`?"), "{err}");
}
