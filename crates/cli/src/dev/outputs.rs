//! What a build changed in the output, found by comparing it with the previous one: the routes
//! whose page data changed, and whether the web bundle (its build hash, CSS or JS files) did.
//! Paths are resolved through the output directory on every use, since it may be a symlink
//! that each build points at a new generation.

use std::collections::{BTreeSet, HashMap};
use std::hash::{DefaultHasher, Hasher};
use std::path::Path;
use std::time::SystemTime;

/// The output as far as the browser cares.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Route → (file identity, digest of the page data).
    pages: HashMap<String, (Stamp, u64)>,
    build_hash: Option<String>,
    css: BTreeSet<String>,
    js: BTreeSet<String>,
}

/// The difference between two snapshots.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diff {
    /// Changed, added or removed routes, sorted.
    pub pages: Vec<String>,
    pub bundle: bool,
    pub css: bool,
    pub js: bool,
}

impl Snapshot {
    /// Reads `dist`. A page-data file whose size and modification time are those `prev` saw is
    /// not read again.
    pub fn take(dist: &Path, prev: &Snapshot) -> Self {
        let mut snap = Snapshot { build_hash: build_hash(dist), ..Snapshot::default() };
        let page_data = dist.join("page-data");
        for entry in walkdir::WalkDir::new(&page_data).into_iter().filter_map(Result::ok) {
            if entry.file_name() != "page-data.json" || !entry.file_type().is_file() {
                continue;
            }
            let Ok(rel) = entry.path().strip_prefix(&page_data) else { continue };
            let route = route_of(rel);
            let Ok(meta) = entry.metadata() else { continue };
            let stamp = Stamp::of(&meta);
            let digest = match prev.pages.get(&route) {
                Some(&(s, d)) if s == stamp && stamp.modified.is_some() => d,
                _ => match std::fs::read(entry.path()) {
                    Ok(bytes) => digest(&bytes),
                    Err(_) => continue,
                },
            };
            snap.pages.insert(route, (stamp, digest));
        }
        if let Ok(dir) = std::fs::read_dir(dist.join("assets")) {
            for name in dir.filter_map(Result::ok).filter_map(|e| e.file_name().into_string().ok())
            {
                if name.ends_with(".css") {
                    snap.css.insert(name);
                } else if name.ends_with(".js") {
                    snap.js.insert(name);
                }
            }
        }
        snap
    }

    pub fn build_hash(&self) -> Option<&str> {
        self.build_hash.as_deref()
    }

    /// What changed from `self` to `next`.
    pub fn diff(&self, next: &Snapshot) -> Diff {
        let mut pages: Vec<String> = next
            .pages
            .iter()
            .filter(|(route, (_, d))| self.pages.get(*route).is_none_or(|old| old.1 != *d))
            .map(|(route, _)| route.clone())
            .chain(self.pages.keys().filter(|r| !next.pages.contains_key(*r)).cloned())
            .collect();
        pages.sort();
        Diff {
            pages,
            bundle: self.build_hash != next.build_hash,
            css: self.css != next.css,
            js: self.js != next.js,
        }
    }
}

/// Size, modification time and inode: builds write new files and rename them into place, so a
/// file with the same stamp was not rewritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Self {
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0;
        Self { len: meta.len(), modified: meta.modified().ok(), inode }
    }
}

/// `index/page-data.json` → `/`, `articles/x/page-data.json` → `/articles/x`.
fn route_of(rel: &Path) -> String {
    let dir = rel.parent().map(|p| p.to_string_lossy().replace('\\', "/")).unwrap_or_default();
    if dir == "index" || dir.is_empty() { "/".to_string() } else { format!("/{dir}") }
}

fn build_hash(dist: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dist.join("page-data/app-data.json")).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value["webpackCompilationHash"].as_str().map(str::to_string)
}

fn digest(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    h.write(bytes);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        // A new file renamed into place, as builds write.
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, text).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
    }

    #[test]
    fn routes() {
        assert_eq!(route_of(Path::new("index/page-data.json")), "/");
        assert_eq!(route_of(Path::new("articles/x/page-data.json")), "/articles/x");
        assert_eq!(route_of(Path::new("404/page-data.json")), "/404");
    }

    #[test]
    fn diff_names_changed_added_and_removed_pages_and_the_bundle() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        write(d, "page-data/app-data.json", r#"{"webpackCompilationHash":"h1"}"#);
        write(d, "page-data/index/page-data.json", "home");
        write(d, "page-data/articles/a/page-data.json", "a1");
        write(d, "page-data/articles/gone/page-data.json", "g");
        write(d, "page-data/sq/d/123.json", "site");
        write(d, "assets/entry-1.js", "");
        write(d, "assets/entry-1.css", "");
        let before = Snapshot::take(d, &Snapshot::default());
        assert_eq!(before.build_hash(), Some("h1"));
        assert_eq!(before.diff(&Snapshot::take(d, &before)), Diff::default());

        write(d, "page-data/articles/a/page-data.json", "a2");
        write(d, "page-data/index/page-data.json", "home"); // rewritten, same bytes
        write(d, "page-data/articles/new/page-data.json", "n");
        std::fs::remove_file(d.join("page-data/articles/gone/page-data.json")).unwrap();
        let after = Snapshot::take(d, &before);
        let diff = before.diff(&after);
        assert_eq!(diff.pages, ["/articles/a", "/articles/gone", "/articles/new"]);
        assert!(!diff.bundle && !diff.css && !diff.js);

        write(d, "page-data/app-data.json", r#"{"webpackCompilationHash":"h2"}"#);
        std::fs::remove_file(d.join("assets/entry-1.css")).unwrap();
        write(d, "assets/entry-2.css", "");
        let diff = after.diff(&Snapshot::take(d, &after));
        assert!(diff.bundle && diff.css && !diff.js);
    }

    #[cfg(unix)]
    #[test]
    fn reads_through_a_symlinked_output() {
        let tmp = tempfile::tempdir().unwrap();
        let gens = tmp.path().join(".dist.gens");
        write(&gens.join("a"), "page-data/index/page-data.json", "one");
        write(&gens.join("b"), "page-data/index/page-data.json", "two");
        let dist = tmp.path().join("dist");
        std::os::unix::fs::symlink(gens.join("a"), &dist).unwrap();
        let first = Snapshot::take(&dist, &Snapshot::default());
        let link = tmp.path().join("dist.new");
        std::os::unix::fs::symlink(gens.join("b"), &link).unwrap();
        std::fs::rename(&link, &dist).unwrap();
        assert_eq!(first.diff(&Snapshot::take(&dist, &first)).pages, ["/"]);
    }
}
