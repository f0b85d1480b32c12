//! The HTTP server for a built Stillpoint site (`stillpoint serve`).
//!
//! It serves the `dist/` directory as the site expects to be served: `/x` answers with `x.html`
//! (or `x/index.html`), `/x/` redirects to the canonical `/x`, unknown paths get the body of
//! `404.html` with status 404, and every response carries the right type, caching and security
//! headers. Hot files, their headers and their gzip/brotli variants live in a bounded
//! in-memory cache validated by one `stat` per request, so a swapped `dist` is seen at once.
//! `/__third-party-proxy?url=` fetches allow-listed scripts and JSON; `/__health` says ok.
//! Plain HTTP or HTTPS (HTTP/2 and HTTP/1.1), optional access log, graceful shutdown.
//! One accept loop per CPU on its own single-threaded runtime (`workers.rs`); HTTP/1.1
//! connections start on a fast path for file hits (`fast/`: precomputed heads, `sendfile`) and
//! are handed to hyper and the axum router for anything else.
//!
//! It does not build anything, watch files, or install a tracing subscriber: it emits
//! `tracing` events and leaves the output to the binary.

mod accept;
mod access_log;
mod app;
mod cache;
mod connection;
mod encoding;
mod error;
mod error_page;
mod fast;
mod file_cache;
mod files;
#[doc(hidden)]
pub mod fuzz_api;
mod host;
mod limits;
mod open_files;
mod preconditions;
mod proxy;
mod redirect;
mod redirect_http;
mod redirect_table;
mod refusal;
mod respond;
mod security;
mod send_timeout;
mod serve;
pub mod tls;
mod workers;

pub use access_log::AccessLog;
pub use app::{REQUEST_TIMEOUT, ServeConfig, TlsFiles, app};
pub use error::ServeError;
pub use limits::{
    H2_IDLE_TIMEOUT, HEADER_TIMEOUT, MAX_CONNECTIONS, MAX_HEADER_BYTES, SEND_TIMEOUT, Timeouts,
};
pub use proxy::ProxyOptions;
pub use serve::{serve, serve_with_shutdown, shutdown_signal};
