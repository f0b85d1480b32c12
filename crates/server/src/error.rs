//! What can stop the server from starting or running. Per-request failures never end up here:
//! they become 4xx/5xx responses (see `files.rs`).

use std::{io, net::SocketAddr, path::PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The site root is missing or is not a directory.
    #[error("cannot serve {}: not a readable directory", path.display())]
    Root {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{}: {reason}", path.display())]
    Tls { path: PathBuf, reason: String },
    #[error("cannot listen on {addr}")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: io::Error,
    },
    #[error("cannot install the Ctrl-C/SIGTERM handler")]
    Signal(#[source] io::Error),
    #[error("the server stopped with an I/O error")]
    Io(#[source] io::Error),
}
