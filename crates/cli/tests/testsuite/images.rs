//! Images of the site: page bundles, references checked like links, pictures with their real
//! size, `og:image` as an absolute URL, and a replaced image rewriting only the pages that show
//! it (with `--verify`: the output equals a clean build).

use std::collections::{BTreeMap, BTreeSet};

use crate::util::{SiteTest, between, png, stderr, tree};

/// The minimal fixture with `body-scan` moved into a page bundle with a cover and a body image.
fn bundled() -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    let articles = t.site().join("articles");
    let bundle = articles.join("sleep/body-scan");
    std::fs::create_dir_all(bundle.join("steps")).unwrap();
    let text = std::fs::read_to_string(articles.join("body-scan.md")).unwrap();
    let text = text.replacen("slug:", "image: cover.png\nimage_alt: A still lake\nslug:", 1)
        + "\n![Lying down](steps/1.png)\n";
    std::fs::write(bundle.join("index.md"), text).unwrap();
    std::fs::remove_file(articles.join("body-scan.md")).unwrap();
    std::fs::write(bundle.join("cover.png"), png(2400, 1600)).unwrap();
    std::fs::write(bundle.join("steps/1.png"), png(800, 600)).unwrap();
    std::fs::write(bundle.join("notes.md"), "Not an article: a file of the bundle.").unwrap();
    t
}

fn snapshot(t: &SiteTest) -> BTreeMap<String, Vec<u8>> {
    tree(&t.out()).into_iter().collect()
}

fn diff(before: &BTreeMap<String, Vec<u8>>, after: &BTreeMap<String, Vec<u8>>) -> BTreeSet<String> {
    let mut out: BTreeSet<String> =
        after.iter().filter(|(k, v)| before.get(*k) != Some(v)).map(|(k, _)| k.clone()).collect();
    out.extend(before.keys().filter(|k| !after.contains_key(*k)).cloned());
    out
}

fn build_verified(t: &SiteTest) -> String {
    let out = t.run(&["build", "site", "--out", "dist", "--verify"]);
    let err = stderr(&out);
    assert!(out.status.success(), "build --verify failed:\n{err}");
    err
}

#[test]
fn a_page_bundle_publishes_its_images_as_pictures_with_their_size() {
    let t = bundled();
    t.build();
    let html = t.read("articles/body-scan.html");
    let media: Vec<String> = std::fs::read_dir(t.out().join("media"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    // Two images (the cover and the body image), each in renditions named by its key.
    let keys: BTreeSet<&str> = media.iter().map(|m| &m[..16]).collect();
    assert_eq!(keys.len(), 2, "the cover and the body image: {media:?}");
    for ext in ["avif", "webp", "png", "jpg"] {
        assert!(media.iter().any(|m| m.ends_with(ext)), "{ext}: {media:?}");
    }
    assert!(
        !t.out().join("articles/sleep").exists(),
        "a bundle's files are not copied as they are"
    );
    let body = html
        .split("<picture>")
        .find(|p| p.contains("Lying down"))
        .and_then(|p| p.split("</picture>").next())
        .expect("a body picture");
    assert!(
        body.contains(r#"<source type="image/avif" srcSet="/media/"#)
            || body.contains(r#"<source type="image/avif" srcset="/media/"#),
        "{body}"
    );
    assert!(body.contains(r#"width="800" height="600" alt="Lying down" loading="lazy""#), "{body}");
    let og = between(&html, "<meta property=\"og:image\" content=\"", "\"").unwrap();
    let origin = std::fs::read_to_string(t.site().join("stillpoint.toml")).unwrap();
    let origin = between(&origin, "url = \"", "\"").unwrap().to_string();
    assert!(
        og.starts_with(&format!("{origin}/media/")) && og.ends_with("-share-1200.jpg")
            || og.ends_with("-1200.jpg"),
        "{og}"
    );
    let data = t.read("page-data/articles/body-scan/page-data.json");
    assert!(data.contains(r#""alt":"A still lake""#), "{data}");
    assert!(data.contains(r#""width":2400,"height":1600"#), "{data}");
}

#[test]
fn a_missing_image_fails_check_at_its_line_with_the_nearest_name() {
    let t = bundled();
    std::fs::rename(
        t.site().join("articles/sleep/body-scan/cover.png"),
        t.site().join("articles/sleep/body-scan/cover.jpeg"),
    )
    .unwrap();
    let out = t.run(&["check", "site", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let e = &doc["errors"][0];
    assert_eq!(e["file"], "articles/sleep/body-scan/index.md", "{doc:#}");
    assert_eq!(
        (e["line"].as_u64(), e["kind"].as_str()),
        (Some(3), Some("missing_image")),
        "{doc:#}"
    );
    let text = doc.to_string();
    assert!(text.contains("did you mean `articles/sleep/body-scan/cover.jpeg`?"), "{doc:#}");
}

#[test]
fn a_replaced_image_rewrites_only_the_pages_that_show_it() {
    let t = bundled();
    t.build();
    let err = stderr(&t.build());
    assert!(err.contains("rendered 0, 0 files changed, 0 removed"), "{err}");

    // The body image: the article's HTML and the new and old renditions, nothing else.
    let before = snapshot(&t);
    std::fs::write(t.site().join("articles/sleep/body-scan/steps/1.png"), png(640, 480)).unwrap();
    build_verified(&t);
    let touched = diff(&before, &snapshot(&t));
    let pages: Vec<&String> = touched.iter().filter(|p| !p.starts_with("media/")).collect();
    assert_eq!(pages, ["articles/body-scan.html"], "{touched:?}");
    assert!(touched.iter().any(|p| p.starts_with("media/")), "its renditions: {touched:?}");

    // The cover: the article and every page that shows its card.
    let before = snapshot(&t);
    std::fs::write(t.site().join("articles/sleep/body-scan/cover.png"), png(1600, 900)).unwrap();
    build_verified(&t);
    let touched = diff(&before, &snapshot(&t));
    assert!(touched.contains("page-data/articles/body-scan/page-data.json"), "{touched:?}");
    assert!(
        touched.contains("page-data/index/page-data.json"),
        "the home page shows its card: {touched:?}"
    );
    assert!(!touched.iter().any(|p| p.starts_with("articles/breathing")), "{touched:?}");
}
