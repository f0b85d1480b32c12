//! The server's integration tests: one module per behaviour, all against `app()` over a
//! site fixture in a temp directory, with `oneshot` (no sockets) except in `serve`.

mod caching;
mod errors;
mod hot_cache;
mod limits;
mod proxy;
mod redirects;
mod routing;
mod safety;
mod security;
mod serve;
mod support;
mod swap;
mod tls;
