//! Fuzz target `request`, differential: the fast path's verdict on the bytes a client sent
//! (`crates/server/src/fast/request.rs`) against hyper's, with the connection builder and the
//! router's `Host` rule `stillpoint serve` uses (`stillpoint_fuzz::hyper_side`).
//!
//! - The fast path serves a request: hyper dispatches one too, with the same method, path, query,
//!   version, the same first `Accept-Encoding`, `If-None-Match` and `If-Modified-Since`, a `Host`
//!   the router lets through, and the same decision to close the connection after it.
//! - The fast path refuses with `400`: hyper refuses too, or the router's `Host` rule does.
//! - The fast path refuses with `431`: so does hyper, except for a complete head over
//!   `MAX_HEADER_BYTES` that arrived in one piece, which hyper's read buffer may still take (the
//!   fast path's limit is exact on purpose; docs/fuzzing.md).
//! - The fast path waits for more bytes: hyper dispatched nothing from them either.
//! - The fast path hands over: hyper decides alone, so there is nothing to compare.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

use http::{Method, Version};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use stillpoint_fuzz::driver::{Raw, Target};
use stillpoint_fuzz::hyper_side::{self, Verdict as Hyper};
use stillpoint_fuzz::mutate::mutants;
use stillpoint_server::MAX_HEADER_BYTES;
use stillpoint_server::fuzz_api::{Verdict, fast_verdict};

const TARGET: Target<Raw> = Target { name: "request", codec: Raw };

const METHODS: &[&str] = &["GET", "GET", "HEAD", "POST", "get", "PRI", "OPTIONS", "CONNECT"];
const TARGET_PIECES: &[&str] = &[
    "/", "/", "a", "a", "%2e", "..", "?", "q=1", "#", "frag", "%", "%zz", "é", "\u{80}", " ", "*",
    "http://h", "//", ";", "\\", "{", "|", "^", "`", "\"", "<", "~", "'", "\x7f", "\t", "\0",
];
const VERSIONS: &[&str] =
    &["HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/1.2", "HTTP/2.0", "http/1.1"];
const NAMES: &[&str] = &[
    "Host",
    "Host",
    "host",
    "HOST",
    "Accept-Encoding",
    "If-None-Match",
    "If-Modified-Since",
    "Connection",
    "Content-Length",
    "Transfer-Encoding",
    "Upgrade",
    "Expect",
    "Range",
    "If-Match",
    "If-Unmodified-Since",
    "HTTP2-Settings",
    "X-A",
    "Bad Name",
    "Host ",
    "",
    "x:y",
    "TE",
    "Keep-Alive",
    "\u{80}",
    "Content-Length ",
];
const VALUES: &[&str] = &[
    "h",
    "h",
    "example.com:8080",
    "[::1]:80",
    "a b",
    "u@h",
    "h/p",
    "",
    "0",
    " 0 ",
    "00",
    "1",
    "-1",
    "0, 0",
    "+0",
    "close",
    "Close, keep-alive",
    "keep-alive",
    "upgrade",
    "Upgrade, close",
    "chunked",
    "gzip, br",
    "\"t\"",
    "W/\"t\"",
    "bytes=0-1",
    "\u{80}\u{ff}",
    "\t",
    "a\r\n b",
    "h\0",
    ":80",
    "h:",
    "h:99999",
];
const EOLS: &[&str] = &["\r\n", "\r\n", "\r\n", "\n", "\r"];
const TAILS: &[&str] = &["", "", "x", "GET / HTTP/1.1\r\nHost: h\r\n\r\n", "\r\n"];
/// Tokens the byte mutations insert.
const DICTIONARY: &[&[u8]] = &[
    b"\r\n",
    b"\r\n\r\n",
    b"\n",
    b" ",
    b"\t",
    b":",
    b"Host: h\r\n",
    b"Content-Length: 0\r\n",
    b"Connection: close\r\n",
    b"Transfer-Encoding: chunked\r\n",
    b"#",
    b"?",
    b"%",
    b"/",
    b"HTTP/1.1",
    b"HTTP/1.0",
    b"GET",
    b"HEAD",
    b"\0",
    b"\x80",
    b"\x7f",
    b"\r",
    b"Accept-Encoding: gzip\r\n",
];

/// A request head put together from pieces, valid or nearly so: mostly a `GET` or `HEAD` of an
/// origin-form target over HTTP/1.1 with one `Host`, so that the fast path often serves it.
fn heads() -> impl Strategy<Value = Vec<u8>> {
    let method =
        prop_oneof![6 => Just("GET"), 3 => Just("HEAD"), 2 => prop::sample::select(METHODS)];
    let target = prop_oneof![
        8 => prop::collection::vec(prop::sample::select(TARGET_PIECES), 0..6)
            .prop_map(|p| format!("/{}", p.concat())),
        1 => prop::collection::vec(prop::sample::select(TARGET_PIECES), 1..6).prop_map(|p| p.concat()),
    ];
    let version = prop_oneof![8 => Just("HTTP/1.1"), 2 => prop::sample::select(VERSIONS)];
    let sp = prop_oneof![8 => Just(" "), 1 => prop::sample::select(&["  ", "\t", ""][..])];
    let colon =
        prop_oneof![8 => Just(": "), 1 => prop::sample::select(&[":", " : ", ":\t", ": \t"][..])];
    let header = (prop::sample::select(NAMES), colon, prop::sample::select(VALUES));
    let headers = prop::collection::vec(header, 0..6);
    let host = prop_oneof![6 => Just(Some("Host: h")), 1 => Just(None)];
    let eol = prop_oneof![8 => Just("\r\n"), 1 => prop::sample::select(EOLS)];
    let big = prop_oneof![19 => Just(0usize), 1 => 7000usize..17000];
    let tail = prop::sample::select(TAILS);
    ((method, target, version, sp), headers, (host, any::<prop::sample::Index>()), eol, big, tail)
        .prop_map(|((method, target, version, sp), headers, (host, at), eol, big, tail)| {
            let mut lines: Vec<String> = headers
                .into_iter()
                .map(|(name, colon, value)| format!("{name}{colon}{value}"))
                .collect();
            if let Some(host) = host {
                lines.insert(at.index(lines.len() + 1), host.to_string());
            }
            if big > 0 {
                lines.push(format!("X-Big: {}", "b".repeat(big)));
            }
            let mut out = format!("{method}{sp}{target}{sp}{version}{eol}");
            for line in lines {
                out.push_str(&line);
                out.push_str(eol);
            }
            out.push_str(eol);
            out.push_str(tail);
            out.into_bytes()
        })
}

fn inputs() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        5 => heads(),
        4 => mutants(TARGET.seeds(), DICTIONARY),
        1 => prop::collection::vec(any::<u8>(), 0..64),
    ]
}

/// Where the head ends: just past the first empty line.
fn head_end(input: &[u8]) -> usize {
    let crlf = input.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4);
    let lf = input.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    crlf.into_iter().chain(lf).min().unwrap_or(input.len())
}

fn text(input: &[u8], range: &Option<std::ops::Range<usize>>) -> Option<Vec<u8>> {
    range.as_ref().map(|r| input[r.clone()].to_vec())
}

fn property(rt: &tokio::runtime::Runtime, input: &[u8]) -> Result<(), TestCaseError> {
    let fast = fast_verdict(input);
    let kind = match fast {
        Verdict::HandOff => return Ok(()), // hyper decides alone
        Verdict::Partial => 0,
        Verdict::Refuse(_) => 1,
        Verdict::Serve(_) => 2,
    };
    COMPARED[kind].fetch_add(1, Ordering::Relaxed);
    let hyper: Hyper = hyper_side::verdict(rt, input);
    match fast {
        Verdict::HandOff => unreachable!(),
        Verdict::Partial => {
            prop_assert!(hyper.request.is_none(), "fast waits, hyper took {:?}", hyper.request);
        }
        Verdict::Refuse(400) => {
            let host_rule = hyper.request.as_ref().is_some_and(|r| !r.host_allowed());
            // hyper may see a head too long before the broken line the fast path refuses: its
            // read buffer is full at `MAX_HEADER_BYTES` (a head without its end that fills it
            // exactly is too long for hyper too).
            let refused = hyper.request.is_none()
                && (hyper.status == Some(400)
                    || hyper.status == Some(431) && input.len() >= MAX_HEADER_BYTES);
            // The fast path refuses a broken line as soon as it has it; hyper may wait for the
            // rest of an unfinished head (and refuses it once it comes).
            // (Empty lines before a request line are skipped, by both.)
            let start = input.iter().position(|b| !matches!(b, b'\r' | b'\n')).unwrap_or(0);
            let rest = &input[start..];
            let unfinished = head_end(rest) == rest.len()
                && !rest.ends_with(b"\r\n\r\n")
                && !rest.ends_with(b"\n\n");
            let waiting = unfinished && hyper.request.is_none() && hyper.status.is_none();
            prop_assert!(host_rule || refused || waiting, "fast refuses 400, hyper: {:?}", hyper);
        }
        Verdict::Refuse(431) => {
            let refused = hyper.request.is_none() && hyper.status == Some(431);
            let over = hyper.request.is_some() && head_end(input) > MAX_HEADER_BYTES;
            prop_assert!(refused || over, "fast refuses 431, hyper: {:?}", hyper);
        }
        Verdict::Refuse(other) => prop_assert!(false, "fast refuses with {}", other),
        Verdict::Serve(s) => {
            let Some(r) = &hyper.request else {
                return Err(TestCaseError::fail(format!("fast serves {s:?}, hyper: {hyper:?}")));
            };
            let method = if s.head_only { Method::HEAD } else { Method::GET };
            prop_assert_eq!(&r.method, &method);
            prop_assert_eq!(r.version, Version::HTTP_11);
            prop_assert_eq!(r.uri.path().as_bytes(), &input[s.path.clone()], "path");
            prop_assert_eq!(r.uri.query().map(|q| q.as_bytes().to_vec()), text(input, &s.query));
            for (name, fast_value) in [
                ("accept-encoding", &s.accept_encoding),
                ("if-none-match", &s.if_none_match),
                ("if-modified-since", &s.if_modified_since),
            ] {
                let theirs = r.headers.get(name).map(|v| v.as_bytes().to_vec());
                prop_assert_eq!(theirs, text(input, fast_value), "{}", name);
            }
            prop_assert!(r.host_allowed(), "fast serves a request the Host rule refuses");
            if hyper.status.is_some() {
                prop_assert_eq!(s.close, hyper.close, "connection: close");
            }
            prop_assert!(s.len <= input.len());
            prop_assert_eq!(fast_verdict(&input[..s.len]), Verdict::Serve(s), "the head alone");
        }
    }
    Ok(())
}

thread_local! {
    static RUNTIME: RefCell<Option<tokio::runtime::Runtime>> = const { RefCell::new(None) };
}

/// Inputs compared with hyper: the fast path waited, refused, served.
static COMPARED: [AtomicUsize; 3] = [const { AtomicUsize::new(0) }; 3];

#[test]
fn fuzz_request() {
    let summary = TARGET.run(inputs(), |input| {
        RUNTIME.with_borrow_mut(|rt| property(rt.get_or_insert_with(hyper_side::runtime), input))
    });
    let [partial, refused, served] = COMPARED.each_ref().map(|c| c.load(Ordering::Relaxed));
    eprintln!(
        "fuzz request: compared with hyper (shrinking included): {served} served, {refused} \
         refused, {partial} partial, of {} inputs",
        summary.generated as usize + summary.replayed
    );
}
