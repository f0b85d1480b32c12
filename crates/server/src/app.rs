//! The router: the site's files behind the layers every response passes through.

use std::{path::PathBuf, time::Duration};

use axum::{Router, middleware};
use http::StatusCode;
use tower::ServiceBuilder;
use tower_http::{compression::CompressionLayer, timeout::TimeoutLayer, trace::TraceLayer};

use crate::{
    files::{StaticSite, serve_file},
    security::add_security_headers,
};

/// How long a request may take to get its response head before it is answered 408.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// What to serve.
#[derive(Clone, Debug, Default)]
pub struct ServeConfig {
    /// The built site (`dist/`): `index.html`, `404.html`, `500.html`, `assets/`, ...
    pub root: PathBuf,
    /// URL prefixes the third-party proxy may fetch (`proxy.allow`). The proxy is not built
    /// yet, so this is unused for now.
    pub proxy_allow: Vec<String>,
}

/// The whole server as a `Router`; `serve` runs it, tests call it with `oneshot`.
pub fn app(config: &ServeConfig) -> Router {
    if !config.proxy_allow.is_empty() {
        tracing::warn!("proxy.allow is set, but this server has no third-party proxy yet");
    }
    let routes = Router::new()
        // The third-party proxy will be one more `.route("/__third-party-proxy", get(..))` here.
        .fallback(serve_file)
        .with_state(StaticSite::new(&config.root));
    with_common_layers(routes, REQUEST_TIMEOUT)
}

/// Layers for every route, outermost first: tracing, security headers, timeout, compression.
/// The timeout's 408 thus still gets the security headers and a trace. Compression (gzip or
/// brotli, as the client accepts) applies only where no precompressed sibling was served.
fn with_common_layers(routes: Router, timeout: Duration) -> Router {
    routes.layer(CompressionLayer::new()).layer(
        ServiceBuilder::new()
            .layer(TraceLayer::new_for_http())
            .layer(middleware::map_response(add_security_headers))
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
        let app = with_common_layers(slow, Duration::from_millis(50));
        let request = Request::get("/slow").body(Body::empty()).unwrap();
        let response = app.oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::REQUEST_TIMEOUT);
        assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    }
}
