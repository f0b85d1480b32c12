//! Drafts, scheduled and expiring articles, and `updated` dates, as a site owner sees them in the
//! output of `build` (and `check`'s report).

use std::path::Path;

use crate::util::{SiteTest, stderr, walk};

/// An article of the minimal fixture's taxonomy and authors, with `extra` front matter lines.
fn article(title: &str, slug: &str, date: &str, extra: &str) -> String {
    format!(
        "---\ntitle: \"{title}\"\nslug: {slug}\ndate: {date}\nauthor: \"Maya Lindqvist\"\n{extra}entities:\n  - category: sleepEnhancement\n    subcategories:\n      - subcategory: guidedMeditationForSleep\n        subsubcategories: [\"night drift\"]\n---\nA body for {title}.\n"
    )
}

fn write(t: &SiteTest, rel: &str, text: &str) {
    let path = t.site().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Every output file (by path relative to `dir`) whose path or bytes contain `needle`, but for
/// `.stillpoint/build.json`, which is neither served nor deployed (it names the next scheduled
/// article).
fn files_mentioning(dir: &Path, needle: &str) -> Vec<String> {
    walk(dir)
        .into_iter()
        .filter(|p| !p.starts_with(dir.join(".stillpoint")))
        .filter(|p| {
            p.to_string_lossy().contains(needle)
                || String::from_utf8_lossy(&std::fs::read(p).unwrap()).contains(needle)
        })
        .map(|p| p.strip_prefix(dir).unwrap().display().to_string())
        .collect()
}

const DRAFT_TITLE: &str = "Halfway Moonlit Unwinding";
const DRAFT_SLUG: &str = "halfway-moonlit-unwinding";

fn with_draft() -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    let draft = article(DRAFT_TITLE, DRAFT_SLUG, "2025-06-01", "draft: true\n");
    write(&t, "articles/wip.md", &draft);
    // Not content at all: hidden folders and editors' files, even when half-written.
    write(&t, "articles/.drafts/x.md", "---\ntitle: [half\n");
    write(&t, "articles/.#body-scan.md", "not front matter");
    write(&t, "articles/body-scan.md~", "not front matter");
    write(&t, "articles/.body-scan.md.swp", "\0\0binary");
    t
}

#[test]
fn a_draft_is_in_no_output_file_of_a_build() {
    let t = with_draft();
    let out = t.build();
    assert_eq!(files_mentioning(&t.out(), DRAFT_SLUG), Vec::<String>::new());
    assert_eq!(files_mentioning(&t.out(), DRAFT_TITLE), Vec::<String>::new());
    assert!(files_mentioning(&t.out(), "night-drift").is_empty(), "its tag page is not built");
    let err = stderr(&out);
    assert!(err.contains("(3 articles)") && err.contains("left out: 1 draft"), "{err}");
    assert!(!t.read("index.html").contains("noindex"));
}

#[test]
fn build_with_drafts_is_a_preview_that_robots_do_not_index() {
    let t = with_draft();
    let out = t.run(&["build", "site", "--out", "dist", "--drafts"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("(4 articles)") && err.contains("preview: drafts are published"), "{err}");
    let page = t.read(&format!("articles/{DRAFT_SLUG}.html"));
    assert!(page.contains(DRAFT_TITLE));
    for file in ["index.html", "articles/body-scan.html", &format!("articles/{DRAFT_SLUG}.html")] {
        assert!(t.read(file).contains("<meta name=\"robots\" content=\"noindex\">"), "{file}");
    }
    assert_eq!(t.read("robots.txt"), "User-agent: *\nDisallow: /\n");
    assert!(t.read(".stillpoint/build.json").contains("\"preview\": true"));
    let data = t.read(&format!("page-data/articles/{DRAFT_SLUG}/page-data.json"));
    assert!(data.contains("\"draft\":true"), "{data}");
}

#[test]
fn a_broken_draft_warns_and_blocks_only_a_preview() {
    let t = SiteTest::from_fixture("minimal");
    write(&t, "articles/wip.md", "---\ntitle: [never closed\ndraft: true\nslug: wip\n---\nBody\n");
    let out = t.build();
    let err = stderr(&out);
    assert!(err.contains("in a draft (not published): articles/wip.md:2:"), "{err}");

    let check = t.run(&["check", "site", "--format", "json"]);
    let json = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{json}");
    assert!(json.contains("\"error_in_draft\"") && json.contains("articles/wip.md"), "{json}");

    let preview = t.run(&["build", "site", "--out", "dist", "--drafts"]);
    assert!(!preview.status.success());
    assert!(stderr(&preview).contains("articles/wip.md:2:"), "{}", stderr(&preview));
}

const FUTURE_TITLE: &str = "Spring Equinox Stillness";
const FUTURE_SLUG: &str = "spring-equinox-stillness";

fn with_schedule() -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    write(&t, "articles/future.md", &article(FUTURE_TITLE, FUTURE_SLUG, "2027-03-01", ""));
    let gone = article(
        "Winter Sale Meditation",
        "winter-sale",
        "2025-01-01",
        "expires: 2027-02-01T12:00:00Z\n",
    );
    write(&t, "articles/gone.md", &gone);
    t
}

#[test]
fn a_future_article_waits_for_its_date_and_an_expired_one_is_taken_down() {
    let t = with_schedule();
    let before = t.run(&["build", "site", "--out", "dist", "--now", "2027-01-15T00:00:00Z"]);
    let err = stderr(&before);
    assert!(before.status.success(), "{err}");
    assert!(
        err.contains("next scheduled: Spring Equinox Stillness at 2027-03-01T00:00:00Z"),
        "{err}"
    );
    assert!(err.contains("next expiry: Winter Sale Meditation at 2027-02-01T12:00:00Z"), "{err}");
    assert!(files_mentioning(&t.out(), FUTURE_SLUG).is_empty());
    assert!(t.read("sitemap.xml").contains("/articles/winter-sale"));
    let info = t.read(".stillpoint/build.json");
    assert!(info.contains("\"nextScheduled\"") && info.contains("2027-03-01T00:00:00Z"), "{info}");

    // The same cache and output: the instant alone changed what is published.
    let after = t.run(&["build", "site", "--out", "dist", "--now", "2027-03-01T00:00:00Z"]);
    let err = stderr(&after);
    assert!(after.status.success(), "{err}");
    assert!(!err.contains("next scheduled"), "{err}");
    assert!(err.contains("left out: 1 expired"), "{err}");
    assert!(t.read(&format!("articles/{FUTURE_SLUG}.html")).contains(FUTURE_TITLE));
    assert!(t.read("rss.xml").contains(FUTURE_TITLE));
    assert!(t.read("sitemap.xml").contains("<lastmod>2027-03-01</lastmod>"));
    assert!(files_mentioning(&t.out(), "winter-sale").is_empty(), "expired: gone everywhere");
    assert!(!t.read(".stillpoint/build.json").contains("nextScheduled"));
}

#[test]
fn a_date_time_publishes_at_its_instant() {
    let t = SiteTest::from_fixture("minimal");
    let text = article(FUTURE_TITLE, FUTURE_SLUG, "2027-03-01T09:30:00+02:00", "");
    write(&t, "articles/future.md", &text);
    let out = t.run(&["build", "site", "--out", "dist", "--now", "2027-03-01T07:29:59Z"]);
    assert!(stderr(&out).contains("at 2027-03-01T07:30:00Z"), "{}", stderr(&out));
    assert!(!t.out().join(format!("articles/{FUTURE_SLUG}.html")).exists());
    t.run(&["build", "site", "--out", "dist", "--now", "2027-03-01T07:30:00Z"]);
    assert!(t.out().join(format!("articles/{FUTURE_SLUG}.html")).exists());
}

#[test]
fn updated_shows_in_sitemap_json_ld_atom_and_the_page() {
    let t = SiteTest::from_fixture("minimal");
    let path = t.site().join("articles/body-scan.md");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("date: 2025-03-02\n", "date: 2025-03-02\nupdated: 2025-09-15\n"),
    )
    .unwrap();
    t.build();
    let sitemap = t.read("sitemap.xml");
    assert!(
        sitemap.contains("/articles/body-scan</loc><lastmod>2025-09-15</lastmod>"),
        "{sitemap}"
    );
    assert!(
        sitemap.contains("/articles/breathing</loc><lastmod>2025-05-10</lastmod>"),
        "{sitemap}"
    );
    let page = t.read("articles/body-scan.html");
    assert!(page.contains("\"dateModified\":\"2025-09-15\""), "JSON-LD");
    assert!(page.contains("\"datePublished\":\"2025-03-02\""));
    assert!(page.contains("Updated <time dateTime=\"2025-09-15\">September 15, 2025</time>"));
    let atom = t.read("atom.xml");
    assert!(
        atom.contains(
            "<updated>2025-09-15T00:00:00Z</updated><published>2025-03-02T00:00:00Z</published>"
        ),
        "{atom}"
    );
    assert!(!t.read("articles/breathing.html").contains("dateModified"));
}

#[test]
fn updated_before_the_date_is_an_error_naming_file_and_line() {
    let t = SiteTest::from_fixture("minimal");
    let path = t.site().join("articles/body-scan.md");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("date: 2025-03-02\n", "date: 2025-03-02\nupdated: 2025-01-01\n"),
    )
    .unwrap();
    let out = t.run(&["check", "site"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("articles/body-scan.md:5:") && err.contains("before the article's date"),
        "{err}"
    );
}

#[test]
fn deploy_names_the_next_scheduled_article_and_keeps_a_preview_out_of_production() {
    let Some((t, s3)) = crate::deploy::setup() else { return };
    write(&t, "articles/future.md", &article(FUTURE_TITLE, FUTURE_SLUG, "2027-03-01", ""));
    let out = t.run(&["build", "site", "--out", "dist", "--now", "2027-01-15T00:00:00Z"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = crate::deploy::deploy(&t, &s3, &["--now", "2027-01-16T00:00:00Z"]);
    assert!(
        printed.contains("next scheduled: Spring Equinox Stillness at 2027-03-01T00:00:00Z"),
        "{printed}"
    );
    assert!(!printed.contains("was due"), "{printed}");
    let printed = crate::deploy::deploy(&t, &s3, &["--now", "2027-03-02T00:00:00Z"]);
    assert!(
        printed.contains("was due at 2027-03-01T00:00:00Z: this build predates it"),
        "{printed}"
    );

    let out = t.run(&["build", "site", "--out", "dist", "--drafts"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let refused = crate::deploy::deploy_env(&t, &s3, &[], &[]);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("is a preview built with --drafts"), "{}", stderr(&refused));
    crate::deploy::deploy(&t, &s3, &["--dev"]);
}
