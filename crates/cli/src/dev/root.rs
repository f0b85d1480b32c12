//! Notices the site directory being replaced: deleted and made again (`rm -rf site && git
//! checkout site`), or swapped for another (an editor or tool renaming a new directory into
//! place). The watcher's inotify watches follow the old directory's inode, so they see nothing
//! of the new one. Every [`POLL`] the site's path is checked: when it names no directory, one
//! line says so and the check goes on; when it names a directory again (or another one than
//! before), one line says so and `on_back` runs (it watches the new directory and rebuilds).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the site's path is checked.
pub const POLL: Duration = Duration::from_millis(250);

/// A directory's identity: device and inode.
fn identity(path: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(path).ok().filter(|m| m.is_dir()).map(|m| (m.dev(), m.ino()))
}

/// Polls `site` on a thread of its own until `stop` is set.
pub fn spawn(
    site: PathBuf,
    stop: Arc<AtomicBool>,
    mut on_back: impl FnMut() -> bool + Send + 'static,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut known = identity(&site);
        let mut gone = false;
        while !stop.load(Ordering::SeqCst) {
            std::thread::sleep(POLL);
            let now = identity(&site);
            if now == known && !gone {
                continue;
            }
            match now {
                None if !gone => {
                    tracing::warn!(
                        "the site directory {} is gone; waiting for it to come back",
                        site.display()
                    );
                    gone = true;
                }
                None => {}
                Some(_) => {
                    tracing::info!(
                        "the site directory {} is back; watching it and rebuilding",
                        site.display()
                    );
                    // When it cannot be watched yet (gone again), the next poll tries again.
                    gone = !on_back();
                    known = if gone { None } else { now };
                }
            }
        }
    })
}
