//! What the output leaves out to stay small, and what it must keep: page-data carries nothing
//! that only crawlers read (JSON-LD) or that another field already says (a card's slug, a date's
//! label, the href of every page of a listing), while every page's HTML, read without script,
//! keeps its links, meta and structured data.

use std::path::Path;

use crate::util::{SiteTest, between, walk};

/// Every object below `v` (itself included).
fn objects(v: &serde_json::Value, out: &mut Vec<serde_json::Map<String, serde_json::Value>>) {
    match v {
        serde_json::Value::Object(m) => {
            out.push(m.clone());
            m.values().for_each(|v| objects(v, out));
        }
        serde_json::Value::Array(a) => a.iter().for_each(|v| objects(v, out)),
        _ => {}
    }
}

#[test]
fn page_data_carries_no_json_ld_and_nothing_another_field_says() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    let files: Vec<_> = walk(&t.out().join("page-data"))
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "page-data.json"))
        .collect();
    assert!(files.len() > 10, "{files:?}");
    let mut cards = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let data: serde_json::Value = serde_json::from_str(&text).unwrap();
        // An article's head and body are in its HTML only.
        let article = data["componentChunkName"] == "Article";
        assert_eq!(data["result"].get("head").is_none(), article, "{}", file.display());
        if article {
            assert!(data["result"]["pageContext"].get("bodyHtml").is_none(), "{}", file.display());
        }
        if let Some(head) = data["result"]["head"].as_object() {
            assert!(!head.contains_key("jsonLd"), "{}: {head:?}", file.display());
        }
        assert!(!text.contains("schema.org"), "{}: JSON-LD in page-data", file.display());
        let mut all = Vec::new();
        objects(&data["result"]["pageContext"], &mut all);
        for o in &all {
            assert!(!o.contains_key("dateLabel"), "{}: {o:?}", file.display());
            // A listing's page hrefs follow from its first page's.
            assert!(!o.contains_key("hrefs"), "{}: {o:?}", file.display());
        }
        let is_card = |o: &&serde_json::Map<_, _>| {
            o.contains_key("readingMinutes")
                && o.contains_key("href")
                && !o.contains_key("bodyHtml")
        };
        for card in all.iter().filter(is_card) {
            cards += 1;
            assert!(!card.contains_key("slug"), "{}: {card:?}", file.display());
            assert!(card["href"].as_str().unwrap().starts_with("/articles/"));
        }
    }
    assert!(cards > 5, "the fixture's pages list cards ({cards})");
}

/// The `href`s of the links in `v` (objects with `href`), nested ones included.
fn hrefs(v: &serde_json::Value) -> Vec<String> {
    let mut all = Vec::new();
    objects(v, &mut all);
    all.iter().filter_map(|o| o.get("href")?.as_str().map(String::from)).collect()
}

fn assert_no_script_page(out: &Path, rel: &str, html: &str, page_data: &serde_json::Value) {
    let props = &page_data["result"]["pageContext"];
    let head = &page_data["result"]["head"];
    // An article's head is in its HTML only: the runtime reads it from there.
    let article = page_data["componentChunkName"] == "Article";
    assert_eq!(head.is_null(), article, "{rel}");
    // Meta a crawler or a link preview reads.
    let title = between(html, "<title>", "</title>").unwrap();
    let (canonical, og_type) = match article {
        true => (format!("https://calm.example{}", page_data["path"].as_str().unwrap()), "article"),
        false => {
            let escaped = head["title"]
                .as_str()
                .unwrap()
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;")
                .replace('\'', "&#39;");
            assert_eq!(title, escaped, "{rel}");
            (head["canonical"].as_str().unwrap().to_string(), head["ogType"].as_str().unwrap())
        }
    };
    assert!(!title.is_empty(), "{rel}");
    for needle in [
        "<meta name=\"description\" content=\"".to_string(),
        format!("<link rel=\"canonical\" href=\"{canonical}\">"),
        format!("<meta property=\"og:url\" content=\"{canonical}\">"),
        format!("<meta property=\"og:type\" content=\"{og_type}\">"),
        "<meta property=\"og:title\" content=\"".into(),
        "<meta property=\"og:description\" content=\"".into(),
        "<meta name=\"twitter:card\" content=\"".into(),
    ] {
        assert!(html.contains(&needle), "{rel}: no {needle}");
    }
    // Structured data: at least one JSON-LD block, every one valid JSON for schema.org.
    let blocks: Vec<&str> = html.split("<script type=\"application/ld+json\">").skip(1).collect();
    assert!(!blocks.is_empty(), "{rel}: no JSON-LD");
    for block in blocks {
        let json: serde_json::Value =
            serde_json::from_str(block.split("</script>").next().unwrap())
                .unwrap_or_else(|e| panic!("{rel}: JSON-LD: {e}"));
        assert_eq!(json["@context"], "https://schema.org", "{rel}");
    }
    // The site stylesheet applies without script: linked as a plain stylesheet that exists.
    assert!(!html.contains("<style") && !html.contains("media=\"print\""), "{rel}");
    let sheet = between(html, "<link rel=\"stylesheet\" href=\"/", "\">").expect("a stylesheet");
    assert!(out.join(sheet).is_file(), "{rel}: {sheet} is missing");
    // Every link of the page's data is a real link in the HTML.
    let links = hrefs(props);
    assert!(!links.is_empty(), "{rel}");
    for href in links {
        assert!(html.contains(&format!("href=\"{href}\"")), "{rel}: no link to {href}");
    }
    // The footer links every category.
    let site: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join(format!(
            "page-data/sq/d/{}.json",
            page_data["staticQueryHashes"][0].as_str().unwrap()
        )))
        .unwrap(),
    )
    .unwrap();
    for category in site["categories"].as_array().unwrap() {
        let href = category["href"].as_str().unwrap();
        assert!(html.contains(&format!("<a href=\"{href}\">")), "{rel}: no link to {href}");
    }
    // Icons are drawn by the stylesheet: an empty `<i data-icon>` with a rule for its shape.
    assert!(!html.contains("<svg"), "{rel}: an inline icon");
    let css = std::fs::read_to_string(out.join(sheet)).unwrap();
    let icons: Vec<&str> = html.split(" data-icon=\"").skip(1).collect();
    assert!(icons.len() >= 4, "{rel}: the header and footer icons");
    for icon in icons {
        let name = icon.split('"').next().unwrap();
        let rule = [format!("[data-icon={name}]"), format!("[data-icon=\"{name}\"]")];
        assert!(rule.iter().any(|r| css.contains(r)), "{rel}: no icon {name} in {sheet}");
        assert!(icon.split_once('>').unwrap().1.starts_with("</i>"), "{rel}: icon {name} is empty");
    }
}

#[test]
fn html_without_script_keeps_its_links_meta_and_structured_data() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    for (rel, data) in [
        ("articles/body-scan.html", "page-data/articles/body-scan/page-data.json"),
        ("index.html", "page-data/index/page-data.json"),
        (
            "enhance-sleep-guided-meditation.html",
            "page-data/enhance-sleep-guided-meditation/page-data.json",
        ),
        ("authors/rosa-villasenor.html", "page-data/authors/rosa-villasenor/page-data.json"),
    ] {
        let page_data: serde_json::Value = serde_json::from_str(&t.read(data)).unwrap();
        assert_no_script_page(&t.out(), rel, &t.read(rel), &page_data);
    }
}
