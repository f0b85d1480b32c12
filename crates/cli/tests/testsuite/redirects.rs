//! Redirects: `aliases:` and `data/redirects.toml` become a page at each old URL, `_redirects`,
//! and 301/302 answers from `serve`; `check` names every bad redirect at its line; incremental
//! builds follow alias edits.

use crate::serve::{get, start, stop};
use crate::util::{SiteTest, edit, stderr};

const REDIRECTS: &str = r#"[[redirect]]
from = "/blog/*"
to = "/articles/:splat"
permanent = false

[[redirect]]
from = "/guides/breathing.html"
to = "/articles/breathing"

[[redirect]]
from = "/shop"
to = "https://shop.example/"
"#;

/// The minimal site with two aliases on the body scan and `REDIRECTS`.
fn site_with_redirects() -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    edit(
        &t,
        "articles/body-scan.md",
        "slug: body-scan\n",
        "slug: body-scan\naliases: [/old/path/, /2019/05/body-scan.html]\n",
    );
    std::fs::write(t.site().join("data/redirects.toml"), REDIRECTS).unwrap();
    t
}

#[test]
fn the_output_has_a_page_per_old_url_and_the_rules_file() {
    let t = site_with_redirects();
    t.build();
    for (file, to) in [
        ("old/path.html", "/articles/body-scan"),
        ("2019/05/body-scan.html", "/articles/body-scan"),
        ("guides/breathing.html", "/articles/breathing"),
        ("shop.html", "https://shop.example/"),
    ] {
        let page = t.read(file);
        assert!(
            page.contains(&format!("<meta http-equiv=\"refresh\" content=\"0; url={to}\">")),
            "{file}: {page}"
        );
        assert!(page.contains(&format!("<a href=\"{to}\">")), "{file}: {page}");
        assert!(page.contains("<meta name=\"robots\" content=\"noindex\">"), "{file}");
        assert!(!page.contains("<script"), "{file}");
    }
    assert!(t.read("old/path.html").contains("<link rel=\"canonical\" href=\"https://"));
    assert_eq!(
        t.read("_redirects").lines().skip(1).collect::<Vec<_>>(),
        [
            "/guides/breathing /articles/breathing 301",
            "/shop https://shop.example/ 301",
            "/old/path /articles/body-scan 301",
            "/2019/05/body-scan /articles/body-scan 301",
            "/blog/* /articles/:splat 302",
        ]
    );
    let sitemap = t.read("sitemap.xml");
    assert!(sitemap.contains("/articles/body-scan<"), "{sitemap}");
    assert!(!sitemap.contains("old/path") && !sitemap.contains("2019/05"), "{sitemap}");
}

#[test]
fn serve_answers_301_and_302_before_the_404() {
    let t = site_with_redirects();
    t.build();
    let server = start(&t.out(), &[]);
    let answer = |path: &str| {
        let response = get(&server.addr, path);
        let status = response.split(' ').nth(1).unwrap_or("").to_string();
        let location = response
            .lines()
            .find_map(|l| l.strip_prefix("location: ").or_else(|| l.strip_prefix("Location: ")))
            .map(str::to_string);
        (status, location, response)
    };
    for (path, status, location) in [
        ("/old/path", "301", "/articles/body-scan"),
        ("/old/path/", "301", "/articles/body-scan"),
        ("/old/path.html", "301", "/articles/body-scan"),
        ("/2019/05/body-scan.html", "301", "/articles/body-scan"),
        ("/2019/05/body-scan", "301", "/articles/body-scan"),
        ("/old/path?ref=mail", "301", "/articles/body-scan?ref=mail"),
        ("/guides/breathing.html", "301", "/articles/breathing"),
        ("/blog/breathing", "302", "/articles/breathing"),
        ("/blog/breathing/", "302", "/articles/breathing"),
        ("/shop", "301", "https://shop.example/"),
    ] {
        let (got, at, response) = answer(path);
        assert_eq!((got.as_str(), at.as_deref()), (status, Some(location)), "{path}:\n{response}");
        assert!(response.contains(&format!("<a href=\"{location}\">")), "{path}:\n{response}");
    }
    let (status, location, _) = answer("/articles/body-scan");
    assert_eq!((status.as_str(), location), ("200", None));
    for path in ["/nowhere", "/_redirects", "/.stillpoint/redirects.json"] {
        assert_eq!(answer(path).0, "404", "{path}");
    }
    stop(server);
}

#[test]
fn check_names_every_bad_redirect_at_its_line() {
    let t = SiteTest::invalid("redirects");
    let out = t.run(&["check", "site"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    insta::assert_snapshot!(stderr(&out));
}

#[test]
fn a_link_to_an_old_url_builds_with_a_warning_naming_the_new_one() {
    let t = site_with_redirects();
    edit(&t, "articles/untagged.md", "Rest is productive.", "Rest is [productive](/old/path/).");
    let out = t.run(&["check", "site"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("link to `/old/path`, which redirects to `/articles/body-scan`"), "{err}");
}

#[test]
fn incremental_builds_follow_alias_and_redirect_edits() {
    let t = site_with_redirects();
    let verified = |t: &SiteTest| {
        let out = t.run(&["build", "site", "--out", "dist", "--verify"]);
        assert!(out.status.success(), "build --verify failed:\n{}", stderr(&out));
        assert!(stderr(&out).contains("Verified"), "{}", stderr(&out));
    };
    verified(&t);
    // An alias added, one removed.
    edit(
        &t,
        "articles/breathing.md",
        "slug: breathing\n",
        "slug: breathing\naliases: [/calm-breath]\n",
    );
    edit(&t, "articles/body-scan.md", "/old/path/, ", "");
    verified(&t);
    assert!(t.read("calm-breath.html").contains("url=/articles/breathing"));
    assert!(!t.out().join("old/path.html").exists());
    assert!(t.read("_redirects").contains("/calm-breath /articles/breathing 301"));
    assert!(!t.read("_redirects").contains("/old/path"));
    // The redirects file changed: a target, and a redirect gone.
    edit(&t, "data/redirects.toml", "to = \"/articles/breathing\"", "to = \"/articles/body-scan\"");
    edit(
        &t,
        "data/redirects.toml",
        "[[redirect]]\nfrom = \"/shop\"\nto = \"https://shop.example/\"\n",
        "",
    );
    verified(&t);
    assert!(t.read("guides/breathing.html").contains("url=/articles/body-scan"));
    assert!(!t.out().join("shop.html").exists());
    // Every redirect gone: so are the rules.
    std::fs::remove_file(t.site().join("data/redirects.toml")).unwrap();
    edit(&t, "articles/body-scan.md", "aliases: [/2019/05/body-scan.html]\n", "");
    edit(&t, "articles/breathing.md", "aliases: [/calm-breath]\n", "");
    verified(&t);
    assert!(!t.out().join("_redirects").exists());
    assert!(!t.out().join(".stillpoint/redirects.json").exists());
}
