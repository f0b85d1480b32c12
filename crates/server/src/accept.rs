//! One accept loop of a listening socket: accepts connections until told to stop, serves each
//! (HTTP/1.1 on the fast path first when there is one, TLS when configured), then lets the open
//! ones finish their requests. `workers.rs` runs several over one socket.

use std::{sync::Arc, time::Duration};

use axum::Router;
use bytes::Bytes;
use hyper_util::{
    rt::{TokioExecutor, TokioTimer},
    server::conn::auto,
};
use tokio::{
    net::TcpListener,
    sync::{Semaphore, watch},
};
use tokio_rustls::TlsAcceptor;

use crate::{
    connection,
    fast::{self, Fast, prefixed::Prefixed},
    limits::{DRAIN_TIMEOUT, HANDSHAKE_TIMEOUT, HEADER_TIMEOUT, MAX_HEADER_BYTES, Timeouts},
    send_timeout::Sending,
};

/// What every accept loop of one listening socket shares.
#[derive(Clone)]
pub(crate) struct Serving {
    pub(crate) tls: Option<TlsAcceptor>,
    pub(crate) router: Router,
    pub(crate) fast: Option<Fast>,
    /// Connections served at once, over all the loops.
    pub(crate) slots: Arc<Semaphore>,
    pub(crate) stop: watch::Receiver<bool>,
    pub(crate) timeouts: Timeouts,
}

async fn wait_for(mut stop: watch::Receiver<bool>) {
    let _ = stop.wait_for(|stop| *stop).await;
}

pub(crate) fn builder() -> auto::Builder<TokioExecutor> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .max_buf_size(MAX_HEADER_BYTES)
        .max_headers(100);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(MAX_HEADER_BYTES as u32)
        .max_concurrent_streams(256)
        .keep_alive_interval(Some(Duration::from_secs(30)))
        .keep_alive_timeout(Duration::from_secs(20));
    builder
}

/// Accepts connections until `stop`, then lets the open ones finish their requests.
/// HTTP/1.1 connections start on the fast path when there is one (see `fast/mod.rs`).
pub(crate) async fn run(listener: TcpListener, serving: Serving) {
    let Serving { tls, router, fast, slots, stop: stop_rx, timeouts } = serving;
    let stop = wait_for(stop_rx.clone());
    let builder = Arc::new(builder());
    // Every connection's task holds a receiver: the sender is closed once all have ended.
    let (drain, _) = watch::channel(());
    tokio::pin!(stop);
    loop {
        let permit = tokio::select! {
            permit = slots.clone().acquire_owned() => permit.expect("never closed"),
            () = &mut stop => break,
        };
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // EMFILE and the like: wait a little instead of spinning.
                    tracing::warn!(error = %err, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY not set: {e}");
        }
        let tcp = Sending::new(tcp, timeouts.send);
        let (builder, router, tls, draining) =
            (builder.clone(), router.clone(), tls.clone(), drain.subscribe());
        let (fast, stop_rx) = (fast.clone(), stop_rx.clone());
        tokio::spawn(async move {
            let (_permit, _draining) = (permit, draining);
            let result = match tls {
                None => {
                    let io = match &fast {
                        Some(fast) => match fast::serve(tcp, fast, stop_rx.clone()).await {
                            Some(io) => io,
                            None => return,
                        },
                        None => Prefixed::new(Bytes::new(), tcp),
                    };
                    connection::serve(&builder, io, router, peer, stop_rx, timeouts).await
                }
                Some(acceptor) => {
                    let stream =
                        match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await {
                            Ok(Ok(stream)) => stream,
                            Ok(Err(err)) => {
                                return tracing::debug!(%peer, error = %err, "TLS handshake failed");
                            }
                            Err(_) => return tracing::debug!(%peer, "TLS handshake too slow"),
                        };
                    let h2 = stream.get_ref().1.alpn_protocol() == Some(b"h2");
                    let io = match &fast {
                        Some(fast) if !h2 => match fast::serve(stream, fast, stop_rx.clone()).await
                        {
                            Some(io) => io,
                            None => return,
                        },
                        _ => Prefixed::new(Bytes::new(), stream),
                    };
                    connection::serve(&builder, io, router, peer, stop_rx, timeouts).await
                }
            };
            if let Err(err) = result {
                tracing::debug!(%peer, error = %err, "connection ended with an error");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN_TIMEOUT, drain.closed()).await.is_err() {
        tracing::warn!("some connections were still busy after {}s", DRAIN_TIMEOUT.as_secs());
    }
}
