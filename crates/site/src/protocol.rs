//! The JSON envelopes that leave the builder: page-data, slice data and app-data for the
//! browser, and the requests and answers of the Node render workers. The TypeScript side is
//! `web/src/protocol.ts`; `tests::the_web_samples_are_current` writes one sample of each to
//! `web/src/protocol.samples.json`, which the web tests parse with the runtime's own readers.
//!
//! JSON that is already serialised (page props with their body spliced in, the site data) rides
//! inside an envelope as `Preserialized`: written as it is, never parsed again.

use serde::{Deserialize, Serialize, Serializer};

use crate::props::PageHead;
use crate::route::Route;

/// `page-data/{route}/page-data.json`, in the Gatsby-compatible shape.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageData<'a, C> {
    /// The template name.
    pub component_chunk_name: &'a str,
    pub path: &'a Route,
    /// Always null: every page has its own file.
    pub match_path: Option<&'a str>,
    pub result: PageResult<'a, C>,
    /// The site data's hash (`page-data/sq/d/{hash}.json`).
    pub static_query_hashes: [&'a str; 1],
    pub slices_map: SlicesMap,
    pub webpack_compilation_hash: &'a str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageResult<'a, C> {
    /// The template's props.
    pub page_context: C,
    /// Left out of an article's page-data: the client reads it from the article's HTML, which
    /// it fetches for the body anyway (`web/src/runtime/document.ts`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<PageHead<'a>>,
}

/// The slices every page uses, by slot: `slice-data/{name}.json`.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SlicesMap {
    pub header: &'static str,
    pub footer: &'static str,
}

/// The slices, as (name, template).
pub const SLICES: [(&str, &str); 2] = [("header", "Header"), ("footer", "Footer")];

impl SlicesMap {
    pub const ALL: Self = Self { header: SLICES[0].0, footer: SLICES[1].0 };
}

/// `slice-data/{name}.json`: a slice's template and props (the site data).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SliceData<'a, C> {
    pub component_chunk_name: &'a str,
    pub result: SliceResult<C>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SliceResult<C> {
    pub slice_context: C,
}

/// `page-data/app-data.json`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppData<'a> {
    pub webpack_compilation_hash: &'a str,
}

/// Builder → worker: one per line on the worker's stdin.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum WorkerRequest<'a, P, S> {
    Render { id: u64, template: &'a str, props: P },
    Slices { id: u64, site: S },
}

/// Worker → builder: one per line on the worker's stdout (`ready` once, before any request).
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum WorkerResponse {
    Ready,
    Rendered { id: u64, html: String },
    Slices { id: u64, header: String, footer: String },
    Error { id: i64, message: String },
}

/// JSON already serialised, carried into an envelope unparsed. An envelope holds at most one;
/// serialise it with `to_json`.
#[derive(Debug, Clone, Copy)]
pub struct Preserialized<'a>(pub &'a str);

/// What `Preserialized` writes first, replaced by its text in `to_json`. NUL characters cannot
/// occur in a route, a template name or a hash, which are all that precede it in the envelopes.
const PLACEHOLDER: &str = "\0stillpoint:preserialized\0";
const QUOTED_PLACEHOLDER: &str = "\"\\u0000stillpoint:preserialized\\u0000\"";

impl Serialize for Preserialized<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(PLACEHOLDER)
    }
}

/// Serialises an envelope; the text of its `Preserialized` (if any) is put in place as it is.
pub fn to_json<T: Serialize>(envelope: &T, raw: Option<Preserialized>) -> String {
    let json = serde_json::to_string(envelope).expect("an envelope serialises");
    match raw {
        None => json,
        Some(Preserialized(text)) => {
            let at = json.find(QUOTED_PLACEHOLDER).expect("the envelope holds the Preserialized");
            let mut out = String::with_capacity(json.len() + text.len());
            out.push_str(&json[..at]);
            out.push_str(text);
            out.push_str(&json[at + QUOTED_PLACEHOLDER.len()..]);
            out
        }
    }
}

/// A page's page-data; `props_json` is its props, serialised with the body in place (if it has
/// one there), and `head` its head (None for an article: see [`PageResult::head`]).
pub fn page_data_json(
    template: &str,
    route: &Route,
    props_json: &str,
    head: Option<PageHead>,
    site_hash: &str,
    build_hash: &str,
) -> String {
    let props = Preserialized(props_json);
    let envelope = PageData {
        component_chunk_name: template,
        path: route,
        match_path: None,
        result: PageResult { page_context: props, head },
        static_query_hashes: [site_hash],
        slices_map: SlicesMap::ALL,
        webpack_compilation_hash: build_hash,
    };
    to_json(&envelope, Some(props))
}

/// A slice's data; `site_json` is the site data, serialised.
pub fn slice_data_json(template: &str, site_json: &str) -> String {
    let site = Preserialized(site_json);
    let envelope =
        SliceData { component_chunk_name: template, result: SliceResult { slice_context: site } };
    to_json(&envelope, Some(site))
}

/// `page-data/app-data.json`.
pub fn app_data_json(build_hash: &str) -> String {
    to_json(&AppData { webpack_compilation_hash: build_hash }, None)
}

#[cfg(test)]
mod samples;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preserialized_json_is_carried_as_written() {
        assert_eq!(serde_json::to_string(PLACEHOLDER).unwrap(), QUOTED_PLACEHOLDER);
        let raw = Preserialized(r#"{"a":[1, 2]}"#);
        let slice = SliceData {
            component_chunk_name: "Header",
            result: SliceResult { slice_context: raw },
        };
        assert_eq!(
            to_json(&slice, Some(raw)),
            r#"{"componentChunkName":"Header","result":{"sliceContext":{"a":[1, 2]}}}"#
        );
        let req: WorkerRequest<(), _> = WorkerRequest::Slices { id: 0, site: raw };
        assert_eq!(to_json(&req, Some(raw)), r#"{"type":"slices","id":0,"site":{"a":[1, 2]}}"#);
        assert_eq!(
            to_json(&AppData { webpack_compilation_hash: "h" }, None),
            r#"{"webpackCompilationHash":"h"}"#
        );
    }

    #[test]
    fn reads_every_worker_answer() {
        let read = |s: &str| serde_json::from_str::<WorkerResponse>(s).unwrap();
        assert_eq!(read(r#"{"type":"ready"}"#), WorkerResponse::Ready);
        assert_eq!(
            read(r#"{"id":3,"type":"rendered","html":"<p>"}"#),
            WorkerResponse::Rendered { id: 3, html: "<p>".into() }
        );
        assert_eq!(
            read(r#"{"id":-1,"type":"error","message":"bad"}"#),
            WorkerResponse::Error { id: -1, message: "bad".into() }
        );
    }
}
