//! Articles parsed by an earlier load, so that a rebuild parses only the files that changed.
//!
//! The site is still checked as a whole; only the front matter and Markdown scan of a file whose
//! bytes are exactly those parsed before are taken from here. A file whose stamp (size, times,
//! inode: what `stat` says) is the one recorded is not even read: its body is read later, only if
//! a page needs it. A stamp is recorded only for a file last modified well before it was read
//! (git's "racily clean" rule), so a write within the file system's timestamp granularity of the
//! read is never missed. The store is the caller's to keep (the build cache persists it); a store
//! that does not fit simply misses.

use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};
use stillpoint_fingerprint::Digest;
pub(crate) use stillpoint_fingerprint::Stamp;

use crate::article::Article;
use crate::load::ArticleTree;

/// How many touched files a store lists one by one ([`ParsedArticles::take_touched`]): an edit
/// touches a few, and a first load of 1,000,000 articles, which touches them all, does not keep
/// a second copy of every path.
pub const TOUCHED_LISTED: usize = 1024;

/// Source path (relative to the site) → what parsing its bytes gave.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ParsedArticles {
    entries: FxHashMap<PathBuf, Parsed>,
    /// The files whose entries were added, replaced, restamped or forgotten since the store was
    /// made, read, or last asked ([`ParsedArticles::take_touched`]).
    #[serde(skip)]
    touched: FxHashSet<PathBuf>,
    /// More than [`TOUCHED_LISTED`] files were touched: the store counts as touched everywhere.
    #[serde(skip)]
    touched_all: bool,
    /// For the next load only: the files that may have changed since the last load, when a
    /// file watcher vouches that no other file did ([`ParsedArticles::vouch`]).
    #[serde(skip)]
    vouched: Option<FxHashSet<PathBuf>>,
    /// How many article files the last load read (the others it took by their stamp).
    #[serde(skip)]
    read: usize,
    /// The site folder the last load listed, and what it found under `articles/`: the next load
    /// takes it as it is when a watcher vouches that no file of it was added, removed or replaced.
    #[serde(skip)]
    listing: Option<(PathBuf, Arc<ArticleTree>)>,
    /// The last load's articles by their place in its listing (None where a file failed), with
    /// the start date they were parsed with: with the same listing, a vouched-for file's
    /// article is found by its place, without hashing its path.
    #[serde(skip)]
    placed: Option<Placed>,
    /// What the last load's check of slugs, authors and categories found sound.
    #[serde(skip)]
    pub(crate) checked: Option<crate::cross_check::Checked>,
    /// What the last load's check of image references found sound.
    #[serde(skip)]
    pub(crate) media_checked: Option<crate::media_check::MediaChecked>,
}

/// Some entries of a store, to be saved (see [`ParsedArticles::part`]).
#[derive(Serialize)]
pub struct ParsedPart<'a>(Vec<(&'a PathBuf, &'a Parsed)>);

/// Some entries of a store, read back (see [`ParsedArticles::from_parts`]).
#[derive(Deserialize)]
pub struct ReadPart(Vec<(PathBuf, Parsed)>);

/// An article of the last load at its place in the listing; None where the file failed.
pub(crate) type PlacedArticle = Option<Arc<Article>>;

/// See [`ParsedArticles::placed`].
#[derive(Debug, Clone)]
struct Placed {
    tree: Arc<ArticleTree>,
    default_date: jiff::civil::Date,
    articles: Vec<Option<Arc<Article>>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Parsed {
    /// The site's start date the article was parsed with (its date when it gives none).
    default_date: jiff::civil::Date,
    /// Shared with the sites loaded from it.
    article: Arc<Article>,
    /// The file's stamp when its bytes were last read, if it may be trusted.
    stamp: Option<Stamp>,
}

impl ParsedArticles {
    /// Tells the next load that since the last one (which this store recorded) only `changed`
    /// files (relative to the site) may have been written: a file watcher that saw every event
    /// says so. The other files are then taken from the store without even a `stat`.
    pub fn vouch(&mut self, changed: impl IntoIterator<Item = PathBuf>) {
        self.vouched = Some(changed.into_iter().collect());
    }

    /// The article parsed before from `source`, when a watcher vouched that it was not written
    /// since; its body is not read.
    pub(crate) fn vouched(
        &self,
        source: &Path,
        default_date: jiff::civil::Date,
    ) -> Option<Arc<Article>> {
        let changed = self.vouched.as_ref()?;
        let p = self.entries.get(source)?;
        // An edit names a file or a few: compared, not hashed (a `Path` hashes component by
        // component, and this runs for every article of the site).
        let written = match changed.len() {
            0..=8 => changed.iter().any(|c| c == source),
            _ => changed.contains(source),
        };
        (!written && p.default_date == default_date).then(|| Arc::clone(&p.article))
    }

    /// The articles the last load found in `tree` (the same listing), by place, for a load that
    /// a watcher vouched for, with the places of the files that may have changed; None when
    /// they cannot be used.
    pub(crate) fn vouched_by_place(
        &self,
        root: &Path,
        tree: &Arc<ArticleTree>,
        default_date: jiff::civil::Date,
    ) -> Option<(&[PlacedArticle], Vec<usize>)> {
        let changed = self.vouched.as_ref()?;
        let placed = self.placed.as_ref()?;
        if !Arc::ptr_eq(&placed.tree, tree) || placed.default_date != default_date {
            return None;
        }
        let places =
            changed.iter().filter_map(|rel| tree.files.binary_search(&root.join(rel)).ok());
        Some((&placed.articles, places.collect()))
    }

    /// The last load's listing and its articles by place.
    pub(crate) fn placed(&self) -> Option<(&Arc<ArticleTree>, &[PlacedArticle])> {
        self.placed.as_ref().map(|p| (&p.tree, p.articles.as_slice()))
    }

    /// Keeps a load's articles by their place in its listing (see [`Self::vouched_by_place`]).
    pub(crate) fn keep_placed(
        &mut self,
        tree: Arc<ArticleTree>,
        default_date: jiff::civil::Date,
        articles: Vec<Option<Arc<Article>>>,
    ) {
        self.placed = Some(Placed { tree, default_date, articles });
    }

    /// Forgets what a watcher vouched for: it held for one load.
    pub(crate) fn end_vouch(&mut self) {
        self.vouched = None;
    }

    /// The last load's listing of `root`'s articles, when a watcher vouched that every file
    /// changed under `articles/` since is one the listing holds and is still a regular file (an
    /// article edited in place): then no Markdown file, folder or link can have come or gone.
    /// Anything else there (a new, removed or renamed file or folder) lists the folder again.
    pub(crate) fn listing(&self, root: &Path) -> Option<Arc<ArticleTree>> {
        let changed = self.vouched.as_ref()?;
        let (listed, tree) = self.listing.as_ref().filter(|(listed, _)| listed == root)?;
        let in_place = |rel: &PathBuf| {
            let path = listed.join(rel);
            tree.files.binary_search(&path).is_ok()
                && std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file())
        };
        changed
            .iter()
            .filter(|rel| rel.starts_with("articles"))
            .all(in_place)
            .then(|| Arc::clone(tree))
    }

    /// Keeps a load's listing of `root`'s articles for the next load.
    pub(crate) fn keep_listing(&mut self, root: &Path, tree: Arc<ArticleTree>) {
        self.listing = Some((root.to_path_buf(), tree));
    }

    /// The article parsed before from the file `meta` describes, when its stamp says it has not
    /// been written since; its body is not read.
    pub(crate) fn unchanged(
        &self,
        source: &Path,
        meta: &Metadata,
        default_date: jiff::civil::Date,
    ) -> Option<Arc<Article>> {
        let p = self.entries.get(source)?;
        let fits = p.default_date == default_date && p.stamp.is_some_and(|s| s.matches(meta));
        fits.then(|| Arc::clone(&p.article))
    }

    /// The article parsed before from a file whose bytes have the digest `digest`.
    pub(crate) fn get(
        &self,
        source: &Path,
        digest: Digest,
        default_date: jiff::civil::Date,
    ) -> Option<Arc<Article>> {
        let p = self.entries.get(source)?;
        (p.article.digest == digest && p.default_date == default_date)
            .then(|| Arc::clone(&p.article))
    }

    /// Records a file's parse and its stamp.
    pub(crate) fn insert(
        &mut self,
        default_date: jiff::civil::Date,
        article: &Arc<Article>,
        stamp: Option<Stamp>,
    ) {
        let article = Arc::clone(article);
        self.touch(&article.source);
        self.entries.insert(article.source.clone(), Parsed { default_date, article, stamp });
    }

    /// Records a new stamp for a file whose bytes were read and found unchanged.
    pub(crate) fn restamp(&mut self, source: &Path, stamp: Option<Stamp>) {
        if let Some(p) = self.entries.get_mut(source)
            && p.stamp != stamp
        {
            p.stamp = stamp;
            self.touch(source);
        }
    }

    /// Forgets files that are no longer there.
    pub(crate) fn retain(&mut self, keep: impl Fn(&Path) -> bool) {
        let mut gone = Vec::new();
        self.entries.retain(|path, _| {
            let kept = keep(path);
            if !kept {
                gone.push(path.clone());
            }
            kept
        });
        for path in &gone {
            self.touch(path);
        }
    }

    /// Notes that the entry of `path` changed.
    fn touch(&mut self, path: &Path) {
        if self.touched_all {
            return;
        }
        if self.touched.len() == TOUCHED_LISTED {
            self.touched_all = true;
            self.touched = FxHashSet::default();
            return;
        }
        self.touched.insert(path.to_path_buf());
    }

    /// Whether anything was added or forgotten since it was made or read.
    pub fn is_changed(&self) -> bool {
        self.touched_all || !self.touched.is_empty()
    }

    /// The files whose entries changed since the store was made, read, or last asked: what a
    /// store saved in parts ([`ParsedArticles::part`]) writes again. None when more than
    /// [`TOUCHED_LISTED`] did: then every part is written again.
    pub fn take_touched(&mut self) -> Option<FxHashSet<PathBuf>> {
        let all = std::mem::take(&mut self.touched_all);
        let touched = std::mem::take(&mut self.touched);
        (!all).then_some(touched)
    }

    /// The entries of the files `keep` selects, to be saved as one part of the store.
    pub fn part(&self, keep: impl Fn(&Path) -> bool) -> ParsedPart<'_> {
        ParsedPart(self.entries.iter().filter(|(path, _)| keep(path)).collect())
    }

    /// A store made of the parts saved before (what [`ParsedArticles::part`] gave).
    pub fn from_parts(parts: Vec<ReadPart>) -> Self {
        let mut entries = FxHashMap::default();
        entries.reserve(parts.iter().map(|p| p.0.len()).sum());
        entries.extend(parts.into_iter().flat_map(|p| p.0));
        Self { entries, ..Self::default() }
    }

    /// How many article files the last load read; it took the others by their stamp.
    pub fn files_read(&self) -> usize {
        self.read
    }

    /// Notes how many article files a load read.
    pub(crate) fn set_files_read(&mut self, read: usize) {
        self.read = read;
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    use crate::load::load_site_partial_with;
    use crate::publish::Publish;
    use crate::test_site::demo_copy;

    const NOW: Publish = Publish { now: jiff::Timestamp::MAX, drafts: false };

    #[test]
    fn a_file_that_is_not_utf8_is_an_error_at_its_first_invalid_byte() {
        let dir = demo_copy();
        let article = dir.path().join("articles/anxiety-management/scheduled-worry-time.md");
        let mut bytes = std::fs::read(&article).unwrap();
        let at = bytes.windows(4).position(|w| w == b"---\n").unwrap() + 4 + 6; // line 2, col 7
        bytes[at] = 0x80;
        std::fs::write(&article, bytes).unwrap();
        std::fs::write(dir.path().join("pages/terms.md"), b"ok\n\nno \xff here").unwrap();
        let (_, diag) = load_site_partial_with(dir.path(), &mut ParsedArticles::default(), &NOW);
        let found: Vec<_> =
            diag.iter().map(|e| (e.path.to_str().unwrap(), e.line, e.col)).collect();
        assert_eq!(
            found,
            [
                ("articles/anxiety-management/scheduled-worry-time.md", 2, 7),
                ("pages/terms.md", 3, 4)
            ]
        );
        assert!(diag.iter().all(|e| e.kind.to_string().contains("not UTF-8")), "{diag}");
    }

    #[test]
    fn past_its_limit_a_store_counts_as_touched_everywhere() {
        let mut store = ParsedArticles::default();
        store.touch(Path::new("articles/a.md"));
        store.touch(Path::new("articles/a.md"));
        assert_eq!(store.take_touched().map(|t| t.len()), Some(1));
        assert!(!store.is_changed());
        for i in 0..=TOUCHED_LISTED {
            store.touch(&PathBuf::from(format!("articles/{i}.md")));
        }
        assert!(store.is_changed());
        assert_eq!(store.take_touched(), None);
        assert_eq!(store.take_touched().map(|t| t.len()), Some(0));
    }

    #[test]
    fn unchanged_files_come_from_the_store_and_changed_ones_are_parsed_again() {
        let dir = demo_copy();
        let mut store = ParsedArticles::default();
        let (first, diag) = load_site_partial_with(dir.path(), &mut store, &NOW);
        assert!(diag.is_empty(), "{diag:?}");
        let first = first.unwrap();
        assert_eq!(store.len(), first.articles.len());

        // A store read back from its serialised form gives the same site, bodies included.
        let mut store: ParsedArticles =
            serde_json::from_str(&serde_json::to_string(&store).unwrap()).unwrap();
        let (again, _) = load_site_partial_with(dir.path(), &mut store, &NOW);
        assert_eq!(again.unwrap().articles, first.articles);
        assert!(!store.is_changed(), "nothing was parsed again");

        let a = &first.articles[0];
        let path = dir.path().join(&a.source);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace(&a.title, "A New Title")).unwrap();
        let gone = &first.articles[1].source;
        std::fs::remove_file(dir.path().join(gone)).unwrap();
        let (edited, _) = load_site_partial_with(dir.path(), &mut store, &NOW);
        let edited = edited.unwrap();
        assert_eq!(edited.articles[0].title, "A New Title");
        assert_ne!(edited.articles[0].digest, a.digest);
        assert_eq!(store.len(), first.articles.len() - 1);
        assert!(store.is_changed());
    }

    /// Sets every article file's modification time an hour back: settled, so stamps are kept.
    fn settle(dir: &Path) {
        let past = SystemTime::now() - Duration::from_secs(3600);
        for entry in walkdir::WalkDir::new(dir.join("articles")) {
            let entry = entry.unwrap();
            if entry.file_type().is_file() {
                let file = std::fs::File::options().write(true).open(entry.path()).unwrap();
                file.set_modified(past).unwrap();
            }
        }
    }

    #[test]
    fn settled_files_with_their_stamp_are_not_read_until_a_page_needs_them() {
        let dir = demo_copy();
        settle(dir.path());
        let mut store = ParsedArticles::default();
        let full = load_site_partial_with(dir.path(), &mut store, &NOW).0.unwrap();
        assert_eq!(store.files_read(), full.articles.len());

        let (again, _) = load_site_partial_with(dir.path(), &mut store, &NOW);
        let again = again.unwrap();
        assert_eq!(store.files_read(), 0, "no file was read");
        assert_eq!(again.articles, full.articles);
        assert!(again.read_body(0).unwrap().contains(' '), "a page reads the body it needs");

        // Rewritten with the same size and its old modification time put back: the change time
        // still tells, and the file is read and parsed again.
        let a = &full.articles[0];
        let path = dir.path().join(&a.source);
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let title = "X".repeat(a.title.len());
        std::fs::write(&path, text.replacen(&a.title, &title, 1)).unwrap();
        std::fs::File::options().write(true).open(&path).unwrap().set_modified(modified).unwrap();
        let edited = load_site_partial_with(dir.path(), &mut store, &NOW).0.unwrap();
        assert_eq!(edited.articles[0].title, title);
        assert_eq!(store.files_read(), 1);
    }

    #[test]
    fn a_file_just_written_is_read_again_until_it_settles() {
        let dir = demo_copy(); // every file was just written
        let mut store = ParsedArticles::default();
        load_site_partial_with(dir.path(), &mut store, &NOW);
        let (again, _) = load_site_partial_with(dir.path(), &mut store, &NOW);
        assert_eq!(store.files_read(), again.unwrap().articles.len(), "every file was read");
    }

    #[test]
    fn a_body_written_after_the_load_is_an_error_naming_the_file() {
        let dir = demo_copy();
        settle(dir.path());
        let mut store = ParsedArticles::default();
        load_site_partial_with(dir.path(), &mut store, &NOW);
        let site = load_site_partial_with(dir.path(), &mut store, &NOW).0.unwrap();
        let source = site.articles[0].source.clone();
        std::fs::write(dir.path().join(&source), "---\ntitle: Other\n---\nBody\n").unwrap();
        let error = site.read_body(0).unwrap_err();
        assert_eq!(error.path, source);
        assert!(error.to_string().contains("build again"), "{error}");
    }

    #[test]
    fn a_watcher_vouches_for_one_load_that_only_the_files_it_names_changed() {
        let dir = demo_copy();
        let mut store = ParsedArticles::default();
        let first = load_site_partial_with(dir.path(), &mut store, &NOW).0.unwrap();
        let (a, b) = (&first.articles[0], &first.articles[1]);
        let retitle = |source: &Path, title: &str| {
            let path = dir.path().join(source);
            let text = std::fs::read_to_string(&path).unwrap();
            let old = text.lines().find(|l| l.starts_with("title:")).unwrap().to_string();
            std::fs::write(&path, text.replacen(&old, &format!("title: {title}"), 1)).unwrap();
        };
        retitle(&a.source, "Named");
        retitle(&b.source, "Unnamed");

        store.vouch([a.source.clone()]);
        let vouched = load_site_partial_with(dir.path(), &mut store, &NOW).0.unwrap();
        assert_eq!(vouched.articles[0].title, "Named");
        assert_eq!(vouched.articles[1].title, b.title, "taken on the watcher's word");
        assert_eq!(store.files_read(), 1, "only the named file was read");

        let after = load_site_partial_with(dir.path(), &mut store, &NOW).0.unwrap();
        assert_eq!(after.articles[1].title, "Unnamed", "the word held for one load");
    }

    #[test]
    fn an_edit_the_watcher_vouches_for_keeps_the_listing_and_a_new_or_gone_file_does_not() {
        let dir = demo_copy();
        let mut store = ParsedArticles::default();
        let first = load_site_partial_with(dir.path(), &mut store, &NOW).0.unwrap();
        let count = first.articles.len();
        let a = first.articles[0].source.clone();
        let text = std::fs::read_to_string(dir.path().join(&a)).unwrap();
        let new = a.with_file_name("zz-a-new-article.md");
        let new_text = text.replacen("title:", "title: Newly", 1);
        let new_text = new_text.replacen(
            new_text.lines().find(|l| l.starts_with("slug:")).unwrap_or("\u{0}"),
            "slug: zz-a-new-article",
            1,
        );
        std::fs::write(dir.path().join(&new), new_text).unwrap();

        // The watcher names only the edited article (a watcher that missed the new file): the
        // listing is taken on its word, so the new file is not seen.
        store.vouch([a.clone()]);
        let kept = load_site_partial_with(dir.path(), &mut store, &NOW).0.unwrap();
        assert_eq!(kept.articles.len(), count, "the listing was kept");

        // Named, the new file is not in the listing: the folder is listed again.
        store.vouch([new.clone()]);
        let listed = load_site_partial_with(dir.path(), &mut store, &NOW).0.unwrap();
        assert_eq!(listed.articles.len(), count + 1);
        assert!(listed.articles.iter().any(|x| x.source == new));

        // A file of the listing removed: listed again, the article is gone.
        std::fs::remove_file(dir.path().join(&new)).unwrap();
        store.vouch([new.clone()]);
        let gone = load_site_partial_with(dir.path(), &mut store, &NOW).0.unwrap();
        assert_eq!(gone.articles.len(), count);

        // A change outside `articles/` keeps the listing; a folder named lists again.
        std::fs::write(dir.path().join(&new), "not even front matter").unwrap();
        store.vouch([PathBuf::from("data/authors.yaml")]);
        let (site, diag) = load_site_partial_with(dir.path(), &mut store, &NOW);
        assert_eq!(site.unwrap().articles.len(), count, "{diag:?}");
        store.vouch([new.parent().unwrap().to_path_buf()]);
        let (_, diag) = load_site_partial_with(dir.path(), &mut store, &NOW);
        assert!(diag.iter().any(|e| e.path == new), "the new file was read: {diag:?}");
    }
}
