//! `stillpoint build` on the minimal fixture: output layout, page-data, determinism, and a
//! failed build leaving the previous output untouched.

use crate::util::{SiteTest, stderr, title_and_description, tree};

#[test]
fn writes_every_kind_of_file() {
    let t = SiteTest::from_fixture("minimal");
    let out = t.build();
    let err = stderr(&out);
    assert!(
        err.contains("Built ")
            && err.contains(" pages (3 articles) in ")
            && err.contains("rendered "),
        "{err}"
    );
    for f in [
        "index.html",
        "404.html",
        "500.html",
        "authors.html",
        "authors/rosa-villasenor.html",
        "articles/body-scan.html",
        "enhance-sleep-guided-meditation.html",
        "enhance-sleep-guided-meditation/guided-meditation-for-sleep.html",
        "enhance-sleep-guided-meditation/guided-meditation-for-sleep/body-scan.html",
        "anxiety-management/other/box-breathing.html",
        "info/about-us.html",
        "privacy-policy.html",
        "terms.html",
        "sitemap.html",
        "page-data/index/page-data.json",
        "page-data/articles/body-scan/page-data.json",
        "page-data/app-data.json",
        "slice-data/header.json",
        "slice-data/footer.json",
        "sitemap.xml",
        "robots.txt",
        "rss.xml",
        "atom.xml",
        "icons/calm-logo-small.png",
    ] {
        assert!(t.out().join(f).is_file(), "missing {f}");
    }
    let (title, desc) = title_and_description(&t.read("404.html"));
    assert_eq!(title, "Page Not Found | Calm Test");
    assert_eq!(
        desc,
        "Oops! The page you&#39;re looking for doesn&#39;t exist. But don&#39;t worry, let&#39;s get you back to a calm state of mind."
    );
}

/// Everything at the top of a built site is a name the output layout lists, a category's page or
/// folder, or a file of `static/`: the list that category slugs are checked against is complete.
#[test]
fn the_layout_lists_everything_written_at_the_top() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    let site = stillpoint_content::load_site(&t.site()).unwrap();
    let categories: Vec<&str> =
        site.topics.categories.iter().map(|c| c.topic.slug.as_str()).collect();
    let mut names: Vec<String> = std::fs::read_dir(t.out())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in &names {
        let category = categories.contains(&name.trim_end_matches(".html"));
        let from_static = t.site().join("static").join(name).exists();
        assert!(
            stillpoint_site::is_top_level(name) || category || from_static,
            "`{name}` is written at the top but not listed by the layout: {:?}",
            stillpoint_site::top_level()
        );
    }
    assert!(
        names.iter().any(|n| n == "index.html") && names.iter().any(|n| n == "sw.js"),
        "{names:?}"
    );
}

/// `og:image` is the site's origin and the image's path, or an absolute image URL as written.
#[test]
fn og_image_is_an_absolute_url() {
    let t = SiteTest::from_fixture("minimal");
    let add_image = |file: &str, image: &str| {
        let path = t.site().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen("slug:", &format!("image: {image}\nslug:"), 1))
            .unwrap();
    };
    add_image("articles/body-scan.md", "https://cdn.example/covers/scan.png");
    add_image("articles/breathing.md", "/images/breathing.svg");
    std::fs::create_dir_all(t.site().join("static/images")).unwrap();
    std::fs::write(
        t.site().join("static/images/breathing.svg"),
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 9"/>"#,
    )
    .unwrap();
    t.build();
    let og = |page: &str| {
        let html = t.read(page);
        crate::util::between(&html, "<meta property=\"og:image\" content=\"", "\"")
            .map(str::to_string)
    };
    assert_eq!(
        og("articles/body-scan.html").as_deref(),
        Some("https://cdn.example/covers/scan.png")
    );
    let origin = std::fs::read_to_string(t.site().join("stillpoint.toml")).unwrap();
    let origin = crate::util::between(&origin, "url = \"", "\"").unwrap().to_string();
    assert_eq!(og("articles/breathing.html"), Some(format!("{origin}/images/breathing.svg")));
}

#[test]
fn other_fallbacks_are_built() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    // `breathing` names a subcategory that is not a child of anxietyManagement → `other`,
    // and has a sleepEnhancement entity without subcategories → sleep's `other`.
    let anxiety_other: serde_json::Value =
        serde_json::from_str(&t.read("page-data/anxiety-management/other/page-data.json")).unwrap();
    let hrefs: Vec<&str> = anxiety_other["result"]["pageContext"]["articles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["href"].as_str().unwrap())
        .collect();
    assert_eq!(hrefs, ["/articles/breathing"]);
    let sleep_other =
        t.read("page-data/enhance-sleep-guided-meditation/other-sleep-topics/page-data.json");
    assert!(sleep_other.contains("\"href\":\"/articles/breathing\""));
}

#[test]
fn article_page_data_and_head() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    let page: serde_json::Value =
        serde_json::from_str(&t.read("page-data/articles/body-scan/page-data.json")).unwrap();
    let app: serde_json::Value = serde_json::from_str(&t.read("page-data/app-data.json")).unwrap();
    assert_eq!(page["webpackCompilationHash"], app["webpackCompilationHash"]);
    let site_hash = page["staticQueryHashes"][0].as_str().unwrap();
    assert!(t.out().join(format!("page-data/sq/d/{site_hash}.json")).is_file());
    let props = &page["result"]["pageContext"];
    assert!(props.get("bodyHtml").is_none(), "the body is in the article's HTML only");
    insta::assert_json_snapshot!("article_props", props);

    let html = t.read("articles/body-scan.html");
    let body = crate::util::between(&html, "data-body=\"\">", "</div>").unwrap();
    assert!(body.starts_with("<p>"), "the HTML holds the body: {body}");
    let head = crate::util::between(&html, "<head>", "</head>").unwrap();
    let head: String =
        head.lines().filter(|l| !l.contains("/assets/")).collect::<Vec<_>>().join("\n");
    insta::assert_snapshot!("article_head", head);
    assert!(html.contains("<div id=\"sp-header\">") && html.contains("<div id=\"sp-footer\">"));
    assert!(!html.contains("<script>alert"), "sponsored HTML is sanitised");
    assert!(!html.contains("javascript:"));
    assert!(html.contains(r#"rel="sponsored noopener""#));
}

#[test]
fn same_input_gives_byte_identical_output() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    let first = tree(&t.out());
    t.build();
    assert!(first == tree(&t.out()), "two builds of the same input differ");
}

#[test]
fn failed_build_leaves_previous_output_untouched() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    let before = tree(&t.out());
    crate::util::copy_sources(&crate::util::fixtures().join("invalid/unknown_category"), &t.site());
    let out = t.run(&["build", "site", "--out", "dist"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("nothing was written"), "{}", stderr(&out));
    assert!(before == tree(&t.out()), "the previous output changed");
    let leftovers: Vec<_> =
        std::fs::read_dir(t.tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 3, "only dist, its generations and the site: {leftovers:?}");
}

#[test]
fn missing_node_is_one_clear_line_and_keeps_output() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    let before = tree(&t.out());
    let out =
        t.run(&["build", "site", "--out", "dist", "--no-cache", "--node", "/nonexistent/node"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("error: Node.js 20 or newer is needed to render pages"), "{err}");
    assert!(before == tree(&t.out()));
}

#[test]
fn missing_web_bundle_says_where_it_looked() {
    let t = SiteTest::from_fixture("minimal");
    let out = t.run(&["build", "site", "--out", "dist", "--web", "/nonexistent/web"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("the web bundle was not found (looked in /nonexistent/web)"),
        "{}",
        stderr(&out)
    );
}
