//! The one place with a real socket: `serve` binds, answers HTTP, and stops.

use std::{
    io::{Read, Write},
    net::{SocketAddr, TcpStream},
    time::Duration,
};

use stillpoint_server::{ServeError, serve, serve_with_shutdown};
use tokio::{sync::oneshot, time::timeout};

use crate::support::TestSite;

const LIMIT: Duration = Duration::from_secs(20);

/// A plain HTTP/1.1 GET over std's TcpStream; returns the whole response as text.
async fn http_get(addr: SocketAddr, path: &str) -> String {
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    tokio::task::spawn_blocking(move || {
        let mut stream = TcpStream::connect(addr).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        stream.write_all(request.as_bytes()).expect("send");
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("read");
        response
    })
    .await
    .expect("client thread")
}

#[tokio::test]
async fn serve_with_shutdown_answers_a_real_get_and_stops() {
    let site = TestSite::new();
    let (ready_tx, ready_rx) = oneshot::channel();
    let (stop_tx, stop_rx) = oneshot::channel::<()>();
    let server = tokio::spawn(serve_with_shutdown(
        site.config(),
        "127.0.0.1:0".parse().unwrap(),
        move |addr| ready_tx.send(addr).unwrap(),
        async move {
            let _ = stop_rx.await;
        },
    ));
    let addr = timeout(LIMIT, ready_rx).await.expect("ready in time").unwrap();
    assert_ne!(addr.port(), 0);

    let response = timeout(LIMIT, http_get(addr, "/authors")).await.expect("answer in time");
    assert!(response.starts_with("HTTP/1.1 200 OK\r\n"), "{response}");
    assert!(response.contains("x-content-type-options: nosniff"), "{response}");
    assert!(response.ends_with("<h1>Meet Our Mindfulness Experts</h1>"), "{response}");

    stop_tx.send(()).unwrap();
    let result = timeout(LIMIT, server).await.expect("stops in time").unwrap();
    assert!(result.is_ok(), "{result:?}");
}

/// `serve` itself stops on SIGTERM. Its handler is installed before `ready` is called, so the
/// signal cannot arrive before it (and kill the test process).
#[cfg(unix)]
#[tokio::test]
async fn serve_stops_gracefully_on_sigterm() {
    let site = TestSite::new();
    let (ready_tx, ready_rx) = oneshot::channel();
    let server = tokio::spawn(serve(site.config(), "127.0.0.1:0".parse().unwrap(), move |addr| {
        ready_tx.send(addr).unwrap()
    }));
    let addr = timeout(LIMIT, ready_rx).await.expect("ready in time").unwrap();
    let response = timeout(LIMIT, http_get(addr, "/nope")).await.expect("answer in time");
    assert!(response.starts_with("HTTP/1.1 404 Not Found\r\n"), "{response}");

    let status = std::process::Command::new("kill")
        .args(["-TERM", &std::process::id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
    let result = timeout(LIMIT, server).await.expect("stops in time").unwrap();
    assert!(result.is_ok(), "{result:?}");
}

#[tokio::test]
async fn a_missing_root_is_an_error_before_binding() {
    let site = TestSite::new();
    let mut config = site.config();
    config.root = config.root.join("missing");
    let result =
        serve_with_shutdown(config, "127.0.0.1:0".parse().unwrap(), |_| {}, async {}).await;
    assert!(matches!(result, Err(ServeError::Root { .. })), "{result:?}");
}

#[tokio::test]
async fn a_taken_port_is_a_bind_error() {
    let site = TestSite::new();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap();
    let result = serve_with_shutdown(site.config(), addr, |_| {}, async {}).await;
    assert!(matches!(result, Err(ServeError::Bind { .. })), "{result:?}");
}
