//! One connection served by hyper (HTTP/2, and the HTTP/1.1 connections the fast path hands
//! over) until it closes. It is closed gracefully (GOAWAY for HTTP/2: requests in flight
//! finish, no new ones start) on shutdown, and once no request has been in flight for the idle
//! limit: hyper closes an HTTP/1.1 connection idle for `HEADER_TIMEOUT` itself, but keeps an
//! HTTP/2 one whose client answers its PINGs open forever.

use std::{
    error::Error,
    net::SocketAddr,
    pin::Pin,
    sync::{Arc, Mutex},
    task::{Context, Poll},
    time::Duration,
};

use axum::{Router, body::Body, extract::ConnectInfo};
use bytes::Bytes;
use hyper::body::{Body as HttpBody, Frame, Incoming, SizeHint};
use hyper_util::{
    rt::{TokioExecutor, TokioIo},
    server::conn::auto,
    service::TowerToHyperService,
};
use tokio::{
    io::{AsyncRead, AsyncWrite},
    sync::watch,
    time::Instant,
};
use tower::ServiceExt;

/// Serves `io` with `router` until the connection ends (see the module docs).
pub(crate) async fn serve<I>(
    builder: &auto::Builder<TokioExecutor>,
    io: I,
    router: Router,
    peer: SocketAddr,
    mut stop: watch::Receiver<bool>,
    idle_limit: Duration,
) -> Result<(), Box<dyn Error + Send + Sync>>
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let activity = Arc::new(Activity::default());
    let tracked = activity.clone();
    let service = router
        .map_request(move |mut request: http::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            request
        })
        .map_future(move |answer| {
            let busy = tracked.begin();
            async move {
                let response = answer.await?;
                Ok::<_, std::convert::Infallible>(
                    response.map(|body| Tracked { body, _busy: busy }),
                )
            }
        });
    let connection =
        builder.serve_connection_with_upgrades(TokioIo::new(io), TowerToHyperService::new(service));
    tokio::pin!(connection);
    let mut closing = false;
    loop {
        tokio::select! {
            result = connection.as_mut() => return result,
            _ = stop.wait_for(|stop| *stop), if !closing => {
                closing = true;
                connection.as_mut().graceful_shutdown();
            }
            () = activity.idle_for(idle_limit), if !closing => {
                tracing::debug!(%peer, "closing an idle connection");
                closing = true;
                connection.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Requests in flight on one connection (until their answer's body is sent or dropped), and
/// when the last one ended.
#[derive(Debug)]
struct Activity(Mutex<(usize, Instant)>);

impl Default for Activity {
    fn default() -> Self {
        Self(Mutex::new((0, Instant::now())))
    }
}

impl Activity {
    fn begin(self: &Arc<Self>) -> Busy {
        self.0.lock().expect("never poisoned").0 += 1;
        Busy(self.clone())
    }

    /// Completes once no request has been in flight for `limit`.
    async fn idle_for(&self, limit: Duration) {
        loop {
            let (busy, since) = *self.0.lock().expect("never poisoned");
            let wait = if busy > 0 {
                limit
            } else {
                (since + limit).saturating_duration_since(Instant::now())
            };
            if wait.is_zero() {
                return;
            }
            tokio::time::sleep(wait).await;
        }
    }
}

/// One request in flight.
struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        let mut state = self.0.0.lock().expect("never poisoned");
        *state = (state.0 - 1, Instant::now());
    }
}

/// An answer's body, which keeps its request in flight until it is sent or dropped.
struct Tracked {
    body: Body,
    _busy: Busy,
}

impl HttpBody for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
