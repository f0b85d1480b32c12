//! Guards the dev server against DNS rebinding: a page on another site whose name is made to
//! resolve to 127.0.0.1 could otherwise read unpublished drafts and the error stream. Only
//! requests naming the server by a local name are answered: `Host` (or HTTP/2's authority)
//! `localhost`, `127.0.0.1`, `[::1]`, or the `--host` address, any port; when `--host` is an
//! unspecified address (`0.0.0.0`, `::`), any IP address too (an address cannot be rebound;
//! names can). Others get `403` with a line saying why. The events stream and any request
//! other than `GET`/`HEAD` also refuse an `Origin` that is present and not one of those.

use std::net::IpAddr;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::{HeaderValue, Method, StatusCode, header};

use super::events::EVENTS_PATH;

/// The names the dev server answers to.
#[derive(Clone, Debug)]
pub struct LocalNames {
    /// `--host`.
    host: IpAddr,
}

impl LocalNames {
    pub fn new(host: IpAddr) -> Self {
        Self { host }
    }

    /// Whether `authority` (`host[:port]`) names this server.
    pub fn allows(&self, authority: &str) -> bool {
        let Ok(authority) = authority.parse::<http::uri::Authority>() else { return false };
        let host = authority.host();
        if host.eq_ignore_ascii_case("localhost") {
            return true;
        }
        let Ok(ip) = host.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>() else {
            return false;
        };
        ip.is_loopback() || ip == self.host || self.host.is_unspecified()
    }

    /// Whether an `Origin` value (`scheme://host[:port]`) names this server.
    fn allows_origin(&self, origin: &str) -> bool {
        let Some((scheme, authority)) = origin.split_once("://") else { return false };
        matches!(scheme, "http" | "https") && !authority.contains('/') && self.allows(authority)
    }
}

/// The middleware (see the module docs).
pub async fn require(State(names): State<LocalNames>, request: Request, next: Next) -> Response {
    let authority = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| request.uri().authority().map(|a| a.as_str()));
    if !authority.is_some_and(|a| names.allows(a)) {
        let named = authority.unwrap_or("no host");
        return refuse(format!(
            "stillpoint dev answers only requests for localhost, 127.0.0.1 or [::1] (or its --host \
             address); this one was for {named}. Open the address dev printed. (This guards \
             unpublished drafts from other sites' pages, by DNS rebinding.)"
        ));
    }
    let guarded = request.uri().path() == EVENTS_PATH
        || !matches!(*request.method(), Method::GET | Method::HEAD);
    if guarded && let Some(origin) = request.headers().get(header::ORIGIN) {
        let shown = origin.to_str().unwrap_or("(not text)");
        if !origin.to_str().is_ok_and(|o| names.allows_origin(o)) {
            return refuse(format!(
                "stillpoint dev refuses requests from pages of other origins ({shown}); only \
                 pages it serves may use this."
            ));
        }
    }
    next.run(request).await
}

fn refuse(line: String) -> Response {
    let mut response = Response::new(Body::from(format!("{line}\n")));
    *response.status_mut() = StatusCode::FORBIDDEN;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::LocalNames;

    #[test]
    fn local_names_any_port() {
        let names = LocalNames::new("127.0.0.1".parse().unwrap());
        for ok in ["localhost", "LocalHost:8000", "127.0.0.1:1", "[::1]:8000", "[::1]", "127.0.0.2"]
        {
            assert!(names.allows(ok), "{ok}");
        }
        for bad in
            ["evil.example", "evil.example:8000", "localhost.evil.example", "10.0.0.1", "", "a b"]
        {
            assert!(!names.allows(bad), "{bad}");
        }
        let lan = LocalNames::new("192.168.1.5".parse().unwrap());
        assert!(lan.allows("192.168.1.5:8000") && !lan.allows("192.168.1.6"));
        let any = LocalNames::new("0.0.0.0".parse().unwrap());
        assert!(any.allows("192.168.1.6:8000") && any.allows("[fe80::1]"));
        assert!(!any.allows("evil.example"));
    }

    #[test]
    fn origins() {
        let names = LocalNames::new("127.0.0.1".parse().unwrap());
        assert!(names.allows_origin("http://localhost:8000"));
        assert!(names.allows_origin("http://127.0.0.1:8000"));
        for bad in
            ["null", "http://evil.example", "https://evil.example:8000", "file://", "localhost"]
        {
            assert!(!names.allows_origin(bad), "{bad}");
        }
    }
}
