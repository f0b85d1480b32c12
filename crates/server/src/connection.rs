//! One connection served by hyper (HTTP/2, and the HTTP/1.1 connections the fast path hands
//! over) until it closes. It is closed gracefully (GOAWAY for HTTP/2: requests in flight
//! finish, no new ones start) on shutdown, and once no request has been in flight for the idle
//! limit: hyper closes an HTTP/1.1 connection idle for `HEADER_TIMEOUT` itself, but keeps an
//! HTTP/2 one whose client answers its PINGs open forever.
//!
//! An HTTP/2 client can also stop reading without filling the socket, by granting no flow
//! control window: the answer then waits for the window, not for the socket, and the send
//! timeout of `send_timeout.rs` never starts. So an HTTP/2 connection whose answers in flight
//! have sent nothing for the send timeout is dropped (nginx applies `send_timeout` to such
//! streams too).

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

use crate::limits::Timeouts;

/// Serves `io` with `router` until the connection ends (see the module docs).
pub(crate) async fn serve<I>(
    builder: &auto::Builder<TokioExecutor>,
    io: I,
    router: Router,
    peer: SocketAddr,
    mut stop: watch::Receiver<bool>,
    timeouts: Timeouts,
) -> Result<(), Box<dyn Error + Send + Sync>>
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let activity = Arc::new(Activity::default());
    let (tracked, seen) = (activity.clone(), activity.clone());
    let service = router
        .map_request(move |mut request: http::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            if request.version() == http::Version::HTTP_2 {
                seen.saw_h2();
            }
            request
        })
        .map_future(move |answer| {
            let busy = tracked.begin();
            async move {
                let response = answer.await?;
                Ok::<_, std::convert::Infallible>(response.map(|body| Tracked { body, busy }))
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
            () = activity.idle_for(timeouts.h2_idle), if !closing => {
                tracing::debug!(%peer, "closing an idle connection");
                closing = true;
                connection.as_mut().graceful_shutdown();
            }
            () = activity.stalled_for(timeouts.send) => {
                return Err("HTTP/2 answers sent nothing within the send timeout".into());
            }
        }
    }
}

/// What a connection's requests are doing.
#[derive(Debug)]
struct State {
    /// Requests in flight (until their answer's body is sent or dropped).
    busy: usize,
    /// When the last request in flight ended (or the connection started).
    since: Instant,
    /// When a request started or an answer's body last gave a frame to send.
    progress: Instant,
    /// The connection speaks HTTP/2.
    h2: bool,
}

#[derive(Debug)]
struct Activity(Mutex<State>);

impl Default for Activity {
    fn default() -> Self {
        let now = Instant::now();
        Self(Mutex::new(State { busy: 0, since: now, progress: now, h2: false }))
    }
}

impl Activity {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().expect("never poisoned")
    }

    fn saw_h2(&self) {
        self.state().h2 = true;
    }

    fn begin(self: &Arc<Self>) -> Busy {
        let mut state = self.state();
        state.busy += 1;
        state.progress = Instant::now();
        Busy(self.clone())
    }

    /// Completes once no request has been in flight for `limit`.
    async fn idle_for(&self, limit: Duration) {
        loop {
            let wait = {
                let state = self.state();
                if state.busy > 0 {
                    limit
                } else {
                    (state.since + limit).saturating_duration_since(Instant::now())
                }
            };
            if wait.is_zero() {
                return;
            }
            tokio::time::sleep(wait).await;
        }
    }

    /// Completes once HTTP/2 answers in flight have given nothing to send for `limit`.
    async fn stalled_for(&self, limit: Duration) {
        loop {
            let wait = {
                let state = self.state();
                if state.h2 && state.busy > 0 {
                    (state.progress + limit).saturating_duration_since(Instant::now())
                } else {
                    limit
                }
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
        let mut state = self.0.state();
        state.busy -= 1;
        state.since = Instant::now();
    }
}

/// An answer's body, which keeps its request in flight until it is sent or dropped.
struct Tracked {
    body: Body,
    busy: Busy,
}

impl HttpBody for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        if let Poll::Ready(Some(_)) = polled {
            self.busy.0.state().progress = Instant::now();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
