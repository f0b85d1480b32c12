//! Raw HTML in Markdown, end to end: sanitised in the built page by default,
//! kept as written when stillpoint.toml sets `[markdown] unsafe_html = true`.

use crate::util::SiteTest;

const ARTICLE: &str = r#"---
title: "Raw HTML"
slug: raw-html
entities:
  - category: sleepEnhancement
    subcategories:
      - subcategory: guidedMeditationForSleep
---
Before.

<div class="note" onmouseover="steal()">Breathe <kbd>in</kbd>.</div>

<script>window.pwned = 1</script>

<iframe src="https://evil.example/"></iframe>

[click](javascript:alert(1)) and <a href="&#106;avascript:alert(2)">this</a>
"#;

fn site(unsafe_html: bool) -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    std::fs::write(t.site().join("articles/raw-html.md"), ARTICLE).unwrap();
    if unsafe_html {
        let config = t.site().join("stillpoint.toml");
        let text = std::fs::read_to_string(&config).unwrap();
        std::fs::write(config, text + "\n[markdown]\nunsafe_html = true\n").unwrap();
    }
    t.build();
    t
}

#[test]
fn raw_html_is_sanitised_by_default() {
    let t = site(false);
    // The body is in the article's HTML only, never in its page-data.
    assert!(!t.read("page-data/articles/raw-html/page-data.json").contains("Breathe"));
    let html = t.read("articles/raw-html.html");
    for bad in ["window.pwned", "<iframe", "onmouseover", "javascript:", "steal()"] {
        assert!(!html.contains(bad), "`{bad}` reached the page");
    }
    assert!(html.contains(r#"<div class="note">Breathe <kbd>in</kbd>.</div>"#), "safe HTML stays");
}

#[test]
fn unsafe_html_keeps_it_as_written() {
    let t = site(true);
    let html = t.read("articles/raw-html.html");
    assert!(html.contains(r#"<div class="note" onmouseover="steal()">"#), "trusted HTML is kept");
    assert!(html.contains("<script>window.pwned = 1</script>"));
}
