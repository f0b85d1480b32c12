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
/// temporary file is removed when any step fails; once the file is in place, the temporary
/// files beside it that a killed process left ([`remove_leftovers`]) are removed too.
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
    match &result {
        Ok(()) => remove_leftovers(path, name),
        Err(_) => drop(fs::remove_file(&temp)),
    }
    result
}

/// Removes the temporary files of `path` (`.{name}.{pid}.{n}.tmp`) whose process is gone: a
/// build killed between writing one and renaming it. Only where the process table can be read
/// (`/proc`); a file of a process still running is its write in progress, and stays.
fn remove_leftovers(path: &Path, name: &str) {
    let (Some(dir), true) = (path.parent(), Path::new("/proc/self").exists()) else { return };
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let Ok(entries) = fs::read_dir(dir) else { return };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(&prefix)) else { continue };
        let Some((pid, n)) = rest.strip_suffix(".tmp").and_then(|r| r.split_once('.')) else {
            continue;
        };
        let numbers = pid.parse::<u32>().is_ok() && n.parse::<u64>().is_ok();
        if numbers
            && pid != std::process::id().to_string()
            && !Path::new("/proc").join(pid).exists()
        {
            let _ = fs::remove_file(entry.path());
        }
    }
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

    #[cfg(target_os = "linux")]
    #[test]
    fn a_killed_writers_temporary_file_goes_with_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.manifest");
        // Left by a process that is gone (no process has the largest pid), and one still
        // writing (this process's parent), and another file's.
        let gone = dir.path().join(format!(".a.manifest.{}.3.tmp", u32::MAX));
        let running =
            dir.path().join(format!(".a.manifest.{}.0.tmp", std::os::unix::process::parent_id()));
        let other = dir.path().join(format!(".b.manifest.{}.0.tmp", u32::MAX));
        for file in [&gone, &running, &other] {
            fs::write(file, b"half").unwrap();
        }
        replace_file(&path, b"whole", false).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"whole");
        assert!(!gone.exists());
        assert!(running.exists() && other.exists());
    }
}
