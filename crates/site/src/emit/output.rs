//! The output directory as two generations. `DIST` is a symlink to one of
//! `.DIST.gens/a` and `.DIST.gens/b` (the live one); a build brings the other (the spare) up to
//! date — writing only files whose bytes differ from what the spare already holds (over a file
//! the spare holds, to a temporary name renamed into place), hard-linking unchanged ones from the
//! live generation — and then renames a new symlink over `DIST`. Readers that open paths through `DIST` see the
//! old site or the new one, never a mixture, and a build that fails or is killed before the
//! swap leaves the live generation untouched.
//!
//! Each generation's manifest (`a.manifest`, path → content digest) is written once the
//! generation is complete (`dev` writes it when idle: [`Generations::deferring`]) and deleted before
//! it is touched again, so a generation without a
//! manifest is unknown and is rebuilt from scratch; that is also how a killed build's
//! leftovers are cleaned. A live generation holding anything but a regular file where its
//! manifest lists one (a symbolic link planted in the output, say) is unknown too: unchanged
//! files are carried forward on the manifest's word, so such a file would outlive every build.
//! (Checked when a build opens the output, one `lstat` per file; the spare is not checked: a
//! file planted there goes live with the next build that changes something, and away with the
//! one after.) After a first build the spare is empty; `dev` fills it while idle
//! ([`Generations::fill_spare`]).

use std::fs::{self, File};
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use imbl::OrdMap;
use stillpoint_dist::{Changed, Output};
use stillpoint_fingerprint::Digest;

use super::manifest::{Manifest, file_digest};
use crate::error::BuildError;

const GENERATIONS: [&str; 2] = ["a", "b"];

/// The output directory, locked for one build.
pub struct Generations {
    dest: PathBuf,
    gens: PathBuf,
    /// The generations' folder as the symlink names it (relative to `dest`'s parent).
    gens_link: String,
    live: Option<usize>,
    /// Each generation's manifest, when known; two equal generations share one.
    manifests: [Option<Arc<Manifest>>; 2],
    /// Leave the live generation's manifest file and the spare's catching up for later
    /// ([`Generations::settle`]), after a commit: `dev` shows an edit first.
    defer: bool,
    /// The live generation's manifest is known here but not yet written to its file.
    unwritten: bool,
    /// The lock on the output, held while it is open; a build server lets it go between builds
    /// ([`Generations::unlock`]).
    lock: Option<File>,
    /// What the output looked like when the lock was let go.
    left: Option<Marks>,
}

/// What a build by another process changes before it writes to an output: the live generation,
/// and the stamps of both generations' manifest files and folders (a build deletes a
/// generation's manifest file before it changes the generation, and empties a generation it
/// knows nothing of).
#[derive(Debug, PartialEq, Eq)]
struct Marks {
    live: Option<usize>,
    stamps: [Option<stillpoint_fingerprint::Stamp>; 4],
}

impl Generations {
    /// Opens `dest` for a build: finds the live generation and reads both manifests. Fails when
    /// another build holds the lock.
    pub fn open(dest: &Path) -> Result<Self, BuildError> {
        let name =
            dest.file_name().map_or_else(|| "dist".into(), |n| n.to_string_lossy().into_owned());
        let parent = dest.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let gens_link = format!(".{name}.gens");
        let gens = parent.join(&gens_link);
        fs::create_dir_all(&gens).map_err(|e| BuildError::io(&gens, e))?;
        let lock = take_lock(&gens, dest)?;
        // The manifests a killed build left half-written under temporary names (never a
        // manifest itself: only `.{name}.{pid}.{n}.tmp` files of processes that are gone).
        stillpoint_fingerprint::remove_temporaries(&gens);
        let live = live_generation(dest, &gens_link);
        let paths = GENERATIONS.map(|g| gens.join(format!("{g}.manifest")));
        let first = Manifest::read(&paths[0]).map(Arc::new);
        // Two equal generations share one manifest file: it is read once.
        let second = match &first {
            Some(m) if same_file(&paths[0], &paths[1]) => Some(Arc::clone(m)),
            _ => Manifest::read(&paths[1]).map(Arc::new),
        };
        let mut manifests = [first, second];
        // The live generation is the one served (and the one a planted file would be put in);
        // once it is unknown, the build swaps in the spare and rebuilds this one from it.
        if let Some(i) = live
            && let Some(manifest) = &manifests[i]
            && let Some(odd) = not_regular(&gens.join(GENERATIONS[i]), manifest)
        {
            tracing::warn!(
                file = %odd.display(),
                "not a regular file in the output: the output is rebuilt"
            );
            manifests[i] = None;
        }
        let (defer, unwritten) = (false, false);
        Ok(Self {
            dest: dest.to_path_buf(),
            gens,
            gens_link,
            live,
            manifests,
            defer,
            unwritten,
            lock: Some(lock),
            left: None,
        })
    }

    /// Lets the lock go (after writing a manifest left for later), so that other builds may
    /// write to the output while this one is kept open; [`Generations::is_as_left`] takes it back.
    pub fn unlock(&mut self) -> Result<(), BuildError> {
        if self.lock.is_none() {
            return Ok(());
        }
        self.settle()?;
        self.left = Some(self.marks());
        self.lock = None;
        Ok(())
    }

    /// The output's marks now.
    fn marks(&self) -> Marks {
        let stamp = |path: PathBuf| {
            fs::symlink_metadata(path)
                .ok()
                .and_then(|m| stillpoint_fingerprint::Stamp::unsettled(&m))
        };
        Marks {
            live: live_generation(&self.dest, &self.gens_link),
            stamps: [
                stamp(self.manifest_path(0)),
                stamp(self.manifest_path(1)),
                stamp(self.dir(0)),
                stamp(self.dir(1)),
            ],
        }
    }

    /// After each commit, leaves writing the live generation's manifest file and bringing the
    /// spare up to date to [`Generations::settle`] or [`Generations::fill_spare`] (a manifest at 100,000
    /// articles is 26 MB). Killed before then, the live generation has no manifest file: the
    /// next build finds it unknown and writes the site afresh, as after any killed build.
    pub fn deferring(mut self) -> Self {
        self.defer = true;
        self
    }

    /// Writes the live generation's manifest file, when a commit left it unwritten.
    pub fn settle(&mut self) -> Result<(), BuildError> {
        if !self.unwritten {
            return Ok(());
        }
        if let Some(i) = self.live
            && let Some(manifest) = &self.manifests[i]
        {
            manifest.write(&self.manifest_path(i))?;
        }
        self.unwritten = false;
        Ok(())
    }

    /// Whether this output, opened earlier and kept open, is still as the last build left it:
    /// `dest`, naming the same live generation, whose manifest is there. Then it need not be
    /// opened again (a `dev` session keeps it between rebuilds, its lock held all along). When
    /// the lock was let go ([`Generations::unlock`]), it is taken back first, and no other build
    /// may have touched either generation since.
    pub fn is_as_left(&mut self, dest: &Path) -> bool {
        if self.lock.is_none() {
            let Ok(lock) = take_lock(&self.gens, dest) else { return false };
            self.lock = Some(lock);
            if self.left.take().is_none_or(|left| left != self.marks()) {
                return false;
            }
        }
        dest == self.dest
            && live_generation(dest, &self.gens_link) == self.live
            && self.live.is_some_and(|i| self.unwritten || self.manifest_path(i).is_file())
    }

    /// What `dest` holds now, when it is a complete generation of ours.
    pub fn live_manifest(&self) -> Option<&Manifest> {
        self.live.and_then(|i| self.manifests[i].as_deref())
    }

    /// Starts filling the spare generation.
    pub fn begin(&mut self) -> Update<'_> {
        let spare = self.live.map_or(0, |i| 1 - i);
        let known = self.manifests[spare].take();
        Update {
            spare,
            spare_dir: self.dir(spare),
            live_dir: self.live.map(|i| self.dir(i)),
            known: known.unwrap_or_default(),
            touched: AtomicBool::new(false),
            preparing: Mutex::new(()),
            puts: Mutex::new(Puts::default()),
            rest: Mutex::new(None),
            written: AtomicUsize::new(0),
            only: None,
            counting: false,
            output: self,
        }
    }
}

impl Drop for Generations {
    /// A manifest left for later is written before the output is let go (the end of `dev`).
    fn drop(&mut self) {
        if let Err(e) = self.settle() {
            tracing::warn!("the output's manifest was not written: {e}");
        }
    }
}

/// Files linked into the spare between two looks at whether to stop ([`Generations::fill_spare`]).
pub(crate) const FILL_CHUNK: usize = 4096;

impl Generations {
    /// Brings the spare generation up to date with the live one, [`FILL_CHUNK`] files at a time,
    /// until `stop` says to stop (it is asked before each slice). A build that comes next finds
    /// the spare holding what the live generation holds, or part of it, and writes only what
    /// it changes, where it would first link every file the spare lacks: after a clean build,
    /// 250,000 at 100,000 articles. `dev` calls it while the owner has not saved anything.
    /// Returns whether the spare is complete. Stopped half-way, the spare is known to hold
    /// what was linked (in memory: its manifest file is written only when it is complete); a
    /// failure leaves it unknown, so the next build empties it.
    pub fn fill_spare(&mut self, stop: &mut dyn FnMut() -> bool) -> Result<bool, BuildError> {
        self.settle()?; // the spare shares the live manifest's file
        let Some(live_i) = self.live else { return Ok(false) };
        let Some(live) = self.manifests[live_i].clone() else { return Ok(false) };
        let spare = 1 - live_i;
        let known = self.manifests[spare].take().unwrap_or_default();
        // (Digests: the live one is needed after a build anyway, and the spare's is memoised.)
        if Arc::ptr_eq(&known, &live) || known.digest() == live.digest() {
            self.manifests[spare] = Some(known);
            return Ok(true);
        }
        let dir = self.forget(spare, &known)?;
        let live_dir = self.dir(live_i);
        let missing: Vec<&str> = live
            .differences(&known)
            .filter(|(_, in_live, _)| in_live.is_some())
            .map(|d| d.0)
            .collect();
        for (done, chunk) in missing.chunks(FILL_CHUNK).enumerate() {
            if stop() {
                // Known to hold what it held and what was linked so far.
                let mut holds = known.map().clone();
                for rel in &missing[..done * FILL_CHUNK] {
                    let (rel, digest) =
                        live.map().get_key_value(*rel).expect("listed by the live manifest");
                    holds.insert(Arc::clone(rel), *digest);
                }
                self.manifests[spare] = Some(Arc::new(Manifest::from(holds)));
                return Ok(false);
            }
            chunk.par_iter().try_for_each(|rel| link_file(&live_dir.join(rel), &dir.join(rel)))?;
        }
        remove_stale(&dir, &known, &live)?;
        // The live manifest's file, shared.
        link_file(&self.manifest_path(live_i), &self.manifest_path(spare))?;
        self.manifests[spare] = Some(live);
        Ok(true)
    }

    /// Generation `i`'s folder.
    fn dir(&self, i: usize) -> PathBuf {
        self.gens.join(GENERATIONS[i])
    }

    /// Generation `i`'s manifest file.
    fn manifest_path(&self, i: usize) -> PathBuf {
        self.gens.join(format!("{}.manifest", GENERATIONS[i]))
    }

    /// Before generation `i` is changed: deletes its manifest file (it is no longer complete)
    /// and, when nothing is `known` of what it holds, empties it. Returns its folder.
    fn forget(&self, i: usize, known: &Manifest) -> Result<PathBuf, BuildError> {
        let manifest = self.manifest_path(i);
        match fs::remove_file(&manifest) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(BuildError::io(&manifest, e)),
        }
        let dir = self.dir(i);
        if known.is_empty() && dir.exists() {
            fs::remove_dir_all(&dir).map_err(|e| BuildError::io(&dir, e))?;
        }
        fs::create_dir_all(&dir).map_err(|e| BuildError::io(&dir, e))?;
        Ok(dir)
    }
}

/// A file of `manifest` that is not a regular file in `dir` (a link, a folder, missing), if
/// any. One `lstat` per file, in parallel.
fn not_regular(dir: &Path, manifest: &Manifest) -> Option<PathBuf> {
    let files: Vec<&str> = manifest.iter().map(|(rel, _)| rel).collect();
    files.par_iter().find_map_any(|rel| {
        let path = dir.join(rel);
        let regular = fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
        (!regular).then_some(path)
    })
}

/// The generation `dest` serves and the stamp of its manifest file, when it has one. Every commit
/// that changes the output writes that file anew (under a temporary name renamed into place, so
/// with a new inode), so an equal pair later means nothing has committed to `dest` since.
pub fn live_stamp(dest: &Path) -> Option<(String, stillpoint_fingerprint::Stamp)> {
    let name = dest.file_name()?.to_string_lossy();
    let gens_link = format!(".{name}.gens");
    let live = live_generation(dest, &gens_link)?;
    let parent = dest.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let manifest = parent.join(&gens_link).join(format!("{}.manifest", GENERATIONS[live]));
    let meta = fs::symlink_metadata(manifest).ok().filter(|m| m.is_file())?;
    Some((GENERATIONS[live].to_string(), stillpoint_fingerprint::Stamp::unsettled(&meta)?))
}

/// The folder beside `dest` that holds its two generations (`.DIST.gens`).
pub fn generations_dir(dest: &Path) -> PathBuf {
    let name = dest.file_name().map_or_else(|| "dist".into(), |n| n.to_string_lossy());
    dest.with_file_name(format!(".{name}.gens"))
}

/// The lock on the output whose generations are in `gens`: only one build writes to it at a time.
fn take_lock(gens: &Path, dest: &Path) -> Result<File, BuildError> {
    let lock_path = gens.join("lock");
    let lock = File::create(&lock_path).map_err(|e| BuildError::io(&lock_path, e))?;
    if lock.try_lock().is_err() {
        return Err(BuildError::io(
            dest,
            std::io::Error::other("another build is writing this output; try again when it ends"),
        ));
    }
    Ok(lock)
}

/// Whether `a` and `b` name one file (hard links of it).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        false
    }
}

/// The generation `dest` links to, if it is one of ours.
fn live_generation(dest: &Path, gens_link: &str) -> Option<usize> {
    let target = fs::read_link(dest).ok()?;
    GENERATIONS.iter().position(|g| target == Path::new(gens_link).join(g))
}

/// What one build changed, counted against the live output it replaces.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EmitStats {
    /// Files whose bytes differ from the previous output (new or changed).
    pub changed: usize,
    /// Files of the previous output that are gone.
    pub removed: usize,
    /// Files the same as before.
    pub unchanged: usize,
    /// Files written to disk (the spare generation's own catch-up included).
    pub written: usize,
}

/// How a file from outside the output gets into it ([`Update::transfer`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transfer {
    /// Copied: its source may change in place (a site's static file).
    Copy,
    /// Shared as a hard link where both are on one file system (copied where they are not):
    /// for a file nothing ever changes in place (the image cache's renditions are written once,
    /// under a temporary name, and renamed).
    Share,
}

/// The spare generation being brought up to date. Safe to use from several threads.
///
/// A file whose bytes equal the live output's is only noted: it is linked from the live
/// generation at commit, and not at all when the whole output turns out unchanged (then
/// nothing is written and nothing swapped).
pub struct Update<'a> {
    output: &'a mut Generations,
    spare: usize,
    spare_dir: PathBuf,
    live_dir: Option<PathBuf>,
    /// What the spare held when it was last complete; empty when unknown.
    known: Arc<Manifest>,
    /// Whether the spare was modified (its manifest deleted, emptied when unknown); set once
    /// that preparation is done.
    touched: AtomicBool,
    /// Held while the spare is prepared, so no file is written into it before that is done.
    preparing: Mutex<()>,
    /// The files put, and the outputs of those that changed.
    puts: Mutex<Puts>,
    /// The live output's files kept as they are ([`Update::keep_rest_except_under`]), under those
    /// put: shares the live manifest's tree but for the entries taken out.
    rest: Mutex<Option<OrdMap<Arc<str>, Digest>>>,
    written: AtomicUsize,
    /// The files this output holds, when not every file put (a shard build's).
    only: Option<&'a (dyn Fn(&str) -> bool + Sync)>,
    /// The commit counts the files that changed without listing them ([`Update::counting`]).
    counting: bool,
}

impl<'a> Update<'a> {
    /// An output that holds only the files `only` accepts: the others are put, copied and kept
    /// as no-ops (a shard build's output).
    pub fn only(self, only: &'a (dyn Fn(&str) -> bool + Sync)) -> Self {
        Self { only: Some(only), ..self }
    }

    /// An update whose commit counts the changed files but does not list them: for a build
    /// whose process ends with it, which a clean build at 1,000,000 articles spares 2.5 million
    /// entries at its peak.
    pub fn counting(self) -> Self {
        Self { counting: true, ..self }
    }

    fn skips(&self, rel: &str) -> bool {
        self.only.is_some_and(|only| !only(rel))
    }

    /// The file `rel` of `output` has these bytes in the new output; returns their digest.
    pub fn put(&self, output: Output, rel: &str, bytes: &[u8]) -> Result<Digest, BuildError> {
        let digest = file_digest(bytes);
        if self.skips(rel) {
            return Ok(digest);
        }
        let live = self.is_live(rel, digest);
        if !live && !self.spare_has(rel, digest) {
            self.write_spare(rel, |tmp| fs::write(tmp, bytes).map_err(|e| BuildError::io(tmp, e)))?;
        }
        self.record(rel, digest, (!live).then_some(output));
        Ok(digest)
    }

    /// The file `rel` of `output` has the bytes of `src` (a file outside the output), whose
    /// digest is known: copied, or shared as a hard link ([`Transfer`]).
    pub fn transfer(
        &self,
        (output, rel): (Output, &str),
        src: &Path,
        digest: Digest,
        how: Transfer,
    ) -> Result<(), BuildError> {
        if self.skips(rel) {
            return Ok(());
        }
        let live = self.is_live(rel, digest);
        if !live && !self.spare_has(rel, digest) {
            self.write_spare(rel, |tmp| {
                if how == Transfer::Share && fs::hard_link(src, tmp).is_ok() {
                    return Ok(());
                }
                fs::copy(src, tmp).map(drop).map_err(|e| BuildError::io(src, e))
            })?;
        }
        self.record(rel, digest, (!live).then_some(output));
        Ok(())
    }

    /// The files `(rel, digest)` are unchanged from the live output, where each has `digest`.
    /// Recorded under one lock.
    pub fn keep_all<'f>(&self, kept: impl IntoIterator<Item = (&'f str, Digest)>) {
        let entries: Vec<(Arc<str>, Digest)> = kept
            .into_iter()
            .filter(|(rel, _)| !self.skips(rel))
            .map(|(rel, digest)| {
                debug_assert!(self.is_live(rel, digest));
                self.entry(rel, digest)
            })
            .collect();
        self.puts.lock().expect("puts lock").files.extend(entries);
    }

    /// Every file of the live output not put, copied or kept is unchanged, but those under the
    /// folders `dirs` that `gone` names (a build puts every file of theirs it still has, so one
    /// it did not put is no longer used). The files under them are found in the live manifest
    /// by their prefixes, so that keeping 250,000 files costs only theirs, and the new manifest
    /// shares the live one's tree but for the files gone.
    pub fn keep_rest_except_under(&self, dirs: &[&str], gone: &dyn Fn(&str) -> bool) {
        let Some(live) = self.output.live_manifest() else { return };
        let mut files = Vec::new();
        for dir in dirs {
            files.extend(files_under(live, dir).filter(|rel| gone(rel)));
        }
        self.keep_rest_without(live, files);
    }

    fn keep_rest_without(&self, live: &Manifest, gone: Vec<&Arc<str>>) {
        let mut rest = live.map().clone();
        for rel in gone {
            rest.remove(rel);
        }
        *self.rest.lock().expect("rest lock") = Some(rest);
    }

    /// The digest of the live output's manifest (see [`Manifest::digest`]), if there is one.
    pub fn live_manifest_digest(&self) -> Option<String> {
        self.output.live_manifest().map(Manifest::digest)
    }

    /// The live output's digest of `rel`, if it has that file.
    pub fn live_digest(&self, rel: &str) -> Option<Digest> {
        self.output.live_manifest().and_then(|m| m.get(rel))
    }

    /// Whether the live output's files under the folder `dir` are exactly `names` (ascending,
    /// each `{dir}/…`): one walk of that part of the live manifest.
    pub fn live_has_exactly_under(&self, dir: &str, names: &[&str]) -> bool {
        let Some(live) = self.output.live_manifest() else { return false };
        let mut under = files_under(live, dir);
        names.iter().all(|name| under.next().is_some_and(|rel| **rel == **name))
            && under.next().is_none()
    }

    fn is_live(&self, rel: &str, digest: Digest) -> bool {
        self.live_digest(rel) == Some(digest)
    }

    fn spare_has(&self, rel: &str, digest: Digest) -> bool {
        self.known.get(rel) == Some(digest)
    }

    /// Notes that the new output has `rel` with `digest`, and the output it changed for when
    /// its bytes are not the live output's.
    fn record(&self, rel: &str, digest: Digest, changed: Option<Output>) {
        let (rel, digest) = self.entry(rel, digest);
        let mut puts = self.puts.lock().expect("puts lock");
        if let Some(output) = changed.filter(|_| !self.counting) {
            puts.made.push((Arc::clone(&rel), output));
        }
        puts.files.insert(rel, digest);
    }

    /// The manifest entry for `rel` with `digest`, sharing the live manifest's path (100,000s
    /// of kept entries then cost no new strings).
    fn entry(&self, rel: &str, digest: Digest) -> (Arc<str>, Digest) {
        let live = self.output.live_manifest().and_then(|m| m.map().get_key_value(rel));
        match live {
            Some((r, _)) => (Arc::clone(r), digest),
            None => (Arc::from(rel), digest),
        }
    }

    /// Writes `rel` in the spare through a temporary name renamed into place.
    fn write_spare(
        &self,
        rel: &str,
        fill: impl FnOnce(&Path) -> Result<(), BuildError>,
    ) -> Result<(), BuildError> {
        self.prepare_spare()?;
        let path = self.spare_dir.join(rel);
        create_parent(&path)?;
        if self.known.get(rel).is_none() {
            // The spare holds exactly its manifest (or was emptied): no file of it is here, so
            // none can be a hard link shared with the live generation. Written in place.
            fill(&path)?;
        } else {
            let tmp = temp_name(&path);
            fill(&tmp)?;
            rename_into(&tmp, &path)?;
        }
        self.written.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Before the first change to the spare: forget its manifest (it is no longer complete).
    /// A spare with no manifest is emptied, since nothing is known of what it holds.
    /// Every writer waits for it: a file written beside an unfinished emptying would be lost.
    fn prepare_spare(&self) -> Result<(), BuildError> {
        if self.touched.load(Ordering::Acquire) {
            return Ok(());
        }
        let _preparing = self.preparing.lock().expect("preparing lock");
        if self.touched.load(Ordering::Acquire) {
            return Ok(());
        }
        self.output.forget(self.spare, &self.known)?;
        self.touched.store(true, Ordering::Release);
        Ok(())
    }

    /// Completes the spare (links unchanged files, removes what the new output no longer has),
    /// records its manifest and swaps it in. When the new output equals the live one, nothing
    /// is written and nothing swapped. Returns the counts and the files that changed (new,
    /// changed or removed) with their outputs, sorted by path (none when [counting]).
    ///
    /// [counting]: Update::counting
    pub fn commit(mut self) -> Result<(EmitStats, Vec<Changed>), BuildError> {
        let Puts { files: put, made } = std::mem::take(&mut *self.puts.lock().expect("puts lock"));
        // The files put are the new manifest as they are when nothing else is kept (a clean
        // build: at 1,000,000 articles, 2.5 million entries not held twice).
        let files = match self.rest.lock().expect("rest lock").take() {
            Some(mut rest) => {
                rest.extend(put);
                rest
            }
            None => put,
        };
        let files = Arc::new(Manifest::from(files));
        // The outputs of the files put, looked up in path order as the differences come.
        let mut made = made;
        made.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut made = made.iter().peekable();
        let empty = Manifest::default();
        let live = self.output.live_manifest();
        let mut stats = EmitStats::default();
        let mut changed = Vec::new();
        let counting = self.counting;
        let differences =
            files.shared_differences(live.unwrap_or(&empty)).map(|(rel, new, old)| {
                let change = match new {
                    Some(_) => {
                        stats.changed += 1;
                        (!counting).then(|| {
                            while made.next_if(|(path, _)| **path < **rel).is_some() {}
                            let output = match made.peek() {
                                Some((path, output)) if path == rel => *output,
                                _ => Output::of_file(rel),
                            };
                            Changed::new(Arc::clone(rel), output)
                        })
                    }
                    None => {
                        stats.removed += 1;
                        (!counting).then(|| Changed::removed(Arc::clone(rel)))
                    }
                };
                changed.extend(change);
                (&**rel, new, old)
            });
        match live {
            // The new manifest's digest, from the live one's and what differs.
            Some(live) => files.know_digest(live, differences),
            None => differences.for_each(drop),
        }
        stats.unchanged = files.len() - stats.changed;
        if live == Some(&*files) && !self.touched.load(Ordering::Acquire) {
            // The spare was not touched: what it holds is still known.
            self.output.manifests[self.spare] = Some(std::mem::take(&mut self.known));
            return Ok((stats, changed));
        }
        self.prepare_spare()?; // an output with no files still gets its generation
        // Files of the new output that the live generation holds and the spare does not.
        let missing: Vec<&str> = live
            .unwrap_or(&empty)
            .differences(&self.known)
            .filter(|&(rel, in_live, _)| in_live.is_some() && files.get(rel) == in_live)
            .map(|(rel, _, _)| rel)
            .collect();
        let live_dir = self.live_dir.clone();
        missing.par_iter().try_for_each(|rel| {
            link_file(
                &live_dir.as_ref().expect("kept files come from a live output").join(rel),
                &self.spare_dir.join(rel),
            )
        })?;
        remove_stale(&self.spare_dir, &self.known, &files)?;
        let defer = self.output.defer;
        if !defer {
            files.write(&self.output.manifest_path(self.spare))?;
        }
        stats.written = self.written.load(Ordering::Relaxed);
        let previous = self.output.live;
        let target = format!("{}/{}", self.output.gens_link, GENERATIONS[self.spare]);
        swap_link(&self.output.dest, &target)?;
        self.output.live = Some(self.spare);
        self.output.manifests[self.spare] = Some(files);
        self.output.unwritten = defer;
        if previous.is_some() && !defer {
            // The generation that was live is no longer served: it is brought up to date now,
            // so the next build starts from two equal generations and writes only what it
            // changes. Killed half-way, it is left without a manifest; the next build empties it.
            self.output.fill_spare(&mut || false)?;
        }
        Ok((stats, changed))
    }
}

/// What a build put in the new output, under one lock.
#[derive(Default)]
struct Puts {
    /// Each file put, copied or kept one by one, with its digest.
    files: OrdMap<Arc<str>, Digest>,
    /// The output of each file put whose bytes are not the live output's: what the build
    /// reports as changed ([`Changed`]).
    made: Vec<(Arc<str>, Output)>,
}

/// Removes from `dir` the files `known` lists that `files` does not, and the folders left empty.
fn remove_stale(dir: &Path, known: &Manifest, files: &Manifest) -> Result<(), BuildError> {
    let mut dirs = Vec::new();
    let gone = known.differences(files).filter(|(_, _, new)| new.is_none());
    for (rel, _, _) in gone {
        let path = dir.join(rel);
        match fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(BuildError::io(&path, e)),
        }
        let parents = Path::new(rel).ancestors().skip(1);
        dirs.extend(parents.filter(|d| !d.as_os_str().is_empty()).map(Path::to_path_buf));
    }
    // Deepest first, so a folder emptied of its last sub-folder goes too.
    dirs.sort_by(|a, b| b.components().count().cmp(&a.components().count()).then(a.cmp(b)));
    dirs.dedup();
    for d in dirs {
        let _ = fs::remove_dir(dir.join(d)); // fails, as it should, unless empty
    }
    Ok(())
}

/// Puts a hard link to `from` at `to` (a copy where links are impossible). Only generations that
/// are not served are filled so. Where `to` is free (a generation filled anew: every file of
/// it), the link is made there at once; a file already at `to` is replaced through a temporary
/// name renamed into place, so a file it shares with the live generation is never written.
fn link_file(from: &Path, to: &Path) -> Result<(), BuildError> {
    create_parent(to)?;
    if fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    let tmp = temp_name(to);
    let _ = fs::remove_file(&tmp);
    fs::hard_link(from, &tmp)
        .or_else(|_| fs::copy(from, &tmp).map(drop))
        .map_err(|e| BuildError::io(from, e))?;
    rename_into(&tmp, to)
}

/// Renames the temporary file `tmp` to `to`. Renaming a hard link over another link to the same
/// file does nothing (POSIX): `to` is that very file already, and the temporary name goes.
fn rename_into(tmp: &Path, to: &Path) -> Result<(), BuildError> {
    fs::rename(tmp, to).map_err(|e| BuildError::io(to, e))?;
    if fs::symlink_metadata(tmp).is_ok() {
        fs::remove_file(tmp).map_err(|e| BuildError::io(tmp, e))?;
    }
    Ok(())
}

fn temp_name(path: &Path) -> PathBuf {
    let mut name = path.file_name().expect("a file name").to_os_string();
    name.push(".stillpoint-tmp");
    path.with_file_name(name)
}

/// Makes the folder `path` goes in. Most files of a site are alone in a folder of their own
/// (`page-data/articles/{slug}/page-data.json`), so it is made at once; its parents only when
/// they are missing.
fn create_parent(path: &Path) -> Result<(), BuildError> {
    let Some(dir) = path.parent() else { return Ok(()) };
    match fs::create_dir(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fs::create_dir_all(dir).map_err(|e| BuildError::io(dir, e))
        }
        Err(e) => Err(BuildError::io(dir, e)),
    }
}

/// Points `dest` at `target` (relative to its parent) in one rename. A `dest` that is a real
/// directory (an output written some other way) is moved aside and removed after the swap.
fn swap_link(dest: &Path, target: &str) -> Result<(), BuildError> {
    let tmp = temp_name(dest);
    let _ = fs::remove_file(&tmp);
    std::os::unix::fs::symlink(target, &tmp).map_err(|e| BuildError::io(&tmp, e))?;
    let is_real_dir = fs::symlink_metadata(dest).is_ok_and(|m| m.is_dir());
    if !is_real_dir {
        return fs::rename(&tmp, dest).map_err(|e| BuildError::io(dest, e));
    }
    let aside = dest.with_file_name(format!(
        ".{}.replaced-{}",
        dest.file_name().expect("a file name").to_string_lossy(),
        std::process::id()
    ));
    fs::rename(dest, &aside).map_err(|e| BuildError::io(dest, e))?;
    fs::rename(&tmp, dest).map_err(|e| BuildError::io(dest, e))?;
    fs::remove_dir_all(&aside).map_err(|e| BuildError::io(&aside, e))
}

/// The files of `manifest` under the folder `dir`, in order: found by their prefix.
fn files_under<'m>(manifest: &'m Manifest, dir: &str) -> impl Iterator<Item = &'m Arc<str>> {
    let prefix = format!("{dir}/");
    let under =
        manifest.map().range::<_, str>((Bound::Included(prefix.as_str()), Bound::Unbounded));
    under.map(|(rel, _)| rel).take_while(move |rel| rel.starts_with(&prefix))
}
