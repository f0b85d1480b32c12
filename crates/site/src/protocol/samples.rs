//! `web/src/protocol.samples.json`: one sample of every envelope (page-data of each template as
//! the demo site plans it, slice data, app-data, the worker's requests and answers) and the
//! output layout's URLs, for the web tests to read with the runtime's own parsers. Rewritten with
//! `STILLPOINT_UPDATE_FIXTURES=1`; this test fails when the file is stale.

use std::path::Path;

use serde_json::{Value, json};
use stillpoint_content::{build_catalog, load_site};

use super::*;
use crate::layout;
use crate::plan::{PlanContext, plan_pages_with};
use crate::search_index::search_index;
use crate::site_data::site_data;

const BODY: &str = "<!--body-->";
const SITE_HASH: &str = "0123456789abcdef";
const BUILD_HASH: &str = "fedcba9876543210";

fn samples() -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo");
    let site = load_site(&root).expect("the demo site loads");
    let catalog = build_catalog(&site);
    let images = crate::images::prepare(&site).expect("the demo's images read");
    let plans = plan_pages_with(&site, &catalog, &images);
    let ctx = PlanContext::new(&site, &catalog).with_images(&images);
    let manifest = layout::url(&search_index(&ctx).manifest);
    let site_json = serde_json::to_string(&site_data(&ctx, 2026, manifest)).unwrap();

    let mut templates = Vec::new();
    let (mut page_data, mut routes, mut requests) = (Vec::new(), Vec::new(), Vec::new());
    for plan in &plans {
        let template = plan.props.template();
        if templates.contains(&template) {
            continue;
        }
        templates.push(template);
        let (mut props, body) = plan.rendered_props(BODY);
        if template == "Article" {
            let request: WorkerRequest<_, ()> =
                WorkerRequest::Render { id: requests.len() as u64, template, props: &props };
            requests.push(serde_json::to_value(&request).unwrap());
        }
        if let Some(body) = body {
            props.put_body(body);
        }
        let props_json = serde_json::to_string(&props).unwrap();
        let head = (!props.data_in_document()).then(|| PageHead::from(&plan.head));
        let json = page_data_json(template, &plan.path, &props_json, head, SITE_HASH, BUILD_HASH);
        page_data.push(serde_json::from_str::<Value>(&json).unwrap());
        routes.push(json!({
            "route": plan.path,
            "html": layout::url(&layout::html_file(&plan.path)),
            "pageData": layout::url(&layout::page_data_file(&plan.path)),
        }));
    }
    let site = Preserialized(&site_json);
    let slices: WorkerRequest<(), _> = WorkerRequest::Slices { id: requests.len() as u64, site };
    requests.push(serde_json::from_str(&to_json(&slices, Some(site))).unwrap());
    let slice_data: Vec<Value> = SLICES
        .iter()
        .map(|(_, template)| serde_json::from_str(&slice_data_json(template, &site_json)).unwrap())
        .collect();
    let responses = [
        WorkerResponse::Ready,
        WorkerResponse::Rendered { id: 0, bytes: "<main>…</main>".len() as u64 },
        WorkerResponse::Slices {
            id: 1,
            header: "<header></header>".into(),
            footer: "<footer></footer>".into(),
        },
        WorkerResponse::Error { id: -1, message: "invalid request (not JSON)".into() },
    ];
    json!({
        "layout": {
            "routes": routes,
            "siteData": { "hash": SITE_HASH, "url": layout::url(&layout::site_data_file(SITE_HASH)) },
            "sliceData": SLICES.iter().map(|(name, _)| (name.to_string(), layout::url(&layout::slice_data_file(name)))).collect::<std::collections::BTreeMap<_, _>>(),
            "appData": layout::url(layout::APP_DATA),
            "serviceWorker": layout::url(layout::SERVICE_WORKER),
            "feeds": layout::FEEDS.map(layout::url),
            "dataDirs": [layout::url(layout::PAGE_DATA_DIR) + "/", layout::url(layout::SLICE_DATA_DIR) + "/"],
            "assetsDir": layout::url(layout::ASSETS_DIR) + "/",
            "searchDir": layout::url(layout::SEARCH_DIR) + "/",
        },
        "pageData": page_data,
        "sliceData": slice_data,
        "appData": serde_json::from_str::<Value>(&app_data_json(BUILD_HASH)).unwrap(),
        "workerRequests": requests,
        "workerResponses": responses,
    })
}

#[test]
fn the_web_samples_are_current() {
    let samples = samples();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/protocol.samples.json");
    if std::env::var_os("STILLPOINT_UPDATE_FIXTURES").is_some() {
        std::fs::write(&path, serde_json::to_string_pretty(&samples).unwrap() + "\n").unwrap();
    }
    let current: Option<Value> =
        std::fs::read_to_string(&path).ok().and_then(|text| serde_json::from_str(&text).ok());
    assert!(
        current.as_ref() == Some(&samples),
        "{} is out of date: run `STILLPOINT_UPDATE_FIXTURES=1 cargo test -p stillpoint-site protocol` \
         (then `npx biome format --write src/protocol.samples.json` in web/)",
        path.display()
    );
}

#[test]
fn the_samples_cover_every_template_and_message() {
    let s = samples();
    let names: Vec<&str> = s["pageData"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["componentChunkName"].as_str().unwrap())
        .collect();
    for t in ["Home", "Article", "Category", "Subcategory", "Subsubcategory", "Authors", "Author"] {
        assert!(names.contains(&t), "no {t} page in the demo");
    }
    for t in ["Info", "Sitemap", "NotFound", "ServerError"] {
        assert!(names.contains(&t), "no {t} page in the demo");
    }
    let types: Vec<&str> = s["workerRequests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["render", "slices"]);
    let article =
        s["pageData"].as_array().unwrap().iter().find(|p| p["componentChunkName"] == "Article");
    let context = &article.unwrap()["result"]["pageContext"];
    assert!(context.get("bodyHtml").is_none(), "an article's body is in its HTML only");
    assert!(article.unwrap()["result"].get("head").is_none(), "so is its head");
    let info = s["pageData"].as_array().unwrap().iter().find(|p| p["componentChunkName"] == "Info");
    let body = info.unwrap()["result"]["pageContext"]["bodyHtml"].as_str().unwrap();
    assert!(body.starts_with('<') && !body.contains(BODY), "the body is spliced in: {body}");
}

/// A page's page-data props, made by splicing its body into the props its worker was given,
/// are the props serialised with the body put in: for every page of the demo with a body (an
/// article's left out, an author's biography and an info page's body in).
#[test]
fn page_data_props_spliced_are_the_props_serialised() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo");
    let site = load_site(&root).expect("the demo site loads");
    let catalog = build_catalog(&site);
    let images = crate::images::prepare(&site).expect("the demo's images read");
    let mut seen = std::collections::BTreeSet::new();
    for plan in plan_pages_with(&site, &catalog, &images) {
        let (mut props, body) = plan.rendered_props(crate::ssr::BODY_MARKER);
        let (Some(body), Some(field)) = (body, props.body_field()) else { continue };
        let worker = props_json(&props);
        let in_data = !props.data_in_document();
        let spliced = splice_body_json(&worker, field, in_data.then_some(&*body));
        props.put_body(body);
        assert_eq!(spliced, props_json(&props), "{}", plan.path);
        seen.insert(props.template());
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), ["Article", "Author", "Info"]);
}

#[test]
fn a_body_field_is_left_out_wherever_it_stands() {
    let m = props_json(&crate::ssr::BODY_MARKER);
    for (json, out) in [
        (format!(r#"{{"a":1,"bodyHtml":{m},"b":2}}"#), r#"{"a":1,"b":2}"#),
        (format!(r#"{{"bodyHtml":{m},"b":2}}"#), r#"{"b":2}"#),
        (format!(r#"{{"a":1,"bodyHtml":{m}}}"#), r#"{"a":1}"#),
        (format!(r#"{{"bodyHtml":{m}}}"#), r#"{}"#),
    ] {
        assert_eq!(splice_body_json(&json, "bodyHtml", None), out);
    }
    // A string that reads like the field is not the field.
    let json = format!(r#"{{"t":"\"bodyHtml\":{}","bodyHtml":{m}}}"#, m.replace('"', "\\\""));
    assert_eq!(
        splice_body_json(&json, "bodyHtml", Some("é<b>")),
        format!(r#"{{"t":"\"bodyHtml\":{}","bodyHtml":"\u00e9<b>"}}"#, m.replace('"', "\\\""))
    );
}
