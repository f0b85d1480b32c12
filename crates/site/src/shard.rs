//! `build --shard i/N`: one of N builds that together write the whole site. Every shard loads,
//! plans and validates the whole site (so every shard reports every error); it then renders and
//! writes only the files it owns:
//!
//! - the HTML and page-data of an article belong to shard `h mod N`, where `h` is the first 8
//!   bytes (big-endian) of the SHA-256 of the article's slug — stable across builds, machines
//!   and engine versions, and independent of the order or number of articles;
//! - every other file (home, listings, categories, authors, information pages, 404/500, the
//!   search index, site data, feeds, sitemaps, static files, assets, the service worker) belongs
//!   to shard 0;
//! - `.stillpoint/build.json` is written by every shard, with `"shard": {"index", "count"}`.
//!
//! The shards' outputs are disjoint and their union is, byte for byte, the whole build's output
//! (`.stillpoint/` aside); `stillpoint deploy --merge` publishes that union.

use std::borrow::Cow;
use std::collections::HashMap;

use stillpoint_content::Site;
pub use stillpoint_dist::Shard;

use crate::layout;
use crate::plan::SitePage;
use crate::route::Route;

/// Which files of the output one build writes: all of them, or one shard's.
pub struct Owner {
    shard: Option<Shard>,
    /// Article page files (HTML and page-data) → the shard that owns them.
    articles: HashMap<String, u32>,
}

impl Owner {
    /// The owner of every file of `site` for `shard` (None: a whole build, which writes all).
    pub fn new(shard: Option<Shard>, site: &Site) -> Self {
        let mut articles = HashMap::new();
        if let Some(s) = shard {
            for a in &site.articles {
                let owner = Shard::of_slug(&a.slug, s.count);
                let route = Route::article(&a.slug);
                articles.insert(layout::html_file(&route), owner);
                articles.insert(layout::page_data_file(&route), owner);
            }
        }
        Self { shard, articles }
    }

    /// Whether this build writes the output file `rel`.
    pub fn writes(&self, rel: &str) -> bool {
        let Some(shard) = self.shard else { return true };
        match self.articles.get(rel) {
            Some(&owner) => owner == shard.index,
            None => shard.is_shared() || rel == layout::BUILD_INFO,
        }
    }

    /// Whether this build writes the pages of the article `slug`.
    pub fn owns_article(&self, slug: &str) -> bool {
        self.shard.is_none_or(|s| Shard::of_slug(slug, s.count) == s.index)
    }

    /// The pages this build writes.
    pub fn pages<'p>(&self, pages: &'p [SitePage]) -> Cow<'p, [SitePage]> {
        if self.shard.is_none() {
            return Cow::Borrowed(pages);
        }
        let html = |p: &SitePage| layout::html_file(&p.path);
        Cow::Owned(pages.iter().filter(|p| self.writes(&html(p))).cloned().collect())
    }
}
