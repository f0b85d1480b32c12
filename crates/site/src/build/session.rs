//! What a series of builds of one site keeps between them: the build cache, in memory, the
//! output directory (open, with its manifests, and locked) and the Node render workers. `build`
//! uses a session of its own and drops it; `dev` keeps one, so a rebuild neither reads the cache
//! and manifests from disk nor starts Node again, and saves the cache after it has shown the
//! change ([`Session::save`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use stillpoint_content::Catalog;

use super::outline::OutlineMemo;
use crate::cache::BuildCache;
use crate::emit::Generations;
use crate::error::BuildError;
use crate::ssr::{SsrPool, check_node};

#[derive(Default)]
pub struct Session {
    pub(super) cache: Option<BuildCache>,
    /// Where the cache is saved, when the last build left it unsaved.
    pub(super) unsaved: Option<PathBuf>,
    /// Save the cache only when asked ([`Session::save`]), not at the end of each build.
    pub(super) defer_save: bool,
    pub(super) output: Option<Generations>,
    /// What each article showed elsewhere at the last build (see outline.rs).
    pub(super) outlines: OutlineMemo,
    /// The last build's catalog, with the outline it was built for.
    pub(super) catalog: Option<(String, Arc<Catalog>)>,
    /// The last build's search index documents and keys.
    pub(super) search: Option<crate::search_index::SearchMemo>,
    /// What each article's page in the output was rendered from, by the article's place.
    pub(super) current: Option<super::current::CurrentArticles>,
    /// Each article's slug at the last build, when the session follows renamed slugs.
    pub(super) slugs: Option<super::renamed::Slugs>,
    /// For the next build, when its cache comes from disk: the site files that may have changed
    /// since that cache was saved (see `unchanged.rs`).
    pub(super) vouch_on_load: Option<Vec<PathBuf>>,
    /// The image cache the last build opened: it remembers the entries it found whole.
    pub(super) images: Option<stillpoint_media::ImageCache>,
    /// What the last build's image stage read and found per article.
    pub(super) last_images: Option<crate::images::LastImages>,
    workers: Option<Workers>,
    /// Workers being started on a thread of their own ([`Session::start_workers`]).
    starting: Option<(String, JoinHandle<Result<SsrPool, BuildError>>)>,
    /// The session ends with its build ([`Session::one_shot`]).
    pub(super) one_shot: bool,
}

/// Render workers, with what they were started with.
struct Workers {
    /// The Node executable and the digest of the worker script.
    key: String,
    pool: SsrPool,
}

impl Session {
    pub fn new() -> Self {
        Self::default()
    }

    /// A session whose builds leave the cache, the output's manifest and the catching up of
    /// its spare generation for later ([`Session::save`], [`Session::fill_spare`]): `dev` shows
    /// an edit first.
    pub fn deferring_save() -> Self {
        Self { defer_save: true, ..Self::default() }
    }

    /// A session of one build (`build` in a new process): what only a next build would use (the
    /// outline's and the search index's memos, what each page was rendered from) is dropped as
    /// soon as this build is done with it, so it is not held at the build's peak (at 1,000,000
    /// articles, about 0.6 GB; docs/scale.md).
    pub fn one_shot() -> Self {
        Self { one_shot: true, ..Self::default() }
    }

    /// A session whose builds report the articles whose slug changed since the one before
    /// ([`BuildReport::renamed`](super::BuildReport::renamed)).
    pub fn following_slugs(self) -> Self {
        Self { slugs: Some(Default::default()), ..self }
    }

    /// Ends the session: stops the workers and frees the cache on a thread of its own, so that
    /// a process that exits next does not wait for hundreds of thousands of entries to be freed.
    pub fn release(mut self) {
        self.stop_workers();
        if let Some(cache) = self.cache.take() {
            std::thread::spawn(move || drop(cache));
        }
    }

    /// Tells the next build that since the last one only `changed` site files (relative to the
    /// site directory) may have been written: a file watcher that missed no event vouches for the
    /// rest, which are then not even `stat`ed (see [`ParsedArticles::vouch`]). Holds only for the
    /// cache this session kept in memory from the last build.
    ///
    /// [`ParsedArticles::vouch`]: stillpoint_content::ParsedArticles::vouch
    pub fn vouch(&mut self, changed: impl IntoIterator<Item = PathBuf>) {
        if let Some(cache) = self.cache.as_mut() {
            cache.parsed.vouch(changed);
        }
    }

    /// Brings the output's spare generation up to date with the live one while `stop` says
    /// nothing else is waiting (see [`Generations::fill_spare`]), so that the next build writes only
    /// what it changes. True when the spare is complete or there is no output kept.
    pub fn fill_spare(&mut self, stop: &mut dyn FnMut() -> bool) -> Result<bool, BuildError> {
        match self.output.as_mut() {
            Some(output) => output.fill_spare(stop),
            None => Ok(true),
        }
    }

    /// Lets the output's lock go between builds, so that other builds may write to it (a build
    /// server keeps its session while it waits: [`Session::fill_spare_unlocked`]). The next build
    /// of this session takes the lock back and opens the output afresh when another build wrote
    /// to it meanwhile.
    pub fn unlock_output(&mut self) -> Result<(), BuildError> {
        match self.output.as_mut() {
            Some(output) => output.unlock(),
            None => Ok(()),
        }
    }

    /// [`Session::fill_spare`] for a session whose output's lock was let go: takes the lock
    /// for the while, when no other build holds it and none wrote to the output since (else the
    /// output is forgotten, to be opened afresh), and lets it go again.
    pub fn fill_spare_unlocked(
        &mut self,
        dest: &Path,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<bool, BuildError> {
        let Some(output) = self.output.as_mut() else { return Ok(true) };
        if !output.is_as_left(dest) {
            self.output = None;
            return Ok(true);
        }
        let filled = output.fill_spare(stop);
        output.unlock()?;
        filled
    }

    /// Saves what the last build left unsaved, if anything: the cache and the live
    /// generation's manifest.
    pub fn save(&mut self) -> Result<(), BuildError> {
        if let Some(output) = self.output.as_mut() {
            output.settle()?;
        }
        match (self.unsaved.take(), &mut self.cache) {
            (Some(dir), Some(cache)) => cache.save(&dir),
            _ => Ok(()),
        }
    }

    /// Keeps `cache` and `output` after a build that failed before it began to write. The
    /// cache's parsed articles stay true to the files: a load reads every changed article
    /// whatever fails (an article's parse depends only on its bytes and the site's start date),
    /// so the watcher's word for the next build, naming the files saved since, still holds.
    pub(super) fn keep_after_failure(&mut self, cache: BuildCache, output: Generations) {
        self.cache = Some(cache);
        self.output = Some(output);
    }

    /// When the output kept from the last build is no longer as that build left it (another
    /// build wrote to it while its lock was let go: [`Session::unlock_output`]), forgets it and
    /// everything the session kept about the site and the output, so that the next build reads
    /// them from disk as a new process would.
    pub(super) fn forget_if_written(&mut self, dest: &Path) {
        if self.output.as_mut().is_none_or(|output| output.is_as_left(dest)) {
            return;
        }
        tracing::debug!("the output was written by another build: the session starts afresh");
        self.output = None;
        self.cache = None;
        self.unsaved = None;
        self.outlines = OutlineMemo::default();
        self.catalog = None;
        self.search = None;
        self.current = None;
        self.vouch_on_load = None;
        self.last_images = None;
    }

    /// The output directory `dest`, opened: the one kept from the last build when it is still as
    /// that build left it, else opened afresh.
    pub(super) fn output(&mut self, dest: &Path) -> Result<Generations, BuildError> {
        if let Some(mut output) = self.output.take() {
            if output.is_as_left(dest) {
                return Ok(output);
            }
            drop(output); // releases its lock first
        }
        let output = Generations::open(dest)?;
        Ok(if self.defer_save { output.deferring() } else { output })
    }

    /// Starts `size` workers running `script` with `node` on a thread of its own, unless workers
    /// are running or starting: the build goes on (loading the site) while Node starts, and
    /// [`Session::workers`] takes them when they fit.
    pub(super) fn start_workers(
        &mut self,
        node: &Path,
        script: &Path,
        script_key: &str,
        size: usize,
    ) {
        if self.workers.is_some() || self.starting.is_some() {
            return;
        }
        let key = workers_key(node, script_key);
        let (node, script) = (node.to_path_buf(), script.to_path_buf());
        let thread = std::thread::spawn(move || {
            check_node(&node)?;
            SsrPool::start(&node, &script, size)
        });
        self.starting = Some((key, thread));
    }

    /// At least `size` workers running `script` (whose bytes have digest `script_key`) with
    /// `node`: the running ones when they fit, else new ones.
    pub(super) fn workers(
        &mut self,
        node: &Path,
        script: &Path,
        script_key: &str,
        size: usize,
    ) -> Result<&mut SsrPool, BuildError> {
        if let Some((key, thread)) = self.starting.take() {
            let pool = thread
                .join()
                .map_err(|_| BuildError::Node("starting the workers panicked".into()))??;
            self.workers = Some(Workers { key, pool });
        }
        let key = workers_key(node, script_key);
        match self.workers.as_mut() {
            // Fewer than needed (one started early for an edit): more join them.
            Some(w) if w.key == key => {
                if w.pool.len() < size {
                    w.pool.grow(node, script, size)?;
                }
            }
            _ => {
                self.workers = None; // stops the old ones first
                check_node(node)?;
                let pool = SsrPool::start(node, script, size)?;
                self.workers = Some(Workers { key, pool });
            }
        }
        Ok(&mut self.workers.as_mut().expect("just started").pool)
    }

    /// Stops the workers (after a crash, their state is unknown), and those still starting.
    pub(super) fn stop_workers(&mut self) {
        self.workers = None;
        if let Some((_, thread)) = self.starting.take() {
            let _ = thread.join();
        }
    }
}

/// What running workers were started with: the Node executable and the worker script's digest.
fn workers_key(node: &Path, script_key: &str) -> String {
    format!("{}\0{script_key}", node.display())
}
