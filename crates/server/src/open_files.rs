//! Open descriptors kept with cached files that go out with `sendfile` (nginx's
//! `open_file_cache` idea): a hit then sends from the descriptor opened when the file was
//! loaded instead of opening, checking and closing the file on every request.
//!
//! The descriptor is the file the entry's stamp was taken from (its own `fstat`), so when a
//! request's one `stat` of the path through the root finds that stamp (device, inode, size,
//! modification time), the descriptor is the file the path names at that moment: a swapped root
//! or a replaced file has a new inode, fails the check, and the entry is reloaded. A swap after
//! the check still sends the old version whole, as opening the file would have.
//!
//! Only files kept in memory hold one (so the disk space a deleted file keeps is bounded by the
//! cache's own bound), and at most [`MAX_HELD`], or a quarter of the process's descriptor limit
//! when that is lower: beyond that, files are opened per request as before.

use std::{
    fs::File,
    sync::{
        OnceLock,
        atomic::{AtomicUsize, Ordering},
    },
};

/// Upper bound on the descriptors held by the whole process.
pub(crate) const MAX_HELD: usize = 1024;

static HELD: AtomicUsize = AtomicUsize::new(0);

/// An open file kept for `sendfile`; counted against the process's budget until dropped.
#[derive(Debug)]
pub(crate) struct HeldFile(File);

impl HeldFile {
    /// Keeps `file` open if the budget allows, else closes it.
    pub(crate) fn keep(file: File) -> Option<Self> {
        let limit = limit();
        HELD.fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
            (held < limit).then_some(held + 1)
        })
        .ok()
        .map(|_| Self(file))
    }

    pub(crate) fn file(&self) -> &File {
        &self.0
    }
}

impl Drop for HeldFile {
    fn drop(&mut self) {
        HELD.fetch_sub(1, Ordering::AcqRel);
    }
}

/// [`MAX_HELD`], or a quarter of the soft `RLIMIT_NOFILE` when lower: connections need the rest.
fn limit() -> usize {
    static LIMIT: OnceLock<usize> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        let soft = rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
        soft.map_or(MAX_HELD, |soft| MAX_HELD.min(usize::try_from(soft / 4).unwrap_or(MAX_HELD)))
    })
}

#[cfg(test)]
mod tests {
    use super::{HeldFile, limit};

    #[test]
    fn the_budget_is_bounded_and_given_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"x").unwrap();
        // Other tests may hold some too: count only what this one gets.
        let mut kept = Vec::new();
        while let Some(file) = HeldFile::keep(std::fs::File::open(&path).unwrap()) {
            kept.push(file);
            assert!(kept.len() <= limit(), "more than the limit");
        }
        assert!(!kept.is_empty());
        assert!(HeldFile::keep(std::fs::File::open(&path).unwrap()).is_none());
        kept.pop();
        let again = HeldFile::keep(std::fs::File::open(&path).unwrap());
        assert!(again.is_some(), "a dropped file gives its place back");
    }
}
