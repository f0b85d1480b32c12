//! Which file-system events rebuild what. The watcher reports batches of paths (debounced by
//! `notify-debouncer-full`); [`Filter`] keeps the ones that matter: files of the site directory,
//! and with `--web-dev` files of `web/src`. Editor by-products (swap and backup files, lock files,
//! save temporaries), the output directory, `SITE/.stillpoint/` and VCS or dependency
//! directories are ignored, so an editor's save (write a temporary, rename it over the file)
//! reports the file once.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use notify_debouncer_full::notify::{
    EventKind, RecursiveMode, event::AccessKind, event::AccessMode,
};
use notify_debouncer_full::{DebounceEventResult, RecommendedCache, new_debouncer};

/// How long the watcher waits for a burst of events (an editor's save) to end: an atomic
/// save (write a temporary file, rename it over the old one) takes well under this.
pub const DEBOUNCE: Duration = Duration::from_millis(25);

pub type Debouncer = notify_debouncer_full::Debouncer<
    notify_debouncer_full::notify::RecommendedWatcher,
    RecommendedCache,
>;

/// Directories never watched or reported, wherever they are.
const IGNORED_DIRS: [&str; 4] = [".git", "node_modules", ".stillpoint", "target"];

/// What a batch of events changed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Changes {
    /// Files of the site, relative to the site directory, sorted.
    pub site: Vec<PathBuf>,
    /// Files of the web sources (`web/src`), relative to it, sorted.
    pub web: Vec<PathBuf>,
    /// The site directory itself was replaced (`root.rs`): any file may have changed.
    pub root: bool,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.site.is_empty() && self.web.is_empty() && !self.root
    }
    pub fn extend(&mut self, other: Changes) {
        self.site.extend(other.site);
        self.web.extend(other.web);
        self.root |= other.root;
        self.normalize();
    }
    fn normalize(&mut self) {
        for v in [&mut self.site, &mut self.web] {
            v.sort();
            v.dedup();
        }
    }
}

/// The rules, for one site (and optionally one web source directory).
#[derive(Debug, Clone)]
pub struct Filter {
    site: PathBuf,
    /// Ignored subtrees: the output directory (wherever it is).
    ignored: Vec<PathBuf>,
    web_src: Option<PathBuf>,
}

impl Filter {
    /// All paths absolute (the watcher reports absolute paths).
    pub fn new(site: PathBuf, out: PathBuf, web_src: Option<PathBuf>) -> Self {
        Self { site, ignored: vec![out], web_src }
    }

    /// Ignores `dir` too (a build server's output generations, beside its output).
    pub fn ignoring(mut self, dir: PathBuf) -> Self {
        self.ignored.push(dir);
        self
    }

    /// Whether an event of this kind can change a file's content or name (opening or reading a
    /// file, as every build does, cannot).
    pub fn is_change(kind: &EventKind) -> bool {
        match kind {
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
            EventKind::Access(_) => false,
            _ => true,
        }
    }

    /// Sorts a batch of paths into site and web changes, dropping what is ignored. The site
    /// directory's own path is never reported by the watcher (see [`start`]): it comes from
    /// `root.rs`, and means the directory was replaced.
    pub fn classify<'a>(&self, paths: impl IntoIterator<Item = &'a Path>) -> Changes {
        let mut changes = Changes::default();
        for path in paths {
            if path == self.site {
                changes.root = true;
                continue;
            }
            if self.ignored.iter().any(|dir| path.starts_with(dir)) || is_editor_noise(path) {
                continue;
            }
            if let Some(web) = &self.web_src
                && let Ok(rel) = path.strip_prefix(web)
            {
                if !in_ignored_dir(rel) {
                    changes.web.push(rel.to_path_buf());
                }
            } else if let Ok(rel) = path.strip_prefix(&self.site)
                && !rel.as_os_str().is_empty()
                && !in_ignored_dir(rel)
            {
                changes.site.push(rel.to_path_buf());
            }
        }
        changes.normalize();
        changes
    }

    /// The directories to watch: the site directory itself (its own entries only), each of its
    /// subdirectories that is not ignored (recursively), and the web sources. Watching the
    /// output directory would cost a watch per generated directory and report every build.
    pub fn roots(&self) -> std::io::Result<Vec<(PathBuf, RecursiveMode)>> {
        let mut roots = vec![(self.site.clone(), RecursiveMode::NonRecursive)];
        for entry in std::fs::read_dir(&self.site)? {
            let path = entry?.path();
            if path.is_dir() && self.watches_dir(&path) {
                roots.push((path, RecursiveMode::Recursive));
            }
        }
        if let Some(web) = &self.web_src {
            roots.push((web.clone(), RecursiveMode::Recursive));
        }
        Ok(roots)
    }

    /// Whether a new directory directly in the site directory should be watched.
    pub fn watches_dir(&self, path: &Path) -> bool {
        path.parent() == Some(self.site.as_path())
            && !self.ignored.iter().any(|dir| path.starts_with(dir) || dir == path)
            && path.file_name().and_then(|n| n.to_str()).is_some_and(|n| !IGNORED_DIRS.contains(&n))
    }
}

fn in_ignored_dir(rel: &Path) -> bool {
    rel.components().any(|c| match c {
        Component::Normal(name) => name.to_str().is_some_and(|n| IGNORED_DIRS.contains(&n)),
        _ => false,
    })
}

/// Files editors write beside the one being edited: vim's swap, backup and write-test files,
/// Emacs lock and auto-save files, JetBrains and GNOME save temporaries, `*.tmp`.
pub fn is_editor_noise(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return true;
    };
    let ext = Path::new(name).extension().and_then(|e| e.to_str()).unwrap_or_default();
    name.ends_with('~')
        || name == "4913"
        || name == ".DS_Store"
        || name.starts_with(".#")
        || (name.starts_with('#') && name.ends_with('#'))
        || name.starts_with(".goutputstream-")
        || name.contains("___jb_")
        || matches!(ext, "swp" | "swo" | "swx" | "swpx" | "tmp" | "part" | "crswap")
}

/// Starts watching; `on_batch` gets each debounced batch of changed paths (never empty), and
/// `lost` is set when the watcher may have missed events (an error, or the
/// kernel's queue overflowed and it asks for a rescan).
pub fn start(
    filter: &Filter,
    lost: Arc<AtomicBool>,
    mut on_batch: impl FnMut(Vec<PathBuf>) + Send + 'static,
) -> anyhow::Result<Debouncer> {
    let site = filter.site.clone();
    let mut debouncer =
        new_debouncer(DEBOUNCE, None, move |result: DebounceEventResult| match result {
            Ok(events) => {
                if events.iter().any(|e| e.event.need_rescan()) {
                    lost.store(true, Ordering::SeqCst);
                }
                // Events on the site directory itself (its attributes, its move or deletion)
                // change no file: `root.rs` watches for the directory being replaced.
                let paths: Vec<PathBuf> = events
                    .into_iter()
                    .filter(|e| Filter::is_change(&e.event.kind))
                    .flat_map(|e| e.event.paths)
                    .filter(|path| *path != site)
                    .collect();
                if !paths.is_empty() {
                    on_batch(paths);
                }
            }
            Err(errors) => {
                lost.store(true, Ordering::SeqCst);
                for e in errors {
                    tracing::warn!("file watcher: {e}");
                }
            }
        })?;
    for (root, mode) in filter.roots()? {
        debouncer
            .watch(&root, mode)
            .map_err(|e| anyhow::anyhow!("{}: cannot watch: {e}", root.display()))?;
    }
    Ok(debouncer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter() -> Filter {
        Filter::new("/s".into(), "/s/.stillpoint/dev-dist".into(), Some("/repo/web/src".into()))
    }

    fn site(paths: &[&str]) -> Vec<PathBuf> {
        paths.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn an_atomic_save_reports_the_file_once() {
        let batch = [
            "/s/articles/.body-scan.md.swp",
            "/s/articles/4913",
            "/s/articles/body-scan.md~",
            "/s/articles/body-scan.md.tmp",
            "/s/articles/body-scan.md",
            "/s/articles/body-scan.md",
            "/s/articles/.goutputstream-X1Y2",
            "/s/articles/body-scan.md___jb_tmp___",
            "/s/articles/.#body-scan.md",
            "/s/articles/#body-scan.md#",
        ];
        let changes = filter().classify(batch.iter().map(Path::new));
        assert_eq!(changes.site, site(&["articles/body-scan.md"]));
        assert!(changes.web.is_empty());
    }

    #[test]
    fn output_and_tool_directories_are_ignored() {
        let batch = [
            "/s/.stillpoint/dev-dist/index.html",
            "/s/.stillpoint/cache/x",
            "/s/.git/index",
            "/s/node_modules/a/b.js",
        ];
        assert!(filter().classify(batch.iter().map(Path::new)).is_empty());
        // The site directory's own path (never reported by the watcher) means it was replaced.
        let replaced = filter().classify([Path::new("/s")]);
        assert!(replaced.root && replaced.site.is_empty() && !replaced.is_empty());
        let elsewhere = Filter::new("/s".into(), "/s/out".into(), None);
        assert!(elsewhere.classify([Path::new("/s/out/a/index.html")]).is_empty());
        assert_eq!(elsewhere.classify([Path::new("/s/outside.md")]).site, site(&["outside.md"]));
    }

    #[test]
    fn site_and_web_sources_are_told_apart() {
        let batch = [
            "/s/data/topics.toml",
            "/repo/web/src/components/Card.tsx",
            "/repo/web/dist/assets/x.js",
            "/s/stillpoint.toml",
        ];
        let changes = filter().classify(batch.iter().map(Path::new));
        assert_eq!(changes.site, site(&["data/topics.toml", "stillpoint.toml"]));
        assert_eq!(changes.web, site(&["components/Card.tsx"]));
    }

    #[test]
    fn reads_are_not_changes() {
        use notify_debouncer_full::notify::event::{CreateKind, ModifyKind, RenameMode};
        assert!(!Filter::is_change(&EventKind::Access(AccessKind::Open(AccessMode::Any))));
        assert!(!Filter::is_change(&EventKind::Access(AccessKind::Close(AccessMode::Read))));
        assert!(Filter::is_change(&EventKind::Access(AccessKind::Close(AccessMode::Write))));
        assert!(Filter::is_change(&EventKind::Create(CreateKind::File)));
        assert!(Filter::is_change(&EventKind::Modify(ModifyKind::Name(RenameMode::Both))));
    }

    #[test]
    fn watched_directories() {
        let f = filter();
        assert!(f.watches_dir(Path::new("/s/articles")));
        assert!(!f.watches_dir(Path::new("/s/.stillpoint")));
        assert!(!f.watches_dir(Path::new("/s/.git")));
        assert!(!f.watches_dir(Path::new("/s/articles/deep")));
    }

    /// The real watcher: a temporary file renamed over an article is reported as that article,
    /// never as the temporary or swap file.
    #[test]
    fn a_real_atomic_save_reports_the_article_not_its_temporaries() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("articles")).unwrap();
        std::fs::write(root.join("articles/a.md"), "one").unwrap();
        let filter = Filter::new(root.clone(), root.join(".stillpoint/dev-dist"), None);
        let (tx, rx) = std::sync::mpsc::channel();
        let _watcher =
            start(&filter, Arc::default(), move |paths| tx.send(paths).unwrap()).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        std::fs::write(root.join("articles/.a.md.swp"), "swap").unwrap();
        std::fs::write(root.join("articles/a.md.tmp"), "two").unwrap();
        std::fs::rename(root.join("articles/a.md.tmp"), root.join("articles/a.md")).unwrap();
        let mut changes = Changes::default();
        let first = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        changes.extend(filter.classify(first.iter().map(PathBuf::as_path)));
        // On a busy machine the swap file and the rename may land in separate batches, and the
        // kernel can report the file's last events after the debounce window: every batch counts,
        // and none may name the swap or temporary file.
        while let Ok(more) = rx.recv_timeout(DEBOUNCE * 4) {
            changes.extend(filter.classify(more.iter().map(PathBuf::as_path)));
        }
        assert_eq!(changes.site, site(&["articles/a.md"]));
    }
}
