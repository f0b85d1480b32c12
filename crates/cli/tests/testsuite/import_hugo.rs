//! `stillpoint import hugo`: the real Hugo extracts in tests/fixtures/hugo/ converted with the
//! real binary, the files it writes read back, and its check step on a site of fields `check`
//! accepts today.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::util::{SiteTest, fixtures, stderr};

fn empty() -> SiteTest {
    SiteTest { tmp: tempfile::tempdir().unwrap() }
}

fn import(t: &SiteTest, hugo: &Path) -> Output {
    t.run(&["import", "hugo", hugo.to_str().unwrap(), "site"])
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The front matter of an article the import wrote, as JSON.
fn front(t: &SiteTest, slug: &str) -> (Value, String) {
    let path = t.site().join("articles/hugo").join(format!("{slug}.md"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rest = text.strip_prefix("---\n").expect("front matter first");
    let (yaml, body) = rest.split_once("\n---\n").expect("a closing fence");
    (serde_saphyr::from_str(yaml).unwrap(), body.to_string())
}

/// A Hugo site written in the test: `(path under the Hugo folder, text)`.
fn hugo_site(t: &SiteTest, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = t.tmp.path().join("hugo");
    for (rel, text) in files {
        std::fs::create_dir_all(dir.join(rel).parent().unwrap()).unwrap();
        std::fs::write(dir.join(rel), text).unwrap();
    }
    dir
}

#[test]
fn the_basic_example_converts_with_its_counts() {
    let t = empty();
    let out = import(&t, &fixtures().join("hugo/basic"));
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(report.contains(": 2 converted cleanly, 3 with notes, 3 not converted."), "{report}");
    // The report names each loss at its file and line.
    for line in [
        "content/post/rich-content.md:26: `twitter_simple` embed became a link to https://x.com/designreviewed/status/1085870671291310081",
        "content/post/math-typesetting.md:29: `math.inline` is an inline shortcode",
        "content/homepage/index.md:1: not imported: a headless page",
        "content/post/_index.md:1: not imported: a section page",
    ] {
        assert!(report.contains(line), "{line}\n{report}");
    }
    // Then the check of the new site: clean, but for the fields `check` may not accept yet
    // (`aliases`, `updated`, `draft`), which it reports without failing the import.
    let check = report.split_once("\nCheck: ").expect("a check section").1;
    if !check.starts_with("no errors") {
        let pending = ["`aliases`", "`updated`", "`draft`"];
        for line in check.lines().skip(1) {
            assert!(pending.iter().any(|f| line.contains(&format!("unknown field {f}"))), "{line}");
        }
    }

    // The site is complete, named and addressed like the Hugo one.
    let config = std::fs::read_to_string(t.site().join("stillpoint.toml")).unwrap();
    assert!(
        config.contains("title = \"Hugo Themes\"")
            && config.contains("url = \"https://gohugo.io\""),
        "{config}"
    );
    for f in ["data/topics.toml", "pages/terms.md", "static/icons/hugo-themes-logo-small.png"] {
        assert!(t.site().join(f).is_file(), "{f}");
    }
    assert!(!t.site().join("articles/three-minute-breathing-space.md").exists());
    let authors = std::fs::read_to_string(t.site().join("data/authors.toml")).unwrap();
    assert!(authors.contains("name = \"Hugo Authors\""), "{authors}");

    // TOML front matter (markdown-syntax.md), with its own alias and its Hugo address.
    let (fm, body) = front(&t, "markdown-syntax");
    assert_eq!(fm["title"], "Markdown Syntax Guide");
    assert_eq!(fm["date"], "2019-03-11");
    assert_eq!(fm["author"], "Hugo Authors");
    assert_eq!(fm["aliases"], serde_json::json!(["/migrate-from-jekyl", "/post/markdown-syntax/"]));
    assert_eq!(
        fm["entities"],
        serde_json::json!([{"category": "mindfulnessMeditation", "subcategories": [{"subcategory": "other"}]}])
    );
    assert!(body.contains("## Headings"));
    // YAML front matter; the videos as Stillpoint's embeds, the post as a link.
    let (fm, body) = front(&t, "rich-content");
    assert_eq!(fm["description"], "A brief description of Hugo Shortcodes");
    assert!(body.contains("\n::youtube[Video]{id=ZJthWmvUzzc}\n"), "{body}");
    assert!(body.contains("\n::vimeo[Video]{id=48912912}\n"), "{body}");
    assert!(body.contains("(https://x.com/designreviewed/status/1085870671291310081)"));
    assert!(!body.contains("{{< youtube"));

    // Every tag and category seen, for the owner to map.
    let mapping = std::fs::read_to_string(t.site().join("import-hugo.toml")).unwrap();
    let mapping: toml::Table = toml::from_str(&mapping).unwrap();
    assert_eq!(mapping["fallback"].as_str(), Some("mindfulnessMeditation/other"));
    assert_eq!(mapping["categories"]["syntax"].as_str(), Some(""));
    assert_eq!(mapping["tags"]["shortcodes"].as_str(), Some(""));
}

#[test]
fn bundles_bring_their_images_and_refs_become_addresses() {
    let t = empty();
    let hugo = fixtures().join("hugo/bundles");
    let out = import(&t, &hugo);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(report.contains(": 0 converted cleanly, 4 with notes, 2 not converted."), "{report}");
    assert!(
        report.contains("1 translation not imported (content/docs/getting-started/index.ja.md"),
        "{report}"
    );
    assert!(report.contains("content/docs/getting-started/index.md:11: `alert` is not one of Hugo's built-in shortcodes"), "{report}");
    // The title of a multilingual site is in languages.{lang}.toml.
    let config = std::fs::read_to_string(t.site().join("stillpoint.toml")).unwrap();
    assert!(config.contains("title = \"Congo\""), "{config}");

    let shot = "docs/getting-started/article-screenshot.jpg";
    assert_eq!(
        std::fs::read(t.site().join("static/images/getting-started/article-screenshot.jpg"))
            .unwrap(),
        std::fs::read(hugo.join("content").join(shot)).unwrap()
    );
    let (fm, body) = front(&t, "getting-started");
    // The bundle's `thumb*` image is the cover; the figure's relative src is rewritten.
    assert_eq!(fm["image"], "/images/getting-started/thumb-choose.svg");
    assert!(body.contains("![A screenshot of an article with a thumbnail image](/images/getting-started/article-screenshot.jpg "), "{body}");
    assert!(body.contains("[installed the Congo theme](/articles/installation)"), "{body}");
    assert_eq!(fm["aliases"], serde_json::json!(["/docs/getting-started/"]));
    assert!(t.site().join("static/images/installation/thumb-cloud-files.svg").is_file());
    // `summary` is the description when there is no `description`... and `description` wins.
    let (fm, _) = front(&t, "rich-content");
    assert_eq!(fm["description"], "A brief description of Rich Content");
}

#[test]
fn a_site_of_accepted_fields_checks_clean_and_the_mapping_applies() {
    let t = empty();
    let hugo = hugo_site(
        &t,
        &[
            ("hugo.toml", "title = \"Calm Notes\"\nbaseURL = \"https://calm.example/\"\n"),
            (
                "content/articles/box-breathing.md",
                "+++\ntitle = \"Box Breathing\"\ndate = 2024-05-01T08:00:00Z\nsummary = \"Four counts.\"\ntags = [\"breath\"]\n+++\nIn for four, hold for four. See [the scan]({{< relref \"body-scan\" >}}).\n",
            ),
            (
                "content/articles/body-scan/index.md",
                "---\ntitle: Body Scan\ndate: 2024-06-02\ncategories: [Sleep]\nfeatured_image: lake.svg\n---\n{{< figure src=\"lake.svg\" alt=\"A lake\" caption=\"Still water\" >}}\n\n{{< highlight sh >}}\necho breathe\n{{< /highlight >}}\n",
            ),
            (
                "content/articles/body-scan/lake.svg",
                r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 3"/>"#,
            ),
        ],
    );
    let out = import(&t, &hugo);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(report.contains(": 2 converted cleanly, 0 with notes, 0 not converted."), "{report}");
    assert!(report.contains("Check: no errors"), "{report}");
    let (fm, body) = front(&t, "body-scan");
    assert_eq!(fm["image"], "/images/body-scan/lake.svg");
    assert!(fm.get("aliases").is_none(), "the Hugo address is the Stillpoint one: {fm}");
    assert_eq!(
        body,
        "![A lake](/images/body-scan/lake.svg)\n\n*Still water*\n\n```sh\necho breathe\n```\n"
    );
    assert!(front(&t, "box-breathing").1.contains("[the scan](/articles/body-scan)"));
    assert!(t.run(&["check", "site"]).status.success());

    // The owner maps the terms; the import applies them.
    let path = t.site().join("import-hugo.toml");
    let mapping = std::fs::read_to_string(&path).unwrap();
    let mapping = mapping
        .replace(
            "\"Sleep\" = \"\"",
            "\"Sleep\" = \"sleepEnhancement/guidedMeditationForSleep/body scan\"",
        )
        .replace("\"breath\" = \"\"", "\"breath\" = \"stressReduction\"");
    std::fs::write(&path, mapping).unwrap();
    let out = import(&t, &hugo);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("every tag and category has a target"), "{}", stdout(&out));
    assert_eq!(
        front(&t, "body-scan").0["entities"],
        serde_json::json!([{"category": "sleepEnhancement", "subcategories": [{"subcategory": "guidedMeditationForSleep", "subsubcategories": ["body scan"]}]}])
    );
    assert_eq!(
        front(&t, "box-breathing").0["entities"],
        serde_json::json!([{"category": "stressReduction"}])
    );

    // A target the topic tree does not have stops the import at its line.
    let mapping =
        std::fs::read_to_string(&path).unwrap().replace("\"stressReduction\"", "\"stress\"");
    std::fs::write(&path, &mapping).unwrap();
    let line = mapping.lines().position(|l| l.contains("\"stress\"")).unwrap() + 1;
    let out = import(&t, &hugo);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains(&format!("import-hugo.toml:{line}: `stress` is not a category key")),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_existing_site_gets_the_articles_and_keeps_its_slugs() {
    let t = empty();
    assert!(t.run(&["new", "site"]).status.success());
    let hugo = hugo_site(
        &t,
        &[
            ("config.yaml", "title: Other\npermalinks:\n  post: /:year/:slug/\n"),
            (
                "content/post/three-minute-breathing-space.md",
                "---\ntitle: Breathing Space\nlastmod: 2025-01-02\ndraft: true\nurl: /old/breathing.html\ncover:\n  image: /img/c.jpg\n---\nBody.\n",
            ),
            ("content/post/bad.md", "+++\ntitle = \"Bad\"\ntitle = \"Twice\"\n+++\n"),
        ],
    );
    let out = import(&t, &hugo);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(!report.contains("Created the site"), "{report}");
    assert!(report.contains(": 0 converted cleanly, 1 with notes, 1 not converted."), "{report}");
    assert!(report.contains("content/post/bad.md:3: not imported: TOML front matter"), "{report}");
    assert!(
        report.contains(
            "the slug `three-minute-breathing-space` is taken: `three-minute-breathing-space-2`"
        ),
        "{report}"
    );
    // The site's own article and configuration are untouched.
    assert!(t.site().join("articles/three-minute-breathing-space.md").is_file());
    assert!(
        std::fs::read_to_string(t.site().join("stillpoint.toml"))
            .unwrap()
            .contains("title = \"Site\"")
    );
    let (fm, _) = front(&t, "three-minute-breathing-space-2");
    assert_eq!(fm["updated"], "2025-01-02");
    assert_eq!(fm["draft"], true);
    assert_eq!(fm["image"], "/img/c.jpg");
    assert_eq!(fm["aliases"], serde_json::json!(["/old/breathing.html"]));
}

#[test]
fn refuses_what_is_not_a_hugo_site_or_a_stillpoint_site() {
    let t = empty();
    let out = t.run(&["import", "hugo", "nowhere", "site"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("nowhere has no content/ folder"), "{}", stderr(&out));
    let hugo =
        hugo_site(&t, &[("content/a.md", "---\ntitle: A\n---\n"), ("config.yaml", "title: [\n")]);
    let out = import(&t, &hugo);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("config.yaml:1: invalid YAML"), "{}", stderr(&out));
    std::fs::remove_file(hugo.join("config.yaml")).unwrap();
    std::fs::create_dir_all(t.site()).unwrap();
    std::fs::write(t.site().join("notes.txt"), "mine").unwrap();
    let out = import(&t, &hugo);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("is neither an empty folder nor a Stillpoint site"),
        "{}",
        stderr(&out)
    );
}
