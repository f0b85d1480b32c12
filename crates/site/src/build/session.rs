//! What a series of builds of one site keeps between them: the build cache, in memory, and the
//! Node render workers. `build` uses a session of its own and drops it; `dev` keeps one, so a
//! rebuild neither reads the cache from disk nor starts Node again.

use std::path::Path;

use crate::BuildError;
use crate::cache::BuildCache;
use crate::ssr::{SsrPool, check_node};

#[derive(Default)]
pub struct Session {
    pub(super) cache: Option<BuildCache>,
    workers: Option<Workers>,
}

/// Render workers, with what they were started with.
struct Workers {
    /// The Node executable and the digest of the worker script.
    key: String,
    pool: SsrPool,
}

impl Session {
    pub fn new() -> Self {
        Self::default()
    }

    /// At least `size` workers running `script` (whose bytes have digest `script_key`) with
    /// `node`: the running ones when they fit, else new ones.
    pub(super) fn workers(
        &mut self,
        node: &Path,
        script: &Path,
        script_key: &str,
        size: usize,
    ) -> Result<&mut SsrPool, BuildError> {
        let key = format!("{}\0{script_key}", node.display());
        let fits = self.workers.as_ref().is_some_and(|w| w.key == key && w.pool.len() >= size);
        if !fits {
            self.workers = None; // stops the old ones first
            check_node(node)?;
            let pool = SsrPool::start(node, script, size)?;
            self.workers = Some(Workers { key, pool });
        }
        Ok(&mut self.workers.as_mut().expect("just started").pool)
    }

    /// Stops the workers (after a crash, their state is unknown).
    pub(super) fn stop_workers(&mut self) {
        self.workers = None;
    }
}
