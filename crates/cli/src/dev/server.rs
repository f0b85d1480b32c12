//! The dev server: the production router (`stillpoint_server::app`) with the dev-only parts
//! around it. `/__stillpoint/events` (Server-Sent Events from the [`Hub`]), the dev client and
//! its stylesheet from the binary, a `/sw.js` that removes itself instead of the site's service
//! worker, and the client's `<script>` in every HTML answer. Answers are not compressed in dev,
//! so the HTML can be edited on its way out. Only requests for a local name are answered
//! (`local_only.rs`).

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::Stream;
use http::{HeaderValue, Method, header};
use stillpoint_dist::FileKind;
use stillpoint_server::ServeConfig;
use tokio::sync::{broadcast, watch};

use super::events::{EVENTS_PATH, Hub};
use super::inject::{SCRIPT_TAG, inject};
use super::local_only::{self, LocalNames};

const CLIENT_JS: &str = include_str!("client/dev.js");
const CLIENT_CSS: &str = include_str!("client/dev.css");
const KILL_SW: &str = include_str!("client/sw.js");

/// Largest HTML page the client is injected into; bigger ones pass through unchanged.
const MAX_HTML: usize = 64 * 1024 * 1024;

#[derive(Clone)]
struct Dev {
    hub: Arc<Hub>,
    /// Becomes true on Ctrl-C: event streams end so the server can stop.
    shutdown: watch::Receiver<bool>,
}

pub fn router(
    config: &ServeConfig,
    hub: Arc<Hub>,
    shutdown: watch::Receiver<bool>,
    names: LocalNames,
) -> Router {
    let policy = Policy(Arc::new(config.root.clone()));
    let site =
        stillpoint_server::app(config).layer(middleware::from_fn_with_state(policy, with_client));
    Router::new()
        .route(EVENTS_PATH, get(events))
        .route("/__stillpoint/dev.js", get(|| asset("text/javascript; charset=utf-8", CLIENT_JS)))
        .route("/__stillpoint/dev.css", get(|| asset("text/css; charset=utf-8", CLIENT_CSS)))
        .route("/sw.js", get(|| asset("text/javascript; charset=utf-8", KILL_SW)))
        .with_state(Dev { hub, shutdown })
        .fallback_service(site)
        .layer(middleware::from_fn_with_state(names, local_only::require))
}

async fn asset(content_type: &'static str, body: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// Where the current build's policy is: the output's build.json, read again for each page, as
/// a rebuild may change the policy (an article's first video embed adds its player's host).
#[derive(Clone)]
struct Policy(Arc<std::path::PathBuf>);

impl Policy {
    /// The policy of the build now served, if it has one.
    fn current(&self) -> Option<HeaderValue> {
        let csp = stillpoint_dist::BuildInfo::from_dist(&self.0).ok()?.csp?;
        HeaderValue::from_str(&csp).ok()
    }
}

/// Asks for uncompressed answers, makes the browser revalidate everything but hashed files (a
/// static image may change at any save), and puts the client's tag into HTML answers.
///
/// Conditional requests are answered in full: a page cached from a production build of the same
/// site has the same ETag as the file here, and a 304 would let the browser show that copy,
/// without the client.
/// Pages carry the policy of the build now served (the server's was read when `dev` started).
async fn with_client(State(policy): State<Policy>, mut request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let hashed = FileKind::of(path) == FileKind::Hashed;
    let headers = request.headers_mut();
    headers.remove(header::ACCEPT_ENCODING);
    if !hashed {
        headers.remove(header::IF_NONE_MATCH);
        headers.remove(header::IF_MODIFIED_SINCE);
    }
    let head = request.method() == Method::HEAD;
    let mut response = next.run(request).await;
    if !hashed {
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    }
    let is_html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/html"));
    if !is_html {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    if let Some(csp) = policy.current() {
        parts.headers.insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    // The page's length and bytes change: its ETag and date no longer name what is sent.
    let length = parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::ETAG);
    parts.headers.remove(header::LAST_MODIFIED);
    if head {
        // What GET would send: the page and the tag (see `inject`).
        if let Some(n) = length.and_then(|v| v.to_str().ok()?.parse::<usize>().ok()) {
            parts
                .headers
                .insert(header::CONTENT_LENGTH, HeaderValue::from(n + SCRIPT_TAG.len() + 1));
        }
        return Response::from_parts(parts, body);
    }
    match axum::body::to_bytes(body, MAX_HTML).await {
        Ok(bytes) => {
            let body = match std::str::from_utf8(&bytes) {
                Ok(html) => Body::from(inject(html)),
                Err(_) => Body::from(bytes),
            };
            Response::from_parts(parts, body)
        }
        Err(e) => {
            tracing::warn!("cannot add the dev client to a page: {e}");
            Response::from_parts(parts, Body::from(Bytes::new()))
        }
    }
}

async fn events(State(dev): State<Dev>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let (first, rx) = dev.hub.subscribe();
    let state = (first.into_iter(), rx, dev.shutdown);
    let stream = futures_util::stream::unfold(
        state,
        |(mut first, mut rx, mut shutdown)| async move {
            if let Some(json) = first.next() {
                return Some((Ok(Event::default().data(&*json)), (first, rx, shutdown)));
            }
            loop {
                if *shutdown.borrow() {
                    return None;
                }
                tokio::select! {
                    message = rx.recv() => match message {
                        Ok(json) => return Some((Ok(Event::default().data(&*json)), (first, rx, shutdown))),
                        Err(broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(broadcast::error::RecvError::Closed) => return None,
                    },
                    changed = shutdown.changed() => if changed.is_err() { return None },
                }
            }
        },
    );
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}
