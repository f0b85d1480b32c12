//! The HTTP server for a built Stillpoint site (`stillpoint serve`).
//!
//! It serves the `dist/` directory as the site expects to be served: `/x` answers with
//! `x/index.html`, `/x/` redirects to the canonical `/x`, unknown paths get the body of
//! `404.html` with status 404, and every response carries the right type, caching and security
//! headers. Files are served by `tower_http`'s `ServeDir` (its path checks, precompressed
//! `.br`/`.gz` siblings, ETag and Last-Modified); this crate only adds the rules around it.
//!
//! It does not build anything, watch files, or install a tracing subscriber: it emits
//! `tracing` events and leaves the output to the binary. The third-party proxy
//! (`/__third-party-proxy`) is not here yet; [`app`] is shaped so it can be added as one route.

mod app;
mod cache;
mod content_type;
mod error;
mod error_page;
mod files;
mod redirect;
mod security;
mod serve;

pub use app::{REQUEST_TIMEOUT, ServeConfig, app};
pub use error::ServeError;
pub use serve::{serve, serve_with_shutdown};
