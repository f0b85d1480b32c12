//! Internal errors answer with `500.html`; missing error pages have a stand-in.

use http::StatusCode;

use crate::support::TestSite;

/// A root that is a symlink loop makes every `lstat` under it fail with ELOOP: an I/O error
/// that is not "no such file" (links inside the root are never followed, so only the root's
/// own can loop). The site's `500.html` is out of reach too: the built-in page stands in.
#[cfg(unix)]
#[tokio::test]
async fn an_io_error_answers_500() {
    let site = TestSite::new();
    let root = site.root().with_file_name("loop");
    std::os::unix::fs::symlink(&root, &root).unwrap();
    let app = stillpoint_server::app(&stillpoint_server::ServeConfig { root, ..site.config() });
    let get = |method: http::Method| {
        let request = http::Request::builder().method(method).uri("/loop");
        crate::support::send(app.clone(), request.body(axum::body::Body::empty()).unwrap())
    };
    let answer = get(http::Method::GET).await;
    assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(answer.text().contains("<h1>Internal Server Error</h1>"), "{}", answer.text());
    assert_eq!(answer.header("content-type"), "text/html; charset=utf-8");
    assert_eq!(answer.header("cache-control"), "no-cache");
    assert!(!answer.text().to_lowercase().contains("loop"), "no detail is sent");

    let head = get(http::Method::HEAD).await;
    assert_eq!(head.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(head.body.is_empty());
}

#[tokio::test]
async fn a_site_without_404_html_still_answers_404_with_a_page() {
    let site = TestSite::new();
    site.remove("404.html");
    let answer = site.get("/nope").await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert!(answer.text().contains("Not Found"), "{}", answer.text());
    assert_eq!(answer.header("content-type"), "text/html; charset=utf-8");
}

#[tokio::test]
async fn the_404_page_is_read_fresh_after_a_rebuild() {
    let site = TestSite::new();
    let app_before = site.get("/nope").await;
    assert_eq!(app_before.text(), "<h1>Page Not Found</h1>");
    site.write("404.html", b"<h1>Rebuilt</h1>");
    assert_eq!(site.get("/nope").await.text(), "<h1>Rebuilt</h1>");
}
