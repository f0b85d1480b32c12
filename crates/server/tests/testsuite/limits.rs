//! Slow and greedy clients: slow headers do not starve other clients and are cut off, huge
//! headers get 431, and a shutdown lets a request in flight finish.

use std::{net::SocketAddr, time::Duration};

use stillpoint_server::{HEADER_TIMEOUT, serve_with_shutdown};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    sync::oneshot,
};

use crate::support::TestSite;

const SLOW_CLIENTS: usize = 200;

async fn start(site: &TestSite) -> (SocketAddr, oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
    let (ready_tx, ready_rx) = oneshot::channel();
    let (stop, stop_rx) = oneshot::channel::<()>();
    let server = tokio::spawn({
        let config = site.config();
        async move {
            serve_with_shutdown(
                config,
                "127.0.0.1:0".parse().unwrap(),
                move |a| ready_tx.send(a).unwrap(),
                async move {
                    let _ = stop_rx.await;
                },
            )
            .await
            .unwrap();
        }
    });
    (ready_rx.await.unwrap(), stop, server)
}

async fn get(addr: SocketAddr, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    response
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_do_not_starve_others_and_are_cut_off() {
    let site = TestSite::new();
    let (addr, stop, server) = start(&site).await;
    let mut slow = Vec::new();
    for _ in 0..SLOW_CLIENTS {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.unwrap();
        slow.push(stream);
    }
    // Held for the header timeout, one more header byte a second; meanwhile others are served.
    let deadline = tokio::time::Instant::now() + HEADER_TIMEOUT + Duration::from_secs(2);
    let mut served = 0;
    while tokio::time::Instant::now() < deadline {
        for stream in &mut slow {
            let _ = stream.write_all(b"X").await;
        }
        let response = tokio::time::timeout(Duration::from_secs(2), get(addr, "/authors"))
            .await
            .expect("served in time");
        assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
        served += 1;
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    assert!(served >= 10);
    // The server closed every slow connection (with a 408 or just EOF).
    let mut closed = 0;
    for mut stream in slow {
        let mut buf = Vec::new();
        if let Ok(Ok(_)) =
            tokio::time::timeout(Duration::from_secs(2), stream.read_to_end(&mut buf)).await
        {
            closed += 1;
        }
    }
    assert_eq!(closed, SLOW_CLIENTS);
    stop.send(()).unwrap();
    server.await.unwrap();
}

#[tokio::test]
async fn huge_headers_get_431() {
    let site = TestSite::new();
    let (addr, stop, server) = start(&site).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let big = "a".repeat(stillpoint_server::MAX_HEADER_BYTES * 8);
    let request = format!("GET / HTTP/1.1\r\nHost: x\r\nX-Big: {big}\r\n\r\n");
    let _ = stream.write_all(request.as_bytes()).await;
    let mut response = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut response)).await;
    let response = String::from_utf8_lossy(&response);
    assert!(response.starts_with("HTTP/1.1 431"), "{response}");
    stop.send(()).unwrap();
    server.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_the_request_in_flight() {
    let site = TestSite::new();
    let big: Vec<u8> = (0..8_000_000u32).map(|i| (i % 253) as u8).collect();
    site.write("audio/long.mp3", &big);
    let (addr, stop, server) = start(&site).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"GET /audio/long.mp3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut first = [0u8; 1024];
    let n = stream.read(&mut first).await.unwrap();
    assert!(n > 0);
    // The response is under way: stop the server, then read the rest slowly.
    stop.send(()).unwrap();
    let mut rest = Vec::new();
    let mut chunk = vec![0u8; 256 * 1024];
    loop {
        tokio::time::sleep(Duration::from_millis(5)).await;
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk))
            .await
            .unwrap()
            .unwrap();
        if n == 0 {
            break;
        }
        rest.extend_from_slice(&chunk[..n]);
    }
    let mut whole = first[..n].to_vec();
    whole.extend(rest);
    let body_at = whole.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    assert_eq!(&whole[body_at..], big.as_slice());
    tokio::time::timeout(Duration::from_secs(20), server).await.unwrap().unwrap();
}
