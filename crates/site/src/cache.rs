//! The build cache (`SITE/.stillpoint/build-cache.bin` by default): for every page, the digest
//! of everything its bytes depend on and the digests of the files it produced; the header and
//! footer slices with the key they were rendered for; and the size, time and digest of every
//! file copied into the output; the articles as parsed; and the outline of the last build with
//! the output it left (see `build/outline.rs`). It sits beside the stages as an accelerator: a
//! build consults it to skip parsing, planning and rendering, and a page is reused only when the
//! live output still holds exactly the files recorded for it. A missing, corrupt or foreign cache
//! means a clean build. The file is postcard-encoded and closed by a checksum of its bytes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use stillpoint_content::ParsedArticles;
use stillpoint_fingerprint::{Digest, Stamp};

use crate::build::OutlineRecord;
use crate::emit::file_digest;
use crate::error::BuildError;

/// The cache file inside the cache directory.
pub const CACHE_FILE: &str = "build-cache.bin";
const FORMAT: u32 = 6;
/// Bytes of the digest closing the file, over everything before them.
const CHECK_LEN: usize = 16;

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct BuildCache {
    format: u32,
    engine: String,
    /// The header and footer HTML, and the key they were rendered for.
    pub slices: Option<Slices>,
    /// Route → what its page was last rendered from and into.
    pub pages: FxHashMap<String, PageEntry>,
    /// Source file → its stamp and digest when last read.
    pub files: HashMap<PathBuf, FileStamp>,
    /// The articles as parsed from their files' bytes.
    pub parsed: ParsedArticles,
    /// The last build's outline, the digest of the manifest of the output it left, and where
    /// each article was shown.
    outline: Option<OutlineRecord>,
    #[serde(skip)]
    changed: bool,
    #[serde(skip)]
    seen: std::collections::HashSet<PathBuf>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slices {
    pub key: String,
    pub header: String,
    pub footer: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageEntry {
    /// Digest of everything the page's bytes depend on.
    pub key: String,
    /// Digests of the HTML and the page-data written.
    pub html: String,
    pub data: String,
    /// For an article's page, the digest of the article's file it was rendered from.
    pub source: Option<String>,
}

/// A source file's digest, and the stamp that vouches for it while the file is not written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    stamp: Stamp,
    digest: String,
}

impl BuildCache {
    /// An empty cache for this engine.
    pub fn empty(engine: &str) -> Self {
        Self { format: FORMAT, engine: engine.to_string(), changed: true, ..Self::default() }
    }

    /// Reads the cache in `dir`. When it cannot be used, returns an empty one and says why.
    pub fn load(dir: &Path, engine: &str) -> (Self, Option<String>) {
        let path = dir.join(CACHE_FILE);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return (
                    Self::empty(engine),
                    Some("no build cache yet: building everything".into()),
                );
            }
            Err(e) => {
                return (
                    Self::empty(engine),
                    Some(format!("build cache unreadable ({e}): building everything")),
                );
            }
        };
        let empty = |why: String| (Self::empty(engine), Some(why));
        let corrupt = |e: String| {
            format!("build cache {} is corrupt ({e}): building everything", path.display())
        };
        let payload = match checked(&bytes) {
            Ok(p) => p,
            Err(e) => return empty(corrupt(e)),
        };
        // The format and engine lead the file, so another version is told apart from damage.
        match postcard::take_from_bytes::<(u32, String)>(payload) {
            Ok(((format, found), _)) if format == FORMAT && found == engine => {}
            Ok(_) => {
                return empty(
                    "build cache is from another version of stillpoint: building everything".into(),
                );
            }
            Err(e) => return empty(corrupt(e.to_string())),
        }
        match postcard::from_bytes::<Self>(payload) {
            Ok(c) => (c, None),
            Err(e) => empty(corrupt(e.to_string())),
        }
    }

    /// Whether the last build had this outline and left an output whose manifest has this
    /// digest: then only the pages of changed articles can differ from that output.
    pub fn same_outline(&self, outline: &str, output: Option<&str>) -> bool {
        matches!((&self.outline, output), (Some(r), Some(o)) if r.key == outline && r.output == o)
    }

    /// What the last build recorded of its outline.
    pub fn outline_record(&self) -> Option<&OutlineRecord> {
        self.outline.as_ref()
    }

    /// Records that a build with the last build's outline left the output whose manifest has
    /// the digest `output` (None: nothing is recorded).
    pub fn set_outline_output(&mut self, output: Option<String>) {
        match (&mut self.outline, output) {
            (Some(record), Some(output)) if record.output == output => {}
            (Some(record), Some(output)) => {
                record.output = output;
                self.changed = true;
            }
            (None, _) => {}
            (record, None) => {
                *record = None;
                self.changed = true;
            }
        }
    }

    /// Records the outline of a build that completed, with the digest of its output's manifest
    /// (None: nothing is recorded).
    pub fn set_outline(&mut self, record: Option<OutlineRecord>) {
        if self.outline != record {
            self.outline = record;
            self.changed = true;
        }
    }

    /// Writes the cache through a temporary file, when anything in it changed.
    pub fn save(&self, dir: &Path) -> Result<(), BuildError> {
        if !self.changed && !self.parsed.is_changed() {
            return Ok(());
        }
        std::fs::create_dir_all(dir).map_err(|e| BuildError::io(dir, e))?;
        let path = dir.join(CACHE_FILE);
        let tmp = dir.join(format!("{CACHE_FILE}.tmp"));
        let mut bytes = postcard::to_stdvec(self).expect("the cache serialises");
        let check = Digest::of(&bytes).bytes();
        bytes.extend_from_slice(&check[..CHECK_LEN]);
        std::fs::write(&tmp, bytes).map_err(|e| BuildError::io(&tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| BuildError::io(&path, e))
    }

    /// Records a page's entry.
    pub fn set_page(&mut self, route: &str, entry: PageEntry) {
        if self.pages.get(route) != Some(&entry) {
            self.pages.insert(route.to_string(), entry);
            self.changed = true;
        }
    }

    /// Keeps only the pages of `routes`.
    pub fn retain_pages(&mut self, keep: impl Fn(&str) -> bool) {
        let before = self.pages.len();
        self.pages.retain(|route, _| keep(route));
        self.changed |= self.pages.len() != before;
    }

    pub fn set_slices(&mut self, slices: Slices) {
        if self.slices.as_ref() != Some(&slices) {
            self.slices = Some(slices);
            self.changed = true;
        }
    }

    /// The digest of a source file's bytes, read again only when its stamp changed (or was too
    /// fresh to be trusted: see `stillpoint_fingerprint::Stamp`).
    pub fn file_digest(&mut self, path: &Path) -> Result<String, BuildError> {
        self.seen.insert(path.to_path_buf());
        let read_at = SystemTime::now();
        let meta = std::fs::metadata(path).map_err(|e| BuildError::io(path, e))?;
        if let Some(s) = self.files.get(path)
            && s.stamp.matches(&meta)
        {
            return Ok(s.digest.clone());
        }
        let bytes = std::fs::read(path).map_err(|e| BuildError::io(path, e))?;
        let digest = file_digest(&bytes);
        match Stamp::of(&meta, read_at) {
            Some(stamp) => {
                self.files.insert(path.to_path_buf(), FileStamp { stamp, digest: digest.clone() });
                self.changed = true;
            }
            None => self.changed |= self.files.remove(path).is_some(),
        }
        Ok(digest)
    }

    /// Forgets files that were not looked at in this build.
    pub fn retain_seen_files(&mut self) {
        let before = self.files.len();
        let seen = std::mem::take(&mut self.seen);
        self.files.retain(|p, _| seen.contains(p));
        self.changed |= self.files.len() != before;
    }
}

/// The payload of a cache file, when its trailing checksum matches.
fn checked(bytes: &[u8]) -> Result<&[u8], String> {
    let split = bytes.len().checked_sub(CHECK_LEN).ok_or("too short")?;
    let (payload, check) = bytes.split_at(split);
    if Digest::of(payload).bytes()[..CHECK_LEN] == *check {
        Ok(payload)
    } else {
        Err("checksum mismatch".into())
    }
}

/// Identifies the engine that wrote a cache: its version and a digest of its executable's bytes,
/// so a rebuilt binary never trusts pages rendered by another, while the same executable
/// installed again (`npm ci` in CI, which stamps every file with the time of the install) keeps
/// its cache. The caller names the executable (the CLI: its own, read once per process, about
/// 25 ms for a release executable with its line tables); without one, or when it cannot be
/// read, only the version identifies the engine.
pub fn engine_id(executable: Option<&Path>) -> String {
    let digest = executable.and_then(|exe| Digest::of_file(exe).ok());
    format!("{} {}", env!("CARGO_PKG_VERSION"), digest.map_or("0".repeat(32), |d| d.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_foreign_or_corrupt_cache_is_not_used() {
        let dir = tempfile::tempdir().unwrap();
        let (c, why) = BuildCache::load(dir.path(), "v1");
        assert!(why.unwrap().contains("no build cache"));
        c.save(dir.path()).unwrap();
        assert!(BuildCache::load(dir.path(), "v1").1.is_none());
        assert!(BuildCache::load(dir.path(), "v2").1.unwrap().contains("another version"));
        std::fs::write(dir.path().join(CACHE_FILE), b"{not json").unwrap();
        assert!(BuildCache::load(dir.path(), "v1").1.unwrap().contains("corrupt"));
    }

    #[test]
    fn a_file_is_read_again_when_it_changes() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("x.txt");
        std::fs::write(&f, "one").unwrap();
        let mut c = BuildCache::empty("v");
        let a = c.file_digest(&f).unwrap();
        assert_eq!(c.file_digest(&f).unwrap(), a);
        std::fs::write(&f, "two!").unwrap();
        assert_ne!(c.file_digest(&f).unwrap(), a);
    }

    #[test]
    fn a_file_digest_is_vouched_for_by_its_stamp_only_once_the_file_settled() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("photo.jpg");
        std::fs::write(&f, "fresh").unwrap();
        let mut c = BuildCache::empty("v");
        c.file_digest(&f).unwrap();
        assert!(!c.files.contains_key(&f), "a file written just now is read again next time");
        let past = SystemTime::now() - std::time::Duration::from_secs(60);
        std::fs::File::options().write(true).open(&f).unwrap().set_modified(past).unwrap();
        let digest = c.file_digest(&f).unwrap();
        assert_eq!(c.files[&f].digest, digest);
        // Same size and time, other bytes: a new inode (an editor's save) tells it apart.
        let tmp = dir.path().join("photo.tmp");
        std::fs::write(&tmp, "FRESH").unwrap();
        std::fs::File::options().write(true).open(&tmp).unwrap().set_modified(past).unwrap();
        std::fs::rename(&tmp, &f).unwrap();
        assert_ne!(c.file_digest(&f).unwrap(), digest);
    }
}
