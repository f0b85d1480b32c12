//! Resuming a download safely: `If-Range` lets a range apply only to the version the client
//! has (else the whole file, 200), `If-Match` and `If-Unmodified-Since` answer 412 when the
//! file changed; through the router and over a socket (the fast path hands them to hyper).

use http::{Method, StatusCode};

use crate::{
    client::{Client, Server},
    support::{Answer, TestSite},
};

const OLD_DATE: &str = "Sun, 06 Nov 1994 08:49:37 GMT";
const FUTURE_DATE: &str = "Fri, 01 Jan 2100 00:00:00 GMT";
const BODY: &str = "<h1>Meet Our Mindfulness Experts</h1>";

/// Each request both ways: `oneshot` on the router, and over a socket.
async fn both(site: &TestSite, server: &Server, headers: &[(&str, &str)]) -> [Answer; 2] {
    let routed = site.send(Method::GET, "/authors", headers).await;
    let mut client = Client::connect(server.addr).await;
    let served = client.send("GET", "/authors", headers).await;
    [routed, served]
}

#[tokio::test]
async fn if_range_applies_the_range_only_to_the_current_version() {
    let site = TestSite::new();
    let server = Server::start(site.config()).await;
    let current = site.get("/authors").await;
    let (etag, modified) = (current.header("etag"), current.header("last-modified"));
    for (if_range, partial) in [
        (etag, true),
        (modified, true),
        ("\"stale\"", false),
        (&format!("W/{etag}") as &str, false),
        (OLD_DATE, false),
        ("not a validator", false),
    ] {
        let headers = [("range", "bytes=1-1"), ("if-range", if_range)];
        for answer in both(&site, &server, &headers).await {
            let context = format!("If-Range {if_range} → {}", answer.status);
            if partial {
                assert_eq!(answer.status, StatusCode::PARTIAL_CONTENT, "{context}");
                assert_eq!(answer.text(), "h", "{context}");
            } else {
                assert_eq!(answer.status, StatusCode::OK, "{context}");
                assert_eq!(answer.text(), BODY, "{context}");
                assert_eq!(answer.header("content-range"), "", "{context}");
            }
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn if_match_and_if_unmodified_since_answer_412_when_the_file_changed() {
    let site = TestSite::new();
    let server = Server::start(site.config()).await;
    let etag = site.get("/authors").await.header("etag").to_owned();
    let cases: [(&[(&str, &str)], StatusCode); 8] = [
        (&[("if-match", "\"stale\"")], StatusCode::PRECONDITION_FAILED),
        (&[("if-match", &format!("W/{etag}"))], StatusCode::PRECONDITION_FAILED),
        (&[("if-match", &format!("\"stale\", {etag}"))], StatusCode::OK),
        (&[("if-match", "*")], StatusCode::OK),
        (&[("if-unmodified-since", OLD_DATE)], StatusCode::PRECONDITION_FAILED),
        (&[("if-unmodified-since", FUTURE_DATE)], StatusCode::OK),
        // If-Match wins over If-Unmodified-Since; 412 comes before a range.
        (&[("if-match", &etag), ("if-unmodified-since", OLD_DATE)], StatusCode::OK),
        (&[("if-match", "\"stale\""), ("range", "bytes=1-1")], StatusCode::PRECONDITION_FAILED),
    ];
    for (headers, status) in cases {
        for answer in both(&site, &server, headers).await {
            assert_eq!(answer.status, status, "{headers:?}");
            if status == StatusCode::PRECONDITION_FAILED {
                assert!(answer.body.is_empty(), "{headers:?}");
                assert_eq!(answer.header("x-content-type-options"), "nosniff");
            } else {
                assert_eq!(answer.text(), BODY, "{headers:?}");
            }
        }
    }
    server.stop().await;
}
