//! hyper's verdict on the bytes a client sent: the connection builder `stillpoint serve` uses
//! (`fuzz_api::hyper_builder`, its limits), served over an in-memory `tokio::io::duplex` to a
//! service that records the first request it is given. The client writes the bytes, closes its
//! sending side and reads the answer to the end; hyper is told to answer a connection closed this
//! way (`half_close`), which changes what it does at the end of the bytes, not how it reads them.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{HeaderMap, Method, Request, Response, Uri, Version};
use http_body_util::Empty;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use stillpoint_server::fuzz_api;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A request as hyper handed it to the router.
#[derive(Debug, Clone)]
pub struct Accepted {
    pub method: Method,
    pub uri: Uri,
    pub version: Version,
    pub headers: HeaderMap,
}

impl Accepted {
    /// Whether the router's `Host` rule lets it through (else it answers `400`).
    pub fn host_allowed(&self) -> bool {
        let hosts = self.headers.get_all(http::header::HOST).iter().map(|v| v.as_bytes());
        fuzz_api::host_allowed(self.version, hosts)
    }
}

/// What hyper made of the bytes.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The first request it dispatched, if any.
    pub request: Option<Accepted>,
    /// The status line's code of its first answer, if it wrote one.
    pub status: Option<u16>,
    /// Whether that answer said `connection: close`.
    pub close: bool,
}

/// A single-threaded runtime for [`verdict`], one per thread that fuzzes.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
}

/// hyper's verdict on `input`.
pub fn verdict(rt: &tokio::runtime::Runtime, input: &[u8]) -> Verdict {
    rt.block_on(async {
        let (client, server) = tokio::io::duplex(64 << 10);
        let seen: Arc<Mutex<Option<Accepted>>> = Arc::default();
        let record = Arc::clone(&seen);
        let service = service_fn(move |req: Request<Incoming>| {
            let mut slot = record.lock().expect("not poisoned");
            if slot.is_none() {
                *slot = Some(Accepted {
                    method: req.method().clone(),
                    uri: req.uri().clone(),
                    version: req.version(),
                    headers: req.headers().clone(),
                });
            }
            async { Ok::<_, std::convert::Infallible>(Response::new(Empty::<Bytes>::new())) }
        });
        let mut builder = fuzz_api::hyper_builder();
        // The client closes its side after the bytes: hyper still answers what it read.
        builder.http1().half_close(true);
        let conn = builder.serve_connection(TokioIo::new(server), service);
        let (mut read, mut write) = tokio::io::split(client);
        let talk = async {
            // The server may answer and close before reading it all: a failed write is fine.
            let _ = write.write_all(input).await;
            let _ = write.shutdown().await;
        };
        let mut answer = Vec::new();
        let listen = read.read_to_end(&mut answer);
        let _ = tokio::join!(conn, talk, listen);
        let request = seen.lock().expect("not poisoned").take();
        let (status, close) = first_answer(&answer);
        Verdict { request, status, close }
    })
}

/// The status code of the first response in `answer`, and whether it says `connection: close`.
fn first_answer(answer: &[u8]) -> (Option<u16>, bool) {
    let text = String::from_utf8_lossy(answer);
    let Some(head) = text.split("\r\n\r\n").next().filter(|_| !answer.is_empty()) else {
        return (None, false);
    };
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.strip_prefix("HTTP/1.1 "))
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok());
    let close = lines.any(|l| {
        l.split_once(':').is_some_and(|(name, value)| {
            name.eq_ignore_ascii_case("connection")
                && value.split(',').any(|t| t.trim().eq_ignore_ascii_case("close"))
        })
    });
    (status, close)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_get_is_dispatched_and_answered() {
        let rt = runtime();
        let v = verdict(&rt, b"GET /a?b HTTP/1.1\r\nHost: h\r\nAccept-Encoding: br\r\n\r\n");
        let req = v.request.expect("dispatched");
        assert_eq!((req.method, req.uri.to_string()), (Method::GET, "/a?b".to_string()));
        assert_eq!(req.headers["accept-encoding"], "br");
        assert_eq!(v.status, Some(200));
        assert!(!v.close);
    }

    #[test]
    fn close_malformed_and_partial() {
        let rt = runtime();
        let v = verdict(&rt, b"GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
        assert!(v.request.is_some() && v.close);
        let v = verdict(&rt, b"GET / HTTP/1.1\r\nBad Header\r\n\r\n");
        assert!(v.request.is_none());
        assert_eq!(v.status, Some(400));
        let v = verdict(&rt, b"GET / HTTP/1.1\r\nHost: h\r\n");
        assert!(v.request.is_none() && v.status.is_none());
    }

    #[test]
    fn the_host_rule_is_the_routers() {
        let rt = runtime();
        let v = verdict(&rt, b"GET / HTTP/1.1\r\nHost: a b\r\n\r\n");
        assert!(!v.request.expect("hyper dispatches it").host_allowed());
    }
}
