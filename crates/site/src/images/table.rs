//! The images a build read, with what it read them from. A `dev` session keeps the last table:
//! a rebuild whose references name the same files with the same contents, read through the same
//! image cache, reads none of them again (an edit that touches no image costs the stage only
//! the per-article part: which images each page shows).

use rustc_hash::FxHashMap as HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use stillpoint_content::MediaRef;
use stillpoint_media::ImageCache;

use super::{Prepared, read_one};

/// The images read for a build's references, by target; cheap to clone (shared).
#[derive(Debug, Default, Clone)]
pub struct ImageTable(Arc<Table>);

#[derive(Debug, Default)]
struct Table {
    from: Source,
    /// By target, in the references' order.
    read: Vec<Prepared>,
    index: HashMap<MediaRef, usize>,
    /// The files to publish: output path → source file, sorted.
    files: Vec<(String, PathBuf)>,
}

/// What a table was read from: the site, the image cache, each target and its file's digest.
#[derive(Debug, Default, PartialEq, Eq)]
struct Source {
    root: PathBuf,
    cache: Option<PathBuf>,
    targets: Vec<MediaRef>,
    digests: Vec<Option<String>>,
}

/// Why a table could not be read: the message of each target that failed, by target.
pub type Failures = Vec<(usize, String)>;

impl ImageTable {
    /// Reads `targets` (files relative to `root`, or remote URLs): a raster image through the
    /// pipeline when there is an image `cache`, else its size from its header; each file's
    /// digest is `known`'s (by absolute path), else taken from its bytes. `kept` (the last
    /// table) is returned as it is when it was read from the same.
    pub fn read(
        root: &Path,
        targets: &[MediaRef],
        known: &(dyn Fn(&Path) -> Option<String> + Sync),
        cache: Option<&ImageCache>,
        kept: Option<&ImageTable>,
    ) -> Result<ImageTable, Failures> {
        let digests: Vec<Option<String>> =
            targets.iter().map(|t| t.file().and_then(|f| known(&root.join(f)))).collect();
        let whole = targets.iter().zip(&digests).all(|(t, d)| t.file().is_none() || d.is_some());
        if let Some(kept) = kept.filter(|k| whole && k.0.from.fits(root, cache, targets, &digests))
        {
            return Ok(kept.clone());
        }
        let results: Vec<Result<Prepared, String>> =
            targets.par_iter().map(|t| read_one(root, t, known, cache)).collect();
        let failures: Failures = results
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Some((i, r.as_ref().err()?.clone())))
            .collect();
        if !failures.is_empty() {
            return Err(failures);
        }
        let read: Vec<Prepared> = results.into_iter().map(|r| r.expect("failures above")).collect();
        let mut files: Vec<(String, PathBuf)> = targets
            .iter()
            .zip(&read)
            .flat_map(|(r, p)| match (r, p) {
                (MediaRef::File(file), Prepared::Plain { url, .. })
                    if r.static_path().is_none() =>
                {
                    vec![(url.trim_start_matches('/').to_string(), root.join(file))]
                }
                (_, Prepared::Raster { files, .. }) => files.clone(),
                _ => Vec::new(),
            })
            .collect();
        files.sort();
        files.dedup_by(|a, b| a.0 == b.0);
        let index = targets.iter().cloned().enumerate().map(|(i, t)| (t, i)).collect();
        let from = Source {
            root: root.to_path_buf(),
            cache: cache.map(|c| c.dir().to_path_buf()),
            targets: targets.to_vec(),
            // Only a table whose every file had a known digest can be kept.
            digests: if whole { digests } else { Vec::new() },
        };
        Ok(ImageTable(Arc::new(Table { from, read, index, files })))
    }

    /// Whether this is `other` (taken as it was, nothing read again).
    pub fn is_same(&self, other: &ImageTable) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The image of target `i` (in the references' order).
    pub fn at(&self, i: usize) -> &Prepared {
        &self.0.read[i]
    }

    /// The image of `target`, when it was read.
    pub fn get(&self, target: &MediaRef) -> Option<&Prepared> {
        self.0.index.get(target).map(|&i| &self.0.read[i])
    }

    /// Every target read, with its image.
    pub fn targets(&self) -> impl Iterator<Item = (&MediaRef, &Prepared)> {
        self.0.index.iter().map(|(target, &i)| (target, &self.0.read[i]))
    }

    /// Every image read.
    pub fn all(&self) -> &[Prepared] {
        &self.0.read
    }

    /// The files to publish under `media/` (output path, source file), sorted.
    pub fn files(&self) -> &[(String, PathBuf)] {
        &self.0.files
    }
}

impl Source {
    fn fits(
        &self,
        root: &Path,
        cache: Option<&ImageCache>,
        targets: &[MediaRef],
        digests: &[Option<String>],
    ) -> bool {
        self.root == root
            && self.cache.as_deref() == cache.map(ImageCache::dir)
            && self.targets == targets
            && self.digests == digests
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use stillpoint_content::MediaRef;

    use super::ImageTable;
    use crate::images::tests::PNG;

    #[test]
    fn a_table_is_kept_while_its_files_and_digests_are_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("articles/x")).unwrap();
        std::fs::write(root.join("articles/x/cover.png"), PNG).unwrap();
        let targets = [
            MediaRef::File("articles/x/cover.png".into()),
            MediaRef::Remote("https://example.com/a.jpg".into()),
        ];
        let digest = |d: &'static str| move |_: &Path| Some(d.to_string());
        let first =
            ImageTable::read(root, &targets, &digest("aaaa0000aaaa0000"), None, None).unwrap();
        assert_eq!(first.files().len(), 1);
        let read = |known: &(dyn Fn(&Path) -> Option<String> + Sync), targets: &[MediaRef]| {
            ImageTable::read(root, targets, known, None, Some(&first)).unwrap()
        };
        // The same: nothing read again.
        let same = read(&digest("aaaa0000aaaa0000"), &targets);
        assert!(std::sync::Arc::ptr_eq(&same.0, &first.0));
        // A file's content changed, or the targets did: read again.
        let changed = read(&digest("bbbb0000bbbb0000"), &targets);
        assert!(!std::sync::Arc::ptr_eq(&changed.0, &first.0));
        assert_eq!(changed.files()[0].0, "media/bbbb0000bbbb0000.png");
        let fewer = read(&digest("aaaa0000aaaa0000"), &targets[..1]);
        assert!(!std::sync::Arc::ptr_eq(&fewer.0, &first.0));
        // A digest not known (the file could not be looked at): never taken from the last table.
        let unknown = read(&|_: &Path| None, &targets);
        assert!(!std::sync::Arc::ptr_eq(&unknown.0, &first.0));
        let after_unknown =
            ImageTable::read(root, &targets, &|_: &Path| None, None, Some(&unknown)).unwrap();
        assert!(!std::sync::Arc::ptr_eq(&after_unknown.0, &unknown.0));
    }
}
