//! The accept loops of the site's listening socket: as many as the caller asks (the CLI: one
//! per CPU), each on its own thread with a single-threaded runtime, all accepting from the one
//! socket (as nginx's worker processes do). A connection lives on the thread that accepted it, so answering it never waits for a
//! wake-up across threads, and a thread the OS preempts holds up only its own connections.
//! Graceful shutdown and the connection limit are shared by all of them.

use tokio::{net::TcpListener, sync::oneshot};

use crate::{
    ServeError,
    accept::{Serving, run},
};

/// Runs `count` loops (at least one) until they have all stopped (see [`Serving::stop`]).
pub(crate) async fn run_workers(
    listener: std::net::TcpListener,
    serving: Serving,
    count: usize,
) -> Result<(), ServeError> {
    let count = count.max(1);
    let mut stopped = Vec::with_capacity(count);
    for index in 0..count {
        let listener = listener.try_clone().map_err(ServeError::Io)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(ServeError::Io)?;
        let (serving, (done, stopped_rx)) = (serving.clone(), oneshot::channel::<()>());
        std::thread::Builder::new()
            .name(format!("serve-{index}"))
            .spawn(move || {
                runtime.block_on(async move {
                    match TcpListener::from_std(listener) {
                        Ok(listener) => run(listener, serving).await,
                        Err(err) => tracing::error!(error = %err, "cannot accept on a thread"),
                    }
                });
                drop(done);
            })
            .map_err(ServeError::Io)?;
        stopped.push(stopped_rx);
    }
    for stopped in stopped {
        let _ = stopped.await;
    }
    Ok(())
}
