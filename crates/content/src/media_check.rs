//! The check that every image reference names a file of the site: the articles' covers and body
//! images, the pages' images and the authors' photos. Each file is looked at once, however many
//! references name it (a photograph is often many articles' cover).
//!
//! A `dev` rebuild finds all but a few articles as the last load left them (the same shared
//! articles at the same places): it checks the references of those few and looks at the files
//! again, one `stat` each, without going over every article's references (at 10,000 articles
//! with covers, reading each cover's path cost a rebuild about 2 ms, memory-bound).

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::article::Article;
use crate::authors::Authors;
use crate::error::ContentError;
use crate::located::Located;
use crate::media_refs::{FileKind, MediaRef, file_error, resolve_located};
use crate::pages::InfoPage;

/// More changed articles than this: every reference is checked.
const UPDATE_AT_MOST: usize = 64;

/// The places at which `now` holds other articles than `last` (compared by pointer: an article
/// a load took from its store is the one it took last time), when the two are as long and at
/// most `at_most` differ.
pub fn changed_places(
    last: &[Arc<Article>],
    now: &[Arc<Article>],
    at_most: usize,
) -> Option<Vec<usize>> {
    if last.len() != now.len() {
        return None;
    }
    let changed: Vec<usize> =
        (0..now.len()).filter(|&i| !Arc::ptr_eq(&last[i], &now[i])).take(at_most + 1).collect();
    (changed.len() <= at_most).then_some(changed)
}

/// What the last check of a load's references found sound, for the next load.
#[derive(Debug, Clone)]
pub(crate) struct MediaChecked {
    root: PathBuf,
    /// The articles checked, in the load's order.
    articles: Vec<Arc<Article>>,
    /// Every file the references named, each once; each was a plain file. A file no reference
    /// names any more may stay: it is looked at with the others, and if it is gone the next
    /// check is a whole one.
    files: FxHashSet<OsString>,
}

/// A reference to a file: where it is written, what it says, the file it names.
type FileRef<'a> = (Cow<'a, Path>, &'a Located<String>, Cow<'a, Path>);

/// The references to files of `articles` (cover and body), of the `pages`' bodies and of the
/// `authors`' photos, with the errors of those that name nothing.
fn references<'a>(
    articles: impl Iterator<Item = &'a Arc<Article>>,
    authors: Option<&'a Authors>,
    pages: &'a [InfoPage],
) -> (Vec<FileRef<'a>>, Vec<ContentError>) {
    // Every reference: where it is written, its field, what it says, whether the parser checked
    // its value already (a cover's, a photo's).
    let mut written: Vec<(Cow<Path>, &str, &Located<String>, bool)> = Vec::new();
    let mut refs: Vec<FileRef> = Vec::new();
    for a in articles {
        let from = || Cow::Borrowed(a.source.as_path());
        // A cover was resolved when the article was read.
        if let (Some(cover), Some(MediaRef::File(file))) = (&a.image, &a.image_target) {
            refs.push((from(), cover, Cow::Borrowed(file.as_path())));
        }
        written.extend(a.images.iter().map(|image| (from(), "body image", image, false)));
    }
    for page in pages {
        let from = || Cow::Owned(PathBuf::from(page.source()));
        written.extend(page.images.iter().map(|image| (from(), "body image", image, false)));
    }
    let authors_file = || Cow::Borrowed(Path::new(crate::AUTHORS_FILE));
    for author in authors.iter().flat_map(|a| &a.list) {
        written.extend(author.photo.iter().map(|photo| (authors_file(), "photo", photo, true)));
    }
    let mut errors = Vec::new();
    for (from, field, value, parsed) in written {
        match resolve_located(&from, field, value) {
            Ok(MediaRef::File(file)) => refs.push((from, value, Cow::Owned(file))),
            Ok(MediaRef::Remote(_)) => {}
            Err(_) if parsed => {}
            Err(e) => errors.push(e),
        }
    }
    (refs, errors)
}

/// Checks every image reference of the articles, of the pages' bodies and of the authors'
/// photos: the errors of those that name no file of the site.
pub(crate) fn check_all(
    root: &Path,
    articles: &[Arc<Article>],
    authors: Option<&Authors>,
    pages: &[InfoPage],
) -> Vec<ContentError> {
    check_whole(root, articles, authors, pages).0
}

/// [`check_all`], with every file named when all are plain files and no reference is wrong.
fn check_whole(
    root: &Path,
    articles: &[Arc<Article>],
    authors: Option<&Authors>,
    pages: &[InfoPage],
) -> (Vec<ContentError>, Option<FxHashSet<OsString>>) {
    let (refs, mut errors) = references(articles.iter(), authors, pages);
    let (kinds, all_files) = look_at(root, &refs);
    if all_files && errors.is_empty() {
        return (errors, Some(kinds.keys().map(|f| f.to_os_string()).collect()));
    }
    errors.extend(refs.iter().filter_map(|(from, value, file)| {
        file_error(root, from, value, file, kinds[file.as_os_str()]).err()
    }));
    (errors, None)
}

/// What each file the references name is, each looked at once; whether all are plain files.
fn look_at<'r>(root: &Path, refs: &'r [FileRef]) -> (FxHashMap<&'r OsStr, FileKind>, bool) {
    // Keyed by the paths' bytes: a `Path` hashes component by component, at several times the
    // cost, and these are resolved paths (normalised), so equal paths have equal bytes.
    let mut kinds: FxHashMap<&OsStr, FileKind> =
        FxHashMap::with_capacity_and_hasher(refs.len().min(1024), Default::default());
    for r in refs {
        kinds.entry(r.2.as_os_str()).or_insert(FileKind::Missing);
    }
    let distinct: Vec<&OsStr> = kinds.keys().copied().collect();
    let found: Vec<FileKind> =
        distinct.par_iter().map(|file| FileKind::of(&root.join(file))).collect();
    let all_files = found.iter().all(|k| *k == FileKind::File);
    kinds.extend(distinct.into_iter().zip(found));
    (kinds, all_files)
}

/// [`check_all`], from what the last check kept in `memo` when it can (the same site, the same
/// number of articles, a few of them changed, nothing wrong); keeps what this check found sound
/// for the next one.
pub(crate) fn check_all_with(
    memo: &mut Option<MediaChecked>,
    root: &Path,
    articles: &[Arc<Article>],
    authors: Option<&Authors>,
    pages: &[InfoPage],
) -> Vec<ContentError> {
    if let Some(mut last) = memo.take()
        && update(&mut last, root, articles, authors, pages)
    {
        *memo = Some(last);
        return Vec::new();
    }
    let (errors, files) = check_whole(root, articles, authors, pages);
    if let Some(files) = files {
        let articles = articles.to_vec();
        *memo = Some(MediaChecked { root: root.to_path_buf(), articles, files });
    }
    errors
}

/// Brings `last` up to `articles` when only a few changed, every reference of those, of the
/// pages and of the photos names a file, and every file named is still a plain file; false
/// when the whole check must run (`last` is then spent).
fn update(
    last: &mut MediaChecked,
    root: &Path,
    articles: &[Arc<Article>],
    authors: Option<&Authors>,
    pages: &[InfoPage],
) -> bool {
    if last.root != root {
        return false;
    }
    let Some(changed) = changed_places(&last.articles, articles, UPDATE_AT_MOST) else {
        return false;
    };
    let (refs, errors) = references(changed.iter().map(|&i| &articles[i]), authors, pages);
    if !errors.is_empty() {
        return false;
    }
    for (_, _, file) in &refs {
        if !last.files.contains(file.as_os_str()) {
            last.files.insert(file.as_os_str().to_os_string());
        }
    }
    let files: Vec<&OsString> = last.files.iter().collect();
    if !files.par_iter().all(|f| FileKind::of(&root.join(f)) == FileKind::File) {
        return false;
    }
    for i in changed {
        last.articles[i] = Arc::clone(&articles[i]);
    }
    true
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    /// An article of the site at `root`, written to `articles/{name}.md` with `cover` as its
    /// image and `body` as its body, as a load reads it.
    fn article(root: &Path, name: &str, cover: &str, body: &str) -> Arc<Article> {
        let rel = format!("articles/{name}.md");
        let text = format!(
            "---\ntitle: {name}\nslug: {name}\ndate: 2024-01-01\nauthor: Maya\nimage: {cover}\nimage_alt: x\nentities:\n  - category: sleep\n---\n{body}\n"
        );
        fs::write(root.join(&rel), &text).unwrap();
        let date = jiff::civil::date(2024, 1, 1);
        Arc::new(Article::parse(Path::new(&rel), &text, date).expect("the article parses"))
    }

    fn codes(errors: &[ContentError]) -> Vec<(String, u32)> {
        errors.iter().map(|e| (e.path.display().to_string(), e.line)).collect()
    }

    #[test]
    fn a_kept_check_finds_what_a_whole_one_finds() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("articles")).unwrap();
        fs::create_dir_all(root.join("static/images")).unwrap();
        for f in ["a.jpg", "b.jpg", "c.jpg"] {
            fs::write(root.join("static/images").join(f), b"x").unwrap();
        }
        let mut articles: Vec<Arc<Article>> = (0..5)
            .map(|i| article(root, &format!("a{i}"), "/images/a.jpg", "![x](/images/b.jpg)"))
            .collect();
        let mut memo = None;
        let check = |memo: &mut Option<MediaChecked>, articles: &[Arc<Article>]| {
            let kept = check_all_with(memo, root, articles, None, &[]);
            assert_eq!(codes(&kept), codes(&check_all(root, articles, None, &[])));
            kept
        };
        assert!(check(&mut memo, &articles).is_empty());
        assert!(memo.is_some(), "a sound check is kept");
        // One article changed to name another file that is there: kept, and the file is known.
        articles[2] = article(root, "a2", "/images/c.jpg", "");
        assert!(check(&mut memo, &articles).is_empty());
        assert!(
            memo.as_ref().unwrap().files.iter().any(|f| f.to_string_lossy().ends_with("c.jpg"))
        );
        // An unchanged article's file removed: found, though no changed article names it.
        fs::remove_file(root.join("static/images/b.jpg")).unwrap();
        assert_eq!(check(&mut memo, &articles).len(), 4);
        assert!(memo.is_none(), "a check with errors is not kept");
        fs::write(root.join("static/images/b.jpg"), b"x").unwrap();
        assert!(check(&mut memo, &articles).is_empty());
        // A changed article naming a file that is not there.
        articles[0] = article(root, "a0", "/images/a.jpg", "![x](/images/missing.jpg)");
        assert_eq!(codes(&check(&mut memo, &articles)), vec![("articles/a0.md".into(), 11)]);
        articles[0] = article(root, "a0", "/images/a.jpg", "");
        assert!(check(&mut memo, &articles).is_empty());
        // A file replaced by a folder.
        fs::remove_file(root.join("static/images/c.jpg")).unwrap();
        fs::create_dir(root.join("static/images/c.jpg")).unwrap();
        assert_eq!(check(&mut memo, &articles).len(), 1);
        // Another site with the same articles: a whole check of its own.
        let other = tempfile::tempdir().unwrap();
        let kept = check_all_with(&mut memo, other.path(), &articles, None, &[]);
        assert_eq!(kept.len(), check_all(other.path(), &articles, None, &[]).len());
        assert!(!kept.is_empty());
    }
}
