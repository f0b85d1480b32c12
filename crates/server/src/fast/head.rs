//! Response heads as bytes: built once per cached file and coding (status line and every
//! header but `Date`), so answering a hit copies one block instead of building a `HeaderMap`.
//! They hold exactly the headers `respond.rs` and the security layer give the same answer.

use std::{cell::RefCell, time::SystemTime};

use bytes::Bytes;
use http::{HeaderValue, StatusCode};

use crate::{
    cache,
    encoding::Coding,
    file_cache::{Entry, Variant},
    refusal::Refusal,
    security,
};

/// The `200 OK` heads of one cached file, per coding, without `Date` and the final CRLF.
#[derive(Debug, Default)]
pub(crate) struct Heads {
    identity: Bytes,
    gzip: Option<Bytes>,
    br: Option<Bytes>,
    /// The Content-Security-Policy the heads carry.
    csp: Bytes,
}

impl Heads {
    pub(crate) fn of(entry: &Entry, csp: &HeaderValue) -> Self {
        Self {
            identity: ok(entry, &entry.identity, None, csp),
            gzip: entry.gzip.as_ref().map(|v| ok(entry, v, Some("gzip"), csp)),
            br: entry.br.as_ref().map(|v| ok(entry, v, Some("br"), csp)),
            csp: Bytes::copy_from_slice(csp.as_bytes()),
        }
    }

    pub(crate) fn get(&self, coding: Coding) -> &Bytes {
        match coding {
            Coding::Identity => &self.identity,
            Coding::Gzip => self.gzip.as_ref().unwrap_or(&self.identity),
            Coding::Br => self.br.as_ref().unwrap_or(&self.identity),
        }
    }
}

fn ok(entry: &Entry, variant: &Variant, coding: Option<&str>, csp: &HeaderValue) -> Bytes {
    let mut out = Vec::with_capacity(640);
    common(&mut out, "HTTP/1.1 200 OK\r\n", entry, variant, csp.as_bytes());
    if let Some(coding) = coding {
        header(&mut out, "content-encoding", coding.as_bytes());
    }
    header(&mut out, "content-length", variant.length.as_bytes());
    Bytes::from(out)
}

/// The `304 Not Modified` head for `variant`, without `Date` and the final CRLF.
pub(crate) fn not_modified(out: &mut Vec<u8>, entry: &Entry, variant: &Variant) {
    common(out, "HTTP/1.1 304 Not Modified\r\n", entry, variant, &entry.heads.csp);
}

fn common(out: &mut Vec<u8>, status: &str, entry: &Entry, variant: &Variant, csp: &[u8]) {
    out.extend_from_slice(status.as_bytes());
    header(out, "content-type", entry.content_type.as_bytes());
    header(out, "cache-control", entry.cache_control.as_bytes());
    header(out, "etag", variant.etag.as_bytes());
    header(out, "last-modified", entry.last_modified.as_bytes());
    header(out, "vary", b"accept-encoding");
    header(out, "accept-ranges", b"bytes");
    for (name, value) in security::HEADERS {
        header(out, name.as_str(), value.as_bytes());
    }
    header(out, "content-security-policy", csp);
}

/// The head of a refusal (see `refusal.rs`), complete.
pub(crate) fn refusal(out: &mut Vec<u8>, status: StatusCode, refusal: &Refusal) {
    out.extend_from_slice(b"HTTP/1.1 ");
    out.extend_from_slice(status.as_str().as_bytes());
    out.push(b' ');
    out.extend_from_slice(status.canonical_reason().unwrap_or_default().as_bytes());
    out.extend_from_slice(b"\r\n");
    header(out, "content-length", b"0");
    header(out, "cache-control", cache::NO_CACHE.as_bytes());
    for (name, value) in security::HEADERS {
        header(out, name.as_str(), value.as_bytes());
    }
    header(out, "content-security-policy", refusal.csp.as_bytes());
    finish(out, refusal, true);
}

/// The headers added per answer (HSTS, `X-Robots-Tag`), then the blank line ending the head.
pub(crate) fn finish(out: &mut Vec<u8>, every: &Refusal, close: bool) {
    if let Some(hsts) = every.hsts {
        header(out, "strict-transport-security", hsts.as_bytes());
    }
    if every.noindex {
        header(out, security::X_ROBOTS_TAG.as_str(), security::NOINDEX.as_bytes());
    }
    if close {
        header(out, "connection", b"close");
    }
    out.extend_from_slice(b"date: ");
    date(out);
    out.extend_from_slice(b"\r\n\r\n");
}

fn header(out: &mut Vec<u8>, name: &str, value: &[u8]) {
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b": ");
    out.extend_from_slice(value);
    out.extend_from_slice(b"\r\n");
}

thread_local! {
    /// The current second and its HTTP date, rendered once a second per thread.
    static DATE: RefCell<(u64, String)> = const { RefCell::new((0, String::new())) };
}

fn date(out: &mut Vec<u8>) {
    let now = SystemTime::now();
    let secs = now.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    DATE.with_borrow_mut(|(second, text)| {
        if *second != secs || text.is_empty() {
            *second = secs;
            *text = httpdate::fmt_http_date(now);
        }
        out.extend_from_slice(text.as_bytes());
    });
}

#[cfg(test)]
mod tests {
    use super::finish;
    use crate::refusal::Refusal;

    #[test]
    fn finish_adds_date_and_the_blank_line() {
        let mut out = Vec::new();
        let every = Refusal {
            csp: http::HeaderValue::from_static("x"),
            hsts: Some("max-age=1"),
            noindex: true,
        };
        finish(&mut out, &every, true);
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("strict-transport-security: max-age="), "{text}");
        assert!(text.contains("\r\nx-robots-tag: noindex\r\n"), "{text}");
        assert!(text.contains("\r\nconnection: close\r\ndate: "), "{text}");
        assert!(text.ends_with(" GMT\r\n\r\n"), "{text}");
    }
}
