//! Every limit that keeps slow, idle or greedy clients from starving others (docs/serve.md,
//! "Under load and attack"), in one place. The constants are the production values; the
//! timeouts tests need to see fire are also in [`Timeouts`], which tests shorten.

use std::time::Duration;

/// A client must send a request's headers within this time (also the keep-alive idle limit of
/// an HTTP/1.1 connection).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Largest request head accepted (431 beyond), on the fast path and in hyper alike.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;
/// Connections served at once; more wait in the kernel's backlog.
pub const MAX_CONNECTIONS: usize = 10_000;
/// A client that takes nothing of an answer for this long is cut off: the time allowed between
/// two successful writes, as nginx's `send_timeout` (60 s).
pub const SEND_TIMEOUT: Duration = Duration::from_secs(60);
/// An HTTP/2 connection with no request in flight for this long is closed (GOAWAY), as nginx's
/// `keepalive_timeout` (75 s) does for HTTP/2; answering PINGs does not keep it open.
pub const H2_IDLE_TIMEOUT: Duration = Duration::from_secs(75);
/// The TLS handshake must finish within this time.
pub(crate) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// On shutdown, requests in flight get this long to finish.
pub(crate) const DRAIN_TIMEOUT: Duration = Duration::from_secs(30);

/// The timeouts that are part of [`ServeConfig`](crate::ServeConfig). The defaults are the
/// constants above; only tests change them.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// See [`SEND_TIMEOUT`].
    pub send: Duration,
    /// See [`H2_IDLE_TIMEOUT`].
    pub h2_idle: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self { send: SEND_TIMEOUT, h2_idle: H2_IDLE_TIMEOUT }
    }
}
