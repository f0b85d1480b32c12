//! Which articles' pages in the live output are current, when the outline is the last build's:
//! only those can need rendering (see outline.rs). At 100,000 articles, asking the cache for each
//! article's page (its route formatted and hashed) is about 30 ms of a `dev` rebuild; a session
//! remembers what each page was rendered from, by the article's place, and asks the cache only
//! for the articles that are not the same shared article at the same place.

use std::sync::Arc;

use rayon::prelude::*;
use stillpoint_content::{Article, ArticleId, Site};
use stillpoint_fingerprint::Digest;

use crate::cache::BuildCache;
use crate::images::SiteImages;
use crate::plan::{PageRef, SitePage};
use crate::route::Route;

/// The article pages of the output the last build left, by the article's place: the article
/// and the source its page was rendered from (`SiteImages::article_source`).
#[derive(Default)]
pub struct CurrentArticles(Vec<(Arc<Article>, Digest)>);

impl CurrentArticles {
    /// After a build of the whole site that committed its output: every article's page was
    /// rendered from what the article is now. Reuses `self`'s entries for the same articles.
    pub(super) fn record(mut self, site: &Site, images: &SiteImages) -> Self {
        if self.0.len() != site.articles.len() {
            self.0.clear();
        }
        for (i, a) in site.article_ids().zip(&site.articles) {
            let source = images.article_source(i, a.digest);
            match self.0.get_mut(i.index()) {
                Some((same, s)) if Arc::ptr_eq(same, a) && *s == source => {}
                Some(entry) => *entry = (Arc::clone(a), source),
                None => self.0.push((Arc::clone(a), source)),
            }
        }
        self
    }

    /// Whether article `i`, `a`, showing `source`, is the one the last build rendered there.
    fn holds(&self, i: ArticleId, a: &Arc<Article>, source: Digest) -> bool {
        self.0.get(i.index()).is_some_and(|(same, s)| Arc::ptr_eq(same, a) && *s == source)
    }
}

/// The pages of the articles `stale` names, in the articles' order.
pub(super) fn stale_articles(
    site: &Site,
    stale: impl Fn(ArticleId, &Arc<Article>) -> bool + Sync,
) -> Vec<SitePage> {
    let ids = site.article_ids().collect::<Vec<_>>();
    let articles = ids.into_par_iter().zip(&site.articles).filter(|(i, a)| stale(*i, a));
    articles
        .map(|(i, a)| SitePage { path: Route::article(&a.slug), page: PageRef::Article(i) })
        .collect()
}

/// Whether article `i`'s page in the live output was rendered from the article's file and the
/// images it shows as they are. Asked only when the live output is the one the last build left
/// (its manifest has the digest recorded with the outline), whose pages are those the cache
/// records, and `last` (when kept) those the last build of this session rendered.
pub(super) fn article_page_current(
    cache: &BuildCache,
    last: Option<&CurrentArticles>,
    images: &SiteImages,
    i: ArticleId,
    article: &Arc<Article>,
) -> bool {
    let source = images.article_source(i, article.digest);
    if last.is_some_and(|last| last.holds(i, article, source)) {
        return true;
    }
    let route = Route::article(&article.slug);
    cache.pages.get(route.as_str()).is_some_and(|e| e.source == Some(source))
}
