//! Writing a file whole or not at all: what every cache, record and manifest beside a site needs,
//! so that a build killed mid-write leaves the previous file, never half of a new one.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::digest::{Digest, Digesting};

/// Tells apart the temporary files of one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` through a temporary file beside it (named for this process and
/// write, so parallel writers never share one), then renames it over `path`: a reader sees the
/// old file or the new one. With `read_only`, the file is made read-only before it appears. The
/// temporary file is removed when any step fails (a killed process leaves it: see
/// [`remove_temporaries`]).
pub fn replace_file(path: &Path, bytes: &[u8], read_only: bool) -> std::io::Result<()> {
    replace_file_with(path, read_only, |file| file.write_all(bytes))
}

/// [`replace_file`] with the bytes written by `write`, through a buffer: a file too large to
/// hold in memory beside everything else (an output manifest of millions of entries) is
/// written as it is made.
pub fn replace_file_with(
    path: &Path,
    read_only: bool,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let temp = temp_beside(path);
    let result = (|| {
        let mut file = std::io::BufWriter::new(fs::File::create(&temp)?);
        write(&mut file)?;
        let file = file.into_inner().map_err(std::io::IntoInnerError::into_error)?;
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

/// [`replace_file_with`] for a file named by the digest of its bytes, which is known only once
/// they are written: they are digested as they go to a temporary file in `dir` (named for
/// `stem`), which is then renamed to `name(digest)`. Returns the digest. No buffer holds the
/// whole file (a cache part of hundreds of megabytes at 1,000,000 articles).
pub fn write_file_named_by_digest(
    dir: &Path,
    stem: &str,
    name: impl FnOnce(Digest) -> String,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<Digest> {
    let temp = temp_beside(&dir.join(stem));
    let result = (|| {
        let mut file = std::io::BufWriter::new(Digesting::new(fs::File::create(&temp)?));
        write(&mut file)?;
        let (file, digest) =
            file.into_inner().map_err(std::io::IntoInnerError::into_error)?.finish();
        drop(file);
        fs::rename(&temp, dir.join(name(digest)))?;
        Ok(digest)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// A temporary name beside `path` for this process and write (see [`remove_temporaries`]).
fn temp_beside(path: &Path) -> std::path::PathBuf {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    path.with_file_name(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Removes from `dir` the temporary files of [`replace_file`] (`.{name}.{pid}.{n}.tmp`) whose
/// process is gone: a build killed between writing one and renaming it. Called once by the
/// owner of a folder of such files when it opens it (the output's manifests, the build cache).
/// Only where the process table can be read (`/proc`); a file of a process still running is its
/// write in progress, and stays.
pub fn remove_temporaries(dir: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else { return };
    let ours = std::process::id().to_string();
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix('.')?.strip_suffix(".tmp"))
        else {
            continue;
        };
        let mut numbers = rest.rsplitn(3, '.');
        let (Some(n), Some(pid), Some(_name)) = (numbers.next(), numbers.next(), numbers.next())
        else {
            continue;
        };
        let temporary = pid.parse::<u32>().is_ok() && n.parse::<u64>().is_ok();
        if temporary && pid != ours && !Path::new("/proc").join(pid).exists() {
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

    #[test]
    fn a_file_named_by_its_digest_holds_the_bytes_digested() {
        let dir = tempfile::tempdir().unwrap();
        let name = |d: Digest| format!("part.{d}");
        let digest =
            write_file_named_by_digest(dir.path(), "part", name, |w| w.write_all(b"one")).unwrap();
        assert_eq!(digest, Digest::of(b"one"));
        assert_eq!(fs::read(dir.path().join(name(digest))).unwrap(), b"one");
        // A write that fails leaves nothing behind.
        let failed = write_file_named_by_digest(dir.path(), "part", name, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        let names: Vec<_> =
            fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, [name(digest).as_str()]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_killed_writers_temporary_files_are_removed_and_others_stay() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.manifest");
        replace_file(&path, b"whole", false).unwrap();
        // Left by processes that are gone (no process has the largest pid), one still writing
        // (this process's parent), and a file that only looks like one.
        let gone = dir.path().join(format!(".a.manifest.{}.3.tmp", u32::MAX));
        let gone_too = dir.path().join(format!(".b.manifest.{}.0.tmp", u32::MAX));
        let parent = std::os::unix::process::parent_id();
        let running = dir.path().join(format!(".a.manifest.{parent}.0.tmp"));
        let other = dir.path().join(".notes.x.tmp");
        for file in [&gone, &gone_too, &running, &other] {
            fs::write(file, b"half").unwrap();
        }
        remove_temporaries(dir.path());
        assert_eq!(fs::read(&path).unwrap(), b"whole");
        assert!(!gone.exists() && !gone_too.exists());
        assert!(running.exists() && other.exists());
    }
}
