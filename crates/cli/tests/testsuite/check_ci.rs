//! `stillpoint check` as a CI gate: `--format json` on every error fixture, warnings reported
//! apart from errors and failing the check only with `--deny-warnings`.

use serde_json::Value;

use crate::util::{SiteTest, stderr};

fn check_json(t: &SiteTest, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = vec!["check", "site", "--format", "json"];
    args.extend_from_slice(extra);
    let out = t.run(&args);
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let doc = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!("stdout is one JSON document ({e}):\n{stdout}\n{}", stderr(&out))
    });
    (out.status.code(), doc)
}

macro_rules! json_case {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            let (code, doc) = check_json(&SiteTest::invalid(stringify!($name)), &[]);
            assert_eq!(code, Some(1), "errors fail the check");
            assert_eq!(doc["ok"], false);
            for e in doc["errors"].as_array().unwrap() {
                for key in ["file", "line", "column", "kind", "message", "hint"] {
                    assert!(e.get(key).is_some(), "`{key}` in {e}");
                }
            }
            insta::assert_json_snapshot!(doc);
        }
    )*};
}

mod json {
    use super::*;

    json_case!(
        unknown_category,
        duplicate_slug,
        unknown_author,
        malformed_front_matter,
        invalid_toml,
        missing_field,
        broken_link,
    );
}

/// The minimal fixture files one article under `other` twice, without subcategories and by a
/// subcategory key its category does not have: two warnings.
#[test]
fn warnings_pass_unless_denied() {
    let t = SiteTest::from_fixture("minimal");
    let out = t.run(&["check", "site"]);
    let err = stderr(&out);
    assert!(out.status.success(), "warnings alone do not fail the check:\n{err}");
    assert!(err.contains("warning: no subcategories under `sleepEnhancement`"), "{err}");
    assert!(err.contains("--> articles/breathing.md:11:15"), "{err}");
    assert!(err.contains("2 content warnings\n"), "{err}");
    assert!(!err.contains("error:"), "{err}");

    let out = t.run(&["check", "site", "--deny-warnings"]);
    assert_eq!(out.status.code(), Some(1), "--deny-warnings fails on a warning");
    assert!(stderr(&out).contains("warnings are errors here (--deny-warnings)"));

    let (code, doc) = check_json(&t, &[]);
    assert_eq!(code, Some(0));
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["errors"], serde_json::json!([]));
    assert_eq!(doc["warnings"][0]["kind"], "unknown_subcategory");
    assert_eq!(doc["warnings"][0]["line"], 9);
    assert_eq!(doc["warnings"][1]["kind"], "filed_under_other");
    assert_eq!(doc["warnings"][1]["line"], 11);
    let (code, doc) = check_json(&t, &["--deny-warnings"]);
    assert_eq!((code, &doc["ok"]), (Some(1), &Value::Bool(false)));
}

#[test]
fn every_warning_kind_is_reported_with_its_line() {
    let t = SiteTest::from_fixture("minimal");
    std::fs::write(
        t.site().join("data/authors.toml"),
        std::fs::read_to_string(t.site().join("data/authors.toml")).unwrap()
            + "\n[[author]]\nname = \"Idle Writer\"\ndescription = \"Writes nothing yet.\"\nmeta_title = \"Idle\"\nmeta_description = \"Idle.\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(t.site().join("static/images")).unwrap();
    std::fs::write(
        t.site().join("static/images/lake.jpg"),
        [0xff, 0xd8, 0xff, 0xc0, 0, 0x11, 8, 0, 2, 0, 3, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1],
    )
    .unwrap();
    std::fs::write(
        t.site().join("articles/pictures.md"),
        "---\ntitle: Pictures\nslug: pictures\nentities:\n  - category: sleepEnhancement\n    subcategories:\n      - subcategory: guidedMeditationForSleep\n---\nA lake:\n\n![](/images/lake.jpg)\n\n![A described lake](/images/lake.jpg)\n",
    )
    .unwrap();
    let (code, doc) = check_json(&t, &["--deny-warnings"]);
    assert_eq!(code, Some(1));
    let kinds: Vec<(&str, &str, u64)> = doc["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (w["kind"].as_str().unwrap(), w["file"].as_str().unwrap(), w["line"].as_u64().unwrap())
        })
        .collect();
    assert!(kinds.contains(&("image_without_alt", "articles/pictures.md", 11)), "{kinds:?}");
    assert!(kinds.contains(&("filed_under_other", "articles/breathing.md", 11)), "{kinds:?}");
    assert!(kinds.contains(&("unknown_subcategory", "articles/breathing.md", 9)), "{kinds:?}");
    assert!(
        kinds.iter().any(|k| k.0 == "author_without_articles" && k.1 == "data/authors.toml"),
        "{kinds:?}"
    );
    assert_eq!(kinds.len(), 4, "the described image is fine: {kinds:?}");
}

/// `--format github`: one workflow command per problem on stdout, on the file as the repository
/// names it (below the site directory as given), with GitHub's escaping; the exit code as ever.
#[test]
fn github_annotations_name_the_file_below_the_site_and_escape_their_text() {
    let t = SiteTest::invalid("unknown_category");
    let out = t.run(&["check", "./site", "--format", "github"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.iter().all(|l| l.starts_with("::error ") || l.starts_with("::warning ")));
    assert!(lines.first().is_some_and(|l| l.starts_with("::error ")), "errors first: {stdout}");
    let first = lines[0];
    assert!(first.starts_with("::error file=site/articles/"), "{first}");
    assert!(first.contains(",line=") && first.contains(",col="), "{first}");
    assert!(first.contains(",title=unknown_category::"), "{first}");
    let message = first.split_once("::").unwrap().1.split_once("::").unwrap().1;
    assert!(message.contains("%0A"), "message and hint on two lines: {message}");
    assert!(!message.contains('\n') && !message.contains('\r'), "{message}");
    assert!(stderr(&out).contains("error: "), "the human report still goes to stderr");

    let t = SiteTest::from_fixture("minimal");
    let out = t.run(&["check", "site", "--format", "github"]);
    assert_eq!(out.status.code(), Some(0), "warnings alone pass");
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(
        stdout.lines().next().unwrap_or_default().split("::").nth(1),
        Some("warning file=site/articles/breathing.md,line=9,col=22,title=unknown_subcategory"),
        "{stdout}"
    );
    let out = t.run(&["check", "site", "--format", "github", "--deny-warnings"]);
    assert_eq!(out.status.code(), Some(1));
}
