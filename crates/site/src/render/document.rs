//! The HTML document around a rendered page: the `<head>` from the plan, the stitched header
//! and footer slices, and the page region. React renders the regions; Rust writes the rest.

use std::fmt::Write as _;

use crate::layout;
use crate::plan::Head;

/// What every document links to, fixed for one build.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Shell {
    pub brand: String,
    pub locale: String,
    pub alternate_locale: &'static str,
    pub entry_js: String,
    /// Entry CSS and its imports' CSS.
    pub entry_css: Vec<String>,
    /// Styles inlined in `<head>` ahead of the stylesheets, when the web bundle has any
    /// (`client/critical.css`; Stillpoint's own bundle has none: the one site stylesheet is cached
    /// after the first visit, and inlining it would add its size to every page).
    pub critical_css: String,
    pub entry_imports: Vec<String>,
    pub build_hash: String,
    pub site_hash: String,
    pub header: String,
    pub footer: String,
    pub favicon: Option<String>,
    /// `/favicon.ico` and the Apple touch icon, linked when `static/` has them.
    pub favicon_ico: Option<String>,
    pub apple_touch_icon: Option<String>,
    pub manifest: Option<String>,
    /// The theme's stylesheet (`/assets/theme-….css`, theme_css.rs), linked after the bundle's.
    pub theme_css: Option<String>,
    /// The font file of the headings (the largest text), preloaded.
    pub font_preload: Option<crate::theme_css::FontPreload>,
    /// `/site.css` when the site has `static/site.css`: linked last, so the owner's rules win.
    pub site_css: Option<String>,
    pub feeds: bool,
    /// Third-party scripts, already rewritten to the proxy when it is on.
    pub scripts: Vec<String>,
    /// The site's Content-Security-Policy in its `<meta>` form (`crate::csp`); none when empty.
    pub csp: String,
}

/// Template-specific assets. The template's JavaScript chunk is not linked: the entry loads it
/// after the first paint.
#[derive(Debug, Clone, Default)]
pub struct PageAssets<'a> {
    pub template: &'a str,
    pub css: &'a [String],
}

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    pulldown_cmark_escape::escape_html(&mut out, s).expect("writing to a String cannot fail");
    out
}

/// JSON inside `<script type="application/ld+json">`: `</` may not appear.
fn json_for_script(v: &serde_json::value::RawValue) -> String {
    v.get().replace("</", "<\\/")
}

pub fn document(
    shell: &Shell,
    head: &Head,
    path: &str,
    assets: &PageAssets,
    page_html: &str,
) -> String {
    let mut h =
        String::with_capacity(page_html.len() + shell.header.len() + shell.footer.len() + 4096);
    let e = escape;
    h.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    // Before anything it governs: a `<meta>` policy applies to what follows it.
    if !shell.csp.is_empty() {
        let _ = writeln!(
            h,
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
            e(&shell.csp)
        );
    }
    h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(h, "<title>{}</title>", e(&head.title));
    let _ = writeln!(h, "<meta name=\"description\" content=\"{}\">", e(&head.description));
    if head.noindex {
        h.push_str("<meta name=\"robots\" content=\"noindex\">\n");
    }
    if !head.canonical.is_empty() {
        let _ = writeln!(h, "<link rel=\"canonical\" href=\"{}\">", e(&head.canonical));
    }
    if let Some(p) = &head.prev {
        let _ = writeln!(h, "<link rel=\"prev\" href=\"{}\">", e(p));
    }
    if let Some(n) = &head.next {
        let _ = writeln!(h, "<link rel=\"next\" href=\"{}\">", e(n));
    }
    let og = [
        ("og:site_name", shell.brand.as_str()),
        ("og:type", head.og_type),
        ("og:title", head.title.as_str()),
        ("og:description", head.description.as_str()),
        ("og:locale", shell.locale.as_str()),
        ("og:locale:alternate", shell.alternate_locale),
    ];
    for (k, v) in og {
        let _ = writeln!(h, "<meta property=\"{k}\" content=\"{}\">", e(v));
    }
    if !head.canonical.is_empty() {
        let _ = writeln!(h, "<meta property=\"og:url\" content=\"{}\">", e(&head.canonical));
    }
    if let Some(img) = &head.image {
        let _ = writeln!(h, "<meta property=\"og:image\" content=\"{}\">", e(img));
    }
    if let Some(d) = &head.published {
        let _ = writeln!(h, "<meta property=\"article:published_time\" content=\"{d}\">");
    }
    // X (Twitter) reads the title and description from OpenGraph when its own tags are absent.
    let card = if head.image.is_some() { "summary_large_image" } else { "summary" };
    let _ = writeln!(h, "<meta name=\"twitter:card\" content=\"{card}\">");
    if let Some(f) = &shell.favicon_ico {
        let _ = writeln!(h, "<link rel=\"icon\" href=\"{}\" sizes=\"32x32\">", e(f));
    }
    if let Some(f) = &shell.favicon {
        let _ = writeln!(h, "<link rel=\"icon\" href=\"{}\" type=\"image/svg+xml\">", e(f));
    }
    if let Some(f) = &shell.apple_touch_icon {
        let _ = writeln!(h, "<link rel=\"apple-touch-icon\" href=\"{}\">", e(f));
    }
    if let Some(m) = &shell.manifest {
        let _ = writeln!(h, "<link rel=\"manifest\" href=\"{}\">", e(m));
    }
    if shell.feeds {
        let _ = writeln!(
            h,
            "<link rel=\"alternate\" type=\"application/rss+xml\" title=\"{}\" href=\"/{}\">",
            e(&shell.brand),
            layout::RSS_XML
        );
        let _ = writeln!(
            h,
            "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"{}\" href=\"/{}\">",
            e(&shell.brand),
            layout::ATOM_XML
        );
    }
    let mut styles: Vec<&str> = Vec::new();
    for css in shell.entry_css.iter().chain(assets.css.iter()) {
        if !styles.contains(&css.as_str()) {
            styles.push(css);
        }
    }
    if !shell.critical_css.is_empty() {
        // The bytes between the tags are exactly what the CSP hash in build.json covers.
        let _ = writeln!(h, "<style>{}</style>", shell.critical_css);
    }
    if let Some(font) = &shell.font_preload {
        let _ = writeln!(
            h,
            "<link rel=\"preload\" href=\"{}\" as=\"font\" type=\"{}\" crossorigin>",
            e(&font.href),
            font.mime
        );
    }
    // Linked as they are, with or without script: a page is never shown half-styled.
    // The theme's and the owner's stylesheets come last: their rules win over the engine's.
    let own = [&shell.theme_css, &shell.site_css];
    for css in styles.into_iter().chain(own.into_iter().flatten().map(String::as_str)) {
        let _ = writeln!(h, "<link rel=\"stylesheet\" href=\"{}\">", e(css));
    }
    let _ = writeln!(h, "<script type=\"module\" src=\"{}\"></script>", e(&shell.entry_js));
    // Only what the entry needs to run. The template's chunk, the page data and the site data are
    // requested by the entry after the first paint (web/src/runtime/early.ts): preloading them
    // here would spend the first round trips, and the main thread, on hydration before the page
    // has painted.
    for js in &shell.entry_imports {
        if *js != shell.entry_js {
            let _ = writeln!(h, "<link rel=\"modulepreload\" href=\"{}\">", e(js));
        }
    }
    for s in &shell.scripts {
        let _ = writeln!(h, "<script src=\"{}\" defer></script>", e(s));
    }
    for ld in &head.json_ld {
        let _ =
            writeln!(h, "<script type=\"application/ld+json\">{}</script>", json_for_script(ld));
    }
    h.push_str("</head>\n");
    let _ = writeln!(
        h,
        "<body data-template=\"{}\" data-path=\"{}\" data-build=\"{}\" data-site=\"{}\">",
        e(assets.template),
        e(path),
        e(&shell.build_hash),
        e(&shell.site_hash)
    );
    h.push_str("<a class=\"skip-link\" href=\"#main\">Skip to content</a>\n");
    let _ = writeln!(h, "<div id=\"sp-header\">{}</div>", shell.header);
    let _ = writeln!(h, "<div id=\"sp-page\">{page_html}</div>");
    let _ = writeln!(h, "<div id=\"sp-footer\">{}</div>", shell.footer);
    h.push_str("</body>\n</html>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_is_escaped_and_json_ld_cannot_close_the_script() {
        let shell =
            Shell { brand: "S".into(), entry_js: "/assets/e.js".into(), ..Shell::default() };
        let head = Head {
            title: "A <b> & \"q\" | S".into(),
            description: "d".into(),
            canonical: "https://s.example/x".into(),
            og_type: "article",
            json_ld: vec![
                serde_json::value::to_raw_value(
                    &serde_json::json!({"name": "</script><script>alert(1)"}),
                )
                .unwrap(),
            ],
            ..Head::default()
        };
        let html = document(
            &shell,
            &head,
            "/x",
            &PageAssets { template: "Article", ..PageAssets::default() },
            "<main></main>",
        );
        assert!(html.contains("<title>A &lt;b&gt; &amp; &quot;q&quot; | S</title>"), "{html}");
        assert!(html.contains(r#"{"name":"<\/script><script>alert(1)"}"#));
        assert!(html.contains(r#"<body data-template="Article" data-path="/x""#));
        assert_eq!(html.matches("<title>").count(), 1);
    }

    #[test]
    fn the_policy_comes_right_after_the_charset_escaped() {
        let shell =
            Shell { csp: "default-src 'self'; img-src 'self' data:".into(), ..Shell::default() };
        let html = document(&shell, &Head::default(), "/", &PageAssets::default(), "");
        let expected = format!(
            "<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n<meta name=\"viewport\"",
            escape(&shell.csp)
        );
        assert!(html.contains(&expected), "{html}");
        let none = document(&Shell::default(), &Head::default(), "/", &PageAssets::default(), "");
        assert!(!none.contains("Content-Security-Policy"), "{none}");
    }

    #[test]
    fn the_icons_present_are_linked_ico_first() {
        let none = document(&Shell::default(), &Head::default(), "/", &PageAssets::default(), "");
        assert!(!none.contains("rel=\"icon\"") && !none.contains("apple-touch-icon"), "{none}");
        let shell = Shell {
            favicon: Some("/favicon.svg".into()),
            favicon_ico: Some("/favicon.ico".into()),
            apple_touch_icon: Some("/icons/apple-touch-icon.png".into()),
            ..Shell::default()
        };
        let html = document(&shell, &Head::default(), "/", &PageAssets::default(), "");
        assert!(
            html.contains(
                "<link rel=\"icon\" href=\"/favicon.ico\" sizes=\"32x32\">\n\
                 <link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">\n\
                 <link rel=\"apple-touch-icon\" href=\"/icons/apple-touch-icon.png\">\n"
            ),
            "{html}"
        );
    }

    #[test]
    fn third_party_scripts_are_deferred_after_the_entry() {
        let shell = Shell {
            entry_js: "/assets/e.js".into(),
            scripts: vec!["/__third-party-proxy?url=https%3A%2F%2Fcdn.example%2Fa.js".into()],
            ..Shell::default()
        };
        let html = document(&shell, &Head::default(), "/", &PageAssets::default(), "");
        let entry = html.find(r#"<script type="module" src="/assets/e.js">"#).unwrap();
        let script = html
            .find(r#"<script src="/__third-party-proxy?url=https%3A%2F%2Fcdn.example%2Fa.js" defer></script>"#)
            .unwrap();
        assert!(entry < script, "{html}");
    }

    #[test]
    fn only_the_entry_and_its_imports_load_before_the_first_paint() {
        let shell = Shell {
            entry_js: "/assets/e.js".into(),
            entry_imports: vec!["/assets/runtime.js".into()],
            site_hash: "abc".into(),
            ..Shell::default()
        };
        let assets = PageAssets { template: "Article", css: &[] };
        let html = document(&shell, &Head::default(), "/a/b", &assets, "");
        assert!(html.contains(r#"<script type="module" src="/assets/e.js"></script>"#), "{html}");
        assert!(html.contains(r#"<link rel="modulepreload" href="/assets/runtime.js">"#));
        assert_eq!(html.matches("modulepreload").count(), 1, "{html}");
        assert!(!html.contains("page-data") && !html.contains(r#"rel="preload""#), "{html}");
    }

    #[test]
    fn the_theme_and_the_owners_stylesheet_follow_the_bundles_and_the_heading_font_is_preloaded() {
        let shell = Shell {
            entry_js: "/assets/e.js".into(),
            entry_css: vec!["/assets/style-1.css".into()],
            theme_css: Some("/assets/theme-abc.css".into()),
            site_css: Some("/site.css".into()),
            font_preload: Some(crate::theme_css::FontPreload {
                href: "/fonts/lora.woff2".into(),
                mime: "font/woff2",
            }),
            ..Shell::default()
        };
        let assets = PageAssets { template: "Home", css: &["/assets/home.css".to_string()] };
        let html = document(&shell, &Head::default(), "/", &assets, "");
        let at = |s: &str| html.find(s).unwrap_or_else(|| panic!("{s} in {html}"));
        let preload = at(
            r#"<link rel="preload" href="/fonts/lora.woff2" as="font" type="font/woff2" crossorigin>"#,
        );
        let bundle = at(r#"<link rel="stylesheet" href="/assets/style-1.css">"#);
        let template = at(r#"<link rel="stylesheet" href="/assets/home.css">"#);
        let theme = at(r#"<link rel="stylesheet" href="/assets/theme-abc.css">"#);
        let own = at(r#"<link rel="stylesheet" href="/site.css">"#);
        assert!(preload < bundle && bundle < template && template < theme && theme < own, "{html}");
    }

    #[test]
    fn stylesheets_are_linked_and_a_bundles_inline_styles_come_first() {
        let shell = Shell {
            entry_js: "/assets/e.js".into(),
            entry_css: vec!["/assets/style-1.css".into()],
            ..Shell::default()
        };
        let html = document(&shell, &Head::default(), "/", &PageAssets::default(), "");
        assert!(
            html.contains("<link rel=\"stylesheet\" href=\"/assets/style-1.css\">\n"),
            "{html}"
        );
        assert_eq!(html.matches("style-1.css").count(), 1, "{html}");
        assert!(!html.contains("<style") && !html.contains("<noscript>"), "{html}");

        let inline = Shell { critical_css: "a>b{color:red}".into(), ..shell };
        let html = document(&inline, &Head::default(), "/", &PageAssets::default(), "");
        let style = html.find("<style>a>b{color:red}</style>\n").expect("inline styles");
        let link = html.find(r#"<link rel="stylesheet" href="/assets/style-1.css">"#).unwrap();
        assert!(style < link, "{html}");
        assert!(!html.contains("media=\"print\"") && !html.contains("<noscript>"), "{html}");
    }
}
