//! The HTTP/1.1 fast path for the site's files.
//!
//! Each HTTP/1.1 connection (plain, or TLS that chose `http/1.1`) starts here. Plain `GET`
//! and `HEAD` requests for files are answered directly: the cached entry (validated as in
//! `files.rs`), a response head built once per file and coding, and the body written from
//! memory in one vectored write or, on plain TCP for large identity bodies, sent from the
//! page cache with `sendfile(2)`. The answers are the router's, header for header (a test
//! compares them). The first request the fast path does not answer itself (another method,
//! HTTP/1.0, a body, an upgrade or h2c, a range or a precondition, a redirect, a 404/500
//! page, `/__health`, the proxy) hands the connection, with the bytes already
//! read, to hyper and the router for the rest of its life. With an access log configured,
//! every connection goes to hyper after its first head (the log is written by the router's
//! middleware); only refusals are answered here.
//!
//! Limits match hyper's: a request head must arrive within [`HEADER_TIMEOUT`] (also the
//! keep-alive idle limit) and be at most `MAX_HEADER_BYTES` (`431` beyond, answered here, as
//! is the `400` of the `Host` rule, `host.rs`, and of the heads hyper would refuse itself,
//! `malformed.rs`, so that these answers carry the security headers); writes time out as `send_timeout.rs` says; an
//! idle connection closes on graceful shutdown.

mod answer;
pub(crate) mod head;
mod malformed;
pub(crate) mod prefixed;
pub(crate) mod request;
mod write;

use bytes::{Buf, BytesMut};
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt},
    sync::watch,
    time::Instant,
};

pub(crate) use self::answer::SENDFILE_MIN;
use self::{answer::Reply, prefixed::Prefixed, request::Parse};
use crate::{HEADER_TIMEOUT, files::StaticSite, refusal::Refusal, send_timeout::Sending};

/// What the fast path needs: the site, and the headers its answers carry besides the cached
/// ones (HSTS over TLS; the CSP too for refusals).
#[derive(Clone)]
pub(crate) struct Fast {
    pub(crate) site: StaticSite,
    /// The CSP and HSTS every answer carries.
    pub(crate) refusal: Refusal,
    /// Whether files are answered here; if not (an access log is kept), only refusals are, and
    /// the first request that is not one goes to hyper.
    pub(crate) files: bool,
}

/// A connection's byte stream; plain TCP can also take a file by `sendfile`.
pub(crate) trait Transport: AsyncRead + AsyncWrite + Unpin + Send {
    fn tcp(&self) -> Option<&Sending>;
}

impl Transport for Sending {
    fn tcp(&self) -> Option<&Sending> {
        Some(self)
    }
}

impl Transport for tokio_rustls::server::TlsStream<Sending> {
    fn tcp(&self) -> Option<&Sending> {
        None
    }
}

const READ_BUF: usize = 8 << 10;

/// Answers requests on `io` until it closes (`None`) or a request is for hyper: then the
/// connection is returned with the unanswered bytes in front.
pub(crate) async fn serve<S: Transport>(
    mut io: S,
    fast: &Fast,
    mut stop: watch::Receiver<bool>,
) -> Option<Prefixed<S>> {
    let mut buf = BytesMut::with_capacity(READ_BUF);
    let mut out = Vec::with_capacity(1024);
    let mut deadline = Instant::now() + HEADER_TIMEOUT;
    loop {
        let request = match request::parse(&buf) {
            Parse::Simple(request) if fast.files => request,
            Parse::Simple(_) | Parse::Other => return Some(Prefixed::new(buf.freeze(), io)),
            Parse::Refuse(status) => {
                out.clear();
                head::refusal(&mut out, status, &fast.refusal);
                if write::head_and_body(&mut io, &out, &[]).await.is_ok() {
                    linger(&mut io).await;
                }
                return None;
            }
            Parse::Partial => {
                if buf.capacity() - buf.len() < READ_BUF / 4 {
                    buf.reserve(READ_BUF);
                }
                let idle = buf.is_empty();
                let read = tokio::time::timeout_at(deadline, io.read_buf(&mut buf));
                let read = if idle {
                    // Idle between requests: a graceful shutdown closes the connection.
                    tokio::select! {
                        read = read => read,
                        _ = stop.wait_for(|stop| *stop) => return None,
                    }
                } else {
                    read.await
                };
                match read {
                    Ok(Ok(n)) if n > 0 => continue,
                    _ => return None,
                }
            }
        };
        out.clear();
        let reply = answer::answer(&fast.site, &buf, &request, io.tcp().is_some(), &mut out).await;
        if !matches!(reply, Reply::HandOff) {
            head::finish(&mut out, &fast.refusal, request.close);
        }
        let written = match reply {
            Reply::HandOff => return Some(Prefixed::new(buf.freeze(), io)),
            Reply::Nothing => write::head_and_body(&mut io, &out, &[]).await,
            Reply::Body(body) => write::head_and_body(&mut io, &out, &body).await,
            Reply::File(file, len) => match io.tcp() {
                Some(tcp) => write::head_and_file(tcp, &out, file.get(), len).await,
                None => Err(std::io::ErrorKind::Unsupported.into()),
            },
        };
        if written.is_err() {
            // Cut short (the client left or took nothing for the send timeout): just close.
            return None;
        }
        if request.close {
            let _ = io.shutdown().await;
            return None;
        }
        buf.advance(request.len);
        deadline = Instant::now() + HEADER_TIMEOUT;
    }
}

/// After a refusal: close the sending side, then read and drop what the client still sends
/// for a moment (nginx's lingering close), so that closing with unread data (a reset) does not
/// destroy the answer before the client has read it.
async fn linger<S: Transport>(io: &mut S) {
    const LINGER: std::time::Duration = std::time::Duration::from_secs(2);
    let _ = tokio::time::timeout(LINGER, async {
        let _ = io.shutdown().await;
        let mut scratch = [0u8; 4096];
        let mut left = 1usize << 20;
        while let Ok(n @ 1..) = io.read(&mut scratch).await {
            left = left.saturating_sub(n);
            if left == 0 {
                break;
            }
        }
    })
    .await;
}
