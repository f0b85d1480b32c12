//! What `stat` says of a file. When a file's stamp is the one recorded, the file has not been
//! written since, provided the stamp was taken well after the file's last write: a write within
//! the file system's timestamp granularity of the read could leave the same times and size
//! (git's "racily clean" rule), so a stamp of a file modified too recently is never recorded.

use std::fs::Metadata;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

/// How long before a read a file must have been modified for its stamp to be trusted: longer
/// than any file system's timestamp granularity.
pub const SETTLED: Duration = Duration::from_secs(2);

/// Size, modification and change times, device and inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    len: u64,
    modified: (i64, i64),
    changed: (i64, i64),
    inode: (u64, u64),
}

impl Stamp {
    /// The stamp of a file read at `read_at`; `None` when it was modified too close to the read
    /// (a write in the same clock tick would leave the same stamp) or the platform has none.
    pub fn of(meta: &Metadata, read_at: SystemTime) -> Option<Self> {
        let modified = meta.modified().ok()?;
        if !Self::is_settled(modified, read_at) {
            return None;
        }
        Self::now(meta)
    }

    /// Whether a file last modified at `modified` was modified long enough before `read_at` for
    /// its stamp to vouch for it later.
    pub fn is_settled(modified: SystemTime, read_at: SystemTime) -> bool {
        modified + SETTLED <= read_at
    }

    /// Whether a file now described by `meta` is the one this stamp was taken of.
    pub fn matches(&self, meta: &Metadata) -> bool {
        Self::now(meta).is_some_and(|now| now == *self)
    }

    /// The stamp a file has now, trusted or not: it tells whether a file is still the one just
    /// read (nothing replaced it meanwhile), never whether a file read long ago is unchanged.
    pub fn unsettled(meta: &Metadata) -> Option<Self> {
        Self::now(meta)
    }

    /// The stamp as bytes, for a digest of many stamps.
    pub fn to_bytes(&self) -> [u8; 56] {
        let mut out = [0; 56];
        let fields = [
            self.len,
            self.modified.0 as u64,
            self.modified.1 as u64,
            self.changed.0 as u64,
            self.changed.1 as u64,
            self.inode.0,
            self.inode.1,
        ];
        for (chunk, field) in out.chunks_exact_mut(8).zip(fields) {
            chunk.copy_from_slice(&field.to_le_bytes());
        }
        out
    }

    /// The file's size in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[cfg(unix)]
    fn now(meta: &Metadata) -> Option<Self> {
        use std::os::unix::fs::MetadataExt;
        Some(Self {
            len: meta.size(),
            modified: (meta.mtime(), meta.mtime_nsec()),
            changed: (meta.ctime(), meta.ctime_nsec()),
            inode: (meta.dev(), meta.ino()),
        })
    }

    #[cfg(not(unix))]
    fn now(_: &Metadata) -> Option<Self> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        std::fs::write(&path, bytes).unwrap();
        (dir, path)
    }

    #[test]
    fn a_settled_file_keeps_its_stamp_until_written() {
        let (_dir, path) = file(b"one");
        let later = SystemTime::now() + SETTLED + Duration::from_secs(1);
        let stamp = Stamp::of(&std::fs::metadata(&path).unwrap(), later).unwrap();
        assert!(stamp.matches(&std::fs::metadata(&path).unwrap()));
        assert_eq!(stamp.len(), 3);
        std::fs::write(&path, b"two!").unwrap();
        assert!(!stamp.matches(&std::fs::metadata(&path).unwrap()));
    }

    #[test]
    fn a_file_written_just_before_the_read_has_no_stamp() {
        let (_dir, path) = file(b"fresh");
        assert_eq!(Stamp::of(&std::fs::metadata(&path).unwrap(), SystemTime::now()), None);
    }

    #[test]
    fn a_file_replaced_with_the_same_size_and_times_is_told_apart_by_its_inode() {
        let (dir, path) = file(b"same");
        let meta = std::fs::metadata(&path).unwrap();
        let later = SystemTime::now() + SETTLED + Duration::from_secs(1);
        let stamp = Stamp::of(&meta, later).unwrap();
        let other = dir.path().join("b.md");
        std::fs::write(&other, b"same").unwrap();
        let f = std::fs::File::options().write(true).open(&other).unwrap();
        f.set_modified(meta.modified().unwrap()).unwrap();
        drop(f);
        std::fs::rename(&other, &path).unwrap();
        assert!(!stamp.matches(&std::fs::metadata(&path).unwrap()));
    }
}
