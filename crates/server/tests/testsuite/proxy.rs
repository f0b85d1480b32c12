//! The third-party proxy against a real upstream on 127.0.0.1. The upstream is reachable only
//! through the test-only loopback exception for `upstream.test` on its port; every SSRF vector
//! is refused before any request reaches it.

use std::{
    collections::HashMap,
    net::{IpAddr, SocketAddr},
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use axum::{
    Router,
    body::Body,
    extract::State,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use http::Request;
use stillpoint_server::{ProxyOptions, ServeConfig, app};

use crate::support::{Answer, TestSite, send};

#[derive(Clone, Default)]
struct Upstream {
    hits: Arc<AtomicUsize>,
    seen: Arc<Mutex<Vec<HeaderMap>>>,
    /// `/ok/gated/…` answers once this is true.
    gate: Arc<tokio::sync::watch::Sender<bool>>,
}

async fn upstream_router(state: Upstream, port: u16) -> Router {
    let to = move |path: &str| format!("http://upstream.test:{port}{path}");
    let redirect = |location: String| {
        move || async move { (StatusCode::FOUND, [(header::LOCATION, location)]).into_response() }
    };
    Router::new()
        .route(
            "/ok/lib.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], "console.log(1);") }),
        )
        .route(
            "/ok/data.json",
            get(|| async {
                ([(header::CONTENT_TYPE, "application/json; charset=utf-8")], "{\"a\":1}")
            }),
        )
        .route(
            "/ok/page.html",
            get(|| async { ([(header::CONTENT_TYPE, "text/html")], "<h1>x</h1>") }),
        )
        .route(
            "/ok/big.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], "x".repeat(100_000)) }),
        )
        .route(
            "/ok/big-stream.js",
            get(|| async {
                // No Content-Length: sent chunked, so only the running count can catch it.
                let reader = std::io::Cursor::new("y".repeat(100_000).into_bytes());
                let stream = tokio_util::io::ReaderStream::with_capacity(reader, 1000);
                let mut response = Response::new(Body::from_stream(stream));
                response
                    .headers_mut()
                    .insert(header::CONTENT_TYPE, "text/javascript".parse().unwrap());
                response
            }),
        )
        .route(
            "/ok/slow.js",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(30)).await;
                ([(header::CONTENT_TYPE, "text/javascript")], "late")
            }),
        )
        .route("/ok/missing.js", get(|| async { StatusCode::NOT_FOUND }))
        .route(
            "/ok/gated/{name}",
            get(|State(s): State<Upstream>| async move {
                let _ = s.gate.subscribe().wait_for(|open| *open).await;
                ([(header::CONTENT_TYPE, "text/javascript")], "gated();")
            }),
        )
        .route(
            "/ok/gzip.js",
            get(|| async {
                use std::io::Write;
                let mut gz = flate2::write::GzEncoder::new(Vec::new(), Default::default());
                gz.write_all(b"console.log('coded');").unwrap();
                let headers =
                    [(header::CONTENT_TYPE, "text/javascript"), (header::CONTENT_ENCODING, "gzip")];
                (headers, gz.finish().unwrap())
            }),
        )
        .route(
            "/ok/counted.js",
            get(|State(s): State<Upstream>| async move {
                let n = s.hits.load(Ordering::SeqCst);
                ([(header::CONTENT_TYPE, "text/javascript")], format!("// {n}"))
            }),
        )
        .route("/ok/r0", get(redirect(to("/ok/r1"))))
        .route("/ok/r1", get(redirect(to("/ok/r2"))))
        .route("/ok/r2", get(redirect("/ok/r3".to_owned())))
        .route("/ok/r3", get(redirect(to("/ok/lib.js"))))
        .route("/ok/to-private", get(redirect(format!("http://private.test:{port}/x.js"))))
        .route("/ok/to-loopback", get(redirect(format!("http://127.0.0.1:{port}/ok/lib.js"))))
        .route("/ok/to-elsewhere", get(redirect(to("/not-listed.js"))))
        .route("/ok/to-other-host", get(redirect("https://example.com/x.js".to_owned())))
        .route("/ok/to-file", get(redirect("file:///etc/passwd".to_owned())))
        .layer(axum::middleware::from_fn_with_state(state.clone(), record))
        .with_state(state)
}

async fn record(
    State(state): State<Upstream>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    state.hits.fetch_add(1, Ordering::SeqCst);
    state.seen.lock().unwrap().push(request.headers().clone());
    next.run(request).await
}

struct Fixture {
    site: TestSite,
    config: ServeConfig,
    upstream: Upstream,
    port: u16,
}

async fn fixture() -> Fixture {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let upstream = Upstream::default();
    let router = upstream_router(upstream.clone(), port).await;
    tokio::spawn(async move { axum::serve(listener, router).await });
    let site = TestSite::new();
    let hosts: HashMap<String, IpAddr> = [
        ("upstream.test".to_owned(), "127.0.0.1".parse().unwrap()),
        ("private.test".to_owned(), "10.0.0.7".parse().unwrap()),
        ("metadata.test".to_owned(), "169.254.169.254".parse().unwrap()),
    ]
    .into();
    let allow = [
        format!("http://upstream.test:{port}/ok/"),
        format!("http://private.test:{port}/"),
        format!("http://metadata.test:{port}/"),
        // Listed, yet refused: the address rules come first.
        format!("http://127.0.0.1:{port}/"),
        format!("http://localhost:{port}/"),
        format!("http://[::1]:{port}/"),
        format!("http://0.0.0.0:{port}/"),
        "http://169.254.169.254/".to_owned(),
        format!("http://upstream.test:{}/", port.wrapping_add(1)),
    ];
    let config = ServeConfig {
        root: site.root(),
        proxy_allow: allow.to_vec(),
        proxy: ProxyOptions {
            max_bytes: 64 * 1024,
            timeout: Duration::from_secs(2),
            loopback_exception: Some(("upstream.test".into(), port)),
            hosts,
            ..ProxyOptions::default()
        },
        ..ServeConfig::default()
    };
    Fixture { site, config, upstream, port }
}

impl Fixture {
    async fn proxy(&self, app: &Router, url: &str) -> Answer {
        let query: String = url::form_urlencoded::byte_serialize(url.as_bytes()).collect();
        let request = Request::get(format!("/__third-party-proxy?url={query}"))
            .header(header::COOKIE, "session=secret")
            .header(header::AUTHORIZATION, "Bearer secret")
            .body(Body::empty())
            .unwrap();
        send(app.clone(), request).await
    }

    fn hits(&self) -> usize {
        self.upstream.hits.load(Ordering::SeqCst)
    }
}

#[tokio::test]
async fn allowed_scripts_and_json_pass_without_the_clients_credentials() {
    let f = fixture().await;
    let app = app(&f.config);
    let port = f.port;
    let js = f.proxy(&app, &format!("http://upstream.test:{port}/ok/lib.js")).await;
    assert_eq!(js.status, StatusCode::OK, "{}", js.text());
    assert_eq!(js.text(), "console.log(1);");
    assert_eq!(js.header("content-type"), "text/javascript");
    assert_eq!(js.header("x-content-type-options"), "nosniff");
    let json = f.proxy(&app, &format!("http://upstream.test:{port}/ok/data.json")).await;
    assert_eq!(json.status, StatusCode::OK);
    assert_eq!(json.text(), "{\"a\":1}");
    let seen = f.upstream.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    for headers in seen {
        assert!(headers.get(header::COOKIE).is_none());
        assert!(headers.get(header::AUTHORIZATION).is_none());
    }
    let _ = f.site.root();
}

#[tokio::test]
async fn successful_answers_are_cached() {
    let f = fixture().await;
    let app = app(&f.config);
    let url = format!("http://upstream.test:{}/ok/counted.js", f.port);
    let first = f.proxy(&app, &url).await;
    let second = f.proxy(&app, &url).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.text(), second.text());
    assert_eq!(f.hits(), 1, "the second answer came from the cache");
}

#[tokio::test]
async fn redirects_are_followed_within_the_list_at_most_three_times() {
    let f = fixture().await;
    let app = app(&f.config);
    let port = f.port;
    let three = f.proxy(&app, &format!("http://upstream.test:{port}/ok/r1")).await;
    assert_eq!(three.status, StatusCode::OK, "{}", three.text());
    assert_eq!(three.text(), "console.log(1);");
    let four = f.proxy(&app, &format!("http://upstream.test:{port}/ok/r0")).await;
    assert_eq!(four.status, StatusCode::FORBIDDEN, "{}", four.text());
    assert!(four.text().contains("redirects"), "{}", four.text());
    for (path, reason) in [
        ("/ok/to-private", "10.0.0.7"),
        ("/ok/to-loopback", "127.0.0.1"),
        ("/ok/to-elsewhere", "proxy.allow"),
        ("/ok/to-other-host", "proxy.allow"),
        ("/ok/to-file", "scheme"),
    ] {
        let before = f.hits();
        let answer = f.proxy(&app, &format!("http://upstream.test:{port}{path}")).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{path}: {}", answer.text());
        assert!(answer.text().contains(reason), "{path}: {}", answer.text());
        assert_eq!(answer.text().lines().count(), 1, "{path}");
        assert_eq!(f.hits(), before + 1, "{path}: only the redirecting request reached upstream");
    }
}

#[tokio::test]
async fn every_ssrf_vector_is_refused_before_any_request() {
    let f = fixture().await;
    let app = app(&f.config);
    let port = f.port;
    let other = port.wrapping_add(1);
    for url in [
        format!("http://127.0.0.1:{port}/ok/lib.js"),
        format!("http://localhost:{port}/ok/lib.js"),
        format!("http://[::1]:{port}/ok/lib.js"),
        format!("http://0.0.0.0:{port}/ok/lib.js"),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        format!("http://2130706433:{port}/ok/lib.js"),
        format!("http://0177.0.0.1:{port}/ok/lib.js"),
        format!("http://0x7f000001:{port}/ok/lib.js"),
        format!("http://[::ffff:127.0.0.1]:{port}/ok/lib.js"),
        format!("http://private.test:{port}/x.js"),
        format!("http://metadata.test:{port}/latest"),
        format!("http://upstream.test:{other}/ok/lib.js"),
        format!("http://user:pw@upstream.test:{port}/ok/lib.js"),
        format!("http://user@upstream.test:{port}/ok/lib.js"),
        format!("http://upstream.test:{port}/not-listed.js"),
        format!("http://upstream.test:{port}/ok/../not-listed.js"),
        format!("https://upstream.test:{port}/ok/lib.js"),
        "file:///etc/passwd".to_owned(),
        format!("gopher://upstream.test:{port}/ok/lib.js"),
        format!("ftp://upstream.test:{port}/ok/lib.js"),
        "data:text/javascript,alert(1)".to_owned(),
        "javascript:alert(1)".to_owned(),
        "not a url".to_owned(),
    ] {
        let answer = f.proxy(&app, &url).await;
        assert!(answer.status.is_client_error(), "{url}: {} {}", answer.status, answer.text());
        assert_eq!(answer.text().lines().count(), 1, "{url}: {}", answer.text());
        assert!(!answer.text().contains("console.log"), "{url}");
    }
    assert_eq!(f.hits(), 0, "no refused URL reached the upstream");
    let missing =
        send(app.clone(), Request::get("/__third-party-proxy").body(Body::empty()).unwrap()).await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);
    let post =
        send(app.clone(), Request::post("/__third-party-proxy?url=x").body(Body::empty()).unwrap())
            .await;
    assert_eq!(post.status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn upstream_failures_are_502() {
    let f = fixture().await;
    let app = app(&f.config);
    let port = f.port;
    for (path, reason) in [
        ("/ok/page.html", "content type"),
        ("/ok/big.js", "larger than"),
        ("/ok/big-stream.js", "larger than"),
        ("/ok/slow.js", "did not answer"),
        ("/ok/missing.js", "404"),
    ] {
        let answer = f.proxy(&app, &format!("http://upstream.test:{port}{path}")).await;
        assert_eq!(answer.status, StatusCode::BAD_GATEWAY, "{path}: {}", answer.text());
        assert!(answer.text().contains(reason), "{path}: {}", answer.text());
        assert_eq!(answer.text().lines().count(), 1, "{path}");
    }
}

#[tokio::test]
async fn the_default_refuses_loopback_even_for_a_listed_name() {
    let f = fixture().await;
    let mut config = f.config.clone();
    config.proxy.loopback_exception = None;
    let app = app(&config);
    let answer = f.proxy(&app, &format!("http://upstream.test:{}/ok/lib.js", f.port)).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.text());
    assert!(answer.text().contains("127.0.0.1"), "{}", answer.text());
    assert_eq!(f.hits(), 0);
    let _: SocketAddr = "127.0.0.1:1".parse().unwrap();
}

/// An upstream that sends gzip unasked: the coding travels with the bytes, in the answer and
/// in the cache; and the proxy asks for no coding.
#[tokio::test]
async fn an_upstream_coding_is_kept_with_its_bytes() {
    use std::io::Read;
    let f = fixture().await;
    let app = app(&f.config);
    let url = format!("http://upstream.test:{}/ok/gzip.js", f.port);
    for round in ["fetched", "cached"] {
        let answer = f.proxy(&app, &url).await;
        assert_eq!(answer.status, StatusCode::OK, "{round}: {}", answer.text());
        assert_eq!(answer.header("content-encoding"), "gzip", "{round}");
        let mut text = String::new();
        flate2::read::GzDecoder::new(&answer.body[..]).read_to_string(&mut text).unwrap();
        assert_eq!(text, "console.log('coded');", "{round}");
    }
    assert_eq!(f.hits(), 1);
    let seen = f.upstream.seen.lock().unwrap().clone();
    assert_eq!(seen[0].get(header::ACCEPT_ENCODING).unwrap(), "identity");
}

/// Polls `done` every 10 ms, for at most 10 s.
async fn until(mut done: impl FnMut() -> bool, what: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Concurrent requests for one URL share one upstream fetch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_requests_for_one_url_share_one_fetch() {
    let f = Arc::new(fixture().await);
    let app = app(&f.config);
    let url = format!("http://upstream.test:{}/ok/gated/one.js", f.port);
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..50 {
        let (f, app, url) = (f.clone(), app.clone(), url.clone());
        tasks.spawn(async move { f.proxy(&app, &url).await });
    }
    until(|| f.hits() == 1, "the first fetch").await;
    // Every request had time to join the flight; none reached the upstream.
    tokio::time::sleep(Duration::from_millis(200)).await;
    f.upstream.gate.send_replace(true);
    while let Some(answer) = tasks.join_next().await {
        let answer = answer.unwrap();
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        assert_eq!(answer.text(), "gated();");
    }
    assert_eq!(f.hits(), 1, "one upstream fetch for 50 requests");
}

/// At most `max_fetches` upstream fetches at once: beyond, after a short wait, `503` with
/// `Retry-After`, and nothing reaches the upstream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upstream_fetches_at_once_are_capped() {
    let mut f = fixture().await;
    f.config.proxy.max_fetches = 3;
    f.config.proxy.fetch_wait = Duration::from_millis(100);
    f.config.proxy.timeout = Duration::from_secs(20);
    let f = Arc::new(f);
    let app = app(&f.config);
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..3 {
        let (f, app) = (f.clone(), app.clone());
        let url = format!("http://upstream.test:{}/ok/gated/{i}.js", f.port);
        tasks.spawn(async move { f.proxy(&app, &url).await });
    }
    until(|| f.hits() == 3, "three fetches").await;
    for i in 3..20 {
        let url = format!("http://upstream.test:{}/ok/gated/{i}.js", f.port);
        let answer = f.proxy(&app, &url).await;
        assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE, "{}", answer.text());
        assert_eq!(answer.header("retry-after"), "2");
        assert_eq!(answer.text().lines().count(), 1);
    }
    assert_eq!(f.hits(), 3, "the refused requests never reached the upstream");
    f.upstream.gate.send_replace(true);
    while let Some(answer) = tasks.join_next().await {
        assert_eq!(answer.unwrap().status, StatusCode::OK);
    }
    // Slots free again.
    let url = format!("http://upstream.test:{}/ok/gated/after.js", f.port);
    assert_eq!(f.proxy(&app, &url).await.status, StatusCode::OK);
}
