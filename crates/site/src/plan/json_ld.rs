//! schema.org values that several page kinds put in their JSON-LD.

use serde_json::json;

use super::{PlanContext, strip_emoji};
use crate::props::Link;

/// A schema.org BreadcrumbList: the given trail, then the current page by name.
pub fn breadcrumbs_ld(ctx: &PlanContext, trail: &[Link], current: &str) -> serde_json::Value {
    let mut items: Vec<serde_json::Value> = trail
        .iter()
        .enumerate()
        .map(|(n, l)| {
            json!({"@type": "ListItem", "position": n + 1, "name": strip_emoji(&l.label), "item": ctx.absolute(&l.href)})
        })
        .collect();
    items.push(
        json!({"@type": "ListItem", "position": trail.len() + 1, "name": strip_emoji(current)}),
    );
    json!({"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": items})
}
