//! Writing a file whole or not at all: what every cache, record and manifest beside a site needs,
//! so that a build killed mid-write leaves the previous file, never half of a new one.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Tells apart the temporary files of one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` through a temporary file beside it (named for this process and
/// write, so parallel writers never share one), then renames it over `path`: a reader sees the
/// old file or the new one. With `read_only`, the file is made read-only before it appears. The
/// temporary file is removed when any step fails.
pub fn replace_file(path: &Path, bytes: &[u8], read_only: bool) -> std::io::Result<()> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temp = path.with_file_name(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut file = fs::File::create(&temp)?;
        file.write_all(bytes)?;
        if read_only {
            let mut permissions = file.metadata()?.permissions();
            permissions.set_readonly(true);
            file.set_permissions(permissions)?;
        }
        drop(file);
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.bin");
        replace_file(&path, b"one", false).unwrap();
        replace_file(&path, b"two", true).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert!(fs::metadata(&path).unwrap().permissions().readonly());
        let names: Vec<_> =
            fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["record.bin"]);
        // A write that cannot happen leaves nothing behind.
        assert!(replace_file(&dir.path().join("no/such/dir/x"), b"x", false).is_err());
    }
}
