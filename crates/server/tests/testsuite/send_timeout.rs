//! A client that stops reading is cut off after the send timeout, whichever path writes its
//! answer: `sendfile` (fast path), an in-memory body (fast path, pipelined, and over TLS) or
//! hyper (a range).
//! The client's receive buffer is made small, so the server's writes soon make no progress.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use stillpoint_server::{ServeConfig, Timeouts, TlsFiles};
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
    time::timeout,
};
use tokio_rustls::{TlsConnector, rustls};

use crate::{client::Server, support::TestSite};

const SEND_TIMEOUT: Duration = Duration::from_secs(1);
const BIG: usize = 8_000_000;
const SMALL: usize = 30_000;

fn site() -> TestSite {
    let site = TestSite::new();
    site.write("audio/long.mp3", &vec![b'a'; BIG]);
    site.write("audio/short.mp3", &vec![b'b'; SMALL]);
    site
}

async fn stalled_client(addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    socket.connect(addr).await.unwrap()
}

/// Sends `requests`, reads nothing for a while, then reads what is left: the server must have
/// given up on the connection, so the client gets less than the `expected` bytes of bodies.
async fn is_cut_off(addr: SocketAddr, requests: String, expected: usize) {
    let mut stream = stalled_client(addr).await;
    let (mut reader, mut writer) = stream.split();
    let send = async {
        // The server stops reading while it cannot write: the rest may never be taken.
        let _ = timeout(Duration::from_secs(3), writer.write_all(requests.as_bytes())).await;
        tokio::time::sleep(SEND_TIMEOUT * 4).await;
    };
    send.await;
    assert_reads_less_than(&mut reader, expected).await;
}

/// Reads until the end: it must come soon, and before `expected` bytes.
async fn assert_reads_less_than(reader: &mut (impl AsyncRead + Unpin), expected: usize) {
    let mut received = 0usize;
    let mut chunk = vec![0u8; 256 << 10];
    let read = timeout(Duration::from_secs(15), async {
        while let Ok(n @ 1..) = reader.read(&mut chunk).await {
            received += n;
        }
    })
    .await;
    assert!(read.is_ok(), "the connection was left open");
    assert!(received < expected, "got {received} bytes of at least {expected}: not cut off");
}

async fn server(site: &TestSite) -> Server {
    let timeouts = Timeouts { send: SEND_TIMEOUT, ..Timeouts::default() };
    Server::start(ServeConfig { timeouts, ..site.config() }).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_sent_with_sendfile() {
    let site = site();
    let server = server(&site).await;
    let request = "GET /audio/long.mp3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    is_cut_off(server.addr, request.to_owned(), BIG).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pipelined_answers_from_memory() {
    let site = site();
    let server = server(&site).await;
    let count = 1000;
    let mut requests = "GET /audio/short.mp3 HTTP/1.1\r\nHost: x\r\n\r\n".repeat(count - 1);
    requests.push_str("GET /audio/short.mp3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    is_cut_off(server.addr, requests, SMALL * count).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_range_streamed_by_hyper() {
    let site = site();
    let server = server(&site).await;
    let request =
        "GET /audio/long.mp3 HTTP/1.1\r\nHost: x\r\nRange: bytes=0-\r\nConnection: close\r\n\r\n";
    is_cut_off(server.addr, request.to_owned(), BIG).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pipelined_answers_over_tls() {
    let site = site();
    let dir = tempfile::tempdir().unwrap();
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
    let files = TlsFiles {
        cert: dir.path().join("c.pem"),
        key: dir.path().join("k.pem"),
        self_signed: true,
    };
    std::fs::write(&files.cert, cert.cert.pem()).unwrap();
    std::fs::write(&files.key, cert.key_pair.serialize_pem()).unwrap();
    let timeouts = Timeouts { send: SEND_TIMEOUT, ..Timeouts::default() };
    let server = Server::start(ServeConfig { timeouts, tls: Some(files), ..site.config() }).await;

    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert.cert.der().clone()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let tcp = stalled_client(server.addr).await;
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    let mut tls = TlsConnector::from(Arc::new(config)).connect(name, tcp).await.unwrap();
    // Answers from memory, by the fast path (a file streamed from disk would go to hyper).
    let count = 1000;
    let mut requests = "GET /audio/short.mp3 HTTP/1.1\r\nHost: x\r\n\r\n".repeat(count - 1);
    requests.push_str("GET /audio/short.mp3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let _ = timeout(Duration::from_secs(3), tls.write_all(requests.as_bytes())).await;
    tokio::time::sleep(SEND_TIMEOUT * 4).await;
    assert_reads_less_than(&mut tls, SMALL * count).await;
    server.stop().await;
}
