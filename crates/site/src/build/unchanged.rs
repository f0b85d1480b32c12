//! A build with nothing to do, told without doing it. Before `build` reads anything it takes the
//! stamp of every file of the site and of the web bundle (one `stat` each, in parallel), and
//! compares their digest, the options that shape the output and the output's identity with what
//! the last successful build recorded (`unchanged.json` in the cache directory). When all are
//! equal and no scheduled article has come due since, the output already is what the build would
//! make: the build says so and ends, without decoding its cache or opening the output. Anything
//! else builds as usual, and then records what it built from.
//!
//! What it relies on:
//! - the stamps are taken before the build reads a file, and only settled ones count (git's
//!   racily-clean rule, [`Stamp`]): a file written during the build, or just before it, never
//!   matches later;
//! - every commit to the output writes the live generation's manifest file anew
//!   ([`live_stamp`]), so a `dev` session or another build in between is seen;
//! - the options that change the output (engine, folders, environment, year, `--now`, drafts)
//!   make the record's key; the clock is the build's `now`.
//!
//! A build that reported warnings or problems in drafts records nothing, so that the next one
//! reports them again. Shard builds and builds without a cache do not use it. A build that ends
//! here opens nothing, so it does not check the live generation for planted files: nothing is
//! carried forward from it, and the next build that changes something checks it.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use stillpoint_content::Schedule;
use stillpoint_fingerprint::{Digest, Digester, Stamp};

use super::{BuildOptions, BuildReport, current_year};
use crate::emit::{EmitStats, live_stamp};
use crate::ssr::WebBundle;

/// The record's file, in the cache directory, and the stamps of the files it was made from.
pub const RECORD_FILE: &str = "unchanged.json";
const STAMPS_FILE: &str = "stamps.bin";
const FORMAT: u32 = 1;

/// A file's path (under its tree's prefix), its stamp (None when it was written too recently to
/// be trusted: it counts as changed) and, for a symbolic link, its target's.
type Stamped = (String, Option<Stamp>, Option<Stamp>);

/// A [`Stamped`] read in place, its path borrowing the bytes it was read from.
type StampedRef<'a> = (&'a str, Option<Stamp>, Option<Stamp>);

/// What the last successful build built from and what it reported.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    format: u32,
    key: [u8; 16],
    /// The digest of the stamps (`stamps.bin` holds them), and whether each could be trusted.
    inputs: [u8; 16],
    trusted: bool,
    /// The live generation and its manifest file's stamp, as the build left them.
    output: (String, Stamp),
    /// The build cache file's stamp as the build left it.
    cache: Option<Stamp>,
    /// The build's `now`: articles dated up to it were published.
    now: jiff::Timestamp,
    pages: usize,
    articles: usize,
    files: usize,
    schedule: Schedule,
}

/// A build's inputs, stamped before it reads them.
pub struct Before {
    dir: PathBuf,
    key: [u8; 16],
    /// Sorted by path; None when a tree was unreadable.
    stamps: Option<Vec<Stamped>>,
    /// Their digest, and whether every file's stamp can be trusted.
    inputs: Option<([u8; 16], bool)>,
    now: jiff::Timestamp,
}

/// What the comparison with the last build's record found.
pub enum Found {
    /// Nothing changed: the build's report.
    Unchanged(Box<BuildReport>),
    /// The files of the site written, added or removed since the build cache was saved
    /// (relative to the site): the build may take every other article from the cache unread.
    Changed(Vec<PathBuf>),
    /// Nothing known.
    Unknown,
}

impl Before {
    /// Stamps what a build with `opts` at `now` reads; `None` for builds that keep no record
    /// (no cache, a shard) or whose web bundle is not there (the build will say so).
    pub fn take(opts: &BuildOptions, now: jiff::Timestamp) -> Option<Self> {
        let dir = opts.cache.as_ref().filter(|_| opts.shard.is_none())?;
        let bundle = WebBundle::locate(&opts.web).ok()?.root;
        let year = opts.year.unwrap_or_else(|| current_year(Some(now)));
        let key = format!(
            "{FORMAT}\0{}\0{:?}\0{:?}\0{:?}\0{:?}\0{year}\0{}\0{:?}\0{}\0{:?}\0{}\0{:?}",
            opts.engine,
            opts.site_dir,
            opts.out,
            bundle,
            opts.node,
            opts.env,
            opts.now,
            opts.drafts,
            opts.image_cache,
            opts.image_cache_max,
            dir,
        );
        let skip = Skip::of(opts, dir);
        let trees = [(&*opts.site_dir, SITE, Some(&skip)), (&*bundle, "web/", None)];
        let stamps = stamp_trees(&trees, SystemTime::now());
        Some(Self {
            dir: dir.clone(),
            key: Digest::of(key.as_bytes()).bytes(),
            inputs: stamps.as_deref().map(digest_of),
            stamps,
            now,
        })
    }

    /// Compares the inputs and the output with what the last build recorded.
    pub fn compare(&self, out: &Path, started: Instant) -> Found {
        let Some(record) = fs::read(self.dir.join(RECORD_FILE))
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Record>(&bytes).ok())
            .filter(|r| r.format == FORMAT && r.key == self.key)
        else {
            return Found::Unknown;
        };
        let due = [&record.schedule.next, &record.schedule.next_expiry]
            .into_iter()
            .flatten()
            .any(|upcoming| upcoming.at <= self.now);
        let output = live_stamp(out);
        let inputs = record.trusted && self.inputs == Some((record.inputs, true));
        let same =
            inputs && record.now <= self.now && !due && output.as_ref() == Some(&record.output);
        tracing::debug!(
            inputs,
            due,
            output = output.as_ref() == Some(&record.output),
            "the last build's record compared"
        );
        if same {
            return Found::Unchanged(Box::new(BuildReport {
                pages: record.pages,
                articles: record.articles,
                rendered: 0,
                files: EmitStats { unchanged: record.files, ..EmitStats::default() },
                changed: Vec::new(),
                seconds: started.elapsed().as_secs_f64(),
                out: out.to_path_buf(),
                cache_note: None,
                peak_plans: 0,
                schedule: record.schedule,
                draft_problems: Vec::new(),
                warnings: Vec::new(),
                renamed: Vec::new(),
            }));
        }
        // The cache is the one the recorded build saved, and the stamps are that build's.
        if record.cache.is_none() || cache_stamp(&self.dir) != record.cache {
            return Found::Unknown;
        }
        // Read in place: the paths borrow the file's bytes.
        let bytes = fs::read(self.dir.join(STAMPS_FILE)).ok();
        let last: Option<Vec<StampedRef>> = bytes
            .as_deref()
            .and_then(|bytes| postcard::from_bytes(bytes).ok())
            .filter(|last: &Vec<_>| digest_of(last) == (record.inputs, record.trusted));
        match (last, &self.stamps) {
            (Some(last), Some(now)) => Found::Changed(changed_site_files(&last, now)),
            _ => Found::Unknown,
        }
    }

    /// After a successful build: records what it built from, or forgets the last record when
    /// this build cannot be told again (warnings to report). A file too fresh to trust is
    /// recorded as such: it counts as changed at the next build, which cannot end unchanged.
    pub fn record(self, report: &BuildReport) {
        let record_path = self.dir.join(RECORD_FILE);
        let (Some(stamps), Some((inputs, trusted)), Some(output)) =
            (self.stamps, self.inputs, live_stamp(&report.out))
        else {
            let _ = fs::remove_file(&record_path);
            return;
        };
        if !report.warnings.is_empty() || !report.draft_problems.is_empty() {
            let _ = fs::remove_file(&record_path);
            return;
        }
        let record = Record {
            format: FORMAT,
            key: self.key,
            inputs,
            trusted,
            output,
            cache: cache_stamp(&self.dir),
            now: self.now,
            pages: report.pages,
            articles: report.articles,
            files: report.files.changed + report.files.unchanged,
            schedule: report.schedule.clone(),
        };
        let stamps = postcard::to_stdvec(&stamps).expect("stamps serialise");
        let record = serde_json::to_vec(&record).expect("the record serialises");
        // The stamps first: a record names their digest, so a record never vouches for others.
        let written =
            write(&self.dir.join(STAMPS_FILE), &stamps).and_then(|()| write(&record_path, &record));
        if let Err(e) = written {
            tracing::debug!(error = %e, "the build's record was not written");
        }
    }
}

/// The site's files are stamped under this prefix, the web bundle's under `web/`.
const SITE: &str = "site/";

fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    stillpoint_fingerprint::replace_file(path, bytes, false)
}

fn cache_stamp(dir: &Path) -> Option<Stamp> {
    Stamp::unsettled(&fs::symlink_metadata(dir.join(crate::cache::CACHE_FILE)).ok()?)
}

/// The digest of the stamps, and whether every one can be trusted.
fn digest_of<S: AsRef<str>>(stamps: &[(S, Option<Stamp>, Option<Stamp>)]) -> ([u8; 16], bool) {
    let mut digest = Digester::new();
    for (rel, own, target) in stamps {
        let (own, target) = (own.map(|s| s.to_bytes()), target.map(|s| s.to_bytes()));
        digest.part(rel.as_ref().as_bytes());
        digest.part(own.as_ref().map_or(&[][..], |b| &b[..]));
        digest.part(target.as_ref().map_or(&[][..], |b| &b[..]));
    }
    (digest.finish().bytes(), stamps.iter().all(|s| s.1.is_some()))
}

/// The site's files (relative to the site) whose stamps differ between two sorted lists, or
/// that only one holds.
fn changed_site_files(
    last: &[(&str, Option<Stamp>, Option<Stamp>)],
    now: &[Stamped],
) -> Vec<PathBuf> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let mut changed = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < last.len() || j < now.len() {
        let order = match (last.get(i), now.get(j)) {
            (Some(x), Some(y)) => x.0.cmp(y.0.as_str()),
            (Some(_), None) => Less,
            _ => Greater,
        };
        let rel = match order {
            Equal => {
                (i, j) = (i + 1, j + 1);
                let (x, y) = (&last[i - 1], &now[j - 1]);
                if (x.1, x.2) == (y.1, y.2) && y.1.is_some() {
                    continue;
                }
                y.0.as_str()
            }
            Less => {
                i += 1;
                last[i - 1].0
            }
            Greater => {
                j += 1;
                now[j - 1].0.as_str()
            }
        };
        if let Some(site_rel) = rel.strip_prefix(SITE) {
            changed.push(PathBuf::from(site_rel));
        }
    }
    changed
}

/// Folders of the site that are not its input: the output (its link and generations) and the
/// caches, when they lie inside it. Compared by their canonical paths.
struct Skip {
    root: PathBuf,
    paths: Vec<PathBuf>,
}

impl Skip {
    fn of(opts: &BuildOptions, cache: &Path) -> Self {
        let canonical = |p: &Path| -> Option<PathBuf> {
            let name = p.file_name()?;
            let parent = p.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            Some(fs::canonicalize(parent).ok()?.join(name))
        };
        let gens = opts.out.file_name().map(|name| {
            let mut gens = std::ffi::OsString::from(".");
            gens.push(name);
            gens.push(".gens");
            opts.out.with_file_name(gens)
        });
        let paths =
            [Some(opts.out.clone()), gens, Some(cache.to_path_buf()), opts.image_cache.clone()]
                .into_iter()
                .flatten()
                .filter_map(|p| canonical(&p))
                .collect();
        Self { root: fs::canonicalize(&opts.site_dir).unwrap_or_default(), paths }
    }

    fn skips(&self, rel: &str) -> bool {
        !self.paths.is_empty() && self.paths.contains(&self.root.join(rel))
    }
}

/// One file found by the walk: its path (under its tree's prefix) and where it is.
struct Entry {
    rel: String,
    entry: fs::DirEntry,
}

/// Every file's path and stamp (a symbolic link's own and its target's) in the trees, each under
/// its prefix, sorted; `None` when a tree cannot be read or a link names a folder (whose files
/// the build may read through it).
fn stamp_trees(
    trees: &[(&Path, &str, Option<&Skip>)],
    read_at: SystemTime,
) -> Option<Vec<Stamped>> {
    let mut found = Vec::new();
    for (root, prefix, skip) in trees {
        walk(root, "", prefix, *skip, &mut found).ok()?;
    }
    let mut stamps = found
        .into_par_iter()
        .map(|f| {
            let mut own = Stamp::of(&f.entry.metadata().ok()?, read_at);
            let mut target = None;
            if f.entry.file_type().ok()?.is_symlink() {
                match fs::metadata(f.entry.path()) {
                    Ok(meta) if meta.is_dir() => return None,
                    Ok(meta) => {
                        target = Stamp::of(&meta, read_at);
                        own = own.filter(|_| target.is_some());
                    }
                    Err(_) => {}
                }
            }
            Some((f.rel, own, target))
        })
        .collect::<Option<Vec<_>>>()?;
    stamps.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Some(stamps)
}

/// Lists the files under `root/rel` (folders by the kind the directory entry gives, without a
/// `stat`). At the top of a skipped tree, names starting with `.` are not the site's (its caches,
/// the output's generations, version control).
fn walk(
    root: &Path,
    rel: &str,
    prefix: &str,
    skip: Option<&Skip>,
    found: &mut Vec<Entry>,
) -> std::io::Result<()> {
    for entry in fs::read_dir(root.join(rel))? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let child = if rel.is_empty() { name.to_string() } else { format!("{rel}/{name}") };
        if skip.is_some_and(|_| rel.is_empty() && name.starts_with('.')) {
            continue;
        }
        let kind = entry.file_type()?;
        if (kind.is_dir() || kind.is_symlink()) && skip.is_some_and(|s| s.skips(&child)) {
            continue;
        }
        if kind.is_dir() {
            walk(root, &child, prefix, skip, found)?;
        } else {
            found.push(Entry { rel: format!("{prefix}{child}"), entry });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn stamp(len: u64) -> Option<Stamp> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, vec![b'x'; len as usize]).unwrap();
        let later = SystemTime::now() + Duration::from_secs(10);
        Stamp::of(&fs::metadata(&path).unwrap(), later)
    }

    fn stamped(rel: &str, own: Option<Stamp>) -> Stamped {
        (rel.to_string(), own, None)
    }

    #[test]
    fn the_changed_files_are_those_written_added_removed_or_too_fresh_to_trust() {
        let (a, b) = (stamp(1), stamp(2));
        let last = [
            stamped("site/articles/edited.md", a),
            stamped("site/articles/gone.md", a),
            stamped("site/articles/same.md", a),
            stamped("site/articles/was-fresh.md", None),
            stamped("web/server/worker.js", a),
        ];
        let now = vec![
            stamped("site/articles/added.md", a),
            stamped("site/articles/edited.md", b),
            stamped("site/articles/same.md", a),
            stamped("site/articles/was-fresh.md", None),
            stamped("web/server/worker.js", b),
        ];
        let last: Vec<_> =
            last.iter().map(|(rel, own, target)| (rel.as_str(), *own, *target)).collect();
        let changed = changed_site_files(&last, &now);
        let names: Vec<&str> = changed.iter().map(|p| p.to_str().unwrap()).collect();
        assert_eq!(
            names,
            [
                "articles/added.md",
                "articles/edited.md",
                "articles/gone.md",
                "articles/was-fresh.md"
            ]
        );
        assert!(!digest_of(&now).1, "a fresh file: no build can end unchanged");
        assert!(digest_of(&last[..3]).1);
        assert_ne!(digest_of(&last).0, digest_of(&now).0);
    }

    #[test]
    fn the_walk_leaves_out_the_output_and_the_caches_and_names_what_else_is_there() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("site");
        for rel in ["articles/a.md", "static/.well-known/x.txt", ".stillpoint/c.bin", "out/o"] {
            fs::create_dir_all(site.join(rel).parent().unwrap()).unwrap();
            fs::write(site.join(rel), "x").unwrap();
        }
        let mut opts = BuildOptions::new(&site, &site.join("out"));
        opts.image_cache = None;
        let skip = Skip::of(&opts, &site.join(".stillpoint"));
        let later = SystemTime::now() + Duration::from_secs(10);
        let stamps = stamp_trees(&[(&site, SITE, Some(&skip))], later).unwrap();
        let names: Vec<&str> = stamps.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(names, ["site/articles/a.md", "site/static/.well-known/x.txt"]);
        assert!(stamps.iter().all(|s| s.1.is_some()));
        // Just written, as the build reads it: not to be trusted later.
        let now = stamp_trees(&[(&site, SITE, Some(&skip))], SystemTime::now()).unwrap();
        assert!(now.iter().all(|s| s.1.is_none()));
    }
}
