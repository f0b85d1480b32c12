//! Security headers sent on every response, error pages and redirects included.

use axum::response::Response;
use http::{HeaderName, HeaderValue, header};

/// The site ships no inline script and no inline `<style>`; JSON-LD blocks are data, which
/// `script-src` does not govern. If React `style` attributes become necessary, `style-src`
/// would need `'unsafe-inline'`: it is left out until something needs it.
pub(crate) const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'self'; \
     form-action 'self'";

pub(crate) const HEADERS: [(HeaderName, &str); 5] = [
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
    (HeaderName::from_static("permissions-policy"), "camera=(), microphone=(), geolocation=()"),
];

/// Sets (overriding) the security headers on `response`.
pub(crate) async fn add_security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// HTTP Strict Transport Security, added only when serving over TLS.
pub(crate) const HSTS: &str = "max-age=31536000; includeSubDomains";

pub(crate) async fn add_hsts(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(HSTS));
    response
}
