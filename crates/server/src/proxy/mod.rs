//! The third-party proxy, `GET /__third-party-proxy?url=…` (DESIGN.md): fetches scripts and
//! JSON from the hosts the site allows (`proxy.allow`), so pages can load them same-origin.
//!
//! Refusals (no `url`, a URL outside the allow-list, a non-public address, a redirect leaving
//! the list) are 4xx with a one-line reason; upstream failures (unreachable, error status,
//! wrong content type, too large, too slow) are 502. At most `max_fetches` upstream fetches run
//! at once, and concurrent requests for one URL share one fetch; a request that finds every
//! fetch slot taken for `fetch_wait` gets 503 with `Retry-After`. Nothing from the client's request is
//! forwarded (no cookies, no credentials); successful answers are cached for a while.

mod address;
mod fetch;
mod flight;
mod policy;
mod resolve;

use std::{collections::HashMap, net::IpAddr, sync::Arc, time::Duration};

use axum::{
    body::Body,
    extract::{Request, State},
    response::Response,
};
use http::{HeaderValue, Method, StatusCode, header};

pub(crate) use fetch::Proxy;

/// Limits and test hooks for the proxy. The defaults suit production.
#[derive(Clone, Debug)]
pub struct ProxyOptions {
    /// Largest upstream body passed through.
    pub max_bytes: usize,
    /// Time for the whole upstream exchange, redirects included.
    pub timeout: Duration,
    /// How long a successful answer is served from memory.
    pub cache_ttl: Duration,
    /// Upstream fetches at once, over all URLs (concurrent requests for one URL share a fetch).
    pub max_fetches: usize,
    /// How long a request waits for a fetch to end when `max_fetches` are running; then `503`.
    pub fetch_wait: Duration,
    /// Test only: this `(host, port)` may resolve to a loopback address. Never set from a
    /// site's configuration.
    pub loopback_exception: Option<(String, u16)>,
    /// Test only: fixed name → address answers, filtered like DNS answers.
    pub hosts: HashMap<String, IpAddr>,
}

impl Default for ProxyOptions {
    fn default() -> Self {
        Self {
            max_bytes: 2 << 20,
            timeout: Duration::from_secs(10),
            cache_ttl: Duration::from_secs(300),
            max_fetches: 16,
            fetch_wait: Duration::from_secs(1),
            loopback_exception: None,
            hosts: HashMap::new(),
        }
    }
}

/// The route's handler.
pub(crate) async fn handle(State(proxy): State<Arc<Proxy>>, request: Request) -> Response {
    if request.method() != Method::GET {
        let mut response = text(StatusCode::METHOD_NOT_ALLOWED, "the proxy answers GET only");
        response.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET"));
        return response;
    }
    let url = request.uri().query().and_then(|query| {
        url::form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == "url").map(|(_, v)| v)
    });
    let Some(url) = url else {
        return text(StatusCode::BAD_REQUEST, "missing the url query parameter");
    };
    match proxy.get(&url).await {
        Ok(answer) => answer.response(),
        Err(fetch::Failure::Refused(reason)) => {
            tracing::info!(url = %url, reason, "proxy refused");
            text(StatusCode::FORBIDDEN, &reason)
        }
        Err(fetch::Failure::BadRequest(reason)) => text(StatusCode::BAD_REQUEST, &reason),
        Err(fetch::Failure::Upstream(reason)) => {
            tracing::warn!(url = %url, reason, "proxy upstream failed");
            text(StatusCode::BAD_GATEWAY, &reason)
        }
        Err(fetch::Failure::Busy) => {
            tracing::warn!(url = %url, "proxy busy: too many upstream fetches at once");
            let mut response = text(
                StatusCode::SERVICE_UNAVAILABLE,
                "too many upstream fetches at once; try again shortly",
            );
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("2"));
            response
        }
    }
}

fn text(status: StatusCode, line: &str) -> Response {
    let mut response = Response::new(Body::from(format!("{line}\n")));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
