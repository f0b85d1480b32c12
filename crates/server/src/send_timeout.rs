//! The send timeout (nginx's `send_timeout`): a connection whose client takes nothing of an
//! answer for [`SEND_TIMEOUT`](crate::limits::SEND_TIMEOUT) is reset. Every accepted socket is
//! wrapped in [`Sending`] before TLS, the fast path or hyper see it, so all of them write
//! through it: a write that cannot go on arms a timer, a write that goes on disarms it, and
//! when the timer fires the write fails and the socket is reset (`SO_LINGER` 0, as nginx's
//! `reset_timedout_connection`), which frees its send queue at once instead of leaving it to
//! an orphaned socket. `sendfile` on the fast path bypasses the wrapper and uses [`within`].

use std::{
    future::Future,
    io,
    pin::Pin,
    task::{Context, Poll, ready},
    time::Duration,
};

use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::TcpStream,
    time::{Instant, Sleep},
};

/// An accepted socket whose writes time out.
pub(crate) struct Sending {
    tcp: TcpStream,
    limit: Duration,
    /// Armed while a write waits for room in the socket; allocated on the first wait.
    stall: Option<Pin<Box<Sleep>>>,
    armed: bool,
}

impl Sending {
    pub(crate) fn new(tcp: TcpStream, limit: Duration) -> Self {
        Self { tcp, limit, stall: None, armed: false }
    }

    pub(crate) fn tcp(&self) -> &TcpStream {
        &self.tcp
    }

    pub(crate) fn limit(&self) -> Duration {
        self.limit
    }

    /// The outcome of a write: progress disarms the timer, a wait arms it (once) and fails
    /// when it fires.
    fn after<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.armed = false;
            return polled;
        }
        let deadline = Instant::now() + self.limit;
        let stall = self.stall.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        if !self.armed {
            stall.as_mut().reset(deadline);
            self.armed = true;
        }
        ready!(stall.as_mut().poll(cx));
        reset(&self.tcp);
        Poll::Ready(Err(timed_out()))
    }
}

/// `io` (one write) within `limit`; past it the socket is reset and the write fails.
pub(crate) async fn within<T>(
    tcp: &TcpStream,
    limit: Duration,
    io: impl Future<Output = io::Result<T>>,
) -> io::Result<T> {
    match tokio::time::timeout(limit, io).await {
        Ok(result) => result,
        Err(_) => {
            reset(tcp);
            Err(timed_out())
        }
    }
}

fn timed_out() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "the client took nothing within the send timeout")
}

/// Closing the socket now sends a reset and drops what it still holds.
fn reset(tcp: &TcpStream) {
    if let Err(err) = rustix::net::sockopt::set_socket_linger(tcp, Some(Duration::ZERO)) {
        tracing::debug!(error = %err, "SO_LINGER not set");
    }
}

impl AsyncRead for Sending {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Sending {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.tcp).poll_write(cx, buf);
        self.after(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs);
        self.after(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.tcp).poll_flush(cx);
        self.after(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.tcp).poll_shutdown(cx);
        self.after(cx, polled)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio::{
        io::AsyncWriteExt,
        net::{TcpListener, TcpSocket},
    };

    use super::Sending;

    /// A peer that never reads: the writes stop making progress and fail after the limit.
    #[tokio::test]
    async fn a_write_nobody_takes_fails_after_the_limit() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpSocket::new_v4().unwrap();
        client.set_recv_buffer_size(4096).unwrap();
        let _client = client.connect(listener.local_addr().unwrap()).await.unwrap();
        let (tcp, _) = listener.accept().await.unwrap();
        let mut sending = Sending::new(tcp, Duration::from_millis(300));
        let chunk = vec![7u8; 64 << 10];
        let err = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                if let Err(err) = sending.write_all(&chunk).await {
                    break err;
                }
            }
        })
        .await
        .expect("the write fails well before the test's bound");
        assert_eq!(err.kind(), std::io::ErrorKind::TimedOut);
    }
}
