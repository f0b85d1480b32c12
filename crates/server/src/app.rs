//! The router: health, the third-party proxy and the site's files, behind the layers every
//! response passes through.

use std::{path::PathBuf, sync::Arc, time::Duration};

use axum::{Router, middleware, routing::get};
use http::{HeaderValue, StatusCode, header};
use tower::ServiceBuilder;
use tower_http::timeout::TimeoutLayer;

use crate::{
    access_log::{self, AccessLog},
    files::{StaticSite, serve_file},
    limits::Timeouts,
    proxy::{self, Proxy, ProxyOptions},
    security::{add_hsts, add_security_headers, hsts, policy_header, with_noindex},
};

/// How long a request may take to get its response head before it is answered 408.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// A certificate chain and its private key, both PEM files.
#[derive(Clone, Debug)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
    /// A throwaway certificate (`--tls-self-signed`): HSTS then leaves out `includeSubDomains`.
    pub self_signed: bool,
}

/// What to serve, and how. Build it with `..Default::default()` for the fields you leave.
#[derive(Clone, Debug, Default)]
pub struct ServeConfig {
    /// The built site (`dist/`, possibly a symlink swapped between builds): `index.html`,
    /// `404.html`, `500.html`, `assets/`, ...
    pub root: PathBuf,
    /// URL prefixes the third-party proxy may fetch (`proxy.allow`).
    pub proxy_allow: Vec<String>,
    /// The proxy's limits (and test-only hooks).
    pub proxy: ProxyOptions,
    /// Bound on the in-memory file cache, in bytes (0: the default, 256 MiB).
    pub cache_bytes: u64,
    /// Access log lines on stdout, off when `None`.
    pub access_log: Option<AccessLog>,
    /// Serve HTTPS (HTTP/2 and HTTP/1.1) with these instead of plain HTTP. Also turns on HSTS.
    pub tls: Option<TlsFiles>,
    /// With `tls`: also answer plain HTTP on this port with a 308 to HTTPS.
    pub redirect_http: Option<u16>,
    /// CSP sources (`'sha256-…'`) of the pages' inline styles (`styleHashes` in build.json).
    pub style_hashes: Vec<String>,
    /// The site's Content-Security-Policy (`csp` in build.json); `None` for an output of an
    /// older version, which gets the fixed policy with `style_hashes`.
    pub csp: Option<String>,
    /// The send and HTTP/2 idle timeouts (tests shorten them).
    pub timeouts: Timeouts,
    /// Keep no compressed variants and answer every request uncompressed (`dev`: a rebuilt
    /// file is served at once, without waiting for brotli's best quality).
    pub uncompressed: bool,
    /// Add `X-Robots-Tag: noindex` to every answer: the site is a build for another environment
    /// than production (`noindex` in build.json).
    pub noindex: bool,
    /// Accept loops, each on its own thread (the CLI: one per core); one when 0.
    pub workers: usize,
}

impl ServeConfig {
    /// The Content-Security-Policy header every answer carries.
    pub(crate) fn policy(&self) -> HeaderValue {
        policy_header(self.csp.as_deref(), &self.style_hashes)
    }
}

/// The whole server as a `Router`; `serve` runs it, tests call it with `oneshot`.
pub fn app(config: &ServeConfig) -> Router {
    parts(config).0
}

/// The router, and the site it serves files from (for the HTTP/1.1 fast path).
pub(crate) fn parts(config: &ServeConfig) -> (Router, StaticSite) {
    let csp = config.policy();
    let site = StaticSite::new(&config.root, config.cache_bytes, csp, !config.uncompressed);
    let proxy = Arc::new(Proxy::new(&config.proxy_allow, config.proxy.clone()));
    if proxy.allows_nothing() {
        tracing::debug!("proxy.allow is empty: the third-party proxy refuses every URL");
    }
    let routes = Router::new()
        .route("/__health", get(health))
        .route("/__third-party-proxy", axum::routing::any(proxy::handle).with_state(proxy))
        .fallback(serve_file)
        .with_state(site.clone());
    let mut router = with_common_layers(routes, REQUEST_TIMEOUT, config.policy());
    if let Some(tls) = &config.tls {
        router = router.layer(middleware::map_response_with_state(hsts(tls), add_hsts));
    }
    router = with_noindex(router, config.noindex);
    if let Some(format) = config.access_log {
        router = router.layer(middleware::from_fn_with_state(
            access_log::Writer::start(format),
            access_log::log,
        ));
    }
    (router, site)
}

async fn health() -> ([(header::HeaderName, HeaderValue); 1], &'static str) {
    ([(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))], "ok\n")
}

/// Layers for every route, outermost first: security headers, timeout. The timeout's 408
/// thus still gets the security headers.
fn with_common_layers(routes: Router, timeout: Duration, csp: HeaderValue) -> Router {
    routes.layer(
        ServiceBuilder::new()
            .layer(middleware::map_response_with_state(csp, add_security_headers))
            .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, timeout)),
    )
}

#[cfg(test)]
mod tests {
    use super::with_common_layers;
    use axum::{Router, body::Body, routing::get};
    use http::{Request, StatusCode};
    use std::time::Duration;
    use tower::ServiceExt;

    #[tokio::test]
    async fn a_slow_request_is_answered_408_with_security_headers() {
        let slow = Router::new().route(
            "/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                "late"
            }),
        );
        let app =
            with_common_layers(slow, Duration::from_millis(50), crate::security::csp_header(&[]));
        let request = Request::get("/slow").body(Body::empty()).unwrap();
        let response = app.oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::REQUEST_TIMEOUT);
        assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    }
}
