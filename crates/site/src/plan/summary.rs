//! What pages other than an article's own may read of it: its [`ArticleSummary`].
//!
//! A planner reads an article through [`PlanContext::summary`](super::PlanContext::summary);
//! only the article's own page reads the whole [`Article`] (its Markdown, its body's images and
//! embeds, its words). The outline digests the same summary (build/outline.rs), so a field added
//! here to show it on cards, listings, feeds, the sitemap or the search index changes the
//! outline's key by construction: a page that shows it is never kept stale after an edit.

use std::path::Path;
use std::sync::Arc;

use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};
use stillpoint_content::{Article, Entity, Located, MediaRef};
use stillpoint_fingerprint::Digest;

use super::reading_minutes;

/// An article as every page but its own may show it, in two parts with a digest each.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ArticleSummary<'a> {
    pub placement: Placement<'a>,
    pub shown: Shown<'a>,
}

/// Where an article is placed: what decides which pages exist and which articles each lists.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Placement<'a> {
    pub source: &'a Path,
    pub slug: &'a str,
    pub date: jiff::civil::Date,
    pub updated: Option<jiff::civil::Date>,
    pub draft: bool,
    /// The author's name as written (`PlanContext::author_index` finds the author).
    pub author: Option<&'a str>,
    pub entities: &'a [Entity],
    /// The body's internal links: checked, and counted for the home page's "Popular".
    pub links: Written<'a>,
    /// `aliases:`, written as redirect pages and rules.
    pub aliases: Written<'a>,
}

/// What an article shows of itself on the pages that list it (cards, related lists, the
/// sitemap, the feeds, the search index), and nothing decides by: an edit of it changes only
/// those pages (see build/shown.rs).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Shown<'a> {
    pub title: &'a str,
    pub description: &'a str,
    /// `image:` as written, and what it names (the image's bytes are in the outline apart).
    pub image: Option<&'a str>,
    pub image_target: Option<&'a MediaRef>,
    pub image_alt: Option<&'a str>,
    pub image_focus: Option<&'a str>,
    /// `audio:` (its recording is in the outline apart, by path).
    pub audio: Option<&'a Path>,
    /// "N min read": the body's words reach other pages as this alone.
    pub minutes: u32,
}

/// Values written in an article, each with where (for the errors that name them): they
/// serialise, so digest, as the values alone.
#[derive(Debug, Clone, Copy)]
pub struct Written<'a>(pub &'a [Located<String>]);

impl<'a> Written<'a> {
    pub fn values(self) -> impl Iterator<Item = &'a str> {
        self.0.iter().map(|l| l.value.as_str())
    }
}

impl Serialize for Written<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for v in self.values() {
            seq.serialize_element(v)?;
        }
        seq.end()
    }
}

impl<'a> ArticleSummary<'a> {
    pub fn of(a: &'a Article) -> Self {
        Self {
            placement: Placement {
                source: &a.source,
                slug: &a.slug,
                date: a.date,
                updated: a.updated,
                draft: a.draft,
                author: a.author.as_ref().map(|l| l.value.as_str()),
                entities: &a.entities,
                links: Written(&a.links),
                aliases: Written(&a.aliases),
            },
            shown: Shown {
                title: &a.title,
                description: &a.description,
                image: a.image.as_ref().map(|l| l.value.as_str()),
                image_target: a.image_target.as_ref(),
                image_alt: a.image_alt.as_deref(),
                image_focus: a.image_focus.as_deref(),
                audio: a.audio.as_ref().map(|l| l.value.as_path()),
                minutes: reading_minutes(a.words),
            },
        }
    }

    /// The digests of the placement and of what is shown, in that order.
    pub fn digests(&self) -> ([u8; 16], [u8; 16]) {
        (digest(&self.placement), digest(&self.shown))
    }
}

fn digest(part: &impl Serialize) -> [u8; 16] {
    Digest::of(&postcard::to_allocvec(part).expect("an article summary serialises")).bytes()
}

/// An article held for its identity alone: a memo keeps it to tell, by pointer, that a later
/// build's article is the same one (shared with the load's store, so unchanged) without reading
/// anything of it.
#[derive(Debug, Clone)]
pub struct Held(Arc<Article>);

impl Held {
    pub(super) fn new(a: &Arc<Article>) -> Self {
        Self(Arc::clone(a))
    }

    pub fn is(&self, other: &Held) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use stillpoint_content::load_site;

    use super::*;

    #[test]
    fn links_and_aliases_digest_as_their_values_alone() {
        let site =
            load_site(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo")).unwrap();
        let a = site.articles.iter().find(|a| !a.links.is_empty()).expect("an article with links");
        let mut moved = (**a).clone();
        for l in &mut moved.links {
            l.line += 7;
            l.col += 1;
        }
        assert_eq!(ArticleSummary::of(a).digests(), ArticleSummary::of(&moved).digests());
        moved.links[0].value.push('x');
        let (before, after) =
            (ArticleSummary::of(a).digests(), ArticleSummary::of(&moved).digests());
        assert_ne!(before.0, after.0);
        assert_eq!(before.1, after.1);
    }
}
