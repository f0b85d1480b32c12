//! Security headers on every kind of response.

use http::Method;

use crate::support::TestSite;

const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; \
    script-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let site = TestSite::new();
    for (method, path) in [
        (Method::GET, "/"),
        (Method::GET, "/assets/app-3f2a.js"),
        (Method::HEAD, "/authors"),
        (Method::GET, "/nope"),
        (Method::GET, "/authors/"),
        (Method::POST, "/"),
        (Method::GET, "/%2e%2e/secret.txt"),
    ] {
        let answer = site.send(method.clone(), path, &[]).await;
        let context = format!("{method} {path} ({})", answer.status);
        assert_eq!(answer.header("x-content-type-options"), "nosniff", "{context}");
        assert_eq!(answer.header("referrer-policy"), "strict-origin-when-cross-origin");
        assert_eq!(answer.header("x-frame-options"), "DENY", "{context}");
        assert_eq!(answer.header("content-security-policy"), CSP, "{context}");
        assert_eq!(
            answer.header("permissions-policy"),
            "camera=(), microphone=(), geolocation=()",
            "{context}"
        );
    }
}
