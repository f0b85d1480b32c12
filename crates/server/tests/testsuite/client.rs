//! A keep-alive HTTP/1.1 client over one real socket, and a server on a free port, for the
//! tests that go through `serve` (and so through the HTTP/1.1 fast path).

use std::{net::SocketAddr, time::Duration};

use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use stillpoint_server::{ServeConfig, serve_with_shutdown};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    sync::oneshot,
    task::JoinHandle,
    time::timeout,
};

use crate::support::Answer;

const LIMIT: Duration = Duration::from_secs(20);

/// `serve_with_shutdown` on 127.0.0.1, any port; stopped by [`Server::stop`].
pub struct Server {
    pub addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<Result<(), stillpoint_server::ServeError>>,
}

impl Server {
    pub async fn start(config: ServeConfig) -> Self {
        let (ready_tx, ready_rx) = oneshot::channel();
        let (stop, stop_rx) = oneshot::channel::<()>();
        let task = tokio::spawn(serve_with_shutdown(
            config,
            "127.0.0.1:0".parse().unwrap(),
            move |addr| ready_tx.send(addr).unwrap(),
            async move {
                let _ = stop_rx.await;
            },
        ));
        let addr = timeout(LIMIT, ready_rx).await.expect("ready in time").unwrap();
        Self { addr, stop, task }
    }

    pub async fn stop(self) {
        self.stop.send(()).unwrap();
        let result = timeout(LIMIT, self.task).await.expect("stops in time").unwrap();
        assert!(result.is_ok(), "{result:?}");
    }
}

/// One connection; requests are sent one at a time and answers read whole.
pub struct Client {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> Self {
        Self { stream: TcpStream::connect(addr).await.expect("connect"), buf: Vec::new() }
    }

    /// Sends the raw `request` head and reads one answer (`head`: the request was HEAD).
    pub async fn raw(&mut self, request: &str, head: bool) -> Answer {
        self.stream.write_all(request.as_bytes()).await.expect("send");
        timeout(LIMIT, self.read_answer(head)).await.expect("answer in time")
    }

    pub async fn send(&mut self, method: &str, path: &str, headers: &[(&str, &str)]) -> Answer {
        let mut request = format!("{method} {path} HTTP/1.1\r\nhost: localhost\r\n");
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        self.raw(&request, method == "HEAD").await
    }

    async fn read_answer(&mut self, head: bool) -> Answer {
        let (status, headers, len) = loop {
            let mut slots = [httparse::EMPTY_HEADER; 64];
            let mut response = httparse::Response::new(&mut slots);
            if let httparse::Status::Complete(len) = response.parse(&self.buf).expect("valid head")
            {
                let status = StatusCode::from_u16(response.code.unwrap()).unwrap();
                let mut headers = HeaderMap::new();
                for h in response.headers.iter() {
                    headers.append(
                        HeaderName::from_bytes(h.name.as_bytes()).unwrap(),
                        HeaderValue::from_bytes(h.value).unwrap(),
                    );
                }
                break (status, headers, len);
            }
            self.fill().await;
        };
        self.buf.drain(..len);
        let body_len = match headers.get("content-length") {
            _ if head || status == StatusCode::NOT_MODIFIED => 0,
            Some(value) => value.to_str().unwrap().parse::<usize>().unwrap(),
            None => panic!("no content-length: {headers:?}"),
        };
        while self.buf.len() < body_len {
            self.fill().await;
        }
        let body = self.buf.drain(..body_len).collect();
        Answer { status, headers, body }
    }

    async fn fill(&mut self) {
        let mut chunk = [0u8; 64 << 10];
        let n = self.stream.read(&mut chunk).await.expect("read");
        assert!(n > 0, "the server closed the connection");
        self.buf.extend_from_slice(&chunk[..n]);
    }
}
