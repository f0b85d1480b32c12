//! Guards the outline (outline.rs) against what it leaves out.
//!
//! When the outline a build computes is the one the last build recorded, the build plans again
//! only the pages of articles whose files changed: every other page (home, listings, topic and
//! author pages, the sitemap pages, the information and error pages) and every site-wide file
//! (site data, search index, feeds, sitemaps, redirects) is kept as the last build wrote it. That
//! is only right if none of them shows anything of an article that the outline does not record.
//!
//! These tests load the demo site, then scramble every field of every article that the outline
//! leaves out (the Markdown body and the file's digest, the word count within its reading
//! minutes, the publication instant, the body's images, embeds and shortcodes, `accept`, the
//! front matter's line numbers and the locations of located values), and check that:
//! - the outline is the same for both (so the scramble stayed within what it leaves out),
//! - every page but the articles' own plans to the same path, head, props and Markdown,
//! - every site-wide file the build writes only with a new outline is the same,
//! - and every article's own page did change (so the comparison is not vacuous).
//!
//! A field a page reads but the outline does not record makes the second or third check fail,
//! naming the page and the first JSON value that differs.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};
use stillpoint_content::{
    Article, Embed, Located, Provider, Publish, Site, WARNING_CODES, build_catalog,
    load_site_partial, split_front_matter,
};
use stillpoint_fingerprint::Digest;

use super::outline::{OutlineInputs, OutlineMemo};
use super::pages::WorkerScript;
use crate::csp::{Csp, SiteUses};
use crate::feeds::{atom_xml, robots_txt, rss_xml, sitemap_files};
use crate::images::prepare;
use crate::plan::{PagePlan, PlanContext, plan_with_bodies, reading_minutes, site_pages};
use crate::redirects::{redirect_table_json, redirects_txt, site_redirects};
use crate::render::Markdown;
use crate::search_index::{search_index, search_manifest};
use crate::site_data::site_data;
use crate::ssr::WebBundle;

/// The copyright year both builds are given.
const YEAR: i16 = 2026;
/// A body image the scramble adds to every article: a file of the demo's `static/`, so the
/// image stage reads it and the policy's image sources stay the same.
const ADDED_BODY_IMAGE: &str = "/images/photos/moss.jpg";

/// The demo site, loaded from a copy at one instant, and the same site with every article
/// scrambled outside the outline (its files rewritten in the copy).
struct Scrambled {
    /// Holds the copy both sites read from.
    _dir: tempfile::TempDir,
    before: Site,
    after: Site,
    /// What every page planned to, from `before`, taken before its files were rewritten.
    before_pages: Vec<PageSnapshot>,
}

/// One planned page, as the render stage receives it, in a form two builds can compare.
struct PageSnapshot {
    path: String,
    /// The page is an article's own page (the one page that may differ).
    own_article_page: bool,
    json: Value,
}

fn scrambled_demo() -> Scrambled {
    let dir = crate::test_site::demo_copy();
    let publish = Publish::at_clock();
    let (before, diag) = load_site_partial(dir.path(), &publish);
    assert!(diag.is_empty(), "{diag:?}");
    let before = before.expect("the demo site loads");
    let before_pages = page_snapshots(&before);
    let after = scramble_site(&before, &publish);
    Scrambled { _dir: dir, before, after, before_pages }
}

/// `site` with every article scrambled outside the outline; the articles' files are rewritten
/// with another body (the site as loaded can then no longer read its bodies).
fn scramble_site(site: &Site, publish: &Publish) -> Site {
    let has_youtube = site.articles.iter().flat_map(|a| &a.embeds).any(is_youtube);
    let mut after = site.clone();
    for (i, article) in after.articles.iter_mut().enumerate() {
        let digest = rewrite_body(&site.root, article, i);
        scramble_article(std::sync::Arc::make_mut(article), digest, publish, has_youtube);
    }
    after
}

fn is_youtube(e: &Embed) -> bool {
    e.provider == Provider::Youtube
}

/// Rewrites article `i`'s file with the same front matter and another body; returns the new
/// file's digest.
fn rewrite_body(root: &Path, a: &Article, i: usize) -> Digest {
    let path = root.join(&a.source);
    let text = std::fs::read_to_string(&path).unwrap();
    let body = split_front_matter(&text).expect("the demo's front matter splits").body;
    let front = text.strip_suffix(body).expect("the body ends the file");
    let paragraphs: Vec<&str> = body.split("\n\n").collect();
    let reversed: Vec<&str> = paragraphs.into_iter().rev().collect();
    let new_text = format!(
        "{front}Scrambled lead of article {i}.\n\n{}\n\nScrambled tail with a [link](/nowhere-{i}).\n",
        reversed.join("\n\n")
    );
    assert_ne!(new_text, text);
    std::fs::write(&path, &new_text).unwrap();
    Digest::of(new_text.as_bytes())
}

/// Changes every field of `a` that the outline leaves out to another valid value; `digest` is
/// its rewritten file's. The pattern names every field, so a field added to `Article` does not
/// compile here until it is sorted into the outline or scrambled.
fn scramble_article(a: &mut Article, digest: Digest, publish: &Publish, has_youtube: bool) {
    let Article {
        // In the outline as they are.
        source: _,
        title: _,
        slug: _,
        date: _,
        updated: _,
        draft: _,
        description: _,
        image_alt: _,
        image_focus: _,
        // What `image` names, resolved: follows `image`.
        image_target: _,
        // In the outline whole, their locations included: left as they are.
        entities: _,
        // In the outline by value: only where they are written changes.
        author,
        image,
        links,
        aliases,
        audio,
        // Not in the outline.
        published,
        expires,
        images_without_alt,
        images,
        words,
        slug_line,
        digest: file_digest,
        accept,
        shortcodes,
        embeds,
    } = a;
    for at in author.iter_mut().chain(image.iter_mut()).chain(links.iter_mut()) {
        relocate(at);
    }
    aliases.iter_mut().for_each(relocate);
    if let Some(at) = audio {
        relocate(at);
    }
    *file_digest = digest;
    *words = other_words_same_minutes(*words);
    *slug_line += 5;
    scramble_schedule(published, expires, publish);
    scramble_images(images, images_without_alt);
    scramble_accept(accept);
    shortcodes.iter_mut().for_each(relocate);
    shortcodes.push(located("{{< youtube scrambled >}}".to_string()));
    scramble_embeds(embeds, has_youtube);
}

/// Moves a located value elsewhere in its file.
fn relocate<T>(at: &mut Located<T>) {
    at.line += 3;
    at.col += 2;
}

fn located(value: String) -> Located<String> {
    Located { value, line: 90, col: 4 }
}

/// Another word count with the same reading minutes.
fn other_words_same_minutes(words: u32) -> u32 {
    let minutes = reading_minutes(words);
    let (lowest, highest) = ((minutes - 1) * 220 + 1, minutes * 220);
    let other = if words == highest { lowest } else { highest };
    assert_eq!(reading_minutes(other), minutes);
    assert_ne!(other, words);
    other
}

/// Moves the instant an article goes live a minute later and its end a day later, keeping it
/// published at the build's instant. An `expires` is never added: with none, the published set
/// would next change at it, which the outline records (`Site::schedule`).
fn scramble_schedule(
    published: &mut jiff::Timestamp,
    expires: &mut Option<jiff::Timestamp>,
    publish: &Publish,
) {
    let later = *published + jiff::SignedDuration::from_mins(1);
    if later <= publish.now {
        *published = later;
    }
    if let Some(end) = expires {
        *end += jiff::SignedDuration::from_hours(24);
    }
}

/// Reverses and moves the body's images and adds one, and another without alt text.
fn scramble_images(images: &mut Vec<Located<String>>, without_alt: &mut Vec<Located<String>>) {
    images.reverse();
    images.iter_mut().for_each(relocate);
    images.push(located(ADDED_BODY_IMAGE.to_string()));
    without_alt.iter_mut().for_each(relocate);
    without_alt.push(located(ADDED_BODY_IMAGE.to_string()));
}

/// Accepts other warnings than it did (all known codes).
fn scramble_accept(accept: &mut Vec<String>) {
    let other = WARNING_CODES.iter().find(|c| !accept.iter().any(|a| a == *c)).unwrap();
    accept.clear();
    accept.push((*other).to_string());
}

/// Other videos, titles and places for the body's embeds, in reverse order, and one more video
/// when the site already embeds that provider (so the policy's frame sources stay the same).
/// The files they name (recordings, posters) are in the outline apart: left as they are.
fn scramble_embeds(embeds: &mut Vec<Embed>, has_youtube: bool) {
    embeds.reverse();
    for e in embeds.iter_mut() {
        if e.provider != Provider::Audio {
            e.id.push('Z');
        }
        e.title.push_str(" (scrambled)");
        e.line += 4;
        e.col += 1;
    }
    if has_youtube {
        embeds.push(Embed {
            provider: Provider::Youtube,
            id: "scrambled01".into(),
            title: "A scrambled video".into(),
            poster: None,
            line: 95,
            col: 1,
        });
    }
}

/// Every page of `site` as planned, in the build's order, with the images read as a build reads
/// them.
fn page_snapshots(site: &Site) -> Vec<PageSnapshot> {
    let catalog = build_catalog(site);
    let images = prepare(site).expect("the demo's images read");
    let ctx = PlanContext::new(site, &catalog).with_images(&images);
    let pages = site_pages(&ctx);
    let plans = plan_with_bodies(&ctx, &pages).expect("every article's body reads");
    pages
        .iter()
        .zip(&plans)
        .map(|(page, plan)| PageSnapshot {
            path: plan.path.as_str().to_string(),
            own_article_page: page.article().is_some(),
            json: plan_json(plan),
        })
        .collect()
}

pub(super) fn plan_json(plan: &PagePlan) -> Value {
    json!({
        "path": plan.path.as_str(),
        "head": plan.head,
        "props": plan.props,
        "markdown": plan.markdown.as_ref().map(markdown_json),
        "source": plan.source,
    })
}

/// The Markdown a page hands the render stage, its embeds' files in a stable order.
fn markdown_json(m: &Markdown) -> Value {
    let embeds = m.embeds.as_ref().map(|e| {
        let audio: BTreeMap<_, _> = e.audio.iter().collect();
        let posters: BTreeMap<_, _> = e.posters.iter().collect();
        json!({"audio": audio, "posters": posters})
    });
    json!({
        "text": m.text,
        "raw_html": format!("{:?}", m.raw_html),
        "images": m.images,
        "embeds": embeds,
    })
}

/// The build's outline of `site`, with the policy and the image outline derived from it as a
/// build derives them.
fn outline_key(site: &Site, bundle: &WebBundle) -> String {
    let images = prepare(site).expect("the demo's images read");
    let csp = Csp::derive(&SiteUses::of(site, Vec::new())).header();
    let theme = crate::theme_css::theme_css(&site.config.theme);
    let worker = WorkerScript::read(bundle).unwrap().key;
    OutlineInputs {
        year: YEAR,
        theme_css: &theme.css,
        images: images.outline(),
        csp: &csp,
        ..OutlineInputs::fixed(bundle, &worker, site)
    }
    .key(&mut OutlineMemo::default())
    .unwrap()
    .key
}

/// A web bundle of placeholder files: the outline reads its manifest and worker script.
fn placeholder_bundle(dir: &Path) -> WebBundle {
    std::fs::create_dir_all(dir.join("server")).unwrap();
    std::fs::create_dir_all(dir.join("client/.vite")).unwrap();
    std::fs::write(dir.join("server/worker.js"), "worker").unwrap();
    std::fs::write(dir.join("client/.vite/manifest.json"), "{}").unwrap();
    WebBundle::locate(&[dir.to_path_buf()]).unwrap()
}

/// The site-wide files a build writes only when the outline changed, by name.
fn site_files(site: &Site) -> BTreeMap<String, String> {
    let catalog = build_catalog(site);
    let images = prepare(site).expect("the demo's images read");
    let ctx = PlanContext::new(site, &catalog).with_images(&images);
    let pages = site_pages(&ctx);
    let data = site_data(&ctx, YEAR, crate::layout::url(&search_manifest()));
    let redirects = site_redirects(&ctx);
    let mut files = BTreeMap::from([
        ("site data".to_string(), serde_json::to_string_pretty(&data).unwrap()),
        ("robots.txt".to_string(), robots_txt(&ctx)),
        ("rss.xml".to_string(), rss_xml(&ctx)),
        ("atom.xml".to_string(), atom_xml(&ctx)),
        ("redirects".to_string(), redirects_txt(&redirects)),
        ("redirect table".to_string(), redirect_table_json(&redirects)),
    ]);
    files.extend(sitemap_files(&ctx, &pages));
    for (path, bytes) in search_index(&ctx).files {
        files.insert(path, String::from_utf8_lossy(&bytes).into_owned());
    }
    files
}

/// The first place two JSON values differ: its JSON pointer and both values.
fn first_difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let (v, w) = (x.get(k).unwrap_or(&Value::Null), y.get(k).unwrap_or(&Value::Null));
                first_difference(v, w, &format!("{at}/{k}"))
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(v, w, &format!("{at}/{i}"))),
        _ if a == b => None,
        _ => Some(format!("at {at}:\n  as loaded: {a}\n  scrambled: {b}")),
    }
}

/// The first line two texts differ at, with both lines.
fn first_line_difference(a: &str, b: &str) -> Option<String> {
    let (mut x, mut y) = (a.lines(), b.lines());
    (1..).find_map(|n| match (x.next(), y.next()) {
        (None, None) => Some(None),
        (l, m) if l == m => None,
        (l, m) => Some(Some(format!("line {n}:\n  as loaded: {l:?}\n  scrambled: {m:?}"))),
    })?
}

#[test]
fn the_scramble_changes_only_what_the_outline_leaves_out() {
    let s = scrambled_demo();
    let dir = tempfile::tempdir().unwrap();
    let bundle = placeholder_bundle(dir.path());
    assert_eq!(
        outline_key(&s.before, &bundle),
        outline_key(&s.after, &bundle),
        "the scramble changed something the outline records: it must only change what the \
         outline leaves out"
    );
    assert_every_article_scrambled(&s.before, &s.after);
}

/// Every article's body, digest, word count, body images, embeds, shortcodes, `accept` and
/// front matter lines changed, and the publication instant of some.
fn assert_every_article_scrambled(before: &Site, after: &Site) {
    assert_eq!(before.articles.len(), after.articles.len());
    let mut moved = 0;
    for (b, a) in before.articles.iter().zip(&after.articles) {
        let source = b.source.display();
        assert_ne!(b.digest, a.digest, "{source}: digest");
        assert_ne!(b.words, a.words, "{source}: words");
        assert_ne!(b.slug_line, a.slug_line, "{source}: slug_line");
        assert_ne!(b.images, a.images, "{source}: images");
        assert_ne!(b.images_without_alt, a.images_without_alt, "{source}: images_without_alt");
        assert_ne!(b.shortcodes, a.shortcodes, "{source}: shortcodes");
        assert_ne!(b.accept, a.accept, "{source}: accept");
        assert_ne!(b.embeds, a.embeds, "{source}: embeds");
        moved += usize::from(b.published != a.published);
    }
    assert!(moved > 0, "no article's publication instant moved");
}

#[test]
fn pages_other_than_an_articles_own_show_nothing_the_outline_leaves_out() {
    let s = scrambled_demo();
    let after_pages = page_snapshots(&s.after);
    let paths = |pages: &[PageSnapshot]| pages.iter().map(|p| p.path.clone()).collect::<Vec<_>>();
    assert_eq!(paths(&s.before_pages), paths(&after_pages), "the pages of the site differ");
    let mut others = 0;
    for (before, after) in s.before_pages.iter().zip(&after_pages) {
        if before.own_article_page {
            assert_ne!(
                before.json, after.json,
                "{}: the scramble did not change the article's own page",
                before.path
            );
            continue;
        }
        others += 1;
        if let Some(diff) = first_difference(&before.json, &after.json, "") {
            panic!(
                "{} (not an article's own page) changed with fields the outline leaves out, so \
                 an incremental build would leave it stale; {diff}",
                before.path
            );
        }
    }
    assert!(others > 20, "only {others} pages other than the articles' own were compared");
}

#[test]
fn site_wide_files_show_nothing_the_outline_leaves_out() {
    let s = scrambled_demo();
    let (before, after) = (site_files(&s.before), site_files(&s.after));
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>(),
        "the site-wide files differ"
    );
    for (name, text) in &before {
        if let Some(diff) = first_line_difference(text, &after[name]) {
            panic!(
                "{name} changed with fields the outline leaves out, so an incremental build \
                 would leave it stale; {diff}"
            );
        }
    }
}
