//! Reading one HTTP/1.1 request head for the fast path (httparse, as hyper does), and
//! deciding whether it is a plain `GET`/`HEAD` the fast path answers. Everything else (other
//! methods, HTTP/1.0, bodies, upgrades, ranges, absolute targets) is [`Parse::Other`]: the
//! connection goes to hyper, which answers it as it always did. Heads over the limit, heads
//! hyper would refuse itself (`malformed.rs`) and requests breaking the `Host` rule are
//! [`Parse::Refuse`]d.

use std::ops::Range;

use http::{StatusCode, Version};

use super::malformed;
use crate::{MAX_HEADER_BYTES, host};

/// As many headers as hyper accepts (`max_headers(100)` in `serve.rs`).
const MAX_HEADERS: usize = 100;

#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Parse {
    /// More bytes are needed.
    Partial,
    /// Not for the fast path.
    Other,
    /// To be answered with this status (and the connection closed).
    Refuse(StatusCode),
    Simple(Simple),
}

/// A complete `GET` or `HEAD` without a body. Ranges index the buffer that was parsed.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Simple {
    /// Bytes of the request head, final CRLF included.
    pub(crate) len: usize,
    pub(crate) head_only: bool,
    pub(crate) path: Range<usize>,
    pub(crate) query: Option<Range<usize>>,
    pub(crate) accept_encoding: Option<Range<usize>>,
    pub(crate) if_none_match: Option<Range<usize>>,
    pub(crate) if_modified_since: Option<Range<usize>>,
    /// `Connection: close`: answer, then close.
    pub(crate) close: bool,
}

/// Headers that send a request to hyper: bodies, upgrades, ranges, the preconditions only the
/// router evaluates (`respond.rs`).
const HYPER_ONLY: [&str; 7] = [
    "transfer-encoding",
    "upgrade",
    "expect",
    "range",
    "http2-settings",
    "if-match",
    "if-unmodified-since",
];

pub(crate) fn parse(buf: &[u8]) -> Parse {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    let len = match request.parse(buf) {
        Ok(httparse::Status::Complete(len)) if len > MAX_HEADER_BYTES => {
            return Parse::Refuse(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
        }
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) if buf.len() > MAX_HEADER_BYTES => {
            return Parse::Refuse(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
        }
        Ok(httparse::Status::Partial) => return Parse::Partial,
        Err(error) => {
            return malformed::unparsable(buf, error).map_or(Parse::Other, Parse::Refuse);
        }
    };
    if malformed::refused(&request) {
        return Parse::Refuse(StatusCode::BAD_REQUEST);
    }
    let head_only = match request.method {
        Some("GET") => false,
        Some("HEAD") => true,
        _ => return Parse::Other,
    };
    let Some(target) = request.path else { return Parse::Other };
    // Origin form only, valid as hyper sees it; hyper drops a fragment (`/a#b` is `/a` to it),
    // which a client should never send: hyper answers those.
    if request.version != Some(1)
        || !target.starts_with('/')
        || target.contains('#')
        || http::uri::PathAndQuery::try_from(target).is_err()
    {
        return Parse::Other;
    }
    let target = range_of(buf, target.as_bytes());
    let (path, query) = match buf[target.clone()].iter().position(|&b| b == b'?') {
        Some(at) => (target.start..target.start + at, Some(target.start + at + 1..target.end)),
        None => (target, None),
    };
    let mut simple = Simple {
        len,
        head_only,
        path,
        query,
        accept_encoding: None,
        if_none_match: None,
        if_modified_since: None,
        close: false,
    };
    for header in request.headers.iter() {
        let (name, value) = (header.name, header.value);
        let first = |slot: &mut Option<Range<usize>>| {
            slot.get_or_insert_with(|| range_of(buf, value));
        };
        if name.eq_ignore_ascii_case("accept-encoding") {
            first(&mut simple.accept_encoding);
        } else if name.eq_ignore_ascii_case("if-none-match") {
            first(&mut simple.if_none_match);
        } else if name.eq_ignore_ascii_case("if-modified-since") {
            first(&mut simple.if_modified_since);
        } else if name.eq_ignore_ascii_case("connection") {
            // hyper reads a `Connection` value only as visible ASCII: it decides the others.
            if !is_visible_ascii(value) || has_token(value, b"upgrade") {
                return Parse::Other;
            }
            simple.close |= has_token(value, b"close");
        } else if name.eq_ignore_ascii_case("content-length") {
            if value.trim_ascii() != b"0" {
                return Parse::Other;
            }
        } else if HYPER_ONLY.iter().any(|other| name.eq_ignore_ascii_case(other)) {
            return Parse::Other;
        }
    }
    let hosts = request.headers.iter().filter(|h| h.name.eq_ignore_ascii_case("host"));
    if !host::is_valid(Version::HTTP_11, hosts.map(|h| h.value)) {
        return Parse::Refuse(StatusCode::BAD_REQUEST);
    }
    Parse::Simple(simple)
}

/// Where `part` (a slice of `buf`) lies in `buf`.
fn range_of(buf: &[u8], part: &[u8]) -> Range<usize> {
    let start = part.as_ptr() as usize - buf.as_ptr() as usize;
    start..start + part.len()
}

/// Whether `value` is all visible ASCII, spaces and tabs (what `HeaderValue::to_str` accepts).
fn is_visible_ascii(value: &[u8]) -> bool {
    value.iter().all(|&b| b == b'\t' || (b' '..=b'~').contains(&b))
}

/// Whether the comma-separated `value` lists `token` (case-insensitive).
fn has_token(value: &[u8], token: &[u8]) -> bool {
    value.split(|&b| b == b',').any(|item| item.trim_ascii().eq_ignore_ascii_case(token))
}

#[cfg(test)]
mod tests {
    use http::StatusCode;

    use super::{MAX_HEADER_BYTES, Parse, parse};

    fn simple(head: &str) -> super::Simple {
        match parse(head.as_bytes()) {
            Parse::Simple(simple) => simple,
            other => panic!("{head:?}: {other:?}"),
        }
    }

    #[test]
    fn a_plain_get() {
        let head = "GET /a/b?x=1 HTTP/1.1\r\nHost: h\r\nAccept-Encoding: br\r\n\
                    accept-encoding: gzip\r\nIf-None-Match: \"t\"\r\n\r\nGET / HTTP/1.1\r\n";
        let s = simple(head);
        assert_eq!(&head[..s.len], &head[..head.find("\r\n\r\n").unwrap() + 4]);
        assert!(!s.head_only && !s.close);
        assert_eq!(&head[s.path], "/a/b");
        assert_eq!(&head[s.query.unwrap()], "x=1");
        assert_eq!(&head[s.accept_encoding.unwrap()], "br");
        assert_eq!(&head[s.if_none_match.unwrap()], "\"t\"");
        assert_eq!(s.if_modified_since, None);
    }

    #[test]
    fn head_and_close() {
        let s = simple(
            "HEAD / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, Close\r\nContent-Length: 0\r\n\r\n",
        );
        assert!(s.head_only && s.close);
        assert_eq!(s.query, None);
    }

    #[test]
    fn a_connection_value_beyond_ascii_is_for_hyper() {
        let head = b"GET / HTTP/1.1\r\nHost: h\r\nConnection: \x80, close\r\n\r\n";
        assert_eq!(parse(head), Parse::Other);
    }

    #[test]
    fn a_missing_empty_or_repeated_host_is_refused() {
        for head in [
            "GET / HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost:\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n",
            "HEAD / HTTP/1.1\r\nHost: a b\r\n\r\n",
        ] {
            assert_eq!(parse(head.as_bytes()), Parse::Refuse(StatusCode::BAD_REQUEST), "{head:?}");
        }
    }

    #[test]
    fn heads_over_the_limit_are_refused_whole_or_partial() {
        let too_large = Parse::Refuse(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
        let big = "a".repeat(MAX_HEADER_BYTES);
        let whole = format!("GET / HTTP/1.1\r\nHost: h\r\nX-Big: {big}\r\n\r\n");
        assert_eq!(parse(whole.as_bytes()), too_large);
        assert_eq!(parse(&whole.as_bytes()[..MAX_HEADER_BYTES + 1]), too_large);
        let under = format!("GET / HTTP/1.1\r\nHost: h\r\nX-Big: {}\r\n\r\n", &big[..8000]);
        assert!(matches!(parse(under.as_bytes()), Parse::Simple(_)));
    }

    #[test]
    fn partial() {
        assert_eq!(parse(b"GET / HTTP/1.1\r\nHost: h\r\n"), Parse::Partial);
        assert_eq!(parse(b""), Parse::Partial);
    }

    #[test]
    fn others_go_to_hyper() {
        for head in [
            "POST / HTTP/1.1\r\nContent-Length: 1\r\n\r\nx",
            "GET / HTTP/1.0\r\n\r\n",
            "GET http://h/ HTTP/1.1\r\n\r\n",
            "GET * HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nRange: bytes=0-1\r\n\r\n",
            "GET / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc",
            "GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "GET / HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n",
            "GET / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\nIf-Match: \"t\"\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\nIf-Unmodified-Since: x\r\n\r\n",
            "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
            "GET /#assets/app.js HTTP/1.1\r\nHost: h\r\n\r\n",
            "HEAD /a?q#f HTTP/1.1\r\nHost: h\r\n\r\n",
        ] {
            assert_eq!(parse(head.as_bytes()), Parse::Other, "{head:?}");
        }
    }

    #[test]
    fn heads_hyper_refuses_are_refused_here() {
        for head in [
            "GET /a b HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nBad Header\r\n\r\n",
            "GET / HTTP/3.0\r\n\r\n",
            "G(T / HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n",
        ] {
            assert_eq!(parse(head.as_bytes()), Parse::Refuse(StatusCode::BAD_REQUEST), "{head:?}");
        }
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "X-A: b\r\n".repeat(101));
        let too_large = Parse::Refuse(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
        assert_eq!(parse(many.as_bytes()), too_large);
    }
}
