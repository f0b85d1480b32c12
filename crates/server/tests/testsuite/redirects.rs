//! `/x/` → 301 `/x`, its exemptions, and that it never leaves the site.

use http::{Method, StatusCode};

use crate::support::TestSite;

#[tokio::test]
async fn a_trailing_slash_redirects_to_the_canonical_path() {
    let site = TestSite::new();
    for (path, location) in [
        ("/authors/", "/authors"),
        ("/articles/body-scan/", "/articles/body-scan"),
        ("/authors/?page=2&q=a%20b", "/authors?page=2&q=a%20b"),
        ("/authors//", "/authors"),
        // The rule does not look at the disk: the target then answers 404.
        ("/nope/", "/nope"),
    ] {
        let answer = site.get(path).await;
        assert_eq!(answer.status, StatusCode::MOVED_PERMANENTLY, "{path}");
        assert_eq!(answer.header("location"), location, "{path}");
        assert!(answer.body.is_empty(), "{path}");
        let head = site.send(Method::HEAD, path, &[]).await;
        assert_eq!(head.status, StatusCode::MOVED_PERMANENTLY, "HEAD {path}");
        assert_eq!(head.header("location"), location, "HEAD {path}");
    }
    assert_eq!(site.get("/authors").await.status, StatusCode::OK);
    assert_eq!(site.get("/nope").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn root_and_static_extensions_are_not_redirected() {
    let site = TestSite::new();
    let root = site.get("/").await;
    assert_eq!(root.status, StatusCode::OK);
    assert_eq!(root.text(), "<h1>Home</h1>");
    for path in [
        "/index.html/",
        "/sitemap.xml/",
        "/robots.txt/",
        "/assets/app-3f2a.js/",
        "/assets/app-3f2a.js.map/",
        "/page-data/app-data.json/",
        "/guide.pdf/",
        // Hidden paths are 404 at once, not a redirect to a 404.
        "/.git/",
        "/.stillpoint/",
        "/%2Egit/",
        "/assets/.cache/",
    ] {
        let answer = site.get(path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(answer.header("location"), "", "{path}");
        assert_eq!(answer.text(), "<h1>Page Not Found</h1>", "{path}");
    }
}

#[tokio::test]
async fn redirects_never_point_off_site() {
    let site = TestSite::new();
    for path in [
        "//evil.example/",
        "//evil.example//",
        "///evil.example/",
        "/%2F%2Fevil.example/",
        "/%5Cevil.example/",
        "/%5C%5Cevil.example/",
        "//evil.example/?next=/",
    ] {
        let answer = site.get(path).await;
        let location = answer.header("location");
        assert!(
            location.is_empty() || (location.starts_with('/') && !location.starts_with("//")),
            "{path} → {location}"
        );
        assert!(!location.contains("\\"), "{path} → {location}");
        assert!(answer.status.is_client_error(), "{path}: {}", answer.status);
    }
}
