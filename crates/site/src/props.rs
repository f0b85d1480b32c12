//! The props every template receives: the Rust side of `web/src/protocol.ts`, field for field.
//! Serialised camelCase; the snapshot test in `tests/` pins the shape.

use std::sync::Arc;

use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
pub struct Link {
    pub label: String,
    pub href: String,
}

impl Link {
    pub fn new(label: impl Into<String>, href: impl Into<String>) -> Self {
        Self { label: label.into(), href: href.into() }
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopicNode {
    pub key: String,
    pub slug: String,
    pub title: String,
    pub description: String,
    pub href: String,
    pub children: Vec<TopicNode>,
}

/// A network of `[site.social]`: its label, URL and icon (`youtube`, …, or `link`).
#[derive(Debug, Clone, Serialize)]
pub struct SocialLink {
    pub label: String,
    pub href: String,
    pub icon: String,
}

/// The footer's texts and Info links (`[footer]`).
#[derive(Debug, Clone, Serialize)]
pub struct FooterData {
    pub titles: FooterTitles,
    pub links: Vec<Link>,
    /// The copyright line, its `{year}` and `{brand}` filled in.
    pub copyright: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct FooterTitles {
    pub categories: String,
    pub info: String,
    pub contacts: String,
    pub mail: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteData {
    pub id: String,
    pub brand: String,
    pub url: String,
    pub description: String,
    pub logo: String,
    pub contact_email: String,
    pub social: Vec<SocialLink>,
    pub footer: FooterData,
    /// `[header] links`: extra links beside the menu.
    pub header_links: Vec<Link>,
    pub categories: Vec<TopicNode>,
    pub year: i16,
    pub search_manifest: String,
    pub search_empty_image: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(rename_all = "camelCase")]
pub struct ArticleCard {
    pub href: String,
    pub title: String,
    pub description: String,
    pub date: String,
    pub author: Option<Link>,
    pub image: Option<Picture>,
    pub reading_minutes: u32,
    pub topic: Option<Link>,
    /// The length of the article's recording (`audio:`) in minutes, rounded to the nearest
    /// (at least 1): "12 min guided meditation". None when it has none.
    pub audio_minutes: Option<u64>,
}

/// An article's card as its props JSON, written once. A card is shown on a dozen pages or more
/// (its listings, its topics, other articles' related lists), so a build serialises each card
/// once instead of on every page that shows it (`PlanContext::card` keeps them), and keeps only
/// that JSON: compact and ASCII, as [`crate::protocol::props_json`] writes every page's props.
#[derive(Debug, Clone)]
pub struct Card(Arc<RawValue>);

impl Card {
    pub fn new(card: &ArticleCard) -> Self {
        let json =
            RawValue::from_string(crate::protocol::props_json(card)).expect("props JSON is JSON");
        Self(Arc::from(json))
    }

    /// The card's props, read back from its JSON.
    #[cfg(test)]
    pub fn props(&self) -> ArticleCard {
        serde_json::from_str(self.0.get()).expect("a card's JSON")
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// An article's recording (`audio:`): the player's source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArticleAudio {
    /// `/media/{digest}-{name}`.
    pub src: String,
    /// Its MIME type: `audio/mp4`, `audio/mpeg` or `audio/ogg`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its length in whole seconds.
    pub seconds: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct SponsoredBlock {
    pub label: String,
    pub items: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Pagination {
    pub page: usize,
    pub pages: usize,
    pub prev: Option<String>,
    pub next: Option<String>,
    /// Page 1's href (the listing's own route); page n ≥ 2 is `{first}/page/{n}`, so the hrefs
    /// of every page are not listed.
    pub first: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TocEntry {
    pub id: String,
    pub text: String,
    pub level: u8,
}

/// Fields every page has.
#[derive(Debug, Clone, Serialize)]
pub struct Common {
    pub path: String,
    pub sponsored: Option<SponsoredBlock>,
    pub breadcrumbs: Vec<Link>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HomeProps {
    #[serde(flatten)]
    pub common: Common,
    /// `[home] heading` and `lead` (an empty lead: no paragraph).
    pub heading: String,
    pub lead: String,
    pub titles: HomeTitles,
    /// Each section is empty when hidden (`show = false`): an empty section is not rendered.
    pub featured: Vec<Card>,
    pub top_stories: Vec<Card>,
    pub popular: Vec<Card>,
    pub more: Vec<Card>,
}

/// The home sections' headings (`[home.top_stories]`, `[home.popular]`, `[home.more]`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HomeTitles {
    pub top_stories: String,
    pub popular: String,
    pub more: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct AuthorByline {
    pub label: String,
    pub href: String,
    pub role: String,
}

/// An image as `<picture>` shows it: the fallback `src`, the intrinsic size, the pipeline's
/// renditions (the modern formats' srcsets are built from them), and what shows while it loads.
/// The `sizes` come from the slot it is shown in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
pub struct Picture {
    /// The original-format rendition (the largest up to 1280 px wide), an SVG's path, or an
    /// `https://` URL.
    pub src: String,
    /// Intrinsic, oriented (a remote image: the slot's default, 1200×675).
    pub width: u32,
    pub height: u32,
    pub alt: String,
    /// The AVIF and WebP renditions; None for an SVG and a remote image.
    pub renditions: Option<Renditions>,
    /// The dominant colour `#rrggbb`, shown behind the image while it loads.
    pub color: Option<String>,
    /// A tiny blurred preview, a `data:` URI. Left out of the JSON when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview: Option<String>,
    /// `image_focus`: the CSS `object-position` where a slot crops. Left out when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
}

impl Picture {
    /// The widest rendition a card lists. The widest card is 356 CSS px (a roomy grid on a
    /// desktop) and a one-column card on a phone about 340 px, so 960 px serves up to 2.7× and
    /// 2.8× screens; 1280 px would be used by none but 3× phones, for a sharpness nobody sees
    /// on a card, at 80 more bytes on each of a site's ~95,000 cards (docs/images.md).
    pub const CARD_MAX_WIDTH: u32 = 960;

    /// The picture as a card shows it, beside the article's title: decorative (no alt text: the
    /// title says what it is), only its colour while it loads (the blurred preview is for the
    /// large slots), and its renditions up to [`Self::CARD_MAX_WIDTH`]. A page of cards carries
    /// less, in its HTML and its page-data.
    pub fn on_card(self) -> Self {
        let renditions = self.renditions.map(|r| r.up_to(Self::CARD_MAX_WIDTH));
        Self { alt: String::new(), preview: None, renditions, ..self }
    }
}

/// An image's AVIF and WebP renditions: `{stem}-{width}.avif` and `{stem}-{width}.webp` at each
/// width. Pages carry the stem and the widths, not the URLs: a card's picture is a fifth of the
/// bytes it would be, in the HTML and in page-data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
pub struct Renditions {
    /// `/media/{key}`.
    pub stem: String,
    /// Ascending.
    pub widths: Vec<u32>,
}

impl Renditions {
    /// The `<source>`s of a picture, in order: (MIME type, srcset).
    pub const FORMATS: [(&'static str, &'static str); 2] =
        [("image/avif", "avif"), ("image/webp", "webp")];

    /// The srcset of one format (`ext` of [`Self::FORMATS`]): `"/media/k-320.avif 320w,…"`
    /// (no space after the commas: a page of cards lists thousands of candidates).
    pub fn srcset(&self, ext: &str) -> String {
        let stem = &self.stem;
        let each: Vec<String> =
            self.widths.iter().map(|w| format!("{stem}-{w}.{ext} {w}w")).collect();
        each.join(",")
    }

    /// The renditions no wider than `max`; the narrowest one when all are wider (a small
    /// source's only rendition is its own width).
    pub fn up_to(self, max: u32) -> Self {
        let keep = self.widths.iter().filter(|&&w| w <= max).count().max(1);
        let mut widths = self.widths;
        widths.truncate(keep);
        Self { widths, ..self }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct TopicPair {
    pub category: Link,
    pub subcategory: Link,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArticleProps {
    #[serde(flatten)]
    pub common: Common,
    pub title: String,
    pub description: String,
    pub date: String,
    /// `updated` from the front matter (ISO date), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
    /// A draft, shown only in a preview (`dev`, `build --drafts`); absent otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub draft: bool,
    pub author: Option<AuthorByline>,
    pub reading_minutes: u32,
    pub image: Option<Picture>,
    /// The article's recording (`audio:`), played above the body.
    pub audio: Option<Box<ArticleAudio>>,
    /// Rendered Markdown. Left out of page-data (empty there): the article's HTML holds it, and
    /// the client runtime takes it from there (`web/src/runtime/body.ts`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub body_html: String,
    pub toc: Vec<TocEntry>,
    pub related: Vec<Card>,
    pub topics: Vec<TopicPair>,
    pub tags: Vec<Link>,
    pub url: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ListingProps {
    #[serde(flatten)]
    pub common: Common,
    pub title: String,
    pub description: String,
    pub children: Vec<Link>,
    pub articles: Vec<Card>,
    pub total: usize,
    pub pagination: Pagination,
    pub cover: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthorSummary {
    pub name: String,
    pub href: String,
    pub role: String,
    pub summary: String,
    pub article_count: usize,
    pub photo: Option<Picture>,
}

#[derive(Debug, Clone, Serialize)]
pub struct AuthorsProps {
    #[serde(flatten)]
    pub common: Common,
    pub title: String,
    pub authors: Vec<AuthorSummary>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthorProps {
    #[serde(flatten)]
    pub common: Common,
    pub name: String,
    pub role: String,
    pub photo: Option<Picture>,
    pub bio_html: String,
    pub articles: Vec<Card>,
    pub total: usize,
    pub pagination: Pagination,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InfoProps {
    #[serde(flatten)]
    pub common: Common,
    pub title: String,
    pub body_html: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct SitemapSubcategory {
    pub subcategory: Link,
    pub subsubcategories: Vec<Link>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SitemapCategory {
    pub category: Link,
    pub subcategories: Vec<SitemapSubcategory>,
}

/// The articles filed first under one category (each article is listed once, under its first
/// category); `category` is `None` for articles filed under no category.
#[derive(Debug, Clone, Serialize)]
pub struct SitemapArticles {
    pub category: Option<Link>,
    pub articles: Vec<Link>,
}

/// The HTML sitemap. Page 1 has the topic tree, authors and pages; every page lists up to
/// `SITEMAP_PAGE_SIZE` articles, grouped by category (`/sitemap/page/{n}` for n ≥ 2).
#[derive(Debug, Clone, Serialize)]
pub struct SitemapProps {
    #[serde(flatten)]
    pub common: Common,
    pub title: String,
    pub categories: Vec<SitemapCategory>,
    pub authors: Vec<Link>,
    pub pages: Vec<Link>,
    pub articles: Vec<SitemapArticles>,
    pub pagination: Pagination,
}

#[derive(Debug, Clone, Serialize)]
pub struct ErrorProps {
    #[serde(flatten)]
    pub common: Common,
    pub title: String,
    /// The h1 (`[not_found] heading` on the 404 page).
    pub heading: String,
    pub description: String,
}

/// The page's own part of the document head, in page-data (`result.head`), so a client-side
/// navigation can update what the builder wrote into the HTML `<head>`. The JSON-LD blocks are
/// not in it: they are for crawlers, which read the HTML (a navigation removes the old ones).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageHead<'a> {
    pub title: &'a str,
    pub description: &'a str,
    /// Absolute URL; empty for the error pages.
    pub canonical: &'a str,
    pub og_type: &'a str,
    pub image: Option<&'a str>,
    pub published: Option<&'a str>,
    pub prev: Option<&'a str>,
    pub next: Option<&'a str>,
    pub noindex: bool,
}

/// A template's props. The variant name is the template name (`componentChunkName`).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum PageProps {
    Home(HomeProps),
    Article(ArticleProps),
    Category(ListingProps),
    Subcategory(ListingProps),
    Subsubcategory(ListingProps),
    Authors(AuthorsProps),
    Author(AuthorProps),
    Info(InfoProps),
    Sitemap(SitemapProps),
    NotFound(ErrorProps),
    ServerError(ErrorProps),
}

impl PageProps {
    /// The template name: `web/src/templates/{name}.tsx`.
    pub fn template(&self) -> &'static str {
        match self {
            Self::Home(_) => "Home",
            Self::Article(_) => "Article",
            Self::Category(_) => "Category",
            Self::Subcategory(_) => "Subcategory",
            Self::Subsubcategory(_) => "Subsubcategory",
            Self::Authors(_) => "Authors",
            Self::Author(_) => "Author",
            Self::Info(_) => "Info",
            Self::Sitemap(_) => "Sitemap",
            Self::NotFound(_) => "NotFound",
            Self::ServerError(_) => "ServerError",
        }
    }

    /// Whether the page's page-data leaves its body and head to its HTML. An article's does: the
    /// client fetches the article's HTML for them, and at 10,000 articles the body alone would be
    /// 56 MiB written twice.
    pub fn data_in_document(&self) -> bool {
        matches!(self, Self::Article(_))
    }

    /// Puts the page's rendered Markdown in its props for page-data, unless its HTML alone has it
    /// (then the field is emptied, and an empty body is not serialised).
    pub fn put_body(&mut self, body: String) {
        let in_data = !self.data_in_document();
        if let Some(slot) = self.body_mut() {
            *slot = if in_data { body } else { String::new() };
        }
    }

    /// The name, in the serialised props, of the field [`Self::body_mut`] gives.
    pub fn body_field(&self) -> Option<&'static str> {
        match self {
            Self::Article(_) | Self::Info(_) => Some("bodyHtml"),
            Self::Author(_) => Some("bioHtml"),
            _ => None,
        }
    }

    /// The field that holds the page's rendered Markdown, for the templates that have one.
    pub fn body_mut(&mut self) -> Option<&mut String> {
        match self {
            Self::Article(p) => Some(&mut p.body_html),
            Self::Author(p) => Some(&mut p.bio_html),
            Self::Info(p) => Some(&mut p.body_html),
            _ => None,
        }
    }

    pub fn common(&self) -> &Common {
        match self {
            Self::Home(p) => &p.common,
            Self::Article(p) => &p.common,
            Self::Category(p) | Self::Subcategory(p) | Self::Subsubcategory(p) => &p.common,
            Self::Authors(p) => &p.common,
            Self::Author(p) => &p.common,
            Self::Info(p) => &p.common,
            Self::Sitemap(p) => &p.common,
            Self::NotFound(p) | Self::ServerError(p) => &p.common,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ArticleCard, Card, Link, Picture, Renditions};
    use crate::protocol::props_json;

    fn photo(widths: &[u32]) -> Picture {
        Picture {
            src: "/media/k-1280.jpg".into(),
            width: 2400,
            height: 1600,
            alt: "A still lake".into(),
            renditions: Some(Renditions { stem: "/media/k".into(), widths: widths.to_vec() }),
            color: Some("#a1b2c3".into()),
            preview: Some("data:image/webp;base64,AAAA".into()),
            position: None,
        }
    }

    #[test]
    fn a_card_lists_renditions_up_to_its_widest_slot_and_no_alt_or_preview() {
        let card = photo(&[320, 640, 768, 960, 1280]).on_card();
        assert_eq!(card.renditions.as_ref().unwrap().widths, [320, 640, 768, 960]);
        assert_eq!((card.alt.as_str(), card.preview.as_deref()), ("", None));
        assert_eq!(card.color.as_deref(), Some("#a1b2c3"));
        // A source narrower than every width has one rendition, its own width: a card keeps it.
        let small = photo(&[1100]).on_card();
        assert_eq!(small.renditions.unwrap().widths, [1100]);
    }

    #[test]
    fn a_srcset_lists_each_width_and_json_leaves_out_what_is_absent() {
        let p = photo(&[320, 640]);
        let r = p.renditions.as_ref().unwrap();
        assert_eq!(r.srcset("avif"), "/media/k-320.avif 320w,/media/k-640.avif 640w");
        let json = serde_json::to_value(p.on_card()).unwrap();
        assert!(json.get("preview").is_none() && json.get("position").is_none(), "{json}");
    }

    #[test]
    fn a_card_serialises_as_the_props_it_holds_wherever_it_is_written() {
        let props = ArticleCard {
            href: "/articles/still-water".into(),
            title: "Still water \u{1F30A} \"at dawn\"".into(),
            description: "Breathing by the lake → calm".into(),
            date: "2026-05-01".into(),
            author: Some(Link::new("Ana", "/authors/ana")),
            image: Some(photo(&[320, 640]).on_card()),
            reading_minutes: 4,
            topic: None,
            audio_minutes: Some(12),
        };
        let card = Card::new(&props);
        assert_eq!(card.props().title, props.title);
        // In a page's props (ASCII JSON, as sent to the worker and written to page-data)…
        assert_eq!(props_json(&vec![card.clone()]), props_json(&vec![props.clone()]));
        assert!(props_json(&card).is_ascii());
        // …and read back by any other serialiser as the same value.
        assert_eq!(serde_json::to_value(&card).unwrap(), serde_json::to_value(&props).unwrap());
    }
}
