//! Answers to requests refused before routing (`400` for a bad `Host`, `431` for a head over
//! the limit): no body, `Connection: close`, and the headers every answer carries (security
//! headers, the site's CSP, HSTS over TLS), on the fast path (`fast/head.rs`) and in hyper.

use axum::{body::Body, response::Response};
use http::{HeaderValue, StatusCode, header};

use crate::{cache, security};

/// What a refusal carries besides its status.
#[derive(Clone)]
pub(crate) struct Refusal {
    pub(crate) csp: HeaderValue,
    pub(crate) hsts: Option<&'static str>,
    /// `X-Robots-Tag: noindex` too (see `ServeConfig::noindex`).
    pub(crate) noindex: bool,
}

pub(crate) fn response(refusal: &Refusal, status: StatusCode) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache::NO_CACHE));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    for (name, value) in security::HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    headers.insert(header::CONTENT_SECURITY_POLICY, refusal.csp.clone());
    if let Some(hsts) = refusal.hsts {
        headers.insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(hsts));
    }
    if refusal.noindex {
        headers.insert(security::X_ROBOTS_TAG, HeaderValue::from_static(security::NOINDEX));
    }
    response
}
