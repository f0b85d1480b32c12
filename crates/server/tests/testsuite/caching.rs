//! Cache-Control per kind of file, conditional requests, precompressed siblings.

use axum::body::Body;
use http::{Method, Request, StatusCode};
use stillpoint_server::ServeConfig;

use crate::support::{TestSite, send};

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "public, max-age=0, must-revalidate";

#[tokio::test]
async fn cache_control_follows_the_kind_of_file() {
    let site = TestSite::new();
    for (path, expected) in [
        ("/assets/app-3f2a.js", IMMUTABLE),
        ("/assets/app-3f2a.css", IMMUTABLE),
        ("/assets/app-3f2a.js.map", IMMUTABLE),
        ("/", REVALIDATE),
        ("/authors", REVALIDATE),
        ("/articles/body-scan", REVALIDATE),
        ("/index.html", REVALIDATE),
        ("/page-data/index/page-data.json", REVALIDATE),
        ("/page-data/app-data.json", REVALIDATE),
        ("/slice-data/header.json", REVALIDATE),
        ("/sw.js", REVALIDATE),
        ("/sitemap.xml", REVALIDATE),
        ("/rss.xml", REVALIDATE),
        ("/robots.txt", REVALIDATE),
        ("/icons/demo-logo-small.png", REVALIDATE),
        ("/images/cover.jpg", REVALIDATE),
        // Not files: never kept.
        ("/assets/missing-0000.js", "no-cache"),
        ("/authors/", "no-cache"),
    ] {
        let answer = site.get(path).await;
        assert_eq!(answer.header("cache-control"), expected, "{path}");
    }
}

#[tokio::test]
async fn if_none_match_gives_304() {
    let site = TestSite::new();
    for path in ["/authors", "/assets/app-3f2a.js", "/sitemap.xml"] {
        let first = site.get(path).await;
        let etag = first.header("etag");
        assert!(!etag.is_empty(), "{path} has an ETag");
        for method in [Method::GET, Method::HEAD] {
            let again = site.send(method.clone(), path, &[("if-none-match", etag)]).await;
            assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{method} {path}");
            assert!(again.body.is_empty());
            assert_eq!(again.header("etag"), etag);
            assert_eq!(again.header("cache-control"), first.header("cache-control"), "{path}");
            assert_eq!(again.header("x-content-type-options"), "nosniff");
        }
        let other = site.send(Method::GET, path, &[("if-none-match", "\"other\"")]).await;
        assert_eq!(other.status, StatusCode::OK, "{path}");
    }
}

#[tokio::test]
async fn if_modified_since_gives_304() {
    let site = TestSite::new();
    let first = site.get("/authors").await;
    let last_modified = first.header("last-modified");
    assert!(!last_modified.is_empty());
    let again = site.send(Method::GET, "/authors", &[("if-modified-since", last_modified)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    let old = "Thu, 01 Jan 1998 00:00:00 GMT";
    let stale = site.send(Method::GET, "/authors", &[("if-modified-since", old)]).await;
    assert_eq!(stale.status, StatusCode::OK);
}

#[tokio::test]
async fn precompressed_siblings_are_served_when_accepted() {
    let site = TestSite::new();
    let path = "/assets/app-3f2a.js";
    for (accept, encoding, body) in [
        ("br", "br", "BROTLI-BYTES"),
        ("gzip, deflate, br", "br", "BROTLI-BYTES"),
        ("gzip", "gzip", "GZIP-BYTES"),
        ("identity", "", "console.log('plain');"),
        ("", "", "console.log('plain');"),
    ] {
        let answer = site.send(Method::GET, path, &[("accept-encoding", accept)]).await;
        assert_eq!(answer.status, StatusCode::OK, "{accept}");
        assert_eq!(answer.header("content-encoding"), encoding, "{accept}");
        assert_eq!(answer.text(), body, "{accept}");
        assert_eq!(answer.header("content-type"), "text/javascript; charset=utf-8", "{accept}");
        assert_eq!(answer.header("vary").to_ascii_lowercase(), "accept-encoding", "{accept}");
        assert_eq!(answer.header("cache-control"), IMMUTABLE, "{accept}");
    }
    let head = site.send(Method::HEAD, path, &[("accept-encoding", "br")]).await;
    assert_eq!(head.header("content-encoding"), "br");
    assert_eq!(head.header("content-length"), "12");
    assert!(head.body.is_empty());
}

#[tokio::test]
async fn precompressed_pages_are_served_beside_their_html() {
    let site = TestSite::new();
    site.write("authors.html.br", b"BROTLI-PAGE");
    let answer = site.send(Method::GET, "/authors", &[("accept-encoding", "br")]).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("content-encoding"), "br");
    assert_eq!(answer.text(), "BROTLI-PAGE");
    assert_eq!(answer.header("content-type"), "text/html; charset=utf-8");
}

#[tokio::test]
async fn files_without_a_precompressed_sibling_are_compressed_on_the_fly() {
    let site = TestSite::new();
    let page = "<p>calm</p>".repeat(200);
    site.write("search/k1-0.abc.json", page.as_bytes());
    let answer =
        site.send(Method::GET, "/search/k1-0.abc.json", &[("accept-encoding", "gzip")]).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("content-encoding"), "gzip");
    assert_eq!(answer.header("cache-control"), "public, max-age=31536000, immutable");
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(answer.body.as_slice()),
        &mut text,
    )
    .unwrap();
    assert_eq!(text, page);
    let plain = site.send(Method::GET, "/search/k1-0.abc.json", &[]).await;
    assert_eq!(plain.header("content-encoding"), "");
    assert_eq!(plain.text(), page);
}

#[tokio::test]
async fn an_uncompressed_server_answers_every_request_with_the_file_itself() {
    let site = TestSite::new();
    let page = "<p>calm</p>".repeat(200);
    site.write("search/k1-0.abc.json", page.as_bytes());
    let app = stillpoint_server::app(&ServeConfig { uncompressed: true, ..site.config() });
    for path in ["/search/k1-0.abc.json", "/assets/app-3f2a.js"] {
        let request = Request::get(path).header("accept-encoding", "br, gzip");
        let answer = send(app.clone(), request.body(Body::empty()).unwrap()).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert_eq!(answer.header("content-encoding"), "", "{path}");
    }
}
