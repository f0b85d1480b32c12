//! The `Host` rule (RFC 9112 §3.2, as nginx applies it): an HTTP/1.1 request without a `Host`
//! header, with an empty or invalid one, or with more than one, is answered `400` and the
//! connection closed. HTTP/1.0 may leave it out; HTTP/2 names the authority in `:authority`.
//! The fast path checks the requests it answers itself (`fast/request.rs`); [`require`] checks
//! everything hyper serves.

use axum::{
    extract::{Request, State},
    middleware::Next,
    response::Response,
};
use http::{HeaderValue, StatusCode, Version, header};

use crate::refusal::{self, Refusal};

/// Whether a request of `version` with these `Host` values may be answered.
pub(crate) fn is_valid<'a>(version: Version, mut hosts: impl Iterator<Item = &'a [u8]>) -> bool {
    if version >= Version::HTTP_2 {
        return true;
    }
    match (hosts.next(), hosts.next()) {
        (None, _) => version < Version::HTTP_11,
        (Some(host), None) => is_authority(host),
        (Some(_), Some(_)) => false,
    }
}

/// `host[:port]`, as an absolute URI's authority without user information.
fn is_authority(host: &[u8]) -> bool {
    !host.is_empty()
        && !host.contains(&b'@')
        && http::uri::Authority::try_from(host).is_ok_and(|a| !a.host().is_empty())
}

/// Middleware: refuses requests that break the rule (with the headers of every answer).
pub(crate) async fn require(
    State(refusal): State<Refusal>,
    request: Request,
    next: Next,
) -> Response {
    let hosts = request.headers().get_all(header::HOST).iter().map(HeaderValue::as_bytes);
    if is_valid(request.version(), hosts) {
        return next.run(request).await;
    }
    refusal::response(&refusal, StatusCode::BAD_REQUEST)
}

#[cfg(test)]
mod tests {
    use http::Version;

    use super::is_valid;

    fn valid(version: Version, hosts: &[&str]) -> bool {
        is_valid(version, hosts.iter().map(|h| h.as_bytes()))
    }

    #[test]
    fn http11_needs_exactly_one_valid_host() {
        let v11 = Version::HTTP_11;
        for ok in
            ["example.com", "localhost:8080", "127.0.0.1", "[::1]:443", "xn--bcher-kva.example"]
        {
            assert!(valid(v11, &[ok]), "{ok}");
        }
        assert!(!valid(v11, &[]));
        assert!(!valid(v11, &[""]));
        assert!(!valid(v11, &[":80"]));
        assert!(!valid(v11, &["a b"]));
        assert!(!valid(v11, &["user@example.com"]));
        assert!(!valid(v11, &["example.com/path"]));
        assert!(!valid(v11, &["a.example", "a.example"]));
    }

    #[test]
    fn http10_may_omit_it_and_http2_uses_its_authority() {
        assert!(valid(Version::HTTP_10, &[]));
        assert!(!valid(Version::HTTP_10, &["a", "b"]));
        assert!(valid(Version::HTTP_2, &[]));
    }
}
