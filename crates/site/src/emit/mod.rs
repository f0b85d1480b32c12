//! Writing the output: everything goes into a staging directory beside the destination, which
//! replaces the destination only when the whole build succeeded. A failed build leaves the
//! previous output untouched.

use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::BuildError;

pub struct Staging {
    dir: PathBuf,
    dest: PathBuf,
    committed: bool,
}

impl Staging {
    pub fn new(dest: &Path) -> Result<Self, BuildError> {
        let name =
            dest.file_name().map_or_else(|| "dist".into(), |n| n.to_string_lossy().into_owned());
        let parent = dest.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        fs::create_dir_all(parent).map_err(|e| BuildError::io(parent, e))?;
        let dir = parent.join(format!(".{name}.staging-{}", std::process::id()));
        if dir.exists() {
            fs::remove_dir_all(&dir).map_err(|e| BuildError::io(&dir, e))?;
        }
        fs::create_dir_all(&dir).map_err(|e| BuildError::io(&dir, e))?;
        Ok(Self { dir, dest: dest.to_path_buf(), committed: false })
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Writes `rel` (a `/`-separated path inside the output), creating its folders.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), BuildError> {
        let path = self.dir.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| BuildError::io(parent, e))?;
        }
        fs::write(&path, bytes).map_err(|e| BuildError::io(&path, e))
    }

    /// Swaps the staging directory into place of the destination.
    pub fn commit(mut self) -> Result<(), BuildError> {
        let old = self.dir.with_extension("old");
        if self.dest.exists() {
            fs::rename(&self.dest, &old).map_err(|e| BuildError::io(&self.dest, e))?;
        }
        if let Err(e) = fs::rename(&self.dir, &self.dest) {
            let _ = fs::rename(&old, &self.dest); // put the previous output back
            return Err(BuildError::io(&self.dest, e));
        }
        self.committed = true;
        if old.exists() {
            fs::remove_dir_all(&old).map_err(|e| BuildError::io(&old, e))?;
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

/// Copies a directory tree into `dest_rel` of the staging directory; returns the files copied.
pub fn copy_tree(staging: &Staging, src: &Path, dest_rel: &str) -> Result<Vec<String>, BuildError> {
    let mut copied = Vec::new();
    for entry in walkdir::WalkDir::new(src).sort_by_file_name() {
        let entry = entry.map_err(|e| BuildError::io(src, e.into()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(src)
            .expect("inside src")
            .to_string_lossy()
            .replace('\\', "/");
        let target = if dest_rel.is_empty() { rel.clone() } else { format!("{dest_rel}/{rel}") };
        let to = staging.path().join(&target);
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent).map_err(|e| BuildError::io(parent, e))?;
        }
        fs::copy(entry.path(), &to).map_err(|e| BuildError::io(entry.path(), e))?;
        copied.push(target);
    }
    Ok(copied)
}

/// A short content digest (hex) of byte strings, for content-hashed names and the build hash.
pub fn digest<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    hex::encode(&h.finalize()[..10])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_staging_leaves_destination_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        let dest = tmp.path().join("dist");
        fs::create_dir_all(&dest).unwrap();
        fs::write(dest.join("index.html"), "old").unwrap();
        {
            let s = Staging::new(&dest).unwrap();
            s.write("index.html", b"new").unwrap();
        }
        assert_eq!(fs::read_to_string(dest.join("index.html")).unwrap(), "old");
        assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 1, "staging removed");
    }

    #[test]
    fn commit_replaces_destination() {
        let tmp = tempfile::tempdir().unwrap();
        let dest = tmp.path().join("dist");
        fs::create_dir_all(&dest).unwrap();
        fs::write(dest.join("stale.html"), "old").unwrap();
        let s = Staging::new(&dest).unwrap();
        s.write("a/b/index.html", b"new").unwrap();
        s.commit().unwrap();
        assert_eq!(fs::read_to_string(dest.join("a/b/index.html")).unwrap(), "new");
        assert!(!dest.join("stale.html").exists());
        assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 1);
    }

    #[test]
    fn digest_is_stable_and_length_prefixed() {
        assert_eq!(digest([b"ab".as_slice(), b"c"]), digest([b"ab".as_slice(), b"c"]));
        assert_ne!(digest([b"ab".as_slice(), b"c"]), digest([b"a".as_slice(), b"bc"]));
        assert_eq!(digest([b"x".as_slice()]).len(), 20);
    }
}
