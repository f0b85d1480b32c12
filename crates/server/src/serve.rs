//! Running the router on a socket until Ctrl-C or SIGTERM.

use std::{future::Future, io, net::SocketAddr, path::Path};

use tokio::net::TcpListener;

use crate::{ServeConfig, ServeError, app};

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
    let listener =
        TcpListener::bind(addr).await.map_err(|source| ServeError::Bind { addr, source })?;
    let bound = listener.local_addr().map_err(|source| ServeError::Bind { addr, source })?;
    let router = app(&config);
    tracing::info!(address = %bound, root = %config.root.display(), "serving");
    ready(bound);
    // Small responses (page-data, search pieces) must not wait for Nagle's algorithm.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY not set: {e}");
        }
    });
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            tracing::info!("shutting down");
        })
        .await
        .map_err(ServeError::Io)
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

#[cfg(unix)]
fn shutdown_signal() -> io::Result<impl Future<Output = ()> + Send + 'static> {
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

#[cfg(not(unix))]
fn shutdown_signal() -> io::Result<impl Future<Output = ()> + Send + 'static> {
    Ok(async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %err, "cannot listen for Ctrl-C; stopping");
        }
    })
}
