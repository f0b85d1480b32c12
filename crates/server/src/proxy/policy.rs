//! Which URLs the proxy fetches: http(s) only, no user-info, never a non-public literal
//! address or a `localhost` name, and only under an entry of `proxy.allow` (same scheme, host
//! and port, and a path prefix ending at a segment boundary). URLs are parsed the WHATWG way,
//! so `http://2130706433/` and `http://0177.0.0.1/` are the IP `127.0.0.1` and `..` is
//! resolved before any comparison.

use std::net::IpAddr;

use url::{Host, Url};

use super::address::is_public;

/// Why a URL is refused: a one-line reason sent with the 4xx.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Refusal(pub(crate) String);

/// The parsed `proxy.allow`, plus the test-only loopback exception.
#[derive(Debug, Clone, Default)]
pub(crate) struct Policy {
    allow: Vec<Url>,
    /// `(host, port)` that may resolve to a loopback address (tests only).
    pub(crate) loopback_exception: Option<(String, u16)>,
}

impl Policy {
    /// Parses the allow-list; entries that are not http(s) URLs are logged and skipped.
    pub(crate) fn new(allow: &[String], loopback_exception: Option<(String, u16)>) -> Self {
        let allow = allow
            .iter()
            .filter_map(|entry| match Url::parse(entry) {
                Ok(url) if matches!(url.scheme(), "http" | "https") && url.host().is_some() => {
                    Some(url)
                }
                _ => {
                    tracing::warn!(entry, "proxy.allow: not an http(s) URL, ignored");
                    None
                }
            })
            .collect();
        let loopback_exception = loopback_exception.map(|(h, p)| (h.to_ascii_lowercase(), p));
        Self { allow, loopback_exception }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.allow.is_empty()
    }

    /// Checks `raw` and returns it parsed.
    #[cfg(test)]
    pub(crate) fn check_str(&self, raw: &str) -> Result<Url, Refusal> {
        let url = Url::parse(raw).map_err(|e| Refusal(format!("not a valid absolute URL: {e}")))?;
        self.check(&url)?;
        Ok(url)
    }

    /// Checks a parsed URL (the first one, or a redirect target).
    pub(crate) fn check(&self, url: &Url) -> Result<(), Refusal> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Refusal(format!(
                "scheme {:?} is not allowed (http and https only)",
                url.scheme()
            )));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(Refusal("URLs with credentials (user-info) are not allowed".into()));
        }
        match url.host() {
            None => return Err(Refusal("the URL has no host".into())),
            Some(Host::Ipv4(ip)) => self.check_literal(IpAddr::V4(ip), url)?,
            Some(Host::Ipv6(ip)) => self.check_literal(IpAddr::V6(ip), url)?,
            Some(Host::Domain(name)) => {
                let name = name.trim_end_matches('.');
                if name == "localhost" || name.ends_with(".localhost") {
                    return Err(Refusal(format!("host {name} is a loopback name")));
                }
                if let Some((host, port)) = &self.loopback_exception
                    && host == name
                    && url.port_or_known_default() != Some(*port)
                {
                    return Err(Refusal(format!("host {name} is only allowed on port {port}")));
                }
            }
        }
        if self.allow.iter().any(|prefix| is_under(url, prefix)) {
            Ok(())
        } else {
            Err(Refusal(format!("{} is not under any proxy.allow entry", without_query(url))))
        }
    }

    fn check_literal(&self, ip: IpAddr, _url: &Url) -> Result<(), Refusal> {
        if is_public(ip) { Ok(()) } else { Err(Refusal(format!("address {ip} is not public"))) }
    }

    /// Whether `host` may connect to `ip` (after DNS resolution).
    pub(crate) fn may_connect(&self, host: &str, ip: IpAddr) -> bool {
        is_public(ip)
            || (ip.is_loopback()
                && self.loopback_exception.as_ref().is_some_and(|(name, _)| name == host))
    }
}

fn is_under(url: &Url, prefix: &Url) -> bool {
    if url.scheme() != prefix.scheme()
        || url.host_str() != prefix.host_str()
        || url.port_or_known_default() != prefix.port_or_known_default()
    {
        return false;
    }
    let (path, base) = (url.path(), prefix.path());
    base == "/"
        || path == base
        || (path.starts_with(base) && (base.ends_with('/') || path.as_bytes()[base.len()] == b'/'))
}

fn without_query(url: &Url) -> String {
    let mut url = url.clone();
    url.set_query(None);
    url.set_fragment(None);
    url.to_string()
}

#[cfg(test)]
mod tests {
    use super::Policy;

    fn policy() -> Policy {
        Policy::new(
            &[
                "https://cdn.example.com/lib/".into(),
                "https://api.example.org/v1".into(),
                "http://plain.example.net".into(),
                "not a url".into(),
            ],
            None,
        )
    }

    #[test]
    fn allowed() {
        let p = policy();
        for ok in [
            "https://cdn.example.com/lib/x.js",
            "https://CDN.example.com/lib/a/b.js?v=1",
            "https://cdn.example.com:443/lib/x.js",
            "https://api.example.org/v1",
            "https://api.example.org/v1/data.json",
            "http://plain.example.net/anything.js",
        ] {
            assert_eq!(p.check_str(ok), Ok(url::Url::parse(ok).unwrap()), "{ok}");
        }
    }

    #[test]
    fn refused() {
        let p = policy();
        for bad in [
            "https://cdn.example.com/other/x.js",
            "https://cdn.example.com/lib",
            "https://cdn.example.com/lib/../secret",
            "https://cdn.example.com/lib/%2e%2e/secret",
            "http://cdn.example.com/lib/x.js",
            "https://cdn.example.com:8443/lib/x.js",
            "https://cdn.example.com.evil.io/lib/x.js",
            "https://api.example.org/v10",
            "https://user:pw@cdn.example.com/lib/x.js",
            "https://user@cdn.example.com/lib/x.js",
            "file:///etc/passwd",
            "gopher://cdn.example.com/lib/",
            "ftp://cdn.example.com/lib/x.js",
            "data:text/javascript,alert(1)",
            "javascript:alert(1)",
            "http://127.0.0.1/",
            "http://localhost/",
            "http://LOCALHOST./",
            "http://a.localhost/",
            "http://[::1]/",
            "http://0.0.0.0/",
            "http://169.254.169.254/latest/meta-data/",
            "http://2130706433/",
            "http://0177.0.0.1/",
            "http://0x7f.1/",
            "http://[::ffff:127.0.0.1]/",
            "/relative",
            "",
        ] {
            let refusal = p.check_str(bad).expect_err(bad);
            assert!(!refusal.0.contains('\n'), "{bad}: one line");
        }
    }

    #[test]
    fn reasons_name_the_problem() {
        let p = policy();
        assert!(p.check_str("http://2130706433/").unwrap_err().0.contains("127.0.0.1"));
        assert!(p.check_str("file:///etc/passwd").unwrap_err().0.contains("scheme"));
        assert!(
            p.check_str("https://u@cdn.example.com/lib/").unwrap_err().0.contains("credentials")
        );
    }
}
