//! Warnings accepted on purpose: per article (`accept:` in front matter) and per site
//! (`[check] accept` in stillpoint.toml). They are counted, not listed, and pass
//! `--deny-warnings`; an unknown code is an error.

use crate::util::{SiteTest, stderr};

/// Adds `code` to the fixture's `[check] accept` (which accepts its `.example` placeholders).
fn accept(t: &SiteTest, code: &str) {
    let path = t.site().join("stillpoint.toml");
    let old = std::fs::read_to_string(&path).unwrap();
    let new = old.replacen(
        "accept = [\"placeholder\"",
        &format!("accept = [\"{code}\", \"placeholder\""),
        1,
    );
    assert_ne!(old, new, "the fixture has a [check] accept list");
    std::fs::write(path, new).unwrap();
}

/// Warnings the minimal fixture accepts as it is: its five `.example` addresses.
const FIXTURE_ACCEPTED: usize = 5;

/// The minimal fixture with breathing.md accepting `filed_under_other` for itself.
fn accepting_site() -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    let path = t.site().join("articles/breathing.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let text =
        text.replacen("slug: breathing\n", "slug: breathing\naccept: [filed_under_other]\n", 1);
    std::fs::write(path, text).unwrap();
    accept(&t, "unknown_subcategory");
    t
}

#[test]
fn accepted_warnings_are_counted_not_shown_and_pass_deny_warnings() {
    let t = accepting_site();
    let out = t.run(&["check", "site", "--deny-warnings"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("warning:"), "{err}");
    let accepted = 2 + FIXTURE_ACCEPTED;
    assert!(err.contains(&format!("{accepted} accepted warnings (not shown")), "{err}");
    assert!(err.contains("no problems found"), "{err}");

    let out = t.run(&["check", "site", "--format", "json", "--deny-warnings"]);
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let expected =
        serde_json::json!({"ok": true, "errors": [], "warnings": [], "accepted": accepted});
    assert_eq!(doc, expected);
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
    assert!(err.contains(&format!("{} accepted warnings", 2 + FIXTURE_ACCEPTED)), "{err}");
}

#[test]
fn an_unknown_code_is_an_error_with_did_you_mean() {
    let t = SiteTest::from_fixture("minimal");
    accept(&t, "author_without_article");
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
