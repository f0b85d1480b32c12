//! Where each article is shown, beside the outline: an edit of what an article shows on other
//! pages (its title, description, cover, reading minutes, recording) that leaves where every
//! article is placed as it was plans again only the pages that show that article.
//!
//! A page shows the articles its planner reads through [`PlanContext::article`] (cards, related
//! lists, sitemap links): `plan::plan` records them. When the outline's placement part (the data
//! files, the bundle, and each article's route, dates, author, topics, links and aliases) is the
//! last build's, the catalog, the page list and the articles each page picks are the same, so a
//! page that showed none of the articles whose shown part changed plans exactly as it did.
//!
//! [`PlanContext::article`]: crate::plan::PlanContext::article

use serde::{Deserialize, Serialize};
use stillpoint_content::ArticleId;

use super::outline::Outline;

/// Per article, the pages (by their index in `plan::site_pages`) that show it, its own page
/// included. Kept compact (one list of pages, cut per article) so a site of a million articles
/// holds it in a few tens of megabytes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownOn {
    /// Article `i`'s pages are `pages[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    pages: Vec<u32>,
}

/// What each page of a build showed, in page order, as one list: a build of 1,000,000 articles
/// plans 1.2 million pages, which a list per page would keep in as many allocations.
#[derive(Debug, Default)]
pub struct ShowsByPage {
    /// Page `p`'s articles end at `ends[p]` in `articles` (and start where page `p - 1`'s end).
    ends: Vec<u32>,
    articles: Vec<ArticleId>,
}

impl ShowsByPage {
    /// Adds the next page's articles.
    pub fn push(&mut self, shows: &[ArticleId]) {
        self.articles.extend_from_slice(shows);
        self.ends.push(u32::try_from(self.articles.len()).expect("fewer than 2^32 cards"));
    }

    /// Each page's articles, in page order.
    pub fn pages(&self) -> impl Iterator<Item = &[ArticleId]> + Clone {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(self.ends.iter().copied()).map(|(s, e)| &self.articles[s as usize..e as usize])
    }
}

impl ShownOn {
    /// From what each page shows (the articles page `p` read, in page order), for `articles`
    /// articles.
    pub fn from_pages<'s>(
        articles: usize,
        shows: impl Iterator<Item = &'s [ArticleId]> + Clone,
    ) -> Self {
        let mut counts = vec![0u32; articles + 1];
        for &a in shows.clone().flatten() {
            counts[a.index() + 1] += 1;
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let starts = counts.clone();
        let mut next = counts;
        let mut pages = vec![0u32; *starts.last().unwrap_or(&0) as usize];
        for (p, list) in shows.enumerate() {
            for &a in list {
                let at = &mut next[a.index()];
                pages[*at as usize] = p as u32;
                *at += 1;
            }
        }
        Self { starts, pages }
    }

    /// The pages that show article `i`, ascending.
    pub fn pages_showing(&self, i: ArticleId) -> &[u32] {
        match (self.starts.get(i.index()), self.starts.get(i.index() + 1)) {
            (Some(&from), Some(&to)) => &self.pages[from as usize..to as usize],
            _ => &[],
        }
    }

    pub fn articles(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }
}

/// What the last complete build recorded of its outline: the outline, the output it left (its
/// manifest's digest), and, when it planned every page, where each article was shown.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutlineRecord {
    pub key: String,
    pub output: String,
    pub placement: String,
    pub shown: Vec<[u8; 16]>,
    pub shown_on: Option<ShownOn>,
    /// Per article, in order, what it was read from and its placement digest ([`Outline`]).
    pub ids: Vec<[u8; 16]>,
    pub placements: Vec<[u8; 16]>,
}

impl OutlineRecord {
    /// The placement and shown digests recorded for the article at place `i`, when it was read
    /// from what `id` names.
    pub fn digests_at(&self, i: usize, id: &[u8; 16]) -> Option<([u8; 16], [u8; 16])> {
        (self.ids.get(i) == Some(id))
            .then(|| Some((*self.placements.get(i)?, *self.shown.get(i)?)))?
    }

    /// The pages (ascending indices into `plan::site_pages`) that must be planned again for
    /// `outline` when the live output is the one this record's build left (`output`): those that
    /// show an article whose shown part changed. None when that cannot be told (another
    /// placement, another output, or no record of where articles were shown): then every page is.
    pub fn pages_to_replan(&self, outline: &Outline, output: Option<&str>) -> Option<Vec<u32>> {
        let on = self.shown_on.as_ref()?;
        let same = output == Some(self.output.as_str())
            && self.placement == outline.placement
            && self.shown.len() == outline.shown.len()
            && on.articles() == outline.shown.len();
        if !same {
            return None;
        }
        let changed = ArticleId::all(self.shown.len())
            .zip(self.shown.iter().zip(&outline.shown))
            .filter(|(_, (a, b))| a != b);
        let mut pages: Vec<u32> =
            changed.flat_map(|(i, _)| on.pages_showing(i).iter().copied()).collect();
        pages.sort_unstable();
        pages.dedup();
        Some(pages)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What each page shows, by article index.
    fn shows(pages: &[&[usize]]) -> Vec<Vec<ArticleId>> {
        pages.iter().map(|p| p.iter().map(|&i| ArticleId::new(i)).collect()).collect()
    }

    #[test]
    fn inverts_what_each_page_shows() {
        let mut by_page = ShowsByPage::default();
        for page in shows(&[&[0, 2], &[], &[2], &[1, 2]]) {
            by_page.push(&page);
        }
        let on = ShownOn::from_pages(4, by_page.pages());
        let showing = |i| on.pages_showing(ArticleId::new(i));
        assert_eq!(on.articles(), 4);
        assert_eq!(showing(0), &[0]);
        assert_eq!(showing(1), &[3]);
        assert_eq!(showing(2), &[0, 2, 3]);
        assert_eq!(showing(3), &[] as &[u32]);
        assert_eq!(showing(9), &[] as &[u32]);
    }

    fn outline(placement: &str, shown: &[u8]) -> Outline {
        Outline {
            key: format!("{placement}{shown:?}"),
            placement: placement.into(),
            shown: shown.iter().map(|&b| [b; 16]).collect(),
            ids: Vec::new(),
            placements: Vec::new(),
        }
    }

    #[test]
    fn replans_the_pages_of_changed_articles_only_when_all_else_is_the_same() {
        let before = outline("p", &[1, 2, 3]);
        let record = OutlineRecord {
            key: before.key.clone(),
            output: "o".into(),
            placement: before.placement.clone(),
            shown: before.shown.clone(),
            shown_on: Some(ShownOn::from_pages(
                3,
                shows(&[&[0, 1], &[1], &[2], &[1, 2]]).iter().map(Vec::as_slice),
            )),
            ..OutlineRecord::default()
        };
        assert_eq!(record.pages_to_replan(&before, Some("o")), Some(vec![]));
        assert_eq!(
            record.pages_to_replan(&outline("p", &[1, 9, 3]), Some("o")),
            Some(vec![0, 1, 3])
        );
        assert_eq!(record.pages_to_replan(&outline("p", &[1, 2, 9]), Some("o")), Some(vec![2, 3]));
        // Another output, placement or number of articles, or nothing recorded: every page.
        assert_eq!(record.pages_to_replan(&outline("p", &[1, 9, 3]), Some("x")), None);
        assert_eq!(record.pages_to_replan(&outline("p", &[1, 9, 3]), None), None);
        assert_eq!(record.pages_to_replan(&outline("q", &[1, 9, 3]), Some("o")), None);
        assert_eq!(record.pages_to_replan(&outline("p", &[1, 2]), Some("o")), None);
        let unrecorded = OutlineRecord { shown_on: None, ..record };
        assert_eq!(unrecorded.pages_to_replan(&before, Some("o")), None);
    }
}
