//! Which file answers which path, with which Content-Type; HEAD; methods.

use http::{Method, StatusCode};

use crate::support::TestSite;

#[tokio::test]
async fn routes_are_served_from_their_html_file_or_folder_index() {
    let site = TestSite::new();
    for (path, body) in [
        ("/", "<h1>Home</h1>"),
        ("/authors", "<h1>Meet Our Mindfulness Experts</h1>"),
        ("/articles/body-scan", "<h1>Body scan</h1>"),
        ("/info/about-us", "<h1>About Us</h1>"),
        ("/index.html", "<h1>Home</h1>"),
        ("/authors.html", "<h1>Meet Our Mindfulness Experts</h1>"),
        ("/info/about-us/index.html", "<h1>About Us</h1>"),
        ("/authors?page=2", "<h1>Meet Our Mindfulness Experts</h1>"),
    ] {
        let answer = site.get(path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert_eq!(answer.text(), body, "{path}");
        assert_eq!(answer.header("content-type"), "text/html; charset=utf-8", "{path}");
    }
}

#[tokio::test]
async fn files_are_served_with_their_content_type() {
    let site = TestSite::new();
    for (path, content_type) in [
        ("/assets/app-3f2a.js", "text/javascript; charset=utf-8"),
        ("/assets/app-3f2a.js.map", "application/json"),
        ("/assets/app-3f2a.css", "text/css; charset=utf-8"),
        ("/page-data/index/page-data.json", "application/json"),
        ("/page-data/app-data.json", "application/json"),
        ("/sitemap.xml", "application/xml; charset=utf-8"),
        ("/rss.xml", "application/rss+xml; charset=utf-8"),
        ("/atom.xml", "application/atom+xml; charset=utf-8"),
        ("/robots.txt", "text/plain; charset=utf-8"),
        ("/sw.js", "text/javascript; charset=utf-8"),
        ("/site.webmanifest", "application/manifest+json"),
        ("/icons/demo-logo-small.png", "image/png"),
        ("/icons/logo.svg", "image/svg+xml"),
        ("/images/cover.jpg", "image/jpeg"),
        ("/guide.pdf", "application/pdf"),
    ] {
        let answer = site.get(path).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert_eq!(answer.header("content-type"), content_type, "{path}");
        let on_disk = std::fs::read(site.file(&path[1..])).unwrap();
        assert_eq!(answer.body, on_disk, "{path}");
    }
}

#[tokio::test]
async fn unknown_paths_get_the_404_page() {
    let site = TestSite::new();
    for path in [
        "/nope",
        "/articles/nope",
        "/assets/missing-0000.js",
        "/page-data/nope/page-data.json",
        "/assets",
        "/icons",
        "/sitemap.xml/x",
        "/index.html/x",
    ] {
        let answer = site.get(path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(answer.text(), "<h1>Page Not Found</h1>", "{path}");
        assert_eq!(answer.header("content-type"), "text/html; charset=utf-8", "{path}");
        assert_eq!(answer.header("cache-control"), "no-cache", "{path}");
    }
}

#[tokio::test]
async fn head_answers_like_get_without_a_body() {
    let site = TestSite::new();
    for path in ["/", "/authors", "/assets/app-3f2a.js", "/rss.xml", "/nope", "/authors/"] {
        let get = site.get(path).await;
        let head = site.head(path).await;
        assert_eq!(head.status, get.status, "{path}");
        assert!(head.body.is_empty(), "{path}");
        for name in ["content-type", "content-length", "cache-control", "location", "etag"] {
            assert_eq!(head.header(name), get.header(name), "{path}: {name}");
        }
    }
    let head = site.head("/nope").await;
    assert_eq!(head.status, StatusCode::NOT_FOUND);
    assert_eq!(head.header("content-length"), "23");
}

#[tokio::test]
async fn other_methods_are_refused_with_allow() {
    let site = TestSite::new();
    for method in [Method::POST, Method::PUT, Method::DELETE, Method::PATCH, Method::OPTIONS] {
        for path in ["/", "/authors", "/authors/", "/nope", "/assets/app-3f2a.js"] {
            let answer = site.send(method.clone(), path, &[]).await;
            assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
            assert_eq!(answer.header("allow"), "GET, HEAD", "{method} {path}");
            assert!(answer.body.is_empty(), "{method} {path}");
        }
    }
}
