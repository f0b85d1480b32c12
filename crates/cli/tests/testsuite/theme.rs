//! `[theme]`: the compiled theme stylesheet, self-hosted fonts with their fallbacks and preload,
//! `static/site.css`, the contrast check, and incremental builds of each.

use std::collections::BTreeMap;
use std::path::Path;

use crate::util::{SiteTest, edit, stderr, tree};

const THEME: &str = r##"
[theme]
heading_font = '"Lobster", Georgia, serif'
radius = "0.25rem"
[theme.light]
accent = "#7a3e9d"
[[theme.fonts]]
family = "Lobster"
file = "fonts/lobster.woff2"
"##;

/// The minimal site with `theme` appended to its `stillpoint.toml` and the test font in
/// `static/fonts/`.
fn themed(theme: &str) -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    let font = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content/tests/fonts/lobster.woff2");
    std::fs::create_dir_all(t.site().join("static/fonts")).unwrap();
    std::fs::copy(font, t.site().join("static/fonts/lobster.woff2")).unwrap();
    let toml = t.site().join("stillpoint.toml");
    let text = std::fs::read_to_string(&toml).unwrap() + theme;
    std::fs::write(toml, text).unwrap();
    t
}

/// The theme stylesheet's URL in a page.
fn theme_href(html: &str) -> &str {
    let start = html.find("href=\"/assets/theme-").expect("a theme stylesheet") + 6;
    &html[start..start + html[start..].find('"').unwrap()]
}

#[test]
fn a_themed_site_links_its_compiled_theme_preloads_its_heading_font_and_loads_site_css_last() {
    let t = themed(THEME);
    std::fs::write(t.site().join("static/site.css"), "h1 { letter-spacing: 0.01em; }\n").unwrap();
    let out = t.run(&["check", "site"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = t.build();
    assert!(out.status.success(), "{}", stderr(&out));

    let home = t.read("index.html");
    let href = theme_href(&home);
    let at = |s: &str| home.find(s).unwrap_or_else(|| panic!("{s} in\n{home}"));
    let preload = at(
        r#"<link rel="preload" href="/fonts/lobster.woff2" as="font" type="font/woff2" crossorigin>"#,
    );
    let theme = at(&format!(r#"<link rel="stylesheet" href="{href}">"#));
    let own = at(r#"<link rel="stylesheet" href="/site.css">"#);
    let bundle = at(r#"<link rel="stylesheet" href="/assets/"#);
    assert!(preload < bundle && bundle < theme && theme < own, "{home}");
    assert_eq!(home.matches("rel=\"preload\"").count(), 1);

    let css = t.read(href.trim_start_matches('/'));
    assert!(css.contains("@font-face{font-family:\"Lobster\";src:url(\"/fonts/lobster.woff2\") format(\"woff2\");font-weight:400;font-style:normal;font-display:swap}"), "{css}");
    // Lobster: 545/1000 em wide against Times New Roman's 821/2048.
    assert!(css.contains("font-family:\"Lobster Fallback\";src:local(\"Times New Roman\"),local(\"Liberation Serif\"),local(\"Tinos\");size-adjust:135.95%;ascent-override:73.56%;descent-override:18.39%;line-gap-override:0.00%"), "{css}");
    assert!(css.contains("--font-serif:\"Lobster\",\"Lobster Fallback\", Georgia, serif"), "{css}");
    assert!(css.contains("--radius-m:0.25rem") && css.contains("--color-accent:#7a3e9d"), "{css}");
    assert!(css.contains("@media (prefers-color-scheme:dark){:root{--color-bg:#121816;"), "{css}");
    assert_eq!(t.read("site.css"), "h1 { letter-spacing: 0.01em; }\n");
    assert!(t.out().join("fonts/lobster.woff2").is_file());

    // Every page links the same theme; nothing is inlined, so no style hash is needed.
    let about = t.read("info/about-us.html");
    assert_eq!(theme_href(&about), href);
    assert!(!home.contains("<style"), "{home}");
    let info: serde_json::Value = serde_json::from_str(&t.read(".stillpoint/build.json")).unwrap();
    assert_eq!(info.get("styleHashes"), None, "{info:#}");
}

#[test]
fn a_colour_below_wcag_aa_fails_check_and_build_naming_key_colours_ratio_and_minimum() {
    let t = themed("\n[theme.light]\nbackground = \"#ffffff\"\nmuted = \"#777777\"\n");
    for args in [&["check", "site"][..], &["build", "site", "--out", "dist"]] {
        let out = t.run(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("stillpoint.toml:21:9"), "{err}");
        assert!(err.contains("invalid value for `theme.light.muted`: muted #777777 on background #ffffff has a contrast of 4.47:1; WCAG AA needs at least 4.5:1"), "{err}");
        assert!(err.contains("docs/theme.md#contrast"), "{err}");
    }
    assert!(!t.out().exists());
}

#[test]
fn a_missing_font_file_is_an_error_at_its_key() {
    let t = themed(&THEME.replace("fonts/lobster.woff2", "fonts/lora.woff2"));
    let out = t.run(&["check", "site"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("stillpoint.toml:26:8"), "{err}");
    assert!(err.contains("static/fonts/lora.woff2 cannot be read"), "{err}");
}

type Tree = BTreeMap<String, Vec<u8>>;

fn verified(t: &SiteTest) -> Tree {
    let out = t.run(&["build", "site", "--out", "dist", "--verify"]);
    assert!(out.status.success(), "build --verify failed:\n{}", stderr(&out));
    tree(&t.out()).into_iter().collect()
}

#[test]
fn changing_the_theme_relinks_every_page_and_editing_site_css_rewrites_only_it() {
    let t = themed(THEME);
    std::fs::write(t.site().join("static/site.css"), "h1 { color: inherit; }\n").unwrap();
    let first = verified(&t);
    let old = theme_href(&t.read("index.html")).to_string();

    edit(&t, "stillpoint.toml", "#7a3e9d", "#2b5c8a");
    let second = verified(&t);
    let new = theme_href(&t.read("index.html")).to_string();
    assert_ne!(old, new);
    let pages: Vec<&String> = second.keys().filter(|k| k.ends_with(".html")).collect();
    for page in &pages {
        let html = String::from_utf8_lossy(&second[*page]);
        assert!(!html.contains(&old), "{page} still links the old theme");
    }
    assert!(second[new.trim_start_matches('/')].windows(7).any(|w| w == b"#2b5c8a"));
    assert!(!second.contains_key(old.trim_start_matches('/')), "the old theme is gone");

    std::fs::write(t.site().join("static/site.css"), "h1 { color: red; }\n").unwrap();
    let third = verified(&t);
    let changed: Vec<&String> =
        third.keys().filter(|k| second.get(*k) != Some(&third[*k])).collect();
    assert_eq!(changed, ["site.css"], "only the owner's stylesheet changes");
    assert_ne!(first, third);
}

#[test]
fn without_a_theme_nothing_is_added() {
    let t = SiteTest::from_fixture("minimal");
    let out = t.build();
    assert!(out.status.success(), "{}", stderr(&out));
    let files = tree(&t.out());
    assert!(!files.iter().any(|(rel, _)| rel.contains("theme-")), "no theme stylesheet");
    for (rel, bytes) in files.iter().filter(|(rel, _)| rel.ends_with(".html")) {
        let html = String::from_utf8_lossy(bytes);
        assert!(!html.contains("rel=\"preload\"") && !html.contains("/site.css"), "{rel}");
        assert!(!html.contains("/assets/theme-"), "{rel}");
    }
}
