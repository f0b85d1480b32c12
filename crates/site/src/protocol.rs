//! The JSON envelopes that leave the builder: page-data, slice data and app-data for the
//! browser, and the requests and answers of the Node render workers. The TypeScript side is
//! `web/src/protocol.ts`; `tests::the_web_samples_are_current` writes one sample of each to
//! `web/src/protocol.samples.json`, which the web tests parse with the runtime's own readers.
//!
//! JSON that is already serialised (page props with their body spliced in, the site data) rides
//! inside an envelope as `Preserialized`: written as it is, never parsed again.

use std::io::{self, Read, Write};

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

/// Builder → worker: one per line on the worker's stdin, written by [`write_render_request`].
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum WorkerRequest<'a, P, S> {
    Render { id: u64, template: &'a str, props: P },
    Slices { id: u64, site: S },
}

/// Worker → builder: one per line on the worker's stdout (`ready` once, before any request). A
/// `rendered` line is followed by `bytes` bytes of the page's HTML as UTF-8, unescaped: the
/// largest part of an answer is read as it is, never parsed as JSON (see [`read_html`]).
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum WorkerResponse {
    Ready,
    Rendered { id: u64, bytes: u64 },
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
        Some(raw) => {
            let [before, after] = around_placeholder(&json);
            [before, raw.0, after].concat()
        }
    }
}

/// An envelope's JSON before and after the quoted placeholder its `Preserialized` wrote.
fn around_placeholder(json: &str) -> [&str; 2] {
    let at = json.find(QUOTED_PLACEHOLDER).expect("the envelope holds the Preserialized");
    [&json[..at], &json[at + QUOTED_PLACEHOLDER.len()..]]
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

/// A page's props as JSON in ASCII: anything else is written as `\u` escapes, so the worker
/// decodes and parses a string of one-byte characters, its fastest path. The text a render
/// request carries and the page's page-data holds, serialised once for both.
pub fn props_json<T: Serialize>(props: &T) -> String {
    let mut out = Vec::with_capacity(4096);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, AsciiJson);
    props.serialize(&mut ser).expect("props serialise");
    String::from_utf8(out).expect("ASCII JSON is UTF-8")
}

/// The page-data props of a page with a body, from its worker's props (`props_json`, whose
/// `field` holds `BODY_MARKER`), without serialising them again: `body` in the marker's place,
/// or, when it is None (the page's HTML alone holds the body), the field left out, as the props
/// serialise with an empty body.
pub fn splice_body_json(props_json: &str, field: &str, body: Option<&str>) -> String {
    // Only the field itself can match: a quote inside a JSON string is escaped.
    let held = format!("\"{field}\":{}", props_json_of(crate::ssr::BODY_MARKER));
    let Some(at) = props_json.find(&held) else {
        debug_assert!(false, "the props hold no `{held}`");
        return props_json.to_string();
    };
    let end = at + held.len();
    match body {
        Some(body) => {
            let value = at + field.len() + 3;
            [&props_json[..value], &props_json_of(body), &props_json[end..]].concat()
        }
        // The field and the comma after it, or before it when it is the last.
        None if props_json[end..].starts_with(',') => {
            [&props_json[..at], &props_json[end + 1..]].concat()
        }
        None => {
            [props_json[..at].strip_suffix(',').unwrap_or(&props_json[..at]), &props_json[end..]]
                .concat()
        }
    }
}

/// A string as [`props_json`] writes it.
fn props_json_of(text: &str) -> String {
    props_json(&text)
}

/// Writes a render request whose props are already serialised by [`props_json`].
pub fn write_render_request(out: &mut Vec<u8>, id: u64, template: &str, props_json: &str) {
    let props = Preserialized(props_json);
    let request: WorkerRequest<_, ()> = WorkerRequest::Render { id, template, props };
    let envelope = serde_json::to_string(&request).expect("a request serialises");
    let [before, after] = around_placeholder(&envelope);
    for part in [before, props_json, after, "\n"] {
        out.extend_from_slice(part.as_bytes());
    }
}

/// Compact JSON whose strings escape every character outside ASCII.
struct AsciiJson;

impl serde_json::ser::Formatter for AsciiJson {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        text: &str,
    ) -> io::Result<()> {
        let mut rest = text;
        while let Some(at) = rest.bytes().position(|b| !b.is_ascii()) {
            w.write_all(&rest.as_bytes()[..at])?;
            let c = rest[at..].chars().next().expect("a character starts here");
            for unit in c.encode_utf16(&mut [0; 2]) {
                write!(w, "\\u{unit:04x}")?;
            }
            rest = &rest[at + c.len_utf8()..];
        }
        w.write_all(rest.as_bytes())
    }
}

/// Reads the `bytes` bytes of HTML that follow a `rendered` line; `None` when the stream ends
/// sooner or they are not UTF-8.
pub fn read_html(from: &mut impl Read, bytes: u64) -> Option<String> {
    let mut html = Vec::with_capacity(bytes.min(1 << 20) as usize);
    from.take(bytes).read_to_end(&mut html).ok()?;
    if html.len() as u64 != bytes {
        return None;
    }
    String::from_utf8(html).ok()
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
            read(r#"{"id":3,"type":"rendered","bytes":3}"#),
            WorkerResponse::Rendered { id: 3, bytes: 3 }
        );
        assert_eq!(
            read(r#"{"id":-1,"type":"error","message":"bad"}"#),
            WorkerResponse::Error { id: -1, message: "bad".into() }
        );
    }

    #[test]
    fn requests_are_ascii_and_read_back_the_same() {
        let props = serde_json::json!({"title": "Calm 🧘 — “quiet” é\u{7f}", "n": [1, "\\\"\n"]});
        let mut line = Vec::new();
        write_render_request(&mut line, 1, "Article", &props_json(&props));
        assert!(line.is_ascii(), "{}", String::from_utf8_lossy(&line));
        assert_eq!(line.pop(), Some(b'\n'));
        assert!(!line.contains(&b'\n'));
        let back: serde_json::Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(back["props"], props);
        assert_eq!(
            (&back["type"], &back["id"], &back["template"]),
            (&"render".into(), &1.into(), &"Article".into())
        );
        assert!(String::from_utf8(line).unwrap().contains(r"Calm \ud83e\uddd8 \u2014"));
    }

    #[test]
    fn reads_exactly_the_html_a_rendered_line_announces() {
        let html = "<p>é🧘</p>";
        let stream = format!("{html}{{\"type\":\"ready\"}}");
        let mut reader = stream.as_bytes();
        assert_eq!(read_html(&mut reader, html.len() as u64).as_deref(), Some(html));
        assert_eq!(reader, br#"{"type":"ready"}"#);
        assert_eq!(read_html(&mut &html.as_bytes()[..4], 5), None, "cut short");
        assert_eq!(read_html(&mut &html.as_bytes()[..4], 4), None, "not UTF-8 where it ends");
    }
}
