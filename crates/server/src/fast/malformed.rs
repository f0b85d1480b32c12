//! Heads hyper refuses before calling the router, refused here instead, with the security
//! headers hyper's own answers lack (hyper writes its `400`/`431` with `Content-Length` and
//! `Date` only, and has no hook to add more). The rules are hyper's own (`proto/h1/role.rs`):
//! what `httparse` rejects (`431` for too many headers, `400` otherwise), a target that is not
//! a valid URI, and broken framing (an invalid or conflicting `Content-Length`,
//! `Transfer-Encoding` on HTTP/1.0 or without `chunked` last).

use http::StatusCode;

/// The start of the HTTP/2 prior-knowledge preface, which `httparse` rejects and hyper takes.
const H2_PREFACE: &[u8] = b"PRI * HTTP/2";

/// What to answer a head `httparse` rejected with `error`: `None` for the HTTP/2 preface
/// (hyper's), else the refusal.
pub(super) fn unparsable(buf: &[u8], error: httparse::Error) -> Option<StatusCode> {
    if buf.starts_with(H2_PREFACE) {
        return None;
    }
    Some(match error {
        httparse::Error::TooManyHeaders => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        _ => StatusCode::BAD_REQUEST,
    })
}

/// Whether a complete, parsed head is one hyper refuses with `400`.
pub(super) fn refused(request: &httparse::Request<'_, '_>) -> bool {
    let target_ok = request.path.is_some_and(|target| http::Uri::try_from(target).is_ok());
    !target_ok || bad_framing(request.version == Some(1), request.headers)
}

/// hyper's body-length rules for requests (RFC 9112 §6.3).
fn bad_framing(http11: bool, headers: &[httparse::Header<'_>]) -> bool {
    let (mut te, mut chunked, mut length) = (false, false, None);
    for header in headers {
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            if !http11 {
                return true;
            }
            te = true;
            chunked = std::str::from_utf8(header.value).is_ok_and(|value| {
                value.rsplit(',').next().is_some_and(|c| c.trim().eq_ignore_ascii_case("chunked"))
            });
        } else if header.name.eq_ignore_ascii_case("content-length") && !te {
            let Some(len) = digits(header.value) else { return true };
            if length.is_some_and(|previous| previous != len) {
                return true;
            }
            length = Some(len);
        }
    }
    te && !chunked
}

/// A non-empty run of ASCII digits that fits a `u64`.
fn digits(value: &[u8]) -> Option<u64> {
    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(value).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use http::StatusCode;

    use super::{refused, unparsable};

    fn parsed(head: &str) -> bool {
        let mut headers = [httparse::EMPTY_HEADER; 16];
        let mut request = httparse::Request::new(&mut headers);
        assert!(request.parse(head.as_bytes()).unwrap().is_complete(), "{head:?}");
        refused(&request)
    }

    #[test]
    fn framing_as_hyper_reads_it() {
        for bad in [
            "POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
        ] {
            assert!(parsed(bad), "{bad:?}");
        }
        for good in [
            "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\nContent-Length: x\r\n\r\n",
            "GET http://h/ HTTP/1.1\r\n\r\n",
            "OPTIONS * HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.0\r\n\r\n",
        ] {
            assert!(!parsed(good), "{good:?}");
        }
    }

    #[test]
    fn the_h2_preface_is_not_refused() {
        assert_eq!(unparsable(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", httparse::Error::Version), None);
        let too_many = unparsable(b"GET /", httparse::Error::TooManyHeaders);
        assert_eq!(too_many, Some(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE));
        assert_eq!(unparsable(b"GET /", httparse::Error::Token), Some(StatusCode::BAD_REQUEST));
    }
}
