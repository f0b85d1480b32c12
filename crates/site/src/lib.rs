//! From a loaded site to the static output: plan every page, render Markdown in Rust and
//! templates through React SSR workers, and emit the site into place atomically.
//!
//! Stages, each a module: `plan` (pages, heads and props; no HTML), `render` (Markdown and the
//! document shell), `ssr` (the Node worker pool), `emit` (staging and atomic swap), plus the
//! generated files: `feeds` (sitemap.xml, robots.txt, RSS, Atom) and `search_index`, and `client`
//! (what the browser runtime reads: page heads as data, the service worker, third-party scripts).
//! Shared by all of them: `route` (a page's route, spelled in one place), `layout` (the path of
//! every emitted file) and `protocol` (the JSON envelopes of page-data and of the render workers,
//! sampled for the web tests in `web/src/protocol.samples.json`).

mod build;
mod build_info;
mod cache;
mod client;
mod csp;
mod csp_check;
mod emit;
mod error;
mod feeds;
mod images;
mod layout;
mod links;
mod page_routes;
mod plan;
mod props;
mod protocol;
mod redirects;
mod render;
mod reserved;
mod search_index;
mod shard;
mod site_data;
mod sponsored;
mod ssr;
#[cfg(test)]
mod test_site;
mod theme_css;

/// Routes are the output contract's ([`stillpoint_dist::route`]).
use stillpoint_dist::route;

pub use build::{
    BATCH, BuildOptions, BuildReport, CheckReport, Difference, Progress, Renamed, Session, Shard,
    Silent, build, build_in, check, default_cache_dir, default_image_cache_dir, verify,
};
pub use build_info::{BuildInfo, BuiltSite};
pub use cache::engine_id;
pub use csp::{Csp, SiteUses, meta_of as meta_csp};
pub use csp_check::policy_warnings;
pub use emit::{EmitStats, generations_dir};
pub use error::BuildError;
pub use layout::{is_top_level, top_level};
pub use plan::{Head, NOT_FOUND_DESCRIPTION, PAGE_SIZE, PagePlan, plan_pages};
pub use props::*;
pub use render::{
    EmbedFiles, Markdown, RawHtml, Rendered, embed_html, poster_html, render_markdown,
};
pub use route::Route;
pub use sponsored::{LABELS as SPONSORED_LABELS, sanitize_fragment, sponsored_label};

/// The title search index on its own, for benchmarks at sizes no test builds
/// (`examples/search_index.rs`, `make bench-search`).
pub mod search {
    pub use crate::search_index::{Doc, Group, Layout, SearchIndex, build_index};
}
pub use ssr::{MIN_NODE_MAJOR, RenderFailure};
