//! The content-addressed image cache.
//!
//! Layout under the cache directory: `{k0k1}/{key}.json` (the [`Processed`] of a key, written
//! last) and `{k0k1}/{key}-{width}.{ext}` (the renditions), where `k0k1` are the key's first
//! two hex digits. Every file is written under a temporary name and renamed, so a killed build
//! never leaves half a file, and two builds sharing the cache at worst encode the same image
//! twice. The metadata file's modification time is the entry's last use (LRU).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use crate::encode::Settings;
use crate::error::{ErrorKind, MediaError};
use crate::pipeline::{SETTINGS, Timings, key, run};
use crate::probe::source_format;
use crate::{Processed, Rendition, SourceFormat};
use stillpoint_fingerprint::{Digest, replace_file};

/// A sensible bound for a site's image cache.
pub const DEFAULT_MAX_BYTES: u64 = 2 << 30;

/// Temporary and orphaned files older than this are removed by garbage collection.
const STALE: Duration = Duration::from_secs(3600);

/// A directory of processed images. `&self` everywhere and `Sync`: process images in parallel
/// from as many threads as the caller likes.
#[derive(Debug)]
pub struct ImageCache {
    dir: PathBuf,
    max_bytes: u64,
    settings: Settings,
    /// Entries this handle has made (the cache grows only by these).
    made: AtomicU64,
    /// The entries this handle has found whole, by key: a handle kept across builds (`dev`)
    /// looks each up on disk once. Forgotten at garbage collection.
    known: Mutex<HashMap<String, Processed>>,
}

/// What [`ImageCache::collect_garbage`] did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct GcReport {
    /// Entries (images) removed.
    pub removed: usize,
    /// Bytes freed (entries, orphans and stale temporary files).
    pub freed_bytes: u64,
    /// Entries left.
    pub kept: usize,
    /// Bytes left.
    pub kept_bytes: u64,
}

impl ImageCache {
    /// Opens (creating it if needed) the cache at `dir`, bounded by `max_bytes` at garbage
    /// collection.
    pub fn open(dir: &Path, max_bytes: u64) -> Result<Self, MediaError> {
        fs::create_dir_all(dir).map_err(|e| MediaError::new(dir, e))?;
        Ok(Self {
            dir: dir.to_path_buf(),
            max_bytes,
            settings: SETTINGS,
            made: AtomicU64::new(0),
            known: Mutex::default(),
        })
    }

    /// The cache at `dir` bounded by `max_bytes`: whether this handle opened it.
    pub fn is(&self, dir: &Path, max_bytes: u64) -> bool {
        self.dir == dir && self.max_bytes == max_bytes
    }

    /// How many entries this handle has made (images processed, not found in the cache).
    pub fn made(&self) -> u64 {
        self.made.load(Ordering::Relaxed)
    }

    /// [`Self::made`], counting again from zero: what one build of a kept handle made.
    pub fn take_made(&self) -> u64 {
        self.made.swap(0, Ordering::Relaxed)
    }

    /// The cache directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn shard(&self, name: &str) -> PathBuf {
        self.dir.join(name.get(..2).unwrap_or("00"))
    }

    fn meta_path(&self, key: &str) -> PathBuf {
        self.shard(key).join(format!("{key}.json"))
    }

    /// Where a rendition's bytes are (to copy or link into the output).
    pub fn path(&self, r: &Rendition) -> PathBuf {
        self.shard(&r.file).join(&r.file)
    }

    /// Processes `source`, or returns the cached result (nothing is decoded on a hit: the
    /// source is read and digested, the metadata read, the renditions checked to exist).
    /// An SVG is an error here: it passes through untouched (see [`crate::probe`]).
    pub fn process(&self, source: &Path) -> Result<Processed, MediaError> {
        self.process_timed(source).map(|(p, _)| p)
    }

    /// [`Self::process`] of a source whose digest (its bytes' `Digest`, as hex) the caller knows (a build keeps
    /// its files' digests): a hit does not read the source at all.
    pub fn process_known(&self, source: &Path, digest: &str) -> Result<Processed, MediaError> {
        let key = key(digest, &self.settings);
        match self.lookup(&key) {
            Some(hit) => Ok(hit),
            None => {
                let bytes = fs::read(source).map_err(|e| MediaError::new(source, e))?;
                self.make(source, &bytes, key).map(|(p, _)| p)
            }
        }
    }

    /// [`Self::process`], also telling where the time went (zero on a hit).
    pub fn process_timed(&self, source: &Path) -> Result<(Processed, Timings), MediaError> {
        let bytes = fs::read(source).map_err(|e| MediaError::new(source, e))?;
        let key = key(&Digest::of(&bytes).to_string(), &self.settings);
        if let Some(hit) = self.lookup(&key) {
            return Ok((hit, Timings::default()));
        }
        self.make(source, &bytes, key)
    }

    /// Runs the pipeline on `bytes` and stores the entry `key`.
    fn make(
        &self,
        source: &Path,
        bytes: &[u8],
        key: String,
    ) -> Result<(Processed, Timings), MediaError> {
        let err = |kind: ErrorKind| MediaError::new(source, kind);
        let format = source_format(bytes).map_err(err)?;
        if format == SourceFormat::Svg {
            return Err(err(ErrorKind::Unsupported(
                "SVG here (vector images are used as they are, without renditions)".into(),
            )));
        }
        let shard = self.shard(&key);
        fs::create_dir_all(&shard).map_err(|e| MediaError::new(&shard, e))?;
        let mut sink = |file: &str, data: &[u8]| -> Result<(), ErrorKind> {
            replace_file(&shard.join(file), data, true).map_err(ErrorKind::Io)
        };
        let (processed, timings) =
            run(bytes, format, &key, &self.settings, &mut sink).map_err(err)?;
        let meta = serde_json::to_vec_pretty(&processed)
            .map_err(|e| err(ErrorKind::Cache(e.to_string())))?;
        let meta_path = self.meta_path(&key);
        replace_file(&meta_path, &meta, false).map_err(|e| MediaError::new(&meta_path, e))?;
        self.made.fetch_add(1, Ordering::Relaxed);
        Ok((processed, timings))
    }

    /// The cached entry of `key` when it is whole; marks it used.
    fn lookup(&self, key: &str) -> Option<Processed> {
        if let Some(hit) = self.known_entries().get(key) {
            return Some(hit.clone());
        }
        let processed = self.lookup_on_disk(key)?;
        self.known_entries().insert(key.to_string(), processed.clone());
        Some(processed)
    }

    fn known_entries(&self) -> std::sync::MutexGuard<'_, HashMap<String, Processed>> {
        self.known.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The entry `key` when its metadata and every rendition are on disk (marked used).
    fn lookup_on_disk(&self, key: &str) -> Option<Processed> {
        let meta_path = self.meta_path(key);
        let bytes = fs::read(&meta_path).ok()?;
        let processed: Processed = match serde_json::from_slice(&bytes) {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(
                    "{}: corrupt cache entry, processing again ({e})",
                    meta_path.display()
                );
                return None;
            }
        };
        let whole = processed.key == key
            && processed
                .renditions
                .iter()
                .chain([&processed.share])
                .all(|r| self.path(r).is_file());
        if !whole {
            return None;
        }
        if let Ok(file) = fs::File::options().write(true).open(&meta_path) {
            let _ = file.set_modified(SystemTime::now());
        }
        Some(processed)
    }

    /// Removes entries not in `used`, least recently used first, until the cache holds at
    /// most `max_bytes`; entries in `used` are never removed. Also removes temporary files
    /// and renditions without metadata older than an hour (left by killed builds).
    pub fn collect_garbage(&self, used: &HashSet<String>) -> Result<GcReport, MediaError> {
        self.known_entries().clear();
        struct Entry {
            files: Vec<(PathBuf, u64)>,
            last_use: Option<SystemTime>,
            newest: SystemTime,
        }
        let now = SystemTime::now();
        let is_stale = |t: SystemTime| now.duration_since(t).is_ok_and(|age| age > STALE);
        let mut report = GcReport::default();
        let mut entries: HashMap<String, Entry> = HashMap::new();
        let read_dir = |dir: &Path| fs::read_dir(dir).map_err(|e| MediaError::new(dir, e));
        for shard in read_dir(&self.dir)? {
            let shard = shard.map_err(|e| MediaError::new(&self.dir, e))?.path();
            if !shard.is_dir() {
                continue;
            }
            for file in read_dir(&shard)? {
                let path = file.map_err(|e| MediaError::new(&shard, e))?.path();
                let Ok(meta) = path.metadata() else { continue };
                let modified = meta.modified().unwrap_or(now);
                let name =
                    path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
                if name.starts_with('.') {
                    if is_stale(modified) && fs::remove_file(&path).is_ok() {
                        report.freed_bytes += meta.len();
                    }
                    continue;
                }
                let key = name.split(['-', '.']).next().unwrap_or_default().to_string();
                let entry = entries.entry(key).or_insert(Entry {
                    files: Vec::new(),
                    last_use: None,
                    newest: SystemTime::UNIX_EPOCH,
                });
                if name.ends_with(".json") {
                    entry.last_use = Some(modified);
                }
                entry.newest = entry.newest.max(modified);
                entry.files.push((path, meta.len()));
            }
        }

        let remove = |entry: &Entry, report: &mut GcReport| {
            for (path, len) in &entry.files {
                if fs::remove_file(path).is_ok() {
                    report.freed_bytes += len;
                }
            }
        };
        let mut total: u64 = 0;
        let mut candidates = Vec::new();
        for (key, entry) in &entries {
            if entry.last_use.is_none() && !used.contains(key) {
                if is_stale(entry.newest) {
                    remove(entry, &mut report); // orphans of a killed build
                } else {
                    total += entry.files.iter().map(|(_, len)| len).sum::<u64>();
                }
                continue;
            }
            total += entry.files.iter().map(|(_, len)| len).sum::<u64>();
            if !used.contains(key) {
                candidates.push((entry.last_use.unwrap_or(entry.newest), key));
            }
        }
        candidates.sort();
        for (_, key) in candidates {
            if total <= self.max_bytes {
                break;
            }
            let entry = &entries[key];
            remove(entry, &mut report);
            total = total.saturating_sub(entry.files.iter().map(|(_, len)| len).sum());
            report.removed += 1;
        }
        report.kept = entries.values().filter(|e| e.last_use.is_some()).count() - report.removed;
        report.kept_bytes = total;
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept handle (`dev`) reads an entry from disk once, and again after garbage collection;
    /// a new handle reads it from disk.
    #[test]
    fn a_handle_reads_each_entry_from_disk_once() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("a.png");
        let image =
            image::RgbImage::from_fn(40, 30, |x, y| image::Rgb([x as u8 * 6, y as u8 * 8, 90]));
        image.save(&source).unwrap();
        let cache = ImageCache::open(&dir.path().join("cache"), 1 << 30).unwrap();
        let made = cache.process(&source).unwrap();
        assert_eq!(cache.take_made(), 1);
        assert_eq!(cache.take_made(), 0);
        assert_eq!(cache.process(&source).unwrap(), made, "found whole on disk");
        // What the handle found is not read again: with its metadata gone, it still knows it.
        fs::remove_file(cache.meta_path(&made.key)).unwrap();
        assert_eq!(cache.process(&source).unwrap(), made);
        assert_eq!(cache.made(), 0);
        // Garbage collection forgets: the entry is looked for on disk, and made again.
        cache.collect_garbage(&HashSet::new()).unwrap();
        assert_eq!(cache.process(&source).unwrap(), made);
        assert_eq!(cache.take_made(), 1);
        let other = ImageCache::open(&dir.path().join("cache"), 1 << 30).unwrap();
        assert_eq!(other.process(&source).unwrap(), made);
        assert_eq!(other.made(), 0);
    }

    #[test]
    fn cache_is_sync() {
        fn assert_sync<T: Sync + Send>() {}
        assert_sync::<ImageCache>();
    }
}
