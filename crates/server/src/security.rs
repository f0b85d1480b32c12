//! Security headers sent on every response, error pages and redirects included.

use axum::{extract::State, response::Response};
use http::{HeaderName, HeaderValue, header};

use crate::TlsFiles;

/// The site ships no inline script and links its stylesheet; a bundle's inline critical styles,
/// if it has any, are allowed by their hash (`style_hashes`, from the build information). JSON-LD blocks are data, which
/// `script-src` does not govern. If React `style` attributes become necessary, `style-src`
/// would need `'unsafe-inline'`: it is left out until something needs it.
pub(crate) fn content_security_policy(style_hashes: &[String]) -> String {
    let mut style_src = String::from("'self'");
    for hash in style_hashes {
        style_src.push(' ');
        style_src.push_str(hash);
    }
    format!(
        "default-src 'self'; img-src 'self' data:; style-src {style_src}; script-src 'self'; \
         frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
    )
}

/// The policy to send: the site's own (`csp` in build.json, derived from what its pages use),
/// else, for an output of an older version, the fixed policy with `style_hashes`. A stored
/// policy that cannot be a header value is replaced by the fixed one, with a warning.
pub(crate) fn policy_header(site_csp: Option<&str>, style_hashes: &[String]) -> HeaderValue {
    if let Some(csp) = site_csp {
        match HeaderValue::from_str(csp) {
            Ok(value) if !csp.trim().is_empty() => return value,
            _ => tracing::warn!("ignoring the site's policy {csp:?}: not a header value"),
        }
    }
    csp_header(style_hashes)
}

/// The fixed policy as a header value; a hash that is not a CSP source (`'sha256-…'`, base64)
/// is left out with a warning rather than breaking the header.
pub(crate) fn csp_header(style_hashes: &[String]) -> HeaderValue {
    let valid: Vec<String> = style_hashes
        .iter()
        .filter(|h| {
            let ok =
                h.strip_prefix("'sha256-").and_then(|h| h.strip_suffix('\'')).is_some_and(|b| {
                    !b.is_empty()
                        && b.bytes().all(|c| c.is_ascii_alphanumeric() || b"+/=".contains(&c))
                });
            if !ok {
                tracing::warn!("ignoring the style hash {h:?}: not a CSP sha256 source");
            }
            ok
        })
        .cloned()
        .collect();
    HeaderValue::from_str(&content_security_policy(&valid)).expect("the policy is ASCII")
}

/// Every security header but the CSP, which depends on the site (see [`csp_header`]).
pub(crate) const HEADERS: [(HeaderName, &str); 4] = [
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (HeaderName::from_static("permissions-policy"), "camera=(), microphone=(), geolocation=()"),
];

/// Sets (overriding) the security headers on `response`, the CSP being `csp`.
pub(crate) async fn add_security_headers(
    State(csp): State<HeaderValue>,
    mut response: Response,
) -> Response {
    let headers = response.headers_mut();
    for (name, value) in HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    headers.insert(header::CONTENT_SECURITY_POLICY, csp);
    response
}

/// `X-Robots-Tag`, on every answer when serving a site built for another environment than
/// production: no page, feed or file of it is to be indexed.
pub(crate) const NOINDEX: &str = "noindex";

/// `router` adding `X-Robots-Tag: noindex` to every answer when `noindex` is set.
pub(crate) fn with_noindex(router: axum::Router, noindex: bool) -> axum::Router {
    if !noindex {
        return router;
    }
    router.layer(axum::middleware::map_response(|mut response: Response| async move {
        response.headers_mut().insert(X_ROBOTS_TAG, HeaderValue::from_static(NOINDEX));
        response
    }))
}

pub(crate) const X_ROBOTS_TAG: HeaderName = HeaderName::from_static("x-robots-tag");

/// HTTP Strict Transport Security, added only when serving over TLS.
const HSTS: &str = "max-age=31536000; includeSubDomains";
/// The same for a throwaway self-signed certificate (`--tls-self-signed`): its names (a LAN
/// address, `mybox.local`) must not pin their subdomains to HTTPS for a year.
const HSTS_HOST_ONLY: &str = "max-age=31536000";

/// The HSTS header for serving with `tls`.
pub(crate) fn hsts(tls: &TlsFiles) -> &'static str {
    if tls.self_signed { HSTS_HOST_ONLY } else { HSTS }
}

pub(crate) async fn add_hsts(State(hsts): State<&'static str>, mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(hsts));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn style_hashes_join_style_src_and_bad_ones_are_dropped() {
        let good = "'sha256-X1RutGBrXCt9KkSaXMK7tHftWiRscFHOhxsS8tv8hBk='".to_string();
        let csp = csp_header(&[good.clone(), "'unsafe-inline'".into(), "'sha256-a; x'".into()]);
        let csp = csp.to_str().unwrap();
        assert!(csp.contains(&format!("style-src 'self' {good}; script-src 'self';")), "{csp}");
        assert!(!csp.contains("unsafe-inline") && !csp.contains("; x"), "{csp}");
        assert!(csp_header(&[]).to_str().unwrap().contains("style-src 'self'; script-src"));
    }

    #[test]
    fn the_sites_own_policy_wins_and_a_broken_one_falls_back() {
        let own = "default-src 'self'; frame-src https://player.vimeo.com";
        assert_eq!(policy_header(Some(own), &[]), own);
        assert_eq!(policy_header(None, &[]), csp_header(&[]));
        assert_eq!(policy_header(Some("a\nb"), &[]), csp_header(&[]));
        assert_eq!(policy_header(Some(" "), &[]), csp_header(&[]));
    }
}
