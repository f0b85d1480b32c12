//! Articles whose slug changed since the last build of a session that follows them (`dev`,
//! which moves a tab showing the old address to the new one and suggests an alias).

use std::path::PathBuf;

use rustc_hash::FxHashMap;
use stillpoint_content::Site;

/// An article whose slug changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Renamed {
    /// The article's file, relative to the site.
    pub source: PathBuf,
    pub from: String,
    pub to: String,
}

/// Each article's slug at the last build, by source file.
#[derive(Debug, Default)]
pub(super) struct Slugs {
    by_source: Option<FxHashMap<PathBuf, String>>,
}

impl Slugs {
    /// The articles of `site` whose slug is not the one the last build saw; `placed_as_before`
    /// when the build's placement of the articles (slugs included) is the last build's, so
    /// that none can have changed and the articles need not be walked.
    pub(super) fn update(&mut self, site: &Site, placed_as_before: bool) -> Vec<Renamed> {
        if placed_as_before && self.by_source.is_some() {
            return Vec::new();
        }
        let last = self.by_source.take().unwrap_or_default();
        let renamed = site
            .articles
            .iter()
            .filter_map(|a| {
                let old = last.get(&a.source).filter(|old| **old != a.slug)?;
                Some(Renamed { source: a.source.clone(), from: old.clone(), to: a.slug.clone() })
            })
            .collect();
        let now = site.articles.iter().map(|a| (a.source.clone(), a.slug.clone())).collect();
        self.by_source = Some(now);
        renamed
    }
}
