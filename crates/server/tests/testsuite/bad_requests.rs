//! Requests refused before routing, on the fast path and in hyper alike: a missing, empty,
//! invalid or repeated `Host` (400), heads over `MAX_HEADER_BYTES` (431) and heads hyper cannot
//! parse (400, 431), with the security headers and `Connection: close`. The first head of every
//! connection is checked by the fast path, with an access log too, so hyper's own bare answers
//! are never the answer to a connection's first request.

use std::time::Duration;

use http::StatusCode;
use stillpoint_server::{AccessLog, MAX_HEADER_BYTES, ServeConfig};

use crate::{
    client::{Client, Server},
    support::TestSite,
};

/// The fast path (plain GET) and hyper (a POST, or any request with an access log).
async fn servers(site: &TestSite) -> (Server, Server) {
    let fast = Server::start(site.config()).await;
    let logged = ServeConfig { access_log: Some(AccessLog::Common), ..site.config() };
    (fast, Server::start(logged).await)
}

async fn status_of(server: &Server, request: &str) -> (StatusCode, String) {
    let mut client = Client::connect(server.addr).await;
    let answer = client.raw(request, false).await;
    let context = format!("{request:.80?} → {}", answer.status);
    if answer.status.is_client_error() {
        assert_eq!(answer.header("x-content-type-options"), "nosniff", "{context}");
        assert!(answer.header("content-security-policy").contains("default-src"), "{context}");
        assert_eq!(answer.header("connection"), "close", "{context}");
    }
    (answer.status, context)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http11_without_exactly_one_valid_host_is_400() {
    let site = TestSite::new();
    let (fast, hyper) = servers(&site).await;
    for method in ["GET", "HEAD", "POST"] {
        for hosts in ["", "Host:\r\n", "Host: \r\n", "Host: a\r\nHost: a\r\n", "Host: a b\r\n"] {
            let request = format!("{method} / HTTP/1.1\r\n{hosts}\r\n");
            for server in [&fast, &hyper] {
                let (status, context) = status_of(server, &request).await;
                assert_eq!(status, StatusCode::BAD_REQUEST, "{context}");
            }
        }
    }
    for server in [&fast, &hyper] {
        let (status, context) = status_of(server, "GET / HTTP/1.0\r\n\r\n").await;
        assert_eq!(status, StatusCode::OK, "{context}");
        let (status, context) = status_of(server, "GET / HTTP/1.1\r\nHost: [::1]:80\r\n\r\n").await;
        assert_eq!(status, StatusCode::OK, "{context}");
    }
    fast.stop().await;
    hyper.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heads_over_the_limit_are_431_and_under_it_are_served() {
    let site = TestSite::new();
    let (fast, hyper) = servers(&site).await;
    let head = |filler: usize| {
        format!("GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n", "a".repeat(filler))
    };
    for server in [&fast, &hyper] {
        // Over the limit, well under what hyper's default buffer takes.
        let (status, context) = status_of(server, &head(MAX_HEADER_BYTES + 4096)).await;
        assert_eq!(status, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, "{context}");
        let (status, context) = status_of(server, &head(MAX_HEADER_BYTES - 1024)).await;
        assert_eq!(status, StatusCode::OK, "{context}");
    }
    fast.stop().await;
    hyper.stop().await;
}

/// The fast path refuses a head that grows past the limit without waiting for its end (it
/// used to hand it to hyper, which started a new header timer).
#[tokio::test]
async fn an_endless_head_is_refused_once_over_the_limit() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let site = TestSite::new();
    let server = Server::start(site.config()).await;
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let head = format!("GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}", "a".repeat(MAX_HEADER_BYTES));
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "no answer before the head ended");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 431 "), "{answer}");
    server.stop().await;
}

/// Heads hyper refuses itself (it answers with `Content-Length` and `Date` only) are refused
/// by the fast path, with the security headers: unparsable lines, an invalid target, broken
/// framing, too many header lines. Raw TCP, on a server with and without an access log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heads_hyper_cannot_parse_get_the_security_headers() {
    let site = TestSite::new();
    let (fast, hyper) = servers(&site).await;
    let many = format!("GET / HTTP/1.1\r\nHost: x\r\n{}\r\n", "X-A: b\r\n".repeat(120));
    let cases = [
        ("GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", StatusCode::BAD_REQUEST),
        ("GET / HTTP/1.1\r\nHost: x\r\nbad header\r\n\r\n", StatusCode::BAD_REQUEST),
        ("G(T / HTTP/1.1\r\nHost: x\r\n\r\n", StatusCode::BAD_REQUEST),
        ("GET / HTTP/9.9\r\nHost: x\r\n\r\n", StatusCode::BAD_REQUEST),
        ("GET /\x7f HTTP/1.1\r\nHost: x\r\n\r\n", StatusCode::BAD_REQUEST),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n", StatusCode::BAD_REQUEST),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", StatusCode::BAD_REQUEST),
        (many.as_str(), StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE),
    ];
    for (request, expected) in cases {
        for server in [&fast, &hyper] {
            let (status, context) = status_of(server, request).await;
            assert_eq!(status, expected, "{context}");
        }
    }
    // HTTP/2 with prior knowledge still reaches hyper.
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(fast.addr).await.unwrap();
    stream.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").await.unwrap();
    let mut frame = [0u8; 9];
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_exact(&mut frame)).await;
    assert!(read.is_ok_and(|r| r.is_ok()), "a frame in answer");
    assert_eq!(frame[3], 4, "the server's SETTINGS frame");
    drop(stream);
    fast.stop().await;
    hyper.stop().await;
}
