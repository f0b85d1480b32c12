//! The HTTP/1.1 fast path answers exactly as hyper and the router do (a server with an access
//! log has no fast path): same status, headers (but `Date`) and body, for every coding, HEAD, 304, large files sent with `sendfile` and files
//! streamed from disk; and a connection it hands to hyper (404, redirect, other methods)
//! keeps working.

use http::{HeaderMap, Method, Request};
use stillpoint_server::{AccessLog, ServeConfig};

use crate::{
    client::{Client, Server},
    support::{Answer, TestSite, send},
};

/// A request: method, target, headers.
type Case<'a> = (&'a str, &'a str, Vec<(&'a str, &'a str)>);

/// The response's headers but `date`, as sorted `name: value` lines.
fn lines(headers: &HeaderMap) -> Vec<String> {
    let mut lines: Vec<String> = headers
        .iter()
        .filter(|(name, _)| *name != "date")
        .map(|(name, value)| format!("{name}: {}", value.to_str().unwrap()))
        .collect();
    lines.sort();
    lines
}

async fn from_router(
    site: &TestSite,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> Answer {
    let method = Method::from_bytes(method.as_bytes()).unwrap();
    let mut request = Request::builder().method(method).uri(path);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    send(site.app(), request.body(axum::body::Body::empty()).unwrap()).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_like_the_router_on_one_connection() {
    let site = TestSite::new();
    let big: Vec<u8> = (0..200_000u32).map(|i| b"abcdefghij\n"[(i % 11) as usize]).collect();
    site.write("assets/big-1a2b.js", &big);
    // A large precompressed sibling: sent from memory, never the identity file in its place.
    let big_br: Vec<u8> =
        (0..40_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
    site.write("assets/big-1a2b.js.br", &big_br);
    site.write("guide-huge.pdf", &vec![b'x'; 5 << 20]);
    let server = Server::start(site.config()).await;
    let mut client = Client::connect(server.addr).await;
    let logged = ServeConfig { access_log: Some(AccessLog::Common), ..site.config() };
    let hyper_only = Server::start(logged).await;
    let mut reference = Client::connect(hyper_only.addr).await;
    let etag = from_router(&site, "GET", "/authors", &[]).await.header("etag").to_owned();
    let cases: Vec<Case> = vec![
        ("GET", "/", vec![]),
        ("GET", "/authors", vec![]),
        ("GET", "/authors?utm=1", vec![("accept-encoding", "br, gzip")]),
        ("HEAD", "/authors", vec![]),
        ("GET", "/authors", vec![("if-none-match", &etag)]),
        ("GET", "/authors", vec![("if-modified-since", "Fri, 01 Jan 2100 00:00:00 GMT")]),
        ("GET", "/assets/app-3f2a.js", vec![("accept-encoding", "gzip")]),
        ("GET", "/assets/app-3f2a.js", vec![("accept-encoding", "br;q=0.5, gzip")]),
        ("GET", "/assets/big-1a2b.js", vec![]),
        ("GET", "/assets/big-1a2b.js", vec![("accept-encoding", "br")]),
        ("HEAD", "/assets/big-1a2b.js", vec![]),
        ("GET", "/guide-huge.pdf", vec![]),
        ("GET", "/page-data/index/page-data.json", vec![]),
        ("GET", "/icons/demo-logo-small.png", vec![]),
        // Handed to hyper from here on; the connection goes on.
        ("GET", "/nope", vec![]),
        ("GET", "/authors/", vec![]),
        ("GET", "/assets/big-1a2b.js", vec![]),
        ("DELETE", "/", vec![]),
        ("GET", "/", vec![]),
    ];
    for (method, path, headers) in &cases {
        let fast = client.send(method, path, headers).await;
        let router = reference.send(method, path, headers).await;
        let case = format!("{method} {path} {headers:?}");
        assert_eq!(fast.status, router.status, "{case}");
        assert_eq!(lines(&fast.headers), lines(&router.headers), "{case}");
        assert!(!fast.header("date").is_empty(), "{case}");
        assert!(fast.body == router.body, "{case}: bodies differ");
    }
    server.stop().await;
    hyper_only.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pipelined_requests_and_connection_close() {
    let site = TestSite::new();
    let server = Server::start(site.config()).await;
    let mut client = Client::connect(server.addr).await;
    let two = "GET / HTTP/1.1\r\nhost: a\r\n\r\nGET /authors HTTP/1.1\r\nhost: a\r\n\r\n";
    let first = client.raw(two, false).await;
    assert_eq!(first.text(), "<h1>Home</h1>");
    let second = client.raw("", false).await;
    assert_eq!(second.text(), "<h1>Meet Our Mindfulness Experts</h1>");
    let last = client.raw("GET / HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n", false).await;
    assert_eq!(last.header("connection"), "close");
    assert_eq!(last.text(), "<h1>Home</h1>");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_heads_are_refused_and_long_ones_are_read_whole() {
    let site = TestSite::new();
    let server = Server::start(site.config()).await;
    let mut client = Client::connect(server.addr).await;
    let bad = client.raw("GET / HTTP/1.1\r\nbad header\r\n\r\n", false).await;
    assert_eq!(bad.status, 400);
    assert_eq!(bad.header("x-content-type-options"), "nosniff", "refused by the fast path");
    // Longer than the fast path's first read, within the limit: answered.
    let mut client = Client::connect(server.addr).await;
    let long = format!("GET / HTTP/1.1\r\nhost: a\r\nx-a: {}\r\n\r\n", "a".repeat(12 << 10));
    let answer = client.raw(&long, false).await;
    assert_eq!(answer.text(), "<h1>Home</h1>");
    // Over it: refused (see `bad_requests.rs`).
    let mut client = Client::connect(server.addr).await;
    let long = format!("GET / HTTP/1.1\r\nhost: a\r\nx-a: {}\r\n\r\n", "a".repeat(20 << 10));
    assert_eq!(client.raw(&long, false).await.status, 431);
    server.stop().await;
}

/// A large file goes out with `sendfile` from the descriptor its cache entry keeps open: each
/// request's check of the path still sees the file replaced (a new inode, even of the same
/// size), rewritten in place, or gone, and answers with what the path names now.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_file_kept_open_follows_its_replacements() {
    let site = TestSite::new();
    let version = |byte: u8, len: usize| -> Vec<u8> {
        (0..len).map(|i| if i % 61 == 60 { b'\n' } else { byte }).collect()
    };
    let path = "assets/big-1a2b.js";
    site.write(path, &version(b'a', 200_000));
    let server = Server::start(site.config()).await;
    let mut client = Client::connect(server.addr).await;
    let first = client.send("GET", "/assets/big-1a2b.js", &[]).await;
    assert!(first.body == version(b'a', 200_000), "the first version");
    // Again from the kept descriptor.
    let again = client.send("GET", "/assets/big-1a2b.js", &[]).await;
    assert!(again.body == first.body && again.header("etag") == first.header("etag"));

    // Renamed over it, as a build does, with the same size.
    let temp = site.file("assets/big-1a2b.js.tmp");
    std::fs::write(&temp, version(b'b', 200_000)).unwrap();
    std::fs::rename(&temp, site.file(path)).unwrap();
    let renamed = client.send("GET", "/assets/big-1a2b.js", &[]).await;
    assert!(renamed.body == version(b'b', 200_000), "the renamed file");
    assert_ne!(renamed.header("etag"), first.header("etag"));

    // Rewritten in place (same inode), to another size.
    std::fs::write(site.file(path), version(b'c', 150_000)).unwrap();
    let rewritten = client.send("GET", "/assets/big-1a2b.js", &[]).await;
    assert!(rewritten.body == version(b'c', 150_000), "the rewritten file");
    assert_eq!(rewritten.header("content-length"), "150000");

    std::fs::remove_file(site.file(path)).unwrap();
    let gone = client.send("GET", "/assets/big-1a2b.js", &[]).await;
    assert_eq!(gone.status, 404);
    server.stop().await;
}
