//! Guards the record of where articles are shown (shown.rs) against what it leaves out.
//!
//! When only what some articles show on other pages changed, a build plans again only the pages
//! that recorded one of them as shown. That is only right if a page that did not record an
//! article plans the same whatever that article shows. This test loads the demo site, then, an
//! article at a time, changes everything the article shows elsewhere (title, description,
//! reading minutes, cover alt text and focal point) and plans every page again: each page that
//! changed must have recorded the article, and the article's own page and at least one other
//! must have changed (so the comparison is not vacuous).

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use stillpoint_content::{ArticleId, Site, build_catalog, load_site};

use super::outline_guard::plan_json;
use crate::images::prepare;
use crate::plan::{PlanContext, plan_batch, reading_minutes, site_pages};

/// Every page of `site`, planned: its plan as JSON and the articles it recorded as shown.
fn planned(site: &Site) -> Vec<(String, Value, Vec<ArticleId>)> {
    let catalog = build_catalog(site);
    let images = prepare(site).expect("the demo's images read");
    let ctx = PlanContext::new(site, &catalog).with_images(&images);
    let pages = site_pages(&ctx);
    plan_batch(&ctx, &pages)
        .into_iter()
        .map(|plan| (plan.path.as_str().to_string(), plan_json(&plan), plan.shows))
        .collect()
}

#[test]
fn a_page_that_did_not_record_an_article_plans_the_same_whatever_it_shows() {
    let site =
        load_site(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo")).unwrap();
    let before = planned(&site);
    for j in 0..site.articles.len() {
        let mut after_site = site.clone();
        let a = Arc::make_mut(&mut after_site.articles[j]);
        a.title.push_str(" (retitled)");
        a.description.push_str(" (rewritten)");
        a.words = (reading_minutes(a.words) + 3) * 220;
        a.image_alt = Some(format!("Another alt for {j}"));
        a.image_focus = Some("10% 90%".into());
        let after = planned(&after_site);
        assert_eq!(after.len(), before.len());
        let own = format!("/articles/{}", site.articles[j].slug);
        let mut changed = Vec::new();
        for ((path, was, shows), (_, now, _)) in before.iter().zip(&after) {
            if was != now {
                assert!(
                    shows.contains(&ArticleId::new(j)),
                    "{path} shows article {own} but did not record it as shown"
                );
                changed.push(path.as_str());
            }
        }
        assert!(changed.contains(&own.as_str()), "{own}: its own page did not change");
        assert!(changed.len() >= 2, "{own}: no other page shows it: {changed:?}");
    }
}
