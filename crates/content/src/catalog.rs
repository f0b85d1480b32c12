//! The catalog: articles indexed by category, subcategory and sub-subcategory, by author,
//! and by date, with the spec's `other` fallback rules.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::article_id::ArticleId;
use crate::labels::{slugify, title_case};
use crate::load::Site;
use crate::topics::OTHER;

/// The site's articles by topic, author and date. Every list is newest first (date descending,
/// then slug).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Catalog {
    /// Parallel to `site.topics.categories`.
    pub categories: Vec<CategoryIndex>,
    /// Parallel to `site.authors.list`.
    pub by_author: Vec<Vec<ArticleId>>,
    /// Every article, newest first.
    pub newest: Vec<ArticleId>,
    /// Per article, where it is filed ([`Self::filing`]).
    filings: Vec<Filing>,
    /// Per article, its position in `newest`.
    rank: Vec<u32>,
}

/// Where an article is filed: computed once, by the catalog.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Filing {
    /// The (category, subcategory) index pairs, in front matter order.
    pub topics: Vec<(usize, usize)>,
    /// Its tags: the (category, subcategory, sub-subcategory) of each label it gives, in front
    /// matter order, each once (a label filed under two topics is the first one's).
    pub tags: Vec<(usize, usize, usize)>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryIndex {
    /// Every article filed anywhere in the category.
    pub articles: Vec<ArticleId>,
    /// Parallel to the category's `children`.
    pub subcategories: Vec<SubcategoryIndex>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubcategoryIndex {
    pub articles: Vec<ArticleId>,
    /// Sorted by slug.
    pub subsubcategories: Vec<SubsubcategoryIndex>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubsubcategoryIndex {
    /// Display label, e.g. `Body Scan`.
    pub label: String,
    /// Path segment, e.g. `body-scan`.
    pub slug: String,
    pub articles: Vec<ArticleId>,
}

/// Builds the catalog of a validated site (every category key is known).
pub fn build_catalog(site: &Site) -> Catalog {
    let _span = tracing::info_span!("index", articles = site.articles.len()).entered();
    let mut newest: Vec<ArticleId> = site.article_ids().collect();
    newest.sort_by(|&a, &b| {
        let (a, b) = (site.article(a), site.article(b));
        b.date.cmp(&a.date).then_with(|| a.slug.cmp(&b.slug))
    });
    let mut rank = vec![0u32; newest.len()];
    for (r, &id) in newest.iter().enumerate() {
        rank[id.index()] = r as u32;
    }

    let cats = &site.topics.categories;
    let mut categories: Vec<CategoryIndex> = cats
        .iter()
        .map(|c| CategoryIndex {
            articles: Vec::new(),
            subcategories: vec![SubcategoryIndex::default(); c.children.len()],
        })
        .collect();
    // Sub-subcategories by (category, subcategory) then slug; the first label written wins.
    let mut subsubs: Vec<Vec<BTreeMap<String, SubsubcategoryIndex>>> =
        cats.iter().map(|c| vec![BTreeMap::new(); c.children.len()]).collect();
    let mut filings = vec![Filing::default(); site.articles.len()];
    let mut by_author = vec![Vec::new(); site.authors.list.len()];

    for &i in &newest {
        let article = site.article(i);
        if let Some(a) = article.author.as_ref().and_then(|a| site.authors.index_of(&a.value)) {
            by_author[a].push(i);
        }
        for entity in &article.entities {
            let Some(ci) = cats.iter().position(|c| c.topic.key == entity.category.value) else {
                continue; // unknown categories are reported by load_site
            };
            let category = &cats[ci];
            let other = category.children.iter().position(|c| c.key == OTHER);
            let mut file = |si: usize, subsub: &[String]| {
                push_once(&mut categories[ci].articles, i);
                push_once(&mut categories[ci].subcategories[si].articles, i);
                let topics = &mut filings[i.index()].topics;
                if !topics.contains(&(ci, si)) {
                    topics.push((ci, si));
                }
                for label in subsub {
                    let slug = slugify(label);
                    if slug.is_empty() {
                        continue;
                    }
                    let entry = subsubs[ci][si].entry(slug.clone()).or_insert_with(|| {
                        SubsubcategoryIndex { label: title_case(label), slug, articles: Vec::new() }
                    });
                    push_once(&mut entry.articles, i);
                }
            };
            if entity.subcategories.is_empty()
                && let Some(o) = other
            {
                file(o, &[]);
            }
            for sub in &entity.subcategories {
                let si = category.children.iter().position(|c| c.key == sub.subcategory).or(other);
                if let Some(si) = si {
                    file(si, &sub.subsubcategories);
                }
            }
        }
    }
    for (ci, per_sub) in subsubs.into_iter().enumerate() {
        for (si, map) in per_sub.into_iter().enumerate() {
            categories[ci].subcategories[si].subsubcategories = map.into_values().collect();
        }
    }
    let mut catalog = Catalog { categories, by_author, newest, filings, rank };
    let tags: Vec<_> = site.article_ids().map(|id| catalog.tags_of(site, id)).collect();
    for (filing, tags) in catalog.filings.iter_mut().zip(tags) {
        filing.tags = tags;
    }
    catalog
}

/// Lists are built in newest-first order, so "already there" is always the last element.
fn push_once(list: &mut Vec<ArticleId>, i: ArticleId) {
    if list.last() != Some(&i) {
        list.push(i);
    }
}

impl Catalog {
    /// Whether `list` (any list of this catalog: they are all newest first) holds article `i`;
    /// a binary search, not a scan.
    pub fn lists(&self, list: &[ArticleId], i: ArticleId) -> bool {
        let rank = |id: ArticleId| self.rank[id.index()];
        list.binary_search_by_key(&rank(i), |&j| rank(j)).is_ok()
    }

    /// Where article `i` is filed.
    pub fn filing(&self, i: ArticleId) -> &Filing {
        &self.filings[i.index()]
    }

    /// The (category, subcategory) pairs article `i` is filed under, in front matter order.
    pub fn topics_of(&self, i: ArticleId) -> &[(usize, usize)] {
        &self.filings[i.index()].topics
    }

    /// Every article's (category, subcategory) pairs, article by article.
    pub fn all_topics(&self) -> impl Iterator<Item = &(usize, usize)> {
        self.filings.iter().flat_map(|p| &p.topics)
    }

    /// The tags of article `i`: for each sub-subcategory label its entries give, in order, the
    /// first of its topics whose tag of that slug lists it.
    fn tags_of(&self, site: &Site, i: ArticleId) -> Vec<(usize, usize, usize)> {
        let topics = self.topics_of(i);
        let mut tags = Vec::new();
        let labels = site.article(i).entities.iter().flat_map(|e| &e.subcategories);
        for label in labels.flat_map(|s| &s.subsubcategories) {
            let slug = slugify(label);
            let found = topics.iter().find_map(|&(ci, si)| {
                let subsubs = &self.categories[ci].subcategories[si].subsubcategories;
                let ssi = subsubs.binary_search_by(|ss| ss.slug.as_str().cmp(&slug)).ok()?;
                self.lists(&subsubs[ssi].articles, i).then_some((ci, si, ssi))
            });
            if let Some(tag) = found.filter(|t| !tags.contains(t)) {
                tags.push(tag);
            }
        }
        tags
    }

    /// The spec's derived list of category keys.
    pub fn category_keys<'a>(&self, site: &'a Site) -> Vec<&'a str> {
        site.topics.categories.iter().map(|c| c.topic.key.as_str()).collect()
    }

    /// Subcategory keys accumulated across categories (first appearance order, no repeats).
    pub fn subcategory_keys<'a>(&self, site: &'a Site) -> Vec<&'a str> {
        let mut out: Vec<&str> = Vec::new();
        for c in &site.topics.categories {
            for ch in &c.children {
                if !out.contains(&ch.key.as_str()) {
                    out.push(&ch.key);
                }
            }
        }
        out
    }

    /// Every sub-subcategory label in use, sorted, without repeats.
    pub fn subsubcategory_labels(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .categories
            .iter()
            .flat_map(|c| &c.subcategories)
            .flat_map(|s| &s.subsubcategories)
            .map(|s| s.label.as_str())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests;
