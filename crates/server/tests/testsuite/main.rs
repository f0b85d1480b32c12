//! The server's integration tests: one module per behaviour, all against `app()` over a
//! site fixture in a temp directory, with `oneshot` (no sockets) except in `serve`, `fast_path`
//! and one swap test (real sockets, see `client.rs`).

mod bad_requests;
mod caching;
mod client;
mod errors;
mod fast_path;
mod h2_timeouts;
mod hot_cache;
mod limits;
mod preconditions;
mod proxy;
mod redirects;
mod routing;
mod safety;
mod security;
mod send_timeout;
mod serve;
mod support;
mod swap;
mod tls;
