//! Running the router on a socket until Ctrl-C or SIGTERM: plain HTTP/1.1 (and h2c), or
//! HTTPS with HTTP/2 and HTTP/1.1; with limits so slow or idle clients cannot starve others.

use std::{future::Future, io, net::SocketAddr, path::Path, sync::Arc};

use axum::middleware;
use tokio::{net::TcpListener, sync::Semaphore};

use crate::{
    ServeConfig, ServeError,
    accept::{Serving, run},
    app,
    fast::Fast,
    host,
    limits::MAX_CONNECTIONS,
    redirect_http,
    refusal::Refusal,
    security, tls, workers,
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

async fn bind(addr: SocketAddr) -> Result<TcpListener, ServeError> {
    TcpListener::bind(addr).await.map_err(|source| ServeError::Bind { addr, source })
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
