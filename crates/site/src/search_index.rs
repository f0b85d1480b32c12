//! The title search index the browser loads lazily on first focus of the search box.

use serde_json::json;
use stillpoint_content::{Catalog, Site};

use crate::plan::PlanContext;

/// The index as JSON: `{"docs": [[title, slug, [[categoryLabel, categoryHref, subLabel, subHref], …]], …]}`,
/// newest first (the order results are shown in).
pub fn search_index_json(ctx: &PlanContext, site: &Site, catalog: &Catalog) -> String {
    let docs: Vec<serde_json::Value> = catalog
        .newest
        .iter()
        .map(|&i| {
            let a = &site.articles[i];
            let groups: Vec<serde_json::Value> = catalog.placements[i]
                .iter()
                .map(|&(ci, si)| {
                    let c = ctx.category_link(ci);
                    let s = ctx.subcategory_link(ci, si);
                    json!([c.label, c.href, s.label, s.href])
                })
                .collect();
            json!([a.title, a.slug, groups])
        })
        .collect();
    serde_json::to_string(&json!({ "docs": docs })).expect("JSON values serialise")
}
