//! The demo site builds, and every route has its file, title and description.

use std::sync::OnceLock;

use crate::util::{SiteTest, stderr, title_and_description, walk, workspace};

/// The demo, built once for this module's tests.
fn demo() -> &'static SiteTest {
    static DEMO: OnceLock<SiteTest> = OnceLock::new();
    DEMO.get_or_init(|| {
        let t = SiteTest::demo();
        t.build();
        t
    })
}

#[test]
fn every_route_has_title_and_description() {
    let t = demo();
    let mut rows = Vec::new();
    for path in walk(&t.out()) {
        let rel = path.strip_prefix(t.out()).unwrap().display().to_string();
        if !rel.ends_with(".html") || rel.starts_with("assets/") {
            continue;
        }
        let html = std::fs::read_to_string(&path).unwrap();
        let (title, desc) = title_and_description(&html);
        assert!(title.ends_with(" | Stillpoint"), "{rel}: {title}");
        assert!(!desc.is_empty(), "{rel}: no description");
        assert_eq!(html.matches("<h1").count(), 1, "{rel}: one h1");
        rows.push(format!("{rel}\n  {title}\n  {desc}"));
    }
    insta::assert_snapshot!("demo_routes", rows.join("\n"));
}

#[test]
fn every_page_has_page_data_and_is_in_the_sitemap() {
    let t = demo();
    let sitemap = t.read("sitemap.xml");
    for path in walk(&t.out()) {
        let rel = path.strip_prefix(t.out()).unwrap().display().to_string();
        let Some(route) = rel.strip_suffix(".html") else { continue };
        if ["index", "404", "500"].contains(&route) {
            continue;
        }
        let data = t.out().join(format!("page-data/{route}/page-data.json"));
        assert!(data.is_file(), "{route}: no page-data");
        assert!(
            sitemap.contains(&format!("<loc>https://stillpoint.example/{route}</loc>")),
            "{route} not in sitemap.xml"
        );
    }
    assert!(sitemap.contains("<loc>https://stillpoint.example/</loc>"));
    assert!(!sitemap.contains("404"));
}

#[test]
fn fixed_titles() {
    let t = demo();
    let cases = [
        ("index.html", "Guided Meditations for a Calmer You | Stillpoint"),
        ("authors.html", "Meet Our Mindfulness Experts | Stillpoint"),
        ("info/about-us.html", "About Us | Stillpoint"),
        ("privacy-policy.html", "Privacy Policy | Stillpoint"),
        ("terms.html", "Terms of Service | Stillpoint"),
        ("sitemap.html", "Sitemap | Stillpoint"),
        ("404.html", "Page Not Found | Stillpoint"),
        ("500.html", "Something Went Wrong | Stillpoint"),
    ];
    for (file, want) in cases {
        assert_eq!(title_and_description(&t.read(file)).0, want, "{file}");
    }
}

/// The demo passes the strict gate docs/check.md recommends: what it does on purpose (authors
/// with no articles yet, articles filed under "Other", its five placeholder addresses) it accepts, and nothing else warns.
#[test]
fn demo_passes_check_deny_warnings() {
    let t = SiteTest::from_dir(&workspace().join("examples/demo"));
    let out = t.run(&["check", "site", "--deny-warnings"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("warning:"), "{err}");
    assert!(err.contains("17 accepted warnings"), "{err}");
}
