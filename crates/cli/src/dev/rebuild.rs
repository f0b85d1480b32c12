//! The rebuild loop: waits for changes, runs the web bundle's build when its sources changed
//! (`--web-dev`), rebuilds the site, prints the outcome as `stillpoint build`/`check` would and
//! tells the tabs. Batches that arrive during a build are merged into the next one, so a save
//! is one rebuild however many events it made.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

use stillpoint_content::Diagnostics;
use stillpoint_site::{BuildError, BuildOptions, Renamed, Route, Session, Silent};

use super::events::{DevEvent, Hub, Moved, Problem};
use super::outputs::{Diff, build_hash};
use super::watch::{Changes, Filter};
use crate::{diagnostics, settings};

/// How long no change must come before the build cache is saved. Saving it is writing the whole
/// table of parsed articles (about 0.4 s of a core at 100,000 articles): done after every
/// rebuild, it took that core from the tab rendering the edit and from the next rebuild. A `dev`
/// stopped with Ctrl-C saves it as it stops; one killed loses only the speed the unsaved
/// rebuilds would have given the next session (the cache is checked against every file).
const SAVE_WHEN_IDLE: Duration = Duration::from_secs(2);

/// Everything a rebuild needs.
pub struct Rebuilder {
    pub site: PathBuf,
    pub out: PathBuf,
    /// Where the web bundle may be ([`settings::web_candidates`]).
    pub web: Vec<PathBuf>,
    pub node: PathBuf,
    pub jobs: usize,
    /// Publish drafts (the default; `--no-drafts` leaves them out).
    pub drafts: bool,
    /// `--now`: the instant the site is previewed as of; the clock at each rebuild when None.
    pub now: Option<jiff::Timestamp>,
    /// The image cache (`STILLPOINT_IMAGE_CACHE`, else the site's own): shared with `build`.
    pub image_cache: Option<PathBuf>,
    /// The checkout's `web/` directory with `--web-dev`.
    pub web_dev: Option<PathBuf>,
    pub hub: Arc<Hub>,
    build: u64,
    /// The build cache, the open output and the render workers, kept from one rebuild to the
    /// next; the cache is saved when no change has come for [`SAVE_WHEN_IDLE`], and on stopping.
    session: Session,
    /// Set by the watcher when it may have missed events.
    pub lost: Arc<AtomicBool>,
    /// Whether the watcher is running (`run`).
    watching: bool,
    /// Whether the last build read the site while the watcher was running: then the changes
    /// the watcher reports since are all there are, and the next build may trust it.
    loaded_while_watching: bool,
}

impl Rebuilder {
    pub fn new(site: PathBuf, out: PathBuf, hub: Arc<Hub>) -> Self {
        Self {
            site,
            out,
            web: Vec::new(),
            node: PathBuf::from("node"),
            jobs: 0,
            drafts: true,
            now: None,
            image_cache: None,
            web_dev: None,
            hub,
            build: 0,
            session: Session::deferring_save().following_slugs(),
            lost: Arc::new(AtomicBool::new(false)),
            watching: false,
            loaded_while_watching: false,
        }
    }

    /// The one place the dev server's build options are made.
    pub fn build_options(&self) -> BuildOptions {
        BuildOptions {
            site_dir: self.site.clone(),
            out: self.out.clone(),
            web: self.web.clone(),
            node: self.node.clone(),
            jobs: settings::jobs(self.jobs),
            year: Some(settings::year(self.now)),
            engine: settings::engine(),
            // Its own cache: the build cache records what one output holds.
            cache: Some(stillpoint_site::default_cache_dir(&self.site).join("dev-cache")),
            image_cache: Some(settings::image_cache(self.image_cache.as_deref(), &self.site)),
            image_cache_max: stillpoint_media::DEFAULT_MAX_BYTES,
            shard: None,
            batch: stillpoint_site::BATCH,
            env: stillpoint_content::PRODUCTION.to_string(),
            now: self.now,
            drafts: self.drafts,
        }
    }

    /// The first build, before serving. The output of an earlier session is the baseline, so
    /// tabs left open from it refresh what changed.
    pub fn initial(&mut self) -> bool {
        self.rebuild(&Changes::default())
    }

    /// Rebuilds on every batch of changed paths until an empty batch (the watcher never sends
    /// one) or the sender is gone, then saves the build cache. `watch_dir` is called for each new
    /// directory of the site directory, to watch it too.
    pub fn run(
        mut self,
        filter: &Filter,
        batches: &Receiver<Vec<PathBuf>>,
        watch_dir: impl Fn(&Path),
    ) {
        self.watching = true;
        'batches: while let Some(first) = self.next_batch(batches) {
            if first.is_empty() {
                break;
            }
            let mut changes = filter.classify(first.iter().map(PathBuf::as_path));
            for path in &first {
                if path.is_dir() && filter.watches_dir(path) {
                    watch_dir(path);
                }
            }
            while let Ok(more) = batches.try_recv() {
                if more.is_empty() {
                    break 'batches;
                }
                changes.extend(filter.classify(more.iter().map(PathBuf::as_path)));
            }
            if changes.is_empty() {
                continue;
            }
            if !changes.web.is_empty() && !self.build_web(&changes) {
                continue;
            }
            self.rebuild(&changes);
        }
        self.save();
    }

    /// The next batch of changes; the build cache and the output's manifest are saved while none
    /// comes. None when the
    /// watcher is gone.
    fn next_batch(&mut self, batches: &Receiver<Vec<PathBuf>>) -> Option<Vec<PathBuf>> {
        match batches.recv_timeout(SAVE_WHEN_IDLE) {
            Ok(batch) => return Some(batch),
            Err(RecvTimeoutError::Timeout) => self.save(),
            Err(RecvTimeoutError::Disconnected) => return None,
        }
        // Still idle: the output's other generation catches up with the live one (after the
        // first build it is empty), a slice at a time, until a change comes.
        let mut next = None;
        let mut stop = || match batches.try_recv() {
            Ok(batch) => {
                next = Some(Some(batch));
                true
            }
            Err(TryRecvError::Empty) => false,
            Err(TryRecvError::Disconnected) => {
                next = Some(None);
                true
            }
        };
        if let Err(e) = self.session.fill_spare(&mut stop) {
            tracing::warn!("the output's other generation was not brought up to date: {e}");
        }
        next.unwrap_or_else(|| batches.recv().ok())
    }

    /// Saves what a build left unsaved: the build cache and the output's manifest.
    fn save(&mut self) {
        if let Err(e) = self.session.save() {
            tracing::warn!("the build cache or the output's manifest was not saved: {e}");
        }
    }

    /// `npm run build` in the checkout's `web/`; false (and an error event) when it fails.
    fn build_web(&mut self, changes: &Changes) -> bool {
        let Some(web) = &self.web_dev else { return true };
        tracing::info!("web sources changed ({}): building the web bundle", list(&changes.web));
        let started = Instant::now();
        let output = Command::new(npm()).args(["run", "build"]).current_dir(web).output();
        let message = match output {
            Ok(out) if out.status.success() => {
                tracing::info!("web bundle built in {:.1} s", started.elapsed().as_secs_f64());
                return true;
            }
            Ok(out) => {
                let text = format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
                let tail: Vec<&str> = text.lines().rev().take(30).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                format!(
                    "`npm run build` in {} failed ({}):\n{}",
                    web.display(),
                    out.status,
                    tail.join("\n")
                )
            }
            Err(e) => format!("cannot run `npm run build` in {}: {e}", web.display()),
        };
        eprintln!("error: {message}");
        self.build += 1;
        let problem = Problem {
            file: None,
            line: 0,
            column: 0,
            message,
            hint: Some("fix the web sources; the site is rebuilt when they build again".into()),
            source: None,
        };
        self.hub.publish(&DevEvent::Error { build: self.build, problems: vec![problem] });
        false
    }

    /// Builds the site and tells the tabs; true when it succeeded.
    fn rebuild(&mut self, changes: &Changes) -> bool {
        self.build += 1;
        let build = self.build;
        let sources: Vec<String> =
            changes.site.iter().map(|p| p.to_string_lossy().replace('\\', "/")).collect();
        if !sources.is_empty() {
            tracing::info!("changed: {}", list(&changes.site));
        }
        if changes.root {
            // The directory was replaced: each file's stamp is checked, none is vouched for.
            self.lost.store(true, Ordering::SeqCst);
        }
        let options = self.build_options();
        // Unless it may have missed events, the watcher vouches that no other file changed.
        if self.loaded_while_watching && !self.lost.swap(false, Ordering::SeqCst) {
            self.session.vouch(changes.site.iter().cloned());
        }
        self.loaded_while_watching = self.watching;
        let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            stillpoint_site::build_in(&mut self.session, &options, &Silent)
        }));
        let Ok(built) = built else {
            // The panic message is on stderr already; keep serving and watching.
            self.session = Session::deferring_save().following_slugs();
            self.publish_failure(build, "the build panicked (see the terminal)".into());
            return false;
        };
        match built {
            Ok(report) => {
                let diff = Diff::of(&report.changed);
                tracing::info!(
                    "build {build}: {} of {} pages changed, in {:.2} s{}",
                    diff.pages.len(),
                    report.pages,
                    report.seconds,
                    if diff.bundle && report.files.unchanged > 0 {
                        " (new web bundle)"
                    } else {
                        ""
                    }
                );
                for line in crate::cmd::build::schedule_lines(&report.schedule) {
                    // `dev` previews drafts by default: that is not news at every save.
                    if !line.starts_with("preview:") {
                        tracing::info!("{line}");
                    }
                }
                for e in &report.draft_problems {
                    tracing::warn!("in a draft (not published): {e}");
                }
                let moved = moved(&report.renamed);
                if self.hub.has_error() {
                    self.hub.publish(&DevEvent::Ok { build });
                }
                self.hub.publish(&DevEvent::Rebuilt {
                    build,
                    sources,
                    pages: diff.pages,
                    build_hash: build_hash(&self.out),
                    bundle: diff.bundle,
                    css: diff.css,
                    js: diff.js,
                    static_files: changes.site.iter().any(|p| p.starts_with("static")),
                    seconds: report.seconds,
                    moved,
                });
                true
            }
            Err(BuildError::Content(d)) => {
                eprint!("{}", diagnostics::render(&self.site, &d));
                self.hub.publish(&DevEvent::Error { build, problems: problems(&self.site, &d) });
                false
            }
            Err(e) => {
                eprintln!("error: {e}\nstill serving the last good build");
                self.publish_failure(build, e.to_string());
                false
            }
        }
    }

    /// The articles whose slug changed since the last good build (same file, new slug); says in
    /// the terminal which alias keeps the old URL working.
    /// A failure that is not about a content file.
    fn publish_failure(&self, build: u64, message: String) {
        let problem = Problem { file: None, line: 0, column: 0, message, hint: None, source: None };
        self.hub.publish(&DevEvent::Error { build, problems: vec![problem] });
    }
}

/// Where the articles whose slug changed moved, each with a warning on how to keep the old
/// address working.
fn moved(renamed: &[Renamed]) -> Vec<Moved> {
    let moved = renamed.iter().map(|r| {
        let from = Route::article(&r.from).as_str().to_string();
        let file = r.source.to_string_lossy().replace('\\', "/");
        tracing::warn!(
            "{file}: the slug changed from `{}` to `{}`; to keep the old URL working, add to {file}: aliases: [{from}]",
            r.from,
            r.to
        );
        Moved { from, to: Route::article(&r.to).as_str().to_string() }
    });
    moved.collect()
}

/// Content errors as the overlay shows them, with their source line.
pub fn problems(site: &Path, d: &Diagnostics) -> Vec<Problem> {
    d.iter()
        .map(|e| Problem {
            file: Some(e.path.to_string_lossy().replace('\\', "/")),
            line: e.line,
            column: e.col,
            message: e.kind.to_string(),
            hint: Some(e.hint().to_string()),
            source: (e.line > 0)
                .then(|| std::fs::read_to_string(site.join(&e.path)).ok())
                .flatten()
                .and_then(|text| text.lines().nth(e.line as usize - 1).map(str::to_string)),
        })
        .collect()
}

fn list(paths: &[PathBuf]) -> String {
    let mut names: Vec<String> = paths.iter().take(5).map(|p| p.display().to_string()).collect();
    if paths.len() > 5 {
        names.push(format!("and {} more", paths.len() - 5));
    }
    names.join(", ")
}

fn npm() -> &'static str {
    if cfg!(windows) { "npm.cmd" } else { "npm" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stillpoint_content::{ContentError, ContentErrorKind};

    #[test]
    fn problems_carry_file_position_hint_and_source_line() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("articles")).unwrap();
        std::fs::write(tmp.path().join("articles/a.md"), "---\ntitle: [\n---\n").unwrap();
        let d = Diagnostics(vec![
            ContentError::new(
                "articles/a.md",
                2,
                8,
                ContentErrorKind::MalformedFrontMatter("unclosed".into()),
            ),
            ContentError::file("data/authors.toml", ContentErrorKind::MissingFile("x".into())),
        ]);
        let p = problems(tmp.path(), &d);
        assert_eq!(p[0].file.as_deref(), Some("articles/a.md"));
        assert_eq!((p[0].line, p[0].column), (2, 8));
        assert_eq!(p[0].message, "malformed front matter: unclosed");
        assert_eq!(p[0].source.as_deref(), Some("title: ["));
        assert!(p[0].hint.as_deref().unwrap().contains("front matter"));
        assert_eq!(p[1].source, None);
    }

    #[test]
    fn build_options_come_from_one_place() {
        let mut r = Rebuilder::new("site".into(), "out".into(), Arc::new(Hub::new()));
        r.jobs = 1;
        let o = r.build_options();
        assert_eq!((o.site_dir, o.out, o.jobs), ("site".into(), "out".into(), 1));
    }
}
