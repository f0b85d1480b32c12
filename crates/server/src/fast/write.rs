//! Writing an answer: the head and an in-memory body in one vectored write, or, on a plain
//! TCP socket, the head and then the file (corked, so they leave in full segments) with
//! `sendfile(2)`: the kernel sends the page cache's pages, nothing is copied through user
//! space. Both wait for the socket's readiness on the runtime, never block a worker on it.

use std::{fs::File, io, io::IoSlice};

use rustix::net::SendFlags;
use tokio::io::{AsyncWrite, AsyncWriteExt, Interest};

use crate::send_timeout::{Sending, within};

/// At most this much per `sendfile` call, so one large file does not hog a worker.
const SENDFILE_CHUNK: usize = 1 << 20;

/// Writes `head` then `body`, with as few system calls as the socket allows, and flushes.
/// The send timeout applies through `io` (a [`Sending`] socket, or TLS over one).
pub(crate) async fn head_and_body<S: AsyncWrite + Unpin>(
    io: &mut S,
    mut head: &[u8],
    mut body: &[u8],
) -> io::Result<()> {
    while !head.is_empty() {
        let n = io.write_vectored(&[IoSlice::new(head), IoSlice::new(body)]).await?;
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        if n < head.len() {
            head = &head[n..];
        } else {
            body = &body[n - head.len()..];
            head = &[];
        }
    }
    io.write_all(body).await?;
    io.flush().await
}

/// Writes `head`, then `len` bytes of `file` from its start with `sendfile`. An error (the
/// file shrank, the peer left, the send timeout) leaves the answer cut short: the caller
/// closes the connection. Each system call must make progress within the send timeout.
pub(crate) async fn head_and_file(
    socket: &Sending,
    head: &[u8],
    file: &File,
    len: u64,
) -> io::Result<()> {
    let tcp = socket.tcp();
    // Corked, as nginx's `tcp_nopush`: the head leaves with the first of the file's segments
    // and only full segments go out until the uncork.
    rustix::net::sockopt::set_tcp_cork(tcp, true)?;
    let sent = send_corked(socket, head, file, len).await;
    rustix::net::sockopt::set_tcp_cork(tcp, false)?;
    sent
}

async fn send_corked(socket: &Sending, mut head: &[u8], file: &File, len: u64) -> io::Result<()> {
    let (tcp, limit) = (socket.tcp(), socket.limit());
    while !head.is_empty() {
        let sent = tcp.async_io(Interest::WRITABLE, || {
            rustix::net::send(tcp, head, SendFlags::NOSIGNAL).map_err(io::Error::from)
        });
        let n = within(tcp, limit, sent).await?;
        head = &head[n..];
    }
    let mut offset = 0u64;
    while offset < len {
        let count = (len - offset).min(SENDFILE_CHUNK as u64) as usize;
        let sent = tcp.async_io(Interest::WRITABLE, || {
            rustix::fs::sendfile(tcp, file, Some(&mut offset), count).map_err(io::Error::from)
        });
        let n = within(tcp, limit, sent).await?;
        if n == 0 {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "the file shrank while sent"));
        }
    }
    Ok(())
}
