//! Server-side rendering through long-lived Node workers.

mod bundle;
mod pool;

pub use bundle::{ChunkFiles, MIN_NODE_MAJOR, WebBundle, check_node};
pub use pool::{BODY_MARKER, Body, Job, RenderFailure, SsrPool};
