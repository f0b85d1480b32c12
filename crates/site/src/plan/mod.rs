//! Planning: one `PagePlan` per route of DESIGN.md, with its head and its props.
//! Knows nothing of HTML beyond the data it hands the renderer.

mod article;
mod context;
mod fixed;
mod json_ld;
mod listing;
mod navigation;
mod summary;

use rayon::prelude::*;
use stillpoint_content::{ArticleId, Catalog, ContentError, Diagnostics, Site};
use stillpoint_fingerprint::Digest;

use context::Shows;
pub use context::{Live, PlanContext, noindex, reading_minutes, strip_emoji};
pub use json_ld::JsonLd;
pub use listing::Topic;
pub use summary::{ArticleSummary, Held};

use crate::layout;
use crate::props::PageProps;
use crate::render::{Markdown, render_markdown};
use crate::route::Route;

/// Articles per listing page.
pub const PAGE_SIZE: usize = 24;

/// The spec's exact 404 description (the default `[not_found] text`).
pub const NOT_FOUND_DESCRIPTION: &str = stillpoint_content::NOT_FOUND_TEXT;

/// One page to render.
#[derive(Debug, Clone)]
pub struct PagePlan<'a> {
    /// The route: `/`, `/articles/x`, `/{category}/page/2`; `/404` and `/500` for the error pages.
    pub path: Route,
    pub head: Head,
    pub props: PageProps,
    /// Markdown the render stage turns into the props' `bodyHtml` / `bioHtml` (and the ToC).
    pub markdown: Option<Markdown<'a>>,
    /// For an article's page, the digest of the article's file (and of its images).
    pub source: Option<Digest>,
    /// For an article's page until its body is read ([`PagePlan::read_body`]): the article whose
    /// Markdown the page shows. A page is planned and keyed without its body (the key holds
    /// the file's digest, `source`); only a page that must be rendered reads it.
    pub body_of: Option<ArticleId>,
    /// This plan in its context's count of plans alive ([`PlanContext::peak_plans`]).
    pub live: Live,
    /// The articles the page shows (its own included), ascending: those its planner read
    /// through [`PlanContext::summary`]. Filled by [`plan`].
    pub shows: Vec<ArticleId>,
}

impl PagePlan<'_> {
    /// Where the HTML goes, relative to the output root.
    pub fn html_file(&self) -> String {
        layout::html_file(&self.path)
    }

    /// Where the page-data goes, relative to the output root.
    pub fn page_data_file(&self) -> String {
        layout::page_data_file(&self.path)
    }

    /// Reads the body of an article's page from its file (nothing for other pages, or when it
    /// was read). Fails when the file is no longer the one loaded.
    pub fn read_body(&mut self, ctx: &PlanContext) -> Result<(), ContentError> {
        if let (Some(i), Some(md)) = (self.body_of, &mut self.markdown) {
            md.text = ctx.read_body(i)?.into();
            self.body_of = None;
        }
        Ok(())
    }

    /// The props with the Markdown rendered: `marker` stands in the body field, and the body's
    /// HTML is returned beside them (None when the page has no Markdown body).
    pub fn rendered_props(&self, marker: &str) -> (PageProps, Option<String>) {
        debug_assert!(self.body_of.is_none(), "{}: rendered before its body was read", self.path);
        let mut props = self.props.clone();
        let Some(md) = &self.markdown else { return (props, None) };
        let rendered = render_markdown(md.borrowed());
        if let PageProps::Article(p) = &mut props {
            p.toc = rendered.toc;
        }
        match props.body_mut() {
            Some(slot) => {
                *slot = marker.to_string();
                (props, Some(rendered.html))
            }
            None => (props, None),
        }
    }

    /// Error pages are not in sitemap.xml and ask robots not to index them.
    pub fn is_error_page(&self) -> bool {
        matches!(self.props, PageProps::NotFound(_) | PageProps::ServerError(_))
    }
}

/// The `<head>` of a page, as data.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Head {
    /// Full title, ending with ` | {brand}`.
    pub title: String,
    pub description: String,
    /// Absolute URL.
    pub canonical: String,
    /// `website`, `article` or `profile`.
    pub og_type: &'static str,
    /// Absolute image URL for OpenGraph.
    pub image: Option<String>,
    /// ISO date, for articles.
    pub published: Option<String>,
    pub prev: Option<String>,
    pub next: Option<String>,
    /// Its JSON-LD blocks, each serialised once, when it is planned (`plan/json_ld.rs`).
    pub json_ld: Vec<JsonLd>,
    pub noindex: bool,
}

/// A page of the site, named but not planned: a few words, so a build can hold one for every
/// page while it plans, renders and writes the pages a batch at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageRef {
    Home,
    Authors,
    /// An information page, by its index in `Site::pages`.
    Info(usize),
    /// Page n (from 1) of the HTML sitemap.
    Sitemap(usize),
    NotFound,
    ServerError,
    /// Listing page n of a topic.
    Topic(Topic, usize),
    /// Listing page n of an author, by the author's index.
    Author(usize, usize),
    /// An article's page.
    Article(ArticleId),
}

/// A page of the site and its route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitePage {
    pub path: Route,
    pub page: PageRef,
}

impl SitePage {
    /// Error pages are not in sitemap.xml, and no link may point at them.
    pub fn is_error_page(&self) -> bool {
        matches!(self.page, PageRef::NotFound | PageRef::ServerError)
    }

    /// The article whose page this is.
    pub fn article(&self) -> Option<ArticleId> {
        match self.page {
            PageRef::Article(i) => Some(i),
            _ => None,
        }
    }
}

/// Every page of the site, in a stable order: home, authors, information pages, sitemap pages,
/// the error pages, topic listings, author listings, then the articles.
pub fn site_pages(ctx: &PlanContext) -> Vec<SitePage> {
    let count = ctx.article_count();
    let mut pages = Vec::with_capacity(count + count / 4 + 64);
    let mut push = |path: Route, page| pages.push(SitePage { path, page });
    push(Route::home(), PageRef::Home);
    push(Route::authors(), PageRef::Authors);
    for (i, p) in ctx.pages.iter().enumerate() {
        push(Route::info(&p.route), PageRef::Info(i));
    }
    for n in 1..=fixed::sitemap_count(ctx) {
        push(Route::sitemap().page(n), PageRef::Sitemap(n));
    }
    push(Route::not_found(), PageRef::NotFound);
    push(Route::server_error(), PageRef::ServerError);
    for (topic, count) in listing::topics(ctx) {
        let base = listing::topic_route(ctx, topic);
        for n in 1..=count {
            push(base.page(n), PageRef::Topic(topic, n));
        }
    }
    for ai in 0..ctx.authors.list.len() {
        let base = ctx.author_href(ai);
        for n in 1..=listing::author_page_count(ctx, ai) {
            push(base.page(n), PageRef::Author(ai, n));
        }
    }
    for (i, a) in ctx.summaries().enumerate() {
        push(Route::article(a.placement.slug), PageRef::Article(ArticleId::new(i)));
    }
    pages
}

/// Plans one page. An article's page is planned without its body ([`PagePlan::read_body`]).
pub fn plan<'a>(ctx: &PlanContext<'a>, page: PageRef) -> PagePlan<'a> {
    let shows = Shows::record();
    let mut plan = plan_unrecorded(ctx, page);
    plan.shows = shows.finish();
    plan
}

fn plan_unrecorded<'a>(ctx: &PlanContext<'a>, page: PageRef) -> PagePlan<'a> {
    let mut plan = match page {
        PageRef::Home => fixed::home(ctx),
        PageRef::Authors => fixed::authors(ctx),
        PageRef::Info(i) => fixed::info(ctx, &ctx.pages[i]),
        PageRef::Sitemap(n) => fixed::sitemap(ctx, n),
        PageRef::NotFound => fixed::error_page(ctx, false),
        PageRef::ServerError => fixed::error_page(ctx, true),
        PageRef::Topic(topic, n) => listing::topic_page(ctx, topic, n),
        PageRef::Author(ai, n) => listing::author_page(ctx, ai, n),
        PageRef::Article(i) => ctx.article_page(i),
    };
    // Another environment than production, or a preview with drafts (`build --drafts`, `dev`):
    // not for search engines.
    plan.head.noindex |= ctx.noindex || ctx.schedule.preview;
    plan
}

/// Plans the pages `pages` names, in parallel, in their order, without articles' bodies.
pub fn plan_batch<'a>(ctx: &PlanContext<'a>, pages: &[SitePage]) -> Vec<PagePlan<'a>> {
    pages.par_iter().map(|p| plan(ctx, p.page)).collect()
}

/// Reads the bodies of the plans `which` (ascending indices) picks, in parallel ([`PagePlan::read_body`]); every
/// file that cannot be read is reported.
pub fn read_bodies<'a>(
    plans: &mut [PagePlan<'a>],
    which: &[usize],
    ctx: &PlanContext,
) -> Result<(), Diagnostics> {
    let picked: Vec<&mut PagePlan<'a>> = plans
        .iter_mut()
        .enumerate()
        .filter(|(i, _)| which.binary_search(i).is_ok())
        .map(|(_, plan)| plan)
        .collect();
    let errors: Vec<ContentError> =
        picked.into_par_iter().filter_map(|p| p.read_body(ctx).err()).collect();
    Diagnostics(errors).into_result()
}

/// Plans the pages `pages` names with every article's body read: for tests and samples.
pub fn plan_with_bodies<'a>(
    ctx: &PlanContext<'a>,
    pages: &[SitePage],
) -> Result<Vec<PagePlan<'a>>, Diagnostics> {
    let mut plans = plan_batch(ctx, pages);
    let all: Vec<usize> = (0..plans.len()).collect();
    read_bodies(&mut plans, &all, ctx)?;
    Ok(plans)
}

/// Plans every page of the site at once, in [`site_pages`] order: for tests and samples of small
/// sites (a build plans a batch at a time).
pub fn plan_pages<'a>(site: &'a Site, catalog: &'a Catalog) -> Vec<PagePlan<'a>> {
    plan_pages_with(site, catalog, crate::images::SiteImages::none())
}

/// [`plan_pages`] with the images the image stage read.
pub fn plan_pages_with<'a>(
    site: &'a Site,
    catalog: &'a Catalog,
    images: &'a crate::images::SiteImages,
) -> Vec<PagePlan<'a>> {
    let ctx = PlanContext::new(site, catalog).with_images(images);
    let pages = site_pages(&ctx);
    plan_with_bodies(&ctx, &pages).expect("every article's body reads")
}
