//! The build cache (`SITE/.stillpoint/build-cache.bin` by default): for every page, the digest
//! of everything its bytes depend on and the digests of the files it produced; the header and
//! footer slices with the key they were rendered for; and the size, time and digest of every
//! file copied into the output; the articles as parsed; the outline of the last build with the
//! output it left (see `build/outline.rs`), and its catalog. It sits beside the stages as an
//! accelerator: a build consults it to skip parsing, planning and rendering, and a page is reused
//! only when the live output still holds exactly the files recorded for it. A missing, corrupt
//! or foreign cache means a clean build.
//!
//! On disk it is a head (`build-cache.bin`, postcard, closed by a checksum of its bytes) naming
//! the parts the entries are kept in (`build-cache/NAME.DIGEST`, each named by the digest of its
//! bytes): the pages and the parsed articles are spread over [`SHARDS`] parts each by a digest
//! of their route or file, so that a save after an edit writes the few parts it touched and a
//! new head, and the parts are read and decoded side by side. The head is replaced last, so a
//! build killed while saving leaves the cache it read.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use stillpoint_content::{Catalog, ParsedArticles, ReadPart};
use stillpoint_fingerprint::{Digest, Stamp};

use crate::build::OutlineRecord;
use crate::emit::file_digest;
use crate::error::BuildError;

/// The cache's head inside the cache directory.
pub const CACHE_FILE: &str = "build-cache.bin";
/// The folder of the parts the head names, beside it.
const PARTS_DIR: &str = "build-cache";
const FORMAT: u32 = 9;
/// Bytes of the digest closing the head, over everything before them.
const CHECK_LEN: usize = 16;
/// How many parts the pages and the parsed articles are each spread over.
const SHARDS: usize = 32;

#[derive(Debug, Default)]
pub struct BuildCache {
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
    /// The catalog of the last build, with the outline placement it was built for.
    catalog: Option<(String, Arc<Catalog>)>,
    /// What changed since the cache was read or saved.
    dirty: Dirty,
    seen: HashSet<PathBuf>,
    /// The parts the head read or saved last names: part → digest.
    parts: FxHashMap<Part, [u8; 16]>,
}

/// The parts to write again at the next save.
#[derive(Debug, Default)]
struct Dirty {
    all: bool,
    meta: bool,
    outline: bool,
    catalog: bool,
    /// Bit `i`: the pages' part `i`.
    pages: u64,
}

/// A part of the cache on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
enum Part {
    /// The slices, the files' stamps and the output the last build left.
    Meta,
    /// The outline of the last build, but for its output.
    Outline,
    /// The catalog of the last build.
    Catalog,
    Pages(u8),
    Parsed(u8),
}

impl Part {
    fn all() -> impl Iterator<Item = Part> {
        let shards = (0..SHARDS as u8).flat_map(|i| [Part::Pages(i), Part::Parsed(i)]);
        [Part::Meta, Part::Outline, Part::Catalog].into_iter().chain(shards)
    }

    /// The part's name before its digest.
    fn stem(self) -> String {
        match self {
            Part::Meta => "meta".to_string(),
            Part::Outline => "outline".to_string(),
            Part::Catalog => "catalog".to_string(),
            Part::Pages(i) => format!("pages-{i:02}"),
            Part::Parsed(i) => format!("parsed-{i:02}"),
        }
    }

    fn file_name(self, digest: &[u8; 16]) -> String {
        format!("{}.{}", self.stem(), Digest::from_bytes(*digest))
    }
}

/// The part of the pages or parsed articles an entry with this route or file is kept in.
fn shard(key: &[u8]) -> u8 {
    (Digest::of(key).bytes()[0] as usize % SHARDS) as u8
}

fn path_shard(path: &Path) -> u8 {
    shard(path.as_os_str().as_encoded_bytes())
}

/// What the head holds: the format and engine lead, so another version is told apart from
/// damage.
#[derive(Serialize, Deserialize)]
struct Head {
    format: u32,
    engine: String,
    parts: Vec<(Part, [u8; 16])>,
}

#[derive(Serialize, Deserialize)]
struct Meta {
    slices: Option<Slices>,
    files: HashMap<PathBuf, FileStamp>,
    outline_output: Option<String>,
}

#[derive(Serialize)]
struct MetaRef<'a> {
    slices: &'a Option<Slices>,
    files: &'a HashMap<PathBuf, FileStamp>,
    outline_output: Option<&'a str>,
}

#[derive(Serialize)]
struct OutlinePartRef<'a> {
    record: Option<&'a OutlineRecord>,
}

/// The outline record but for its output (which changes with every build: it is in `Meta`).
#[derive(Default, Serialize, Deserialize)]
struct OutlinePart {
    record: Option<OutlineRecord>,
}

/// A part read back.
enum Read {
    Meta(Meta),
    Outline(OutlinePart),
    Catalog(Option<(String, Catalog)>),
    Pages(Vec<(String, PageEntry)>),
    Parsed(ReadPart),
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
    pub key: Digest,
    /// Digests of the HTML and the page-data written.
    pub html: Digest,
    pub data: Digest,
    /// For an article's page, the digest of what it was rendered from: its file and its
    /// images (`SiteImages::article_source`).
    pub source: Option<Digest>,
}

/// A source file's digest, and the stamp that vouches for it while the file is not written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    stamp: Stamp,
    digest: Digest,
}

impl BuildCache {
    /// An empty cache for this engine.
    pub fn empty(engine: &str) -> Self {
        let dirty = Dirty { all: true, ..Dirty::default() };
        Self { engine: engine.to_string(), dirty, ..Self::default() }
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
        match postcard::take_from_bytes::<(u32, String)>(payload) {
            Ok(((format, found), _)) if format == FORMAT && found == engine => {}
            Ok(_) => {
                return empty(
                    "build cache is from another version of stillpoint: building everything".into(),
                );
            }
            Err(e) => return empty(corrupt(e.to_string())),
        }
        let head = match postcard::from_bytes::<Head>(payload) {
            Ok(head) => head,
            Err(e) => return empty(corrupt(e.to_string())),
        };
        match Self::read_parts(&dir.join(PARTS_DIR), head) {
            Ok(cache) => (cache, None),
            Err(e) => empty(corrupt(e)),
        }
    }

    /// The cache made of the parts `head` names, read and decoded side by side.
    fn read_parts(dir: &Path, head: Head) -> Result<Self, String> {
        let parts: FxHashMap<Part, [u8; 16]> = head.parts.into_iter().collect();
        if !Part::all().all(|p| parts.contains_key(&p)) || parts.len() != Part::all().count() {
            return Err("the head does not name every part".into());
        }
        let read = parts
            .par_iter()
            .map(|(&part, digest)| {
                let name = part.file_name(digest);
                let bytes = std::fs::read(dir.join(&name)).map_err(|e| format!("{name}: {e}"))?;
                if Digest::of(&bytes).bytes() != *digest {
                    return Err(format!("{name}: checksum mismatch"));
                }
                let decoded = match part {
                    Part::Meta => postcard::from_bytes(&bytes).map(Read::Meta),
                    Part::Outline => postcard::from_bytes(&bytes).map(Read::Outline),
                    Part::Catalog => postcard::from_bytes(&bytes).map(Read::Catalog),
                    Part::Pages(_) => postcard::from_bytes(&bytes).map(Read::Pages),
                    Part::Parsed(_) => postcard::from_bytes(&bytes).map(Read::Parsed),
                };
                decoded.map_err(|e| format!("{name}: {e}"))
            })
            .collect::<Result<Vec<Read>, String>>()?;
        let mut cache = Self { engine: head.engine, parts, ..Self::default() };
        let mut outline = None;
        let mut outline_output = None;
        let mut parsed = Vec::with_capacity(SHARDS);
        let count = read.iter().map(|r| if let Read::Pages(p) = r { p.len() } else { 0 }).sum();
        cache.pages.reserve(count);
        for part in read {
            match part {
                Read::Meta(meta) => {
                    cache.slices = meta.slices;
                    cache.files = meta.files;
                    outline_output = meta.outline_output;
                }
                Read::Outline(part) => outline = part.record,
                Read::Catalog(catalog) => cache.catalog = catalog.map(|(k, c)| (k, Arc::new(c))),
                Read::Pages(pages) => cache.pages.extend(pages),
                Read::Parsed(part) => parsed.push(part),
            }
        }
        cache.outline =
            outline.zip(outline_output).map(|(record, output)| OutlineRecord { output, ..record });
        cache.parsed = ParsedArticles::from_parts(parsed);
        Ok(cache)
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
                self.dirty.meta = true;
            }
            (None, _) => {}
            (record, None) => {
                *record = None;
                self.dirty.meta = true;
            }
        }
    }

    /// Records the outline of a build that completed, with the digest of its output's manifest
    /// (None: nothing is recorded).
    pub fn set_outline(&mut self, record: Option<OutlineRecord>) {
        if self.outline != record {
            self.outline = record;
            self.dirty.meta = true;
            self.dirty.outline = true;
        }
    }

    /// Writes the parts that changed since the cache was read or last saved, each under the
    /// digest of its bytes, then the head naming them, then removes the parts no head names.
    pub fn save(&mut self, dir: &Path) -> Result<(), BuildError> {
        let touched = self.parsed.take_touched();
        let dirty = std::mem::take(&mut self.dirty);
        let parsed: u64 = match touched {
            Some(touched) => touched.iter().fold(0, |bits, p| bits | 1u64 << path_shard(p)),
            None => (1u64 << SHARDS) - 1,
        };
        let stale = |part: &Part| match *part {
            _ if dirty.all => true,
            Part::Meta => dirty.meta,
            Part::Outline => dirty.outline,
            Part::Catalog => dirty.catalog,
            Part::Pages(i) => dirty.pages & 1 << i != 0,
            Part::Parsed(i) => parsed & 1 << i != 0,
        };
        let stale: Vec<Part> = Part::all().filter(stale).collect();
        if stale.is_empty() {
            return Ok(());
        }
        let parts_dir = dir.join(PARTS_DIR);
        std::fs::create_dir_all(&parts_dir).map_err(|e| BuildError::io(&parts_dir, e))?;
        // What a killed save or record left (the parts, the head, the build's record).
        stillpoint_fingerprint::remove_temporaries(dir);
        stillpoint_fingerprint::remove_temporaries(&parts_dir);
        // The pages by part, each route hashed once (when any part of them is written).
        let mut pages: Vec<Vec<(&String, &PageEntry)>> = vec![Vec::new(); SHARDS];
        if stale.iter().any(|p| matches!(p, Part::Pages(_))) {
            for entry in &self.pages {
                pages[shard(entry.0.as_bytes()) as usize].push(entry);
            }
        }
        // Each part is encoded as it is written, digested on its way to the file it is then
        // named for: at 1,000,000 articles the parts are over a gigabyte, which a build at its
        // peak does not also hold as buffers.
        let written = stale
            .par_iter()
            .map(|&part| {
                let digest = stillpoint_fingerprint::write_file_named_by_digest(
                    &parts_dir,
                    &part.stem(),
                    |d| part.file_name(&d.bytes()),
                    |w| self.encode(part, &pages, w),
                )
                .map_err(|e| BuildError::io(&parts_dir.join(part.stem()), e))?;
                Ok((part, digest.bytes()))
            })
            .collect::<Result<Vec<_>, BuildError>>();
        let written = match written {
            Ok(written) => written,
            Err(e) => {
                // Nothing was saved: the next save writes the same parts again.
                self.dirty.all = true;
                return Err(e);
            }
        };
        let mut parts = self.parts.clone();
        parts.extend(written);
        let mut table: Vec<(Part, [u8; 16])> = parts.iter().map(|(&p, &d)| (p, d)).collect();
        table.sort();
        let head = Head { format: FORMAT, engine: self.engine.clone(), parts: table };
        let mut bytes = postcard::to_stdvec(&head).expect("the head serialises");
        let check = Digest::of(&bytes).bytes();
        bytes.extend_from_slice(&check[..CHECK_LEN]);
        if let Err(e) = write_replacing(&dir.join(CACHE_FILE), &bytes) {
            self.dirty.all = true;
            return Err(e);
        }
        let named: HashSet<String> = parts.iter().map(|(p, d)| p.file_name(d)).collect();
        self.parts = parts;
        // Parts no head names any more: those this save replaced, and any a killed save left.
        if let Ok(entries) = std::fs::read_dir(&parts_dir) {
            for entry in entries.flatten() {
                if !entry.file_name().to_str().is_some_and(|n| named.contains(n)) {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
        Ok(())
    }

    /// Writes the bytes of one part (`pages`: the pages by part) to `w`.
    fn encode(
        &self,
        part: Part,
        pages: &[Vec<(&String, &PageEntry)>],
        w: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let encoded = match part {
            Part::Meta => postcard::to_io(
                &MetaRef {
                    slices: &self.slices,
                    files: &self.files,
                    outline_output: self.outline.as_ref().map(|r| r.output.as_str()),
                },
                w,
            ),
            Part::Outline => postcard::to_io(&OutlinePartRef { record: self.outline.as_ref() }, w),
            Part::Catalog => postcard::to_io(&self.catalog.as_ref().map(|(k, c)| (k, &**c)), w),
            Part::Pages(i) => postcard::to_io(&pages[i as usize], w),
            Part::Parsed(i) => postcard::to_io(&self.parsed.part(|p| path_shard(p) == i), w),
        };
        encoded.map(drop).map_err(std::io::Error::other)
    }

    /// The catalog the last build recorded, when it was built for this outline placement (the
    /// catalog depends on nothing else).
    pub fn catalog_for(&self, placement: &str) -> Option<Arc<Catalog>> {
        self.catalog.as_ref().filter(|(key, _)| key == placement).map(|(_, c)| Arc::clone(c))
    }

    /// Records the catalog built for an outline placement.
    pub fn set_catalog(&mut self, placement: &str, catalog: &Arc<Catalog>) {
        if self.catalog.as_ref().is_none_or(|(key, _)| key != placement) {
            self.catalog = Some((placement.to_string(), Arc::clone(catalog)));
            self.dirty.catalog = true;
        }
    }

    /// Records a page's entry.
    pub fn set_page(&mut self, route: &str, entry: PageEntry) {
        if self.pages.get(route) != Some(&entry) {
            self.dirty.pages |= 1u64 << shard(route.as_bytes());
            self.pages.insert(route.to_string(), entry);
        }
    }

    /// Keeps only the pages of `routes`.
    pub fn retain_pages(&mut self, keep: impl Fn(&str) -> bool) {
        let dirty = &mut self.dirty.pages;
        self.pages.retain(|route, _| {
            let kept = keep(route);
            if !kept {
                *dirty |= 1u64 << shard(route.as_bytes());
            }
            kept
        });
    }

    pub fn set_slices(&mut self, slices: Slices) {
        if self.slices.as_ref() != Some(&slices) {
            self.slices = Some(slices);
            self.dirty.meta = true;
        }
    }

    /// The digest of a source file's bytes, read again only when its stamp changed (or was too
    /// fresh to be trusted: see `stillpoint_fingerprint::Stamp`).
    pub fn file_digest(&mut self, path: &Path) -> Result<Digest, BuildError> {
        self.seen.insert(path.to_path_buf());
        let read_at = SystemTime::now();
        let meta = std::fs::metadata(path).map_err(|e| BuildError::io(path, e))?;
        if let Some(s) = self.files.get(path)
            && s.stamp.matches(&meta)
        {
            return Ok(s.digest);
        }
        let bytes = std::fs::read(path).map_err(|e| BuildError::io(path, e))?;
        let digest = file_digest(&bytes);
        match Stamp::of(&meta, read_at) {
            Some(stamp) => {
                self.files.insert(path.to_path_buf(), FileStamp { stamp, digest });
                self.dirty.meta = true;
            }
            None => self.dirty.meta |= self.files.remove(path).is_some(),
        }
        Ok(digest)
    }

    /// Forgets files that were not looked at in this build.
    pub fn retain_seen_files(&mut self) {
        let before = self.files.len();
        let seen = std::mem::take(&mut self.seen);
        self.files.retain(|p, _| seen.contains(p));
        self.dirty.meta |= self.files.len() != before;
    }
}

/// Writes `bytes` to `path` through a temporary file beside it, so that a reader finds either
/// the old file or the new one.
fn write_replacing(path: &Path, bytes: &[u8]) -> Result<(), BuildError> {
    stillpoint_fingerprint::replace_file(path, bytes, false).map_err(|e| BuildError::io(path, e))
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
        let (mut c, why) = BuildCache::load(dir.path(), "v1");
        assert!(why.unwrap().contains("no build cache"));
        c.save(dir.path()).unwrap();
        assert!(BuildCache::load(dir.path(), "v1").1.is_none());
        assert!(BuildCache::load(dir.path(), "v2").1.unwrap().contains("another version"));
        std::fs::write(dir.path().join(CACHE_FILE), b"{not json").unwrap();
        assert!(BuildCache::load(dir.path(), "v1").1.unwrap().contains("corrupt"));
    }

    fn entry(n: u32) -> PageEntry {
        let d = Digest::of(&n.to_le_bytes());
        PageEntry { key: d, html: d, data: d, source: None }
    }

    fn part_names(dir: &Path) -> std::collections::BTreeSet<String> {
        let entries = std::fs::read_dir(dir.join(PARTS_DIR)).unwrap();
        entries.map(|e| e.unwrap().file_name().into_string().unwrap()).collect()
    }

    #[test]
    fn a_save_writes_the_parts_that_changed_and_a_load_reads_them_all() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = BuildCache::empty("v");
        for i in 0..200 {
            c.set_page(&format!("/p/{i}"), entry(i));
        }
        c.save(dir.path()).unwrap();
        let first = part_names(dir.path());
        assert_eq!(first.len(), 3 + 2 * SHARDS);

        let (mut c, why) = BuildCache::load(dir.path(), "v");
        assert!(why.is_none(), "{why:?}");
        assert_eq!(c.pages.len(), 200);
        c.save(dir.path()).unwrap();
        assert_eq!(part_names(dir.path()), first, "nothing changed, nothing written");

        c.set_page("/p/7", entry(1000));
        c.retain_pages(|route| route != "/p/7");
        c.set_page("/p/7", entry(1001));
        c.save(dir.path()).unwrap();
        let written = part_names(dir.path());
        let new: Vec<&String> = written.difference(&first).collect();
        let name = format!("pages-{:02}.", shard(b"/p/7"));
        assert!(new.len() == 1 && new[0].starts_with(&name), "{new:?}");
        assert_eq!(written.len(), first.len(), "the part replaced is removed");

        let (c, why) = BuildCache::load(dir.path(), "v");
        assert!(why.is_none(), "{why:?}");
        assert_eq!(
            (c.pages.len(), &c.pages["/p/7"], &c.pages["/p/8"]),
            (200, &entry(1001), &entry(8))
        );

        // The catalog comes back for the placement it was built for only.
        let (mut c, _) = BuildCache::load(dir.path(), "v");
        let mut catalog = Catalog::default();
        catalog.newest = [2, 0, 1].map(stillpoint_content::ArticleId::new).into();
        let catalog = Arc::new(catalog);
        c.set_catalog("p1", &catalog);
        c.save(dir.path()).unwrap();
        let (c, _) = BuildCache::load(dir.path(), "v");
        assert_eq!(c.catalog_for("p1").as_deref(), Some(&*catalog));
        assert!(c.catalog_for("p2").is_none());

        std::fs::remove_file(dir.path().join(PARTS_DIR).join(new[0])).unwrap();
        let (c, why) = BuildCache::load(dir.path(), "v");
        assert!(why.unwrap().contains("corrupt") && c.pages.is_empty());
    }

    #[test]
    fn a_save_that_did_not_end_leaves_the_cache_it_read() {
        let dir = tempfile::tempdir().unwrap();
        let parts = dir.path().join(PARTS_DIR);
        let mut c = BuildCache::empty("v");
        c.set_page("/a", entry(1));
        c.save(dir.path()).unwrap();
        let head = std::fs::read(dir.path().join(CACHE_FILE)).unwrap();
        let old: Vec<(String, Vec<u8>)> = part_names(dir.path())
            .into_iter()
            .map(|n| (n.clone(), std::fs::read(parts.join(&n)).unwrap()))
            .collect();
        c.set_page("/a", entry(2));
        c.save(dir.path()).unwrap();
        // What a save killed before it replaced the head leaves: the old head, its parts, and
        // the new parts beside them.
        std::fs::write(dir.path().join(CACHE_FILE), &head).unwrap();
        for (name, bytes) in &old {
            std::fs::write(parts.join(name), bytes).unwrap();
        }
        let (mut c, why) = BuildCache::load(dir.path(), "v");
        assert!(why.is_none(), "{why:?}");
        assert_eq!(c.pages["/a"], entry(1));
        c.set_page("/b", entry(3));
        c.save(dir.path()).unwrap();
        assert_eq!(part_names(dir.path()).len(), 3 + 2 * SHARDS, "the parts no head names go");
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
