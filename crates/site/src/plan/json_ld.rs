//! schema.org values that several page kinds put in their JSON-LD, kept as the JSON they are
//! written as: each is serialised once, when it is planned, for the page key and the document.

use serde::Serialize;
use serde_json::value::RawValue;

use super::{PlanContext, strip_emoji};
use crate::props::Link;

/// A page's JSON-LD block: its JSON, serialised once.
pub type JsonLd = Box<RawValue>;

/// `value` as a JSON-LD block. Its keys are written in the order of its fields: the typed
/// blocks below declare theirs in alphabetical order, the order a `serde_json::Value` writes.
pub fn json_ld(value: &impl Serialize) -> JsonLd {
    serde_json::value::to_raw_value(value).expect("JSON-LD serialises")
}

/// A schema.org `ListItem` of a breadcrumb trail (keys in alphabetical order).
#[derive(Serialize)]
struct ListItem {
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    item: Option<String>,
    name: String,
    position: usize,
}

/// A schema.org BreadcrumbList (keys in alphabetical order).
#[derive(Serialize)]
struct BreadcrumbList {
    #[serde(rename = "@context")]
    context: &'static str,
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(rename = "itemListElement")]
    items: Vec<ListItem>,
}

/// A schema.org BreadcrumbList: the given trail, then the current page by name.
pub fn breadcrumbs_ld(ctx: &PlanContext, trail: &[Link], current: &str) -> JsonLd {
    let item = |position, name, item| ListItem { kind: "ListItem", item, name, position };
    let mut items: Vec<ListItem> = trail
        .iter()
        .enumerate()
        .map(|(n, l)| item(n + 1, strip_emoji(&l.label), Some(ctx.absolute(&l.href))))
        .collect();
    items.push(item(trail.len() + 1, strip_emoji(current), None));
    json_ld(&BreadcrumbList { context: "https://schema.org", kind: "BreadcrumbList", items })
}
