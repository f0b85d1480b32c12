//! For the differential fuzz target (`crates/fuzz`, docs/fuzzing.md) only, not an API: the fast
//! path's verdict on a request head, the hyper connection builder `serve` uses, and the `Host`
//! rule the router applies to what hyper accepts.

use std::ops::Range;

use http::Version;
use hyper_util::{rt::TokioExecutor, server::conn::auto};

use crate::fast::request::{self, Parse};

/// What the fast path does with the bytes read so far on a connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Waits for more bytes.
    Partial,
    /// Hands the connection to hyper.
    HandOff,
    /// Answers with this status and closes.
    Refuse(u16),
    /// Serves it (a `GET` or `HEAD`) itself.
    Serve(Served),
}

/// The request the fast path serves, as the parts it acts on: ranges index the parsed bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// Bytes of the head, final CRLF included.
    pub len: usize,
    pub head_only: bool,
    pub path: Range<usize>,
    pub query: Option<Range<usize>>,
    pub accept_encoding: Option<Range<usize>>,
    pub if_none_match: Option<Range<usize>>,
    pub if_modified_since: Option<Range<usize>>,
    pub close: bool,
}

/// The fast path's verdict on `buf`.
pub fn fast_verdict(buf: &[u8]) -> Verdict {
    match request::parse(buf) {
        Parse::Partial => Verdict::Partial,
        Parse::Other => Verdict::HandOff,
        Parse::Refuse(status) => Verdict::Refuse(status.as_u16()),
        Parse::Simple(s) => Verdict::Serve(Served {
            len: s.len,
            head_only: s.head_only,
            path: s.path,
            query: s.query,
            accept_encoding: s.accept_encoding,
            if_none_match: s.if_none_match,
            if_modified_since: s.if_modified_since,
            close: s.close,
        }),
    }
}

/// The connection builder `serve` hands connections to (HTTP/1.1 and h2, its limits).
pub fn hyper_builder() -> auto::Builder<TokioExecutor> {
    crate::accept::builder()
}

/// Whether the router's `Host` rule lets a request of `version` with these `Host` values through.
pub fn host_allowed<'a>(version: Version, hosts: impl Iterator<Item = &'a [u8]>) -> bool {
    crate::host::is_valid(version, hosts)
}
