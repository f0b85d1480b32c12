//! Thin pages: a topic (a category or a subcategory) with no articles. Its page still exists (a
//! link to it must not 404), but it is left out of sitemap.xml, asks robots not to index it and,
//! unless `[menu] empty_topics = true`, is left out of the navigation. `check` says so once per
//! site, not once per topic.

use crate::catalog::Catalog;
use crate::load::Site;
use crate::warning::{ContentWarning, WarningKind};

/// Topics the warning names; past these it gives a count.
const NAMED: usize = 3;

impl Catalog {
    /// Whether category `ci` has no articles (then none of its subcategories has any).
    pub fn category_is_empty(&self, ci: usize) -> bool {
        self.categories[ci].articles.is_empty()
    }

    /// Whether subcategory `si` of category `ci` has no articles.
    pub fn subcategory_is_empty(&self, ci: usize, si: usize) -> bool {
        self.categories[ci].subcategories[si].articles.is_empty()
    }

    /// Every topic with no articles, in file order: `(category, None)` for a category,
    /// `(category, Some(subcategory))` for a subcategory.
    pub fn empty_topics(&self) -> Vec<(usize, Option<usize>)> {
        let mut out = Vec::new();
        for (ci, c) in self.categories.iter().enumerate() {
            if c.articles.is_empty() {
                out.push((ci, None));
            }
            for (si, s) in c.subcategories.iter().enumerate() {
                if s.articles.is_empty() {
                    out.push((ci, Some(si)));
                }
            }
        }
        out
    }
}

/// The one `empty_topics` warning of a site: at the first empty topic's slug in
/// data/topics.toml, with the count and the first few names.
pub(crate) fn empty_topics_warning(site: &Site, catalog: &Catalog) -> Option<ContentWarning> {
    let empty = catalog.empty_topics();
    let &(ci, si) = empty.first()?;
    let category = &site.topics.categories[ci];
    let first = si.map_or(&category.topic, |si| &category.children[si]);
    let names = empty
        .iter()
        .take(NAMED)
        .map(|&(ci, si)| {
            let c = &site.topics.categories[ci];
            match si {
                None => c.topic.title.clone(),
                Some(si) => format!("{} → {}", c.topic.title, c.children[si].title),
            }
        })
        .collect();
    Some(ContentWarning {
        path: "data/topics.toml".into(),
        line: first.slug_line,
        col: first.slug_col,
        kind: WarningKind::EmptyTopics {
            count: empty.len(),
            names,
            in_menu: site.config.menu.empty_topics,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_warning_for_the_site_with_the_count_and_the_first_names() {
        let dir = crate::test_site::demo_copy();
        let mut site = crate::load_site(dir.path()).unwrap_or_else(|d| panic!("{d}"));
        let mut catalog = crate::build_catalog(&site);
        assert_eq!(empty_topics_warning(&site, &catalog), None, "every demo topic has articles");
        let codes = |site: &Site, catalog: &Catalog| -> Vec<&'static str> {
            crate::content_warnings(site, catalog).iter().map(|w| w.kind.code()).collect()
        };
        assert!(!codes(&site, &catalog).contains(&"empty_topics"));

        // The second category emptied (itself and its five children), and one subcategory.
        for sub in &mut catalog.categories[1].subcategories {
            sub.articles.clear();
        }
        catalog.categories[1].articles.clear();
        catalog.categories[3].subcategories[2].articles.clear();
        assert_eq!(catalog.empty_topics().len(), 7);
        let w = empty_topics_warning(&site, &catalog).expect("a warning");
        assert_eq!(w.path, std::path::Path::new("data/topics.toml"));
        let c = &site.topics.categories[1];
        assert_eq!((w.line, w.col), (c.topic.slug_line, c.topic.slug_col));
        let names = [
            c.topic.title.clone(),
            format!("{} → {}", c.topic.title, c.children[0].title),
            format!("{} → {}", c.topic.title, c.children[1].title),
        ];
        assert_eq!(
            w.kind.to_string(),
            format!(
                "7 topics have no articles yet: {} and 4 more; their pages are left out of \
                 sitemap.xml and the menu and not indexed",
                names.join(", ")
            )
        );
        assert_eq!(codes(&site, &catalog).iter().filter(|c| **c == "empty_topics").count(), 1);

        site.config.menu.empty_topics = true;
        catalog.categories[1] = crate::build_catalog(&site).categories[1].clone();
        let w = empty_topics_warning(&site, &catalog).expect("a warning");
        let sub = &site.topics.categories[3];
        assert_eq!(
            w.kind.to_string(),
            format!(
                "1 topic has no articles yet: {} → {}; its page is left out of sitemap.xml and \
                 not indexed",
                sub.topic.title, sub.children[2].title
            )
        );
    }
}
