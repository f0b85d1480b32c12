//! Internal errors answer with `500.html`; missing error pages have a stand-in.

use http::StatusCode;

use crate::support::TestSite;

/// A symlink loop makes `stat` fail with ELOOP: an I/O error that is not "no such file".
#[cfg(unix)]
#[tokio::test]
async fn an_io_error_answers_with_the_500_page() {
    let site = TestSite::new();
    std::os::unix::fs::symlink(site.file("loop"), site.file("loop")).unwrap();
    let answer = site.get("/loop").await;
    assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(answer.text(), "<h1>Something Went Wrong</h1>");
    assert_eq!(answer.header("content-type"), "text/html; charset=utf-8");
    assert_eq!(answer.header("cache-control"), "no-cache");
    assert!(!answer.text().to_lowercase().contains("loop"), "no detail is sent");

    let head = site.head("/loop").await;
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
