//! HTTPS with a self-signed certificate from `rcgen`: HTTP/2 and HTTP/1.1 by ALPN, HSTS only
//! over TLS, and the optional plain-HTTP redirect.

use std::{net::SocketAddr, path::Path, time::Duration};

use http::{StatusCode, Version};
use stillpoint_server::{ServeConfig, TlsFiles, serve_with_shutdown};
use tokio::sync::oneshot;

use crate::support::TestSite;

const LIMIT: Duration = Duration::from_secs(20);

/// Writes a certificate for `localhost` and 127.0.0.1 into `dir`; returns its PEM.
fn self_signed(dir: &Path) -> (TlsFiles, String) {
    let cert =
        rcgen::generate_simple_self_signed(vec!["localhost".into(), "127.0.0.1".into()]).unwrap();
    let files =
        TlsFiles { cert: dir.join("cert.pem"), key: dir.join("key.pem"), self_signed: false };
    std::fs::write(&files.cert, cert.cert.pem()).unwrap();
    std::fs::write(&files.key, cert.key_pair.serialize_pem()).unwrap();
    (files, cert.cert.pem())
}

struct Running {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    server: tokio::task::JoinHandle<Result<(), stillpoint_server::ServeError>>,
}

async fn start(config: ServeConfig) -> Running {
    let (ready_tx, ready_rx) = oneshot::channel();
    let (stop, stop_rx) = oneshot::channel::<()>();
    let server = tokio::spawn(serve_with_shutdown(
        config,
        "127.0.0.1:0".parse().unwrap(),
        move |addr| ready_tx.send(addr).unwrap(),
        async move {
            let _ = stop_rx.await;
        },
    ));
    let addr = tokio::time::timeout(LIMIT, ready_rx).await.expect("ready").unwrap();
    Running { addr, stop: Some(stop), server }
}

impl Running {
    async fn stop(mut self) {
        self.stop.take().unwrap().send(()).unwrap();
        let result = tokio::time::timeout(LIMIT, self.server).await.expect("stops").unwrap();
        assert!(result.is_ok(), "{result:?}");
    }
}

fn client(root_pem: &str, addr: SocketAddr, http1: bool) -> reqwest::Client {
    let mut builder = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(root_pem.as_bytes()).unwrap())
        .resolve("localhost", addr)
        .no_proxy()
        .timeout(LIMIT);
    if http1 {
        builder = builder.http1_only();
    }
    builder.build().unwrap()
}

#[tokio::test]
async fn https_speaks_h2_and_http1_with_hsts() {
    let site = TestSite::new();
    let (tls, pem) = self_signed(site.root().parent().unwrap());
    let running = start(ServeConfig { tls: Some(tls), ..site.config() }).await;
    let url = format!("https://localhost:{}/authors", running.addr.port());
    for (http1, version) in [(false, Version::HTTP_2), (true, Version::HTTP_11)] {
        let response = client(&pem, running.addr, http1).get(&url).send().await.unwrap();
        assert_eq!(response.version(), version);
        assert_eq!(response.status(), StatusCode::OK);
        assert!(
            response.headers()["strict-transport-security"].to_str().unwrap().contains("max-age=")
        );
        assert_eq!(response.text().await.unwrap(), "<h1>Meet Our Mindfulness Experts</h1>");
    }
    // A client that does not trust the certificate gets no answer.
    let untrusted =
        reqwest::Client::builder().resolve("localhost", running.addr).no_proxy().build().unwrap();
    assert!(untrusted.get(&url).send().await.is_err());
    running.stop().await;
}

/// `--tls-self-signed` names (a LAN address, `mybox.local`) get HSTS for themselves only;
/// a real certificate's for their subdomains too. On both paths (h2: hyper; http/1.1: fast).
#[tokio::test]
async fn a_self_signed_certificate_gets_hsts_without_subdomains() {
    let site = TestSite::new();
    let (tls, pem) = self_signed(site.root().parent().unwrap());
    for (self_signed, hsts) in
        [(true, "max-age=31536000"), (false, "max-age=31536000; includeSubDomains")]
    {
        let tls = TlsFiles { self_signed, ..tls.clone() };
        let running = start(ServeConfig { tls: Some(tls), ..site.config() }).await;
        let url = format!("https://localhost:{}/authors", running.addr.port());
        for http1 in [false, true] {
            let response = client(&pem, running.addr, http1).get(&url).send().await.unwrap();
            assert_eq!(response.headers()["strict-transport-security"], hsts, "{self_signed}");
        }
        running.stop().await;
    }
}

#[tokio::test]
async fn plain_http_has_no_hsts() {
    let site = TestSite::new();
    let running = start(site.config()).await;
    let url = format!("http://127.0.0.1:{}/", running.addr.port());
    let response =
        reqwest::Client::builder().no_proxy().build().unwrap().get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers().get("strict-transport-security").is_none());
    running.stop().await;
}

#[tokio::test]
async fn plain_http_redirects_to_https_when_asked() {
    let site = TestSite::new();
    let (tls, _) = self_signed(site.root().parent().unwrap());
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let plain_port = free.local_addr().unwrap().port();
    drop(free);
    let config = ServeConfig { tls: Some(tls), redirect_http: Some(plain_port), ..site.config() };
    let running = start(config).await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .build()
        .unwrap();
    let response =
        client.get(format!("http://localhost:{plain_port}/authors?page=2")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::PERMANENT_REDIRECT);
    assert_eq!(
        response.headers()["location"],
        format!("https://localhost:{}/authors?page=2", running.addr.port()).as_str()
    );
    running.stop().await;
}

#[tokio::test]
async fn a_bad_key_file_is_a_clear_error() {
    let site = TestSite::new();
    let (mut tls, _) = self_signed(site.root().parent().unwrap());
    std::fs::write(&tls.key, "not a key").unwrap();
    tls.key = tls.key.clone();
    let result = serve_with_shutdown(
        ServeConfig { tls: Some(tls), ..site.config() },
        "127.0.0.1:0".parse().unwrap(),
        |_| {},
        async {},
    )
    .await;
    let message = result.unwrap_err().to_string();
    assert!(message.contains("key.pem"), "{message}");
}
