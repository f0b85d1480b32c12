//! What a build produces, as one queue decided from its scope (scope.rs): the files copied
//! into the output as they are, the pages to plan and render, whether the site-wide files are
//! made, and what of the live output is kept without being produced again. `build_in` resolves
//! the inputs, asks for the queue, produces it and commits; a new kind of output is a variant
//! of [`stillpoint_dist::Output`] put by one of these steps (see docs/architecture.md, "Adding
//! an output").

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use stillpoint_content::{Article, ArticleId, Diagnostics, Redirect, Site};
use stillpoint_dist::Output;

use super::scope::Scope;
use super::{current, files, validate};
use crate::cache::BuildCache;
use crate::emit::Update;
use crate::error::BuildError;
use crate::layout;
use crate::plan::{PlanContext, SitePage, site_pages};
use crate::redirects::{site_redirects, validate_redirects};
use crate::shard::Owner;

/// Files put into the output as they are, all of one output.
pub(super) struct Copies<'f> {
    pub output: Output,
    /// Each file's output path and its path.
    pub files: Cow<'f, [(String, PathBuf)]>,
    /// Shared with the image cache, named by content ([`files::share`]); copied otherwise
    /// ([`files::copy`]), with its digest from the build cache.
    pub shared: bool,
}

/// What one build produces.
pub(super) struct Queue<'p> {
    /// Copied first, in order, so that the site's own files can never overwrite generated ones.
    pub copies: Vec<Copies<'p>>,
    /// The pages to plan and render in bounded batches (pages.rs); each is kept instead when
    /// its key and files are as the cache recorded.
    pub pages: Cow<'p, [SitePage]>,
    /// Whether the site-wide files are made ([`super::site_files`]).
    pub site_files: bool,
    /// What of the live output stays as it is.
    pub kept: Kept,
}

/// What of the live output a build keeps without producing it again.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Kept {
    /// Nothing: what the build does not produce is gone.
    Nothing,
    /// Every file but the pages' it renders and the files under `media/`: a build copies every
    /// image and recording still shown, so one it did not is no longer used.
    AllButMedia,
    /// Every file but the pages' it renders: `media/` holds exactly what the build would put
    /// there (`files::media_is_live`), so it is not put again.
    AllButPages,
    /// Every file but those under the site-wide folders the build makes again whole (the
    /// search index, the site data, and, as for [`Kept::AllButMedia`], `media/`): the pages
    /// around an edit are put over their live files, and the other pages (this many), the
    /// sitemaps and the files at fixed paths stay. The placement is the last build's, so the
    /// pages, sitemaps, static files and redirects are the ones the live output holds.
    AllButSiteData(usize),
}

/// The pages a build of `scope` lists, and the redirects that passed validation: every page of
/// the site, validated unless its placement is the last build's (which validated the same
/// routes and links); or, when only articles' pages are made, those of the articles this build
/// writes whose pages are not as the last build made them (`current`).
pub(super) fn list(
    scope: &Scope,
    site: &Site,
    ctx: &PlanContext,
    owner: &Owner,
    current: &(dyn Fn(ArticleId) -> bool + Sync),
) -> Result<(Vec<SitePage>, Vec<Redirect>), BuildError> {
    if *scope == Scope::Articles {
        let stale = |i: ArticleId, a: &Arc<Article>| owner.owns_article(&a.slug) && !current(i);
        return Ok((current::stale_articles(site, stale), Vec::new()));
    }
    let pages = site_pages(ctx);
    let mut errors = if scope.same_placement() { Vec::new() } else { validate(site, &pages) };
    let (redirects, redirect_errors) = validate_redirects(site, &pages, &site_redirects(ctx));
    errors.extend(redirect_errors);
    let mut diag = Diagnostics(errors);
    diag.sort();
    diag.into_result().map_err(BuildError::Content)?;
    Ok((pages, redirects))
}

impl<'p> Queue<'p> {
    /// The queue of a build of `scope` over the pages listed for it (`listed`: every page of
    /// the site, or the pages of the articles whose files changed when the scope is
    /// [`Scope::Articles`]); `current` tells whether an article's own page is as the last build
    /// made it. `media_live`: `copies` leave out `media/`, which the live output holds as this
    /// build would make it.
    pub(super) fn of(
        scope: &Scope,
        listed: &'p [SitePage],
        copies: Vec<Copies<'p>>,
        media_live: bool,
        owner: &Owner,
        current: &(dyn Fn(ArticleId) -> bool + Sync),
    ) -> Self {
        let (pages, kept) = match scope {
            Scope::Articles if media_live => (owner.pages(listed), Kept::AllButPages),
            Scope::Articles => (owner.pages(listed), Kept::AllButMedia),
            Scope::Showing(showing) => {
                let stale = replanned(listed, showing, current);
                let kept = listed.len() - stale.len();
                (Cow::Owned(stale), Kept::AllButSiteData(kept))
            }
            Scope::Site => (owner.pages(listed), Kept::Nothing),
        };
        Self { copies, pages, site_files: scope.site_files(), kept }
    }

    /// Puts the copied files into the output.
    pub(super) fn copy(&self, update: &Update, cache: &mut BuildCache) -> Result<(), BuildError> {
        for c in &self.copies {
            match c.shared {
                true => files::share(update, c.output, &c.files)?,
                false => files::copy(update, cache, c.output, &c.files)?,
            }
        }
        Ok(())
    }
}

impl Kept {
    /// The folders whose files a build of the pages around an edit makes again whole.
    const SITE_DATA: [&'static str; 4] =
        [layout::SEARCH_DIR, layout::SITE_DATA_DIR, layout::SLICE_DATA_DIR, layout::MEDIA_DIR];

    /// Notes the kept files as the new output's, once the build has put what it produces.
    pub(super) fn keep(&self, update: &Update) {
        match self {
            Self::Nothing => {}
            // Every other file is the live output's as it is: its manifest is taken whole but
            // for the files under these folders, found by their prefixes. (A category's pages
            // may have their page data under the site data's folder: `page-data/sq/…` is the
            // category `sq`'s. Those stay, as every page not planned again does.)
            Self::AllButSiteData(_) => update.keep_rest_except_under(&Self::SITE_DATA, &|rel| {
                layout::route_name_of(rel).is_none()
            }),
            Self::AllButMedia => update.keep_rest_except_under(&[layout::MEDIA_DIR], &|_| true),
            Self::AllButPages => update.keep_rest_except_under(&[], &|_| true),
        }
    }

    /// How many pages are kept as they are (the others are counted by what the build rendered).
    pub(super) fn pages(&self) -> usize {
        match self {
            Self::AllButSiteData(pages) => *pages,
            Self::Nothing | Self::AllButMedia | Self::AllButPages => 0,
        }
    }
}

/// The pages to plan again when only what some articles show changed (`showing`: the pages
/// that show them, ascending indices into `pages`): those, and the pages of articles whose
/// files changed (`current` tells, by article). The placement and the live output are the ones
/// the last build recorded (shown.rs), so every other page's files are in the live output as
/// that build made them.
fn replanned(
    pages: &[SitePage],
    showing: &[u32],
    current: &(dyn Fn(ArticleId) -> bool + Sync),
) -> Vec<SitePage> {
    use rayon::prelude::*;
    let mut stale: Vec<usize> = pages
        .par_iter()
        .enumerate()
        .filter(|(_, page)| page.article().is_some_and(|i| !current(i)))
        .map(|(j, _)| j)
        .collect();
    stale.extend(showing.iter().map(|&j| j as usize).filter(|&j| j < pages.len()));
    stale.sort_unstable();
    stale.dedup();
    stale.into_iter().map(|j| pages[j].clone()).collect()
}

#[cfg(test)]
mod tests {
    use stillpoint_dist::Changed;

    use super::*;
    use crate::emit::Generations;

    /// What a build that puts `put` (and keeps `kept`) changes in an output that holds three
    /// pages (one with only its page data), a rendition, a file of the search index, the site
    /// data and robots.txt.
    fn changes(kept: Kept, put: &[(Output, &str)]) -> Vec<Changed> {
        let tmp = tempfile::tempdir().unwrap();
        let mut output = Generations::open(&tmp.path().join("dist")).unwrap();
        let first = output.begin();
        first.put(Output::Page, "articles/a.html", b"a").unwrap();
        first.put(Output::Page, "articles/b.html", b"b").unwrap();
        first.put(Output::Media, "media/k-640.avif", b"k").unwrap();
        first.put(Output::SearchIndex, "search/t-0.json", b"t").unwrap();
        first.put(Output::SiteData, &layout::site_data_file("d0"), b"s").unwrap();
        // The page data of category `sq`'s subcategory `d`, under the site data's folder.
        first.put(Output::Page, "page-data/sq/d/page-data.json", b"p").unwrap();
        first.put(Output::Robots, layout::ROBOTS_TXT, b"r").unwrap();
        first.commit().unwrap();
        let update = output.begin();
        for (made, rel) in put {
            update.put(*made, rel, b"new").unwrap();
        }
        kept.keep(&update);
        update.commit().unwrap().1
    }

    #[test]
    fn what_is_kept_stays_and_the_rest_is_gone() {
        let page = (Output::Page, "articles/a.html");
        let gone = |file: &str| Changed::removed(file);
        // An article's page: every other file stays but the renditions it did not copy.
        assert_eq!(
            changes(Kept::AllButMedia, &[page]),
            [Changed::new("articles/a.html", Output::Page), gone("media/k-640.avif")]
        );
        // The pages around an edit: the other pages and the files at fixed paths stay; what is
        // under the folders made again whole and was not put is gone.
        assert_eq!(
            changes(Kept::AllButSiteData(2), &[page]),
            [
                Changed::new("articles/a.html", Output::Page),
                gone("media/k-640.avif"),
                gone("page-data/sq/d/d0.json"),
                gone("search/t-0.json"),
            ]
        );
        assert_eq!(gone("search/t-0.json").output, Output::SearchIndex);
        assert_eq!(gone(layout::ROBOTS_TXT).output, Output::Robots);
        // The whole site: only what was put.
        let all = changes(Kept::Nothing, &[(Output::Sitemaps, layout::SITEMAP_XML)]);
        let outputs: Vec<Output> = all.iter().map(|c| c.output).collect();
        assert_eq!(
            outputs,
            [
                Output::Page,
                Output::Page,
                Output::Media,
                Output::SiteData,
                Output::Page,
                Output::Robots,
                Output::SearchIndex,
                Output::Sitemaps
            ]
        );
        assert_eq!(Kept::AllButSiteData(7).pages(), 7);
    }
}
