//! The web bundle the binary carries (embedded by `build.rs`), unpacked on first use into a
//! directory named for the engine version and the bundle's digest, which every later run reuses.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/web_bundle.rs"));
}

/// Whether this binary carries its web bundle.
pub fn is_embedded() -> bool {
    !embedded::FILES.is_empty()
}

/// The embedded bundle's digest (empty when none is embedded), for `--version`.
pub fn digest() -> &'static str {
    if is_embedded() { embedded::DIGEST } else { "" }
}

/// The bundle to build with: `explicit` (`--web` or `STILLPOINT_WEB`) when given, else the one
/// this binary carries, unpacked; `None` when it carries none (a binary built before `web/dist`),
/// and the site looks beside the executable and in the checkout.
pub fn resolve(explicit: Option<&Path>) -> anyhow::Result<Option<PathBuf>> {
    if let Some(dir) = explicit {
        return Ok(Some(dir.to_path_buf()));
    }
    if !is_embedded() {
        return Ok(None);
    }
    let root = cache_root().context(
        "no cache directory for the web bundle: set STILLPOINT_CACHE_DIR, or pass --web DIR",
    )?;
    let dir = root.join(format!("web-{}-{}", env!("CARGO_PKG_VERSION"), embedded::DIGEST));
    unpack(&dir, embedded::FILES).with_context(|| {
        format!(
            "cannot unpack the web bundle into {}: set STILLPOINT_CACHE_DIR to a writable \
             directory, or pass --web DIR",
            dir.display()
        )
    })?;
    Ok(Some(dir))
}

/// `STILLPOINT_CACHE_DIR`, else the user's cache directory (`$XDG_CACHE_HOME` or `~/.cache` on
/// Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows) + `stillpoint`.
pub fn cache_root() -> Option<PathBuf> {
    match std::env::var_os("STILLPOINT_CACHE_DIR") {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => dirs::cache_dir().map(|d| d.join("stillpoint")),
    }
}

/// Makes `dir` hold exactly `files`' bytes. A complete copy is reused; a missing, partial or
/// altered one is replaced. The copy is written beside `dir` and renamed into place, so a
/// reader never sees half a bundle, and two processes unpacking at once both succeed.
fn unpack(dir: &Path, files: &[(&str, &[u8])]) -> std::io::Result<()> {
    if holds(dir, files) {
        return Ok(());
    }
    let parent = dir.parent().expect("a named directory has a parent");
    std::fs::create_dir_all(parent)?;
    let name = dir.file_name().expect("a named directory").to_string_lossy();
    let staging = parent.join(format!(".{name}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    let written = write_all(&staging, files);
    let placed = written.and_then(|()| match std::fs::rename(&staging, dir) {
        Err(_) if holds(dir, files) => Ok(()),
        Err(e) if dir.exists() => {
            // An altered or partial copy: replace it.
            std::fs::remove_dir_all(dir).or_else(|r| match r.kind() {
                ErrorKind::NotFound => Ok(()),
                _ => Err(e),
            })?;
            std::fs::rename(&staging, dir)
        }
        other => other,
    });
    let _ = std::fs::remove_dir_all(&staging);
    placed
}

fn write_all(dir: &Path, files: &[(&str, &[u8])]) -> std::io::Result<()> {
    for (rel, bytes) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("below the bundle"))?;
        std::fs::write(path, bytes)?;
    }
    Ok(())
}

/// Whether every file under `dir` has its exact bytes (1.3 MB read: about a millisecond).
fn holds(dir: &Path, files: &[(&str, &[u8])]) -> bool {
    files.iter().all(|(rel, bytes)| std::fs::read(dir.join(rel)).is_ok_and(|b| b == *bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILES: &[(&str, &[u8])] =
        &[("server/worker.js", b"worker"), ("client/.vite/manifest.json", b"{}")];

    #[test]
    fn unpacks_once_and_reuses_a_complete_copy() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("web-1.0.0-abc");
        unpack(&dir, FILES).unwrap();
        assert_eq!(std::fs::read(dir.join("server/worker.js")).unwrap(), b"worker");
        let stamp = std::fs::metadata(dir.join("server/worker.js")).unwrap().modified().unwrap();
        unpack(&dir, FILES).unwrap();
        let again = std::fs::metadata(dir.join("server/worker.js")).unwrap().modified().unwrap();
        assert_eq!(stamp, again, "a complete copy is not rewritten");
        let left: Vec<_> =
            std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(left, [dir], "no staging directory is left behind");
    }

    #[test]
    fn replaces_an_altered_or_partial_copy() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("web-1.0.0-abc");
        unpack(&dir, FILES).unwrap();
        std::fs::write(dir.join("server/worker.js"), b"tampered").unwrap();
        std::fs::remove_file(dir.join("client/.vite/manifest.json")).unwrap();
        unpack(&dir, FILES).unwrap();
        assert!(holds(&dir, FILES));
    }

    #[test]
    fn an_unwritable_cache_is_an_error_not_a_panic() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("not-a-dir");
        std::fs::write(&file, b"").unwrap();
        assert!(unpack(&file.join("web-1.0.0-abc"), FILES).is_err());
    }
}
