//! What a `dev` session keeps of the last build's image stage. A rebuild after an edit finds all
//! but a few articles as the last load left them (the same shared articles at the same places):
//! when those few show the same images as before and no image file changed, the stage takes the
//! last build's answers (the table of images, the outline, every other article's source) and
//! makes only the changed articles' sources, without going over every article's references.
//! At 10,000 articles with covers, reading each article's cover to list it and digest it cost a
//! rebuild about 4 ms, memory-bound, where the stage without images costs half a millisecond.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use stillpoint_content::{Article, Diagnostics, MediaRef, Site};
use stillpoint_media::ImageCache;

use super::{
    ImageTable, References, SiteImages, TargetIndex, has_cover, others_of, prepare_with, shown_by,
    source_of,
};

/// More changed articles than this: the stage goes over every reference.
const UPDATE_AT_MOST: usize = 64;

/// The last build's image stage, per article.
#[derive(Debug, Clone)]
pub struct KeptImages {
    /// The articles, in the site's order.
    articles: Vec<Arc<Article>>,
    /// Per article: the range of `shown` that its page shows (cover first, the body's images,
    /// the embeds' posters), and whether the first is its cover.
    ranges: Vec<(Range<u32>, bool)>,
    /// The targets the articles' pages show, by their index in `targets`.
    shown: Vec<u32>,
    /// The targets of the authors' photos and the pages' images ([`others_of`]).
    others: Vec<Option<usize>>,
    targets: Vec<MediaRef>,
    index: TargetIndex,
    /// What the stage gave, with no warning (a build with warnings keeps nothing), shared with
    /// the build that used it: the next build takes it back whole and remakes what changed.
    images: Arc<SiteImages>,
}

/// What a session keeps of its last image stage for the next build.
#[derive(Debug, Clone)]
pub enum LastImages {
    /// The stage, per article ([`KeptImages`]).
    Kept(Box<KeptImages>),
    /// Only the images read: the stage warned, so nothing per article is kept.
    Table(ImageTable),
}

impl LastImages {
    /// The images the last build read, with what it read them from.
    fn table(&self) -> &ImageTable {
        match self {
            Self::Kept(kept) => &kept.images.table,
            Self::Table(table) => table,
        }
    }
}

impl KeptImages {
    /// What to keep of a build's stage (`refs` of `site`, which gave `images`); None when the
    /// stage warned about an image (the warnings' places would have to be kept too).
    fn of(site: &Site, refs: &References, images: &Arc<SiteImages>) -> Option<Self> {
        if !images.warnings.is_empty() {
            return None;
        }
        let mut shown = Vec::with_capacity(refs.uses.len());
        let ranges = (site.articles.iter().zip(&refs.article_uses))
            .map(|(a, uses)| {
                let start = shown.len() as u32;
                shown.extend(refs.uses[uses.clone()].iter().map(|u| u.target as u32));
                (start..shown.len() as u32, has_cover(a))
            })
            .collect();
        Some(Self {
            articles: site.articles.clone(),
            ranges,
            shown,
            others: others_of(site, &refs.index)?,
            targets: refs.targets.clone(),
            index: refs.index.clone(),
            images: Arc::clone(images),
        })
    }

    /// The places of the articles of `site` that are not those kept, when there are few and
    /// each shows the same images as before (the rest of the site's references unchanged).
    fn changed_in(&self, site: &Site) -> Option<Vec<usize>> {
        let changed =
            stillpoint_content::changed_places(&self.articles, &site.articles, UPDATE_AT_MOST)?;
        for &i in &changed {
            let a = &site.articles[i];
            let (range, cover) = &self.ranges[i];
            let before = &self.shown[range.start as usize..range.end as usize];
            let mut now = shown_by(a).map(|(target, _, _)| self.index.of(&target));
            let same = *cover == has_cover(a)
                && before.iter().all(|&t| now.next() == Some(Some(t as usize)))
                && now.next().is_none();
            if !same {
                return None;
            }
        }
        (others_of(site, &self.index)? == self.others).then_some(changed)
    }
}

/// The image stage of a build: its references, then the images read ([`ImageStage::prepare`]).
pub enum ImageStage<'a> {
    /// Every reference of the site, and what the last build left.
    Whole { refs: References<'a>, last: Option<LastImages> },
    /// The last build's stage, and the places of the articles that changed since.
    Kept { kept: Box<KeptImages>, changed: Vec<usize> },
}

impl<'a> ImageStage<'a> {
    /// The references of `site`: the last build's when they can be.
    pub fn of(site: &'a Site, last: Option<LastImages>) -> Self {
        match last {
            Some(LastImages::Kept(kept)) => match kept.changed_in(site) {
                Some(changed) => Self::Kept { kept, changed },
                None => Self::whole(site, Some(LastImages::Kept(kept))),
            },
            last => Self::whole(site, last),
        }
    }

    fn whole(site: &'a Site, last: Option<LastImages>) -> Self {
        Self::Whole { refs: References::of(site), last }
    }

    /// The files of the site the references name (absolute paths): the build takes their
    /// digests from its cache (`BuildCache::file_digest`, read again only when a file's size or
    /// time changed) and hands them to [`ImageStage::prepare`].
    pub fn files(&self, root: &Path) -> Vec<PathBuf> {
        let targets = match self {
            Self::Whole { refs, .. } => &refs.targets,
            Self::Kept { kept, .. } => &kept.targets,
        };
        targets.iter().filter_map(|r| r.file().map(|f| root.join(f))).collect()
    }

    /// Reads the images ([`prepare_with`], from the last build's table): the kept stage's
    /// answers with the changed articles' sources made again when no image changed. Also gives
    /// what a session keeps for its next build (with `keep`): this stage's, or on failure the
    /// last one's.
    pub fn prepare(
        self,
        site: &'a Site,
        known: &(dyn Fn(&Path) -> Option<String> + Sync),
        cache: Option<&ImageCache>,
        keep: bool,
    ) -> (Result<Arc<SiteImages>, Diagnostics>, Option<LastImages>) {
        let (mut kept, changed) = match self {
            Self::Whole { refs, last } => {
                let table = last.as_ref().map(LastImages::table);
                let images = match prepare_with(site, &refs, known, cache, table) {
                    Ok(images) => Arc::new(images),
                    Err(diag) => return (Err(diag), last.filter(|_| keep)),
                };
                let kept = keep.then(|| match KeptImages::of(site, &refs, &images) {
                    Some(kept) => LastImages::Kept(Box::new(kept)),
                    None => LastImages::Table(images.table.clone()),
                });
                return (Ok(images), kept);
            }
            Self::Kept { kept, changed } => (kept, changed),
        };
        let last = &kept.images.table;
        match ImageTable::read(&site.root, &kept.targets, known, cache, Some(last)) {
            Ok(read) if read.is_same(last) => {}
            // An image changed (or cannot be read): every reference is listed again, from the
            // images just read when they could be.
            read => {
                let last = match read {
                    Ok(read) => LastImages::Table(read),
                    Err(_) => LastImages::Kept(kept),
                };
                return Self::whole(site, Some(last)).prepare(site, known, cache, keep);
            }
        }
        // The last build is over: its share of the stage's answers is let go, so they are
        // remade in place.
        let images = Arc::make_mut(&mut kept.images);
        let mut buf = Vec::with_capacity(128);
        for i in changed {
            let a = &site.articles[i];
            let (range, _) = &kept.ranges[i];
            let targets = kept.shown[range.start as usize..range.end as usize].iter();
            let targets = targets.map(|&t| t as usize);
            images.sources[i] = source_of(a, &images.table, targets, &mut buf);
            kept.articles[i] = Arc::clone(a);
        }
        let images = Arc::clone(&kept.images);
        (Ok(images), keep.then_some(LastImages::Kept(kept)))
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use stillpoint_content::{ParsedArticles, Publish, Site, load_site_partial_with};
    use stillpoint_fingerprint::Digest;

    use super::*;

    const NOTING: &str = "articles/understanding-mindfulness/the-noting-technique.md";

    fn load(root: &Path, parsed: &mut ParsedArticles) -> Site {
        let (site, diag) = load_site_partial_with(root, parsed, &Publish::at_clock());
        assert!(diag.is_empty(), "{diag:?}");
        site.expect("the site loads")
    }

    fn known(path: &Path) -> Option<String> {
        Some(Digest::of_file(path).ok()?.to_string())
    }

    /// What a stage gave, to compare.
    fn parts(images: &SiteImages) -> impl PartialEq + std::fmt::Debug + '_ {
        let table = &images.table;
        (&images.sources, &images.outline, table.all(), table.files(), &images.warnings)
    }

    /// The stage of `site` from `last`: whether it was kept, and what it gave, which must be what
    /// the whole stage gives.
    fn step(site: &Site, last: LastImages) -> (bool, LastImages) {
        let whole = prepare_with(site, &References::of(site), &known, None, None).unwrap();
        let stage = ImageStage::of(site, Some(last));
        let was_kept = matches!(stage, ImageStage::Kept { .. });
        let (images, last) = stage.prepare(site, &known, None, true);
        assert_eq!(parts(&images.unwrap()), parts(&whole));
        let last = last.expect("a session keeps its stage");
        assert!(matches!(last, LastImages::Kept(_)), "the demo's stage is kept");
        (was_kept, last)
    }

    /// A copy of the demo, loaded, with its first stage: what it gave and what a session keeps.
    struct Started {
        dir: tempfile::TempDir,
        parsed: ParsedArticles,
        images: Arc<SiteImages>,
        last: LastImages,
    }

    fn first() -> Started {
        let dir = crate::test_site::demo_copy();
        let mut parsed = ParsedArticles::default();
        let site = load(dir.path(), &mut parsed);
        let (images, last) = ImageStage::of(&site, None).prepare(&site, &known, None, true);
        let images = images.expect("the images read");
        Started { dir, parsed, images, last: last.expect("a session keeps its stage") }
    }

    fn edit(root: &Path, rel: &str, from: &str, to: &str) {
        let text = std::fs::read_to_string(root.join(rel)).unwrap();
        assert!(text.contains(from), "{rel} has no {from:?}");
        std::fs::write(root.join(rel), text.replacen(from, to, 1)).unwrap();
    }

    #[test]
    fn a_kept_stage_gives_what_the_whole_stage_gives() {
        let Started { dir, mut parsed, last: kept, .. } = first();
        let root = dir.path();

        // A body edit of an article with a cover: only its source is made again.
        std::fs::write(
            root.join(NOTING),
            std::fs::read_to_string(root.join(NOTING)).unwrap() + "\nOne more breath.\n",
        )
        .unwrap();
        let site = load(root, &mut parsed);
        let stage = ImageStage::of(&site, Some(kept.clone()));
        assert!(matches!(&stage, ImageStage::Kept { changed, .. } if changed.len() == 1));
        let (was_kept, kept) = step(&site, kept);
        assert!(was_kept);

        // Another cover: every reference is listed again.
        edit(
            root,
            NOTING,
            "image: /images/photos/raindrops-on-leaf.jpg",
            "image: /images/photos/water-drop.jpg",
        );
        let site = load(root, &mut parsed);
        let (was_kept, kept) = step(&site, kept);
        assert!(!was_kept);

        // The same references, an image's bytes changed: read again, from the whole stage.
        std::fs::copy(
            root.join("static/images/photos/forest-path.jpg"),
            root.join("static/images/photos/water-drop.jpg"),
        )
        .unwrap();
        let site = load(root, &mut parsed);
        let (was_kept, kept) = step(&site, kept);
        assert!(was_kept, "the references are the last build's");
        std::fs::write(
            root.join(NOTING),
            std::fs::read_to_string(root.join(NOTING)).unwrap() + "\nAnd one more.\n",
        )
        .unwrap();
        let site = load(root, &mut parsed);
        assert!(step(&site, kept).0);
    }

    #[test]
    fn a_kept_stage_remakes_the_last_answers_in_place() {
        let Started { dir, mut parsed, images, last } = first();
        let root = dir.path();
        let before = Arc::as_ptr(&images);
        // The build that used them is over: the stage holds the only share.
        drop(images);
        edit(root, NOTING, "title: \"The Noting", "title: \"Again, the Noting");
        let site = load(root, &mut parsed);
        let stage = ImageStage::of(&site, Some(last));
        assert!(matches!(stage, ImageStage::Kept { .. }));
        let (images, _) = stage.prepare(&site, &known, None, true);
        assert_eq!(Arc::as_ptr(&images.unwrap()), before, "the answers were copied");
    }

    #[test]
    fn a_failed_stage_gives_the_last_one_back() {
        let Started { dir, mut parsed, last, .. } = first();
        let root = dir.path();
        let photo = root.join("static/images/photos/raindrops-on-leaf.jpg");
        let bytes = std::fs::read(&photo).unwrap();
        std::fs::write(&photo, b"not a photograph").unwrap();
        let site = load(root, &mut parsed);
        let (images, last) = ImageStage::of(&site, Some(last)).prepare(&site, &known, None, true);
        assert!(images.is_err(), "a broken cover fails the stage");
        let last = last.expect("the last stage is given back");
        assert!(matches!(last, LastImages::Kept(_)));

        // Mended: the next build takes the stage it gave back.
        std::fs::write(&photo, bytes).unwrap();
        let site = load(root, &mut parsed);
        assert!(step(&site, last).0);
    }
}
