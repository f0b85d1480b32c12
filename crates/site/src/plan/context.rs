//! What every planner needs: the site, its catalog, and the small derivations shared by pages
//! (hrefs, cards, breadcrumbs, the sponsored block).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use stillpoint_content::{
    Article, ArticleId, Authors, Catalog, InfoPage, Redirect, Schedule, Site, SiteAudio,
    SiteConfig, Topics,
};

use super::summary::{ArticleSummary, Held};
use crate::images::SiteImages;
use crate::props::{ArticleCard, Card, Common, Link, Picture, SponsoredBlock};
use crate::route::Route;
use crate::sponsored::{sanitize_fragment, sponsored_label};

/// Reading speed used for "N min read".
const WORDS_PER_MINUTE: u32 = 220;

/// Minutes to read so many words (at least one).
pub fn reading_minutes(words: u32) -> u32 {
    words.div_ceil(WORDS_PER_MINUTE).max(1)
}

/// Whether a build of `site` asks robots not to index its pages: one for another environment
/// than production does.
pub fn noindex(site: &Site) -> bool {
    !site.config.is_production()
}

/// What planners read. The site's articles are not among its fields: a page reads another
/// article's [`ArticleSummary`] ([`Self::summary`]), which the outline digests; only an article's
/// own page reads the whole article ([`Self::article_page`]).
pub struct PlanContext<'a> {
    site: &'a Site,
    pub config: &'a SiteConfig,
    pub topics: &'a Topics,
    pub authors: &'a Authors,
    /// The information pages (`pages/*.md`).
    pub pages: &'a [InfoPage],
    pub schedule: &'a Schedule,
    /// `static/`, when present.
    pub static_dir: Option<&'a std::path::Path>,
    /// `data/redirects.toml`, in file order (the articles' aliases are in their summaries).
    pub redirects: &'a [Redirect],
    pub catalog: &'a Catalog,
    /// The images the pages show, as the image stage read them.
    pub images: &'a SiteImages,
    /// Every page asks robots not to index it: a build for another environment than production
    /// (or any preview that must not be indexed sets it).
    pub noindex: bool,
    sponsored_label: &'static str,
    /// Sponsored fragments as sanitised, by their raw text: the same few recur on every page.
    sanitised: Mutex<HashMap<&'a str, String>>,
    /// Every article in the HTML sitemap's order, made when a sitemap page is first planned.
    sitemap_order: OnceLock<Vec<ArticleId>>,
    /// The cards made so far, by article and [`CardKey`]: each is shown on many pages.
    cards: Mutex<rustc_hash::FxHashMap<CardKey, Card>>,
    /// The plans of this context alive now, and the most that ever were at once.
    live: Arc<LivePlans>,
}

/// What a card depends on besides its article: the topic its eyebrow names (none on the
/// topic's own pages) and whether it shows its description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct CardKey {
    article: ArticleId,
    topic: Option<(usize, usize)>,
    described: bool,
}

/// The most cards a context keeps: a 10,000-article site shows about 20,000 kinds of card; a
/// larger one keeps the latest so many (emptied when full), so memory stays bounded however
/// large the site.
const CARDS_KEPT: usize = 32_768;

/// Counts the plans alive at once: a build plans, renders and writes its pages a batch at a
/// time (planning the next while one renders), so however large the site, this stays within two
/// batches (see `build::pages`).
#[derive(Debug, Default)]
pub struct LivePlans {
    now: AtomicUsize,
    peak: AtomicUsize,
}

/// Held by every `PagePlan`: one alive plan in its context's count.
#[derive(Debug)]
pub struct Live(Arc<LivePlans>);

impl Live {
    fn new(count: &Arc<LivePlans>) -> Self {
        let now = count.now.fetch_add(1, Ordering::Relaxed) + 1;
        count.peak.fetch_max(now, Ordering::Relaxed);
        Self(Arc::clone(count))
    }
}

impl Clone for Live {
    fn clone(&self) -> Self {
        Self::new(&self.0)
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.0.now.fetch_sub(1, Ordering::Relaxed);
    }
}

impl<'a> PlanContext<'a> {
    pub fn new(site: &'a Site, catalog: &'a Catalog) -> Self {
        Self {
            site,
            config: &site.config,
            topics: &site.topics,
            authors: &site.authors,
            pages: &site.pages,
            schedule: &site.schedule,
            static_dir: site.static_dir.as_deref(),
            redirects: &site.redirects,
            catalog,
            images: SiteImages::none(),
            noindex: noindex(site),
            sponsored_label: sponsored_label(&site.config.id),
            sanitised: Mutex::new(HashMap::new()),
            sitemap_order: OnceLock::new(),
            cards: Mutex::default(),
            live: Arc::default(),
        }
    }

    /// With the images the image stage read.
    pub fn with_images(mut self, images: &'a SiteImages) -> Self {
        self.images = images;
        self
    }

    /// Counts one more plan alive, for as long as the token is.
    pub fn live(&self) -> Live {
        Live::new(&self.live)
    }

    /// The most plans of this context that were alive at once.
    pub fn peak_plans(&self) -> usize {
        self.live.peak.load(Ordering::Relaxed)
    }

    /// The first category article `i` is filed under.
    pub fn first_category(&self, i: ArticleId) -> Option<usize> {
        self.catalog.topics_of(i).first().map(|&(ci, _)| ci)
    }

    /// Every article once, in the HTML sitemap's order: categories in topic order, newest first
    /// within each; articles filed under no category last.
    pub fn sitemap_order(&self) -> &[ArticleId] {
        self.sitemap_order.get_or_init(|| {
            let mut listed = self.catalog.newest.clone();
            // Stable: newest first stays within a category; `None` sorts after every category.
            listed.sort_by_key(|&i| self.first_category(i).unwrap_or(usize::MAX));
            listed
        })
    }

    pub fn brand(&self) -> &str {
        &self.config.title
    }

    /// `{title} | {brand}`.
    pub fn title(&self, title: &str) -> String {
        format!("{title} | {}", self.brand())
    }

    pub fn absolute(&self, path: &str) -> String {
        if path == "/" {
            format!("{}/", self.config.url)
        } else {
            format!("{}{path}", self.config.url)
        }
    }

    /// The absolute URL of an image (`og:image`): a path on the site after the site's origin, an
    /// absolute `https://` URL as it is.
    pub fn image_url(&self, src: &str) -> String {
        image_url(&self.config.url, src)
    }

    /// The absolute share URL (`og:image`, JSON-LD) of the image `value` written in `from`: the
    /// image stage's share rendition, or, when the images were not read, the reference
    /// resolved (a file under `static/` at its path).
    pub fn share_image(&self, from: &std::path::Path, value: &str) -> Option<String> {
        self.share_image_of(&stillpoint_content::resolve_media_ref(from, value).ok()?)
    }

    /// [`Self::share_image`] of a reference already resolved (an article's cover).
    pub fn share_image_of(&self, target: &stillpoint_content::MediaRef) -> Option<String> {
        if let Some(url) = self.images.share_url_of(target) {
            return Some(self.image_url(url));
        }
        match target {
            stillpoint_content::MediaRef::Remote(url) => Some(url.clone()),
            r => r.static_path().map(|p| self.image_url(&format!("/{p}"))),
        }
    }

    /// Article `i`'s cover as a picture, with its alt text (`image_alt`, else "Cover
    /// illustration for {first category}") and focal point.
    pub fn cover(&self, i: ArticleId) -> Option<Picture> {
        let a = self.summary(i).shown;
        let target = a.image_target?;
        let alt = a.image_alt.map(str::to_string).unwrap_or_else(|| {
            let name = match self.catalog.topics_of(i).first() {
                Some(&(ci, _)) => strip_emoji(&self.topics.categories[ci].topic.title),
                None => a.title.to_string(),
            };
            format!("Cover illustration for {name}")
        });
        self.images.picture_of(target, alt, a.image_focus.map(str::to_string))
    }

    /// Article `i`'s cover on a card: beside the title, so without alt text ([`Picture::on_card`]).
    fn card_cover(&self, i: ArticleId) -> Option<Picture> {
        let a = self.summary(i).shown;
        let focus = a.image_focus.map(str::to_string);
        self.images.picture_of(a.image_target?, String::new(), focus).map(Picture::on_card)
    }

    /// The pictures of a body's images (`images`, written in `from`), by URL as written.
    pub fn body_images(
        &self,
        from: &std::path::Path,
        images: &[stillpoint_content::Located<String>],
    ) -> Vec<(String, Picture)> {
        let mut out: Vec<(String, Picture)> = Vec::new();
        for at in images {
            if out.iter().any(|(u, _)| *u == at.value) {
                continue;
            }
            if let Some(p) = self.images.picture(from, &at.value, String::new(), None) {
                out.push((at.value.clone(), p));
            }
        }
        out
    }

    /// Author `ai`'s photo, with its alt text (`photo_alt`, else the name).
    pub fn author_photo(&self, ai: usize) -> Option<Picture> {
        let au = &self.authors.list[ai];
        let photo = au.photo.as_ref()?;
        let alt = au.photo_alt.clone().unwrap_or_else(|| au.name.clone());
        let file = std::path::Path::new(stillpoint_content::AUTHORS_FILE);
        self.images.picture(file, &photo.value, alt, None)
    }

    pub fn category_href(&self, ci: usize) -> Route {
        Route::category(&self.topics.categories[ci].topic.slug)
    }

    pub fn subcategory_href(&self, ci: usize, si: usize) -> Route {
        let c = &self.topics.categories[ci];
        Route::subcategory(&c.topic.slug, &c.children[si].slug)
    }

    pub fn subsubcategory_href(&self, ci: usize, si: usize, slug: &str) -> Route {
        let c = &self.topics.categories[ci];
        Route::subsubcategory(&c.topic.slug, &c.children[si].slug, slug)
    }

    pub fn author_href(&self, ai: usize) -> Route {
        Route::author(&self.authors.list[ai].slug)
    }

    pub fn category_link(&self, ci: usize) -> Link {
        Link::new(self.topics.categories[ci].topic.title.clone(), self.category_href(ci))
    }

    pub fn subcategory_link(&self, ci: usize, si: usize) -> Link {
        Link::new(
            self.topics.categories[ci].children[si].title.clone(),
            self.subcategory_href(ci, si),
        )
    }

    pub fn home_link(&self) -> Link {
        Link::new("Home", Route::home())
    }

    /// What a page may show of article `i`, noted as shown by the page being planned.
    pub fn summary(&self, i: ArticleId) -> ArticleSummary<'a> {
        Shows::note(i);
        ArticleSummary::of(self.site.article(i))
    }

    /// Every article's summary, in order, noted as shown by none (for site-wide files, and for
    /// pages that decide by all of them: the home page's "Popular" is noted by what it picks).
    pub fn summaries(&self) -> impl ExactSizeIterator<Item = ArticleSummary<'a>> + 'a {
        self.site.articles.iter().map(|a| ArticleSummary::of(a))
    }

    /// How many articles the site publishes.
    pub fn article_count(&self) -> usize {
        self.site.articles.len()
    }

    /// Article `i`'s own page: the one planner handed the whole article (plan/article.rs). No
    /// other planner can reach it: the page of another article or of a listing reads the
    /// article's [`Self::summary`].
    pub(super) fn article_page(&self, i: ArticleId) -> super::PagePlan<'a> {
        Shows::note(i);
        super::article::article(self, i, self.site.article(i))
    }

    /// Article `i` held for its identity alone ([`Held`]).
    pub fn held(&self, i: ArticleId) -> Held {
        Held::new(self.site.article(i))
    }

    /// The Markdown of article `i`'s body, read from its file ([`Site::read_body`]).
    pub fn read_body(&self, i: ArticleId) -> Result<String, stillpoint_content::ContentError> {
        self.site.read_body(i.index())
    }

    /// The recording at a site-relative path (an article's `audio:`).
    pub fn audio(&self, path: Option<&std::path::Path>) -> Option<&'a SiteAudio> {
        self.site.audio.get(path?)
    }

    /// The files the embeds of article `a`'s body show (for its own page).
    pub(super) fn embed_files(&self, a: &Article) -> crate::render::EmbedFiles {
        crate::render::EmbedFiles::of(self.site, a, self.images)
    }

    /// The posters of the site's embeds, by site-relative path.
    pub fn posters(&self) -> &'a std::collections::BTreeMap<std::path::PathBuf, String> {
        &self.site.posters
    }

    /// The index of the author named `name`.
    pub fn author_index(&self, name: Option<&str>) -> Option<usize> {
        self.authors.index_of(name?)
    }

    /// Article `i`'s card. Its topic eyebrow names its first category → subcategory, unless that is
    /// `here`: the subcategory the page itself is about, which the page already names. Without its
    /// description unless `described` (a related list shows titles only).
    pub fn card(&self, i: ArticleId, here: Option<(usize, usize)>, described: bool) -> Card {
        let topic = self.catalog.topics_of(i).first().copied().filter(|&p| Some(p) != here);
        let key = CardKey { article: i, topic, described };
        if let Some(card) = self.cards.lock().expect("cards lock").get(&key) {
            Shows::note(i);
            return card.clone();
        }
        let card = Card::new(&self.make_card(i, topic, described));
        let mut cards = self.cards.lock().expect("cards lock");
        if cards.len() >= CARDS_KEPT {
            cards.clear();
        }
        cards.insert(key, card.clone());
        card
    }

    fn make_card(
        &self,
        i: ArticleId,
        topic: Option<(usize, usize)>,
        described: bool,
    ) -> ArticleCard {
        let ArticleSummary { placement, shown } = self.summary(i);
        let topic = topic.map(|(ci, si)| {
            let c = &self.topics.categories[ci];
            Link::new(
                format!("{} → {}", strip_emoji(&c.topic.title), strip_emoji(&c.children[si].title)),
                self.subcategory_href(ci, si),
            )
        });
        ArticleCard {
            href: Route::article(placement.slug).into(),
            title: shown.title.to_string(),
            description: if described { shown.description.to_string() } else { String::new() },
            date: placement.date.to_string(),
            author: self
                .author_index(placement.author)
                .map(|ai| Link::new(self.authors.list[ai].name.clone(), self.author_href(ai))),
            image: self.card_cover(i),
            reading_minutes: shown.minutes,
            topic,
            audio_minutes: self.audio(shown.audio).map(|r| r.minutes()),
        }
    }

    /// The cards of `list`, for a page about the subcategory `here` (if any): see `card`.
    pub fn cards(&self, list: &[ArticleId], here: Option<(usize, usize)>) -> Vec<Card> {
        list.iter().map(|&i| self.card(i, here, true)).collect()
    }

    pub fn common(&self, path: &str, breadcrumbs: Vec<Link>) -> Common {
        Common { path: path.to_string(), sponsored: self.sponsored(path), breadcrumbs }
    }

    /// The sanitised sponsored block of a page, or None when nothing survives sanitising.
    fn sponsored(&self, path: &str) -> Option<SponsoredBlock> {
        let items: Vec<String> = self
            .site
            .sponsored
            .for_path(path)
            .into_iter()
            .map(|raw| {
                let mut memo = self.sanitised.lock().expect("sanitised lock");
                memo.entry(raw).or_insert_with(|| sanitize_fragment(raw)).clone()
            })
            .filter(|s| !s.trim().is_empty())
            .collect();
        (!items.is_empty())
            .then(|| SponsoredBlock { label: self.sponsored_label.to_string(), items })
    }
}

thread_local! {
    /// The articles the page being planned on this thread has read, while one is (see [`Shows`]).
    static SHOWN: std::cell::RefCell<Option<Vec<ArticleId>>> = const { std::cell::RefCell::new(None) };
}

/// Records which articles a page shows while it is planned: every planner reads an article
/// through [`PlanContext::article`], which notes it on the planning thread. Planning a page
/// uses that thread alone (a planner starts no parallel work), so the notes are the page's.
pub(super) struct Shows(());

impl Shows {
    /// Starts recording on this thread.
    pub(super) fn record() -> Self {
        SHOWN.with_borrow_mut(|s| *s = Some(Vec::new()));
        Self(())
    }

    fn note(i: ArticleId) {
        SHOWN.with_borrow_mut(|s| {
            if let Some(shown) = s {
                shown.push(i);
            }
        });
    }

    /// Stops recording; the articles read, ascending, each once.
    pub(super) fn finish(self) -> Vec<ArticleId> {
        let mut shown = SHOWN.with_borrow_mut(Option::take).unwrap_or_default();
        shown.sort_unstable();
        shown.dedup();
        shown
    }
}

/// A title without its leading emoji, for places where the emoji would be noise (card eyebrows,
/// JSON-LD names).
pub fn strip_emoji(title: &str) -> String {
    title
        .trim_start_matches(|c: char| !c.is_alphanumeric() && !c.is_ascii_punctuation())
        .trim()
        .to_string()
}

/// [`PlanContext::image_url`] for the site at `origin` (`https://example.com`, no trailing `/`).
fn image_url(origin: &str, src: &str) -> String {
    let lower = src.get(..8).unwrap_or(src).to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        src.to_string()
    } else if src.starts_with('/') {
        format!("{origin}{src}")
    } else {
        format!("{origin}/{src}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_urls_are_absolute() {
        let o = "https://s.example";
        assert_eq!(image_url(o, "/images/a.png"), "https://s.example/images/a.png");
        assert_eq!(image_url(o, "https://cdn.example/a.png"), "https://cdn.example/a.png");
        assert_eq!(image_url(o, "HTTP://cdn.example/a.png"), "HTTP://cdn.example/a.png");
        assert_eq!(image_url(o, "media/a.png"), "https://s.example/media/a.png");
    }

    #[test]
    fn strips_leading_emoji() {
        assert_eq!(strip_emoji("😴 Sleep Enhancement"), "Sleep Enhancement");
        assert_eq!(strip_emoji("🛠️ Techniques"), "Techniques");
        assert_eq!(strip_emoji("Plain"), "Plain");
        assert_eq!(strip_emoji("4-7-8 Breathing"), "4-7-8 Breathing");
    }

    #[test]
    fn a_card_is_made_once_yet_every_page_showing_it_notes_its_article() {
        let site = crate::test_site::demo();
        let catalog = stillpoint_content::build_catalog(&site);
        let ctx = PlanContext::new(&site, &catalog);
        let first = super::super::plan(&ctx, super::super::PageRef::Home);
        let again = super::super::plan(&ctx, super::super::PageRef::Home);
        assert!(!first.shows.is_empty());
        assert_eq!(again.shows, first.shows, "a kept card still notes what the page shows");

        let i = ArticleId::new(0);
        let &(ci, si) = catalog.topics_of(i).first().expect("a topic");
        let listed = ctx.card(i, None, true).props();
        assert!(!listed.description.is_empty() && listed.topic.is_some());
        let related = ctx.card(i, Some((ci, si)), false).props();
        assert!(related.description.is_empty() && related.topic.is_none());
        assert_eq!(ctx.card(i, None, true).props().description, listed.description);
        let kinds = ctx.cards.lock().unwrap().keys().filter(|k| k.article == i).count();
        assert!(kinds >= 2, "each kind of card is kept apart");
    }
}
