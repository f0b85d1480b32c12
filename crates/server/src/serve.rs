//! Running the router on a socket until Ctrl-C or SIGTERM: plain HTTP/1.1 (and h2c), or
//! HTTPS with HTTP/2 and HTTP/1.1; with limits so slow or idle clients cannot starve others.

use std::{future::Future, io, net::SocketAddr, path::Path, sync::Arc, time::Duration};

use axum::{Router, middleware};
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
    ServeConfig, ServeError, app, connection,
    fast::{self, Fast, prefixed::Prefixed},
    host,
    limits::{
        DRAIN_TIMEOUT, HANDSHAKE_TIMEOUT, HEADER_TIMEOUT, MAX_CONNECTIONS, MAX_HEADER_BYTES,
        Timeouts,
    },
    redirect_http,
    refusal::Refusal,
    security,
    send_timeout::Sending,
    tls, workers,
};

/// Serves `config.root` on `addr` until Ctrl-C or SIGTERM, then stops gracefully (requests in
/// flight are finished). `ready` is called with the bound address once the socket listens,
/// which tells the caller the port when `addr` asks for port 0.
pub async fn serve(
    config: ServeConfig,
    addr: SocketAddr,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    // Installed before `ready`, so a signal sent once the caller knows we listen is never lost.
    let shutdown = shutdown_signal().map_err(ServeError::Signal)?;
    serve_with_shutdown(config, addr, ready, shutdown).await
}

/// [`serve`], stopping gracefully when `shutdown` completes instead of on a signal (for
/// `stillpoint dev` and for tests).
pub async fn serve_with_shutdown(
    config: ServeConfig,
    addr: SocketAddr,
    ready: impl FnOnce(SocketAddr),
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    check_root(&config.root).await?;
    let acceptor = config.tls.as_ref().map(tls::acceptor).transpose()?;
    let listener = bind(addr).await?;
    let bound = listener.local_addr().map_err(|source| ServeError::Bind { addr, source })?;
    let redirect = match (config.redirect_http, &acceptor) {
        (Some(port), Some(_)) => Some(bind(SocketAddr::new(addr.ip(), port)).await?),
        _ => None,
    };
    let (router, site) = app::parts(&config);
    let hsts = config.tls.as_ref().map(security::hsts);
    let csp = config.policy();
    let refusal = Refusal { csp, hsts, noindex: config.noindex };
    let router = router.layer(middleware::from_fn_with_state(refusal.clone(), host::require));
    // With an access log, the fast path only refuses the first head (the log is the router's).
    let files = config.access_log.is_none();
    let fast = Some(Fast { site, refusal: refusal.clone(), files });
    let timeouts = config.timeouts;
    let scheme = if acceptor.is_some() { "https" } else { "http" };
    tracing::info!(address = %bound, scheme, root = %config.root.display(), "serving");
    ready(bound);

    let (stop_tx, stop) = tokio::sync::watch::channel(false);
    if let Some(listener) = redirect {
        // Plain HTTP: no HSTS (RFC 6797 §7.2).
        let plain = Refusal { hsts: None, ..refusal.clone() };
        let router = security::with_noindex(redirect_http::router(bound.port()), config.noindex)
            .layer(middleware::from_fn_with_state(plain, host::require));
        let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        let serving =
            Serving { tls: None, router, fast: None, slots, stop: stop.clone(), timeouts };
        tokio::spawn(run(listener, serving));
    }
    tokio::spawn(async move {
        shutdown.await;
        tracing::info!("shutting down");
        let _ = stop_tx.send(true);
    });
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let serving = Serving { tls: acceptor, router, fast, slots, stop, timeouts };
    let listener = listener.into_std().map_err(|source| ServeError::Bind { addr, source })?;
    workers::run_workers(listener, serving, config.workers).await
}

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

async fn bind(addr: SocketAddr) -> Result<TcpListener, ServeError> {
    TcpListener::bind(addr).await.map_err(|source| ServeError::Bind { addr, source })
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

async fn check_root(root: &Path) -> Result<(), ServeError> {
    let error = |source| ServeError::Root { path: root.to_path_buf(), source };
    let meta = tokio::fs::metadata(root).await.map_err(error)?;
    if !meta.is_dir() {
        return Err(error(io::ErrorKind::NotADirectory.into()));
    }
    if !root.join("404.html").is_file() {
        tracing::warn!(root = %root.display(), "no 404.html: unknown paths get a built-in page");
    }
    Ok(())
}

/// A future that completes on the first Ctrl-C or SIGTERM (Ctrl-C only off Unix): the shutdown
/// signal of `serve` and of `stillpoint dev`. The handlers are installed when this is called, so
/// a signal that arrives before the future is awaited is not lost.
#[cfg(unix)]
pub fn shutdown_signal() -> io::Result<impl Future<Output = ()> + Send + 'static> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}

/// Off Unix, a future that completes on the first Ctrl-C: the shutdown signal of `serve` and
/// of `stillpoint dev`.
#[cfg(not(unix))]
pub fn shutdown_signal() -> io::Result<impl Future<Output = ()> + Send + 'static> {
    Ok(async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %err, "cannot listen for Ctrl-C; stopping");
        }
    })
}
