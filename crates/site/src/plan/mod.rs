//! Planning: one `PagePlan` per route of DESIGN.md, with its head and its props.
//! Knows nothing of HTML beyond the data it hands the renderer.

mod article;
mod context;
mod fixed;
mod listing;

use rayon::prelude::*;
use serde_json::Value;
use stillpoint_content::{Catalog, Site};

pub use context::{PlanContext, reading_minutes, strip_emoji};

use crate::layout;
use crate::props::PageProps;
use crate::render::{Markdown, render_markdown};
use crate::route::Route;

/// Articles per listing page.
pub const PAGE_SIZE: usize = 24;

/// The spec's exact 404 description.
pub const NOT_FOUND_DESCRIPTION: &str = "Oops! The page you're looking for doesn't exist. But don't worry, let's get you back to a calm state of mind.";

/// One page to render.
#[derive(Debug, Clone)]
pub struct PagePlan<'a> {
    /// The route: `/`, `/articles/x`, `/{category}/page/2`; `/404` and `/500` for the error pages.
    pub path: Route,
    pub head: Head,
    pub props: PageProps,
    /// Markdown the render stage turns into the props' `bodyHtml` / `bioHtml` (and the ToC).
    pub markdown: Option<Markdown<'a>>,
    /// For an article's page, the digest of the article's file.
    pub source: Option<&'a str>,
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

    /// The props with the Markdown rendered: `marker` stands in the body field, and the body's
    /// HTML is returned beside them (None when the page has no Markdown body).
    pub fn rendered_props(&self, marker: &str) -> (PageProps, Option<String>) {
        let mut props = self.props.clone();
        let Some(md) = self.markdown else { return (props, None) };
        let rendered = render_markdown(md);
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
    pub json_ld: Vec<Value>,
    pub noindex: bool,
}

/// Plans every page of the site, in a stable order.
pub fn plan_pages<'a>(site: &'a Site, catalog: &'a Catalog) -> Vec<PagePlan<'a>> {
    let ctx = PlanContext::new(site, catalog);
    let mut pages = Vec::with_capacity(site.articles.len() * 2 + 64);
    pages.push(fixed::home(&ctx));
    pages.push(fixed::authors(&ctx));
    pages.extend(site.pages.iter().map(|p| fixed::info(&ctx, p)));
    pages.extend(fixed::sitemap(&ctx));
    pages.push(fixed::error_page(&ctx, false));
    pages.push(fixed::error_page(&ctx, true));
    listing::topics(&ctx, &mut pages);
    listing::authors(&ctx, &mut pages);
    // Article pages are most of a site and independent of each other: planned in parallel.
    let articles: Vec<PagePlan> =
        (0..site.articles.len()).into_par_iter().map(|i| article::article(&ctx, i)).collect();
    pages.extend(articles);
    tracing::debug!(pages = pages.len(), "planned");
    pages
}

/// Plans the pages of the articles `pick` selects (by index), in parallel, in index order.
pub fn plan_articles<'a>(
    ctx: &PlanContext<'a>,
    pick: impl Fn(usize) -> bool + Sync,
) -> Vec<PagePlan<'a>> {
    (0..ctx.site.articles.len())
        .into_par_iter()
        .filter(|&i| pick(i))
        .map(|i| article::article(ctx, i))
        .collect()
}
