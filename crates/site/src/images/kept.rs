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
    /// What the stage gave, with no warning (a build with warnings keeps nothing).
    images: SiteImages,
}

impl KeptImages {
    /// What to keep of a build's stage (`refs` of `site`, which gave `images`); None when the
    /// stage warned about an image (the warnings' places would have to be kept too).
    fn of(site: &Site, refs: &References, images: &SiteImages) -> Option<Self> {
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
            images: images.clone(),
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
    /// Every reference of the site.
    Whole(References<'a>),
    /// The last build's stage, and the places of the articles that changed since.
    Kept { kept: Box<KeptImages>, changed: Vec<usize> },
}

impl<'a> ImageStage<'a> {
    /// The references of `site`: the last build's (`kept`) when they can be.
    pub fn of(site: &'a Site, kept: Option<KeptImages>) -> Self {
        match kept.and_then(|k| Some((k.changed_in(site)?, k))) {
            Some((changed, kept)) => Self::Kept { kept: Box::new(kept), changed },
            None => Self::Whole(References::of(site)),
        }
    }

    /// The files of the site the references name (absolute paths): the build takes their
    /// digests from its cache (`BuildCache::file_digest`, read again only when a file's size or
    /// time changed) and hands them to [`ImageStage::prepare`].
    pub fn files(&self, root: &Path) -> Vec<PathBuf> {
        let targets = match self {
            Self::Whole(refs) => &refs.targets,
            Self::Kept { kept, .. } => &kept.targets,
        };
        targets.iter().filter_map(|r| r.file().map(|f| root.join(f))).collect()
    }

    /// Reads the images ([`prepare_with`]; `table` is the last build's): the kept stage's
    /// answers with the changed articles' sources made again when no image changed. With
    /// `keep`, also what the next build may keep of this one.
    pub fn prepare(
        self,
        site: &'a Site,
        known: &(dyn Fn(&Path) -> Option<String> + Sync),
        cache: Option<&ImageCache>,
        table: Option<&ImageTable>,
        keep: bool,
    ) -> Result<(SiteImages, Option<KeptImages>), Diagnostics> {
        let (mut kept, changed) = match self {
            Self::Whole(refs) => {
                let images = prepare_with(site, &refs, known, cache, table)?;
                let kept = keep.then(|| KeptImages::of(site, &refs, &images)).flatten();
                return Ok((images, kept));
            }
            Self::Kept { kept, changed } => (kept, changed),
        };
        let last = &kept.images.table;
        let read = ImageTable::read(&site.root, &kept.targets, known, cache, Some(last));
        if !read.as_ref().is_ok_and(|t| t.is_same(last)) {
            // An image changed (or cannot be read): every reference is listed again.
            let read = read.ok();
            return Self::Whole(References::of(site)).prepare(
                site,
                known,
                cache,
                read.as_ref().or(table),
                keep,
            );
        }
        let mut buf = Vec::with_capacity(128);
        for i in changed {
            let a = &site.articles[i];
            let (range, _) = &kept.ranges[i];
            let targets = kept.shown[range.start as usize..range.end as usize].iter();
            let targets = targets.map(|&t| t as usize);
            kept.images.sources[i] = source_of(a, &kept.images.table, targets, &mut buf);
            kept.articles[i] = Arc::clone(a);
        }
        let images = kept.images.clone();
        Ok((images, keep.then_some(*kept)))
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

    /// The stage of `site` from `kept`: whether it was kept, and what it gave, which must be what
    /// the whole stage gives.
    fn step(site: &Site, kept: KeptImages) -> (bool, KeptImages) {
        let whole = prepare_with(site, &References::of(site), &known, None, None).unwrap();
        let stage = ImageStage::of(site, Some(kept));
        let was_kept = matches!(stage, ImageStage::Kept { .. });
        let last = match &stage {
            ImageStage::Kept { kept, .. } => Some(kept.images.table.clone()),
            ImageStage::Whole(_) => None,
        };
        let (images, kept) = stage.prepare(site, &known, None, last.as_ref(), true).unwrap();
        assert_eq!(parts(&images), parts(&whole));
        (was_kept, kept.expect("the demo's stage is kept"))
    }

    fn edit(root: &Path, rel: &str, from: &str, to: &str) {
        let text = std::fs::read_to_string(root.join(rel)).unwrap();
        assert!(text.contains(from), "{rel} has no {from:?}");
        std::fs::write(root.join(rel), text.replacen(from, to, 1)).unwrap();
    }

    #[test]
    fn a_kept_stage_gives_what_the_whole_stage_gives() {
        let dir = crate::test_site::demo_copy();
        let root = dir.path();
        let mut parsed = ParsedArticles::default();
        let site = load(root, &mut parsed);
        let (_, kept) =
            ImageStage::of(&site, None).prepare(&site, &known, None, None, true).unwrap();
        let kept = kept.expect("the demo's stage is kept");

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
}
