//! Third-party scripts from `site.scripts`, each loaded deferred on every page. When an entry of
//! `proxy.allow` covers a script's URL, the page names it `/__third-party-proxy?url=...`, so the
//! browser fetches it from the site's own origin through `stillpoint serve` (which checks the
//! same list again); every other script keeps its URL.

/// The server's third-party proxy route.
pub const PROXY_PATH: &str = "/__third-party-proxy";

/// The `src` of each script, in the configured order.
pub fn script_srcs(scripts: &[String], proxy_allow: &[String]) -> Vec<String> {
    scripts
        .iter()
        .map(|url| {
            if covered_by_proxy(url, proxy_allow) {
                format!("{PROXY_PATH}?url={}", encode_component(url))
            } else {
                url.clone()
            }
        })
        .collect()
}

/// Whether an entry of `proxy_allow` covers `url`: the page loads it through the proxy.
pub(crate) fn covered_by_proxy(url: &str, proxy_allow: &[String]) -> bool {
    proxy_allow.iter().any(|allow| covers(allow, url))
}

/// Whether the allow-list entry `allow` (`https://cdn.example/lib/`) covers `url`: the same
/// scheme, the same host and port, and a path that starts with the entry's path. URLs with
/// credentials or dot segments are never covered, so a prefix cannot be escaped.
fn covers(allow: &str, url: &str) -> bool {
    match (UrlParts::parse(allow), UrlParts::parse(url)) {
        (Some(a), Some(u)) => {
            a.scheme == u.scheme && a.authority == u.authority && u.path.starts_with(&a.path)
        }
        _ => false,
    }
}

struct UrlParts {
    scheme: String,
    authority: String,
    /// Path and query, always starting with `/`.
    path: String,
}

impl UrlParts {
    fn parse(s: &str) -> Option<Self> {
        let (scheme, after) = s.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "https" && scheme != "http" {
            return None;
        }
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        let (authority, rest) = after.split_at(end);
        if authority.is_empty() || authority.contains(['@', '\\']) {
            return None;
        }
        let rest = rest.split('#').next().unwrap_or_default();
        let path = if rest.starts_with('/') { rest.to_string() } else { format!("/{rest}") };
        let route = path.split('?').next().unwrap_or_default();
        if route.contains('\\') || route.split('/').any(is_dot_segment) {
            return None;
        }
        Some(Self { scheme, authority: authority.to_ascii_lowercase(), path })
    }
}

fn is_dot_segment(segment: &str) -> bool {
    let decoded = segment.to_ascii_lowercase().replace("%2e", ".");
    decoded == "." || decoded == ".."
}

/// Percent-encodes everything but the unreserved characters (RFC 3986), for a query value.
fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3 / 2);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn covered_scripts_go_through_the_proxy_and_others_keep_their_url() {
        let allow = vec!["https://cdn.example/lib/".to_string()];
        let scripts = vec![
            "https://cdn.example/lib/a.js?v=1".to_string(),
            "https://other.example/b.js".to_string(),
        ];
        assert_eq!(
            script_srcs(&scripts, &allow),
            [
                "/__third-party-proxy?url=https%3A%2F%2Fcdn.example%2Flib%2Fa.js%3Fv%3D1",
                "https://other.example/b.js",
            ]
        );
    }

    #[test]
    fn without_an_allow_list_nothing_is_proxied() {
        let scripts = vec!["https://cdn.example/lib/a.js".to_string()];
        assert_eq!(script_srcs(&scripts, &[]), scripts);
    }

    #[test]
    fn what_an_entry_covers() {
        let cases = [
            ("https://cdn.example/lib/", "https://cdn.example/lib/a.js", true),
            ("https://cdn.example/lib/", "HTTPS://CDN.example/lib/a.js", true),
            ("https://cdn.example", "https://cdn.example/any/a.js", true),
            ("https://cdn.example", "https://cdn.example?x=1", true),
            ("https://cdn.example/lib/", "https://cdn.example/other/a.js", false),
            ("https://cdn.example/lib/", "http://cdn.example/lib/a.js", false),
            ("https://cdn.example/lib/", "https://cdn.example.evil.test/lib/a.js", false),
            ("https://cdn.example/lib/", "https://cdn.example:8443/lib/a.js", false),
            ("https://cdn.example/lib/", "https://user@cdn.example/lib/a.js", false),
            ("https://cdn.example/lib/", "https://cdn.example/lib/../evil.js", false),
            ("https://cdn.example/lib/", "https://cdn.example/lib/%2E%2E/evil.js", false),
            ("https://cdn.example/lib/", "https://cdn.example/lib\\..\\evil.js", false),
            ("https://cdn.example/lib/", "//cdn.example/lib/a.js", false),
            ("https://cdn.example/lib/", "javascript://cdn.example/lib/a.js", false),
            ("not a url", "https://cdn.example/lib/a.js", false),
        ];
        for (allow, url, expected) in cases {
            assert_eq!(covers(allow, url), expected, "{allow} covers {url}");
        }
    }

    fn decode(s: &str) -> Vec<u8> {
        let b = s.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'%' {
                out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                out.push(b[i]);
                i += 1;
            }
        }
        out
    }

    proptest! {
        #[test]
        fn encoded_values_are_query_safe_and_decode_back(s in "\\PC*") {
            let encoded = encode_component(&s);
            prop_assert!(encoded.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.~%".contains(&b)));
            prop_assert_eq!(decode(&encoded), s.as_bytes());
        }
    }
}
