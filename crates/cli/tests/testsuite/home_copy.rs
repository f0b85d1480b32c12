//! The owner's words and no thin pages: `[home]` and `[not_found]` texts reach the pages, an empty
//! home section is not rendered, and a topic with no articles keeps its page but is not in
//! sitemap.xml, asks robots not to index it, and is left out of the navigation unless
//! `[menu] empty_topics = true`; `check` warns about them once.

use crate::util::{SiteTest, edit, stderr, title_and_description, tree, walk};

const COPY: &str = r#"
[home]
title = "Still Waters Meditation"
heading = "Sit by still water"
lead = "Short practices for busy days."

[home.popular]
title = "Most Linked"

[not_found]
heading = "Nothing here"
text = "This page drifted away."
"#;

/// An empty subcategory in a category with articles, and a category with no articles at all.
const EMPTY_TOPICS: &str = r#"
  [[category.children]]
  key = "sleepHygienePractices"
  slug = "sleep-hygiene-practices"
  title = "🧼 Sleep Hygiene Practices"
  description = "🛏️ Habits."

  [[category.children]]
  key = "other""#;

const FOCUS: &str = r#"
[[category]]
key = "focusAndProductivity"
slug = "focus-and-productivity"
title = "🎯 Focus and Productivity"
description = "🧭 Focus."

  [[category.children]]
  key = "other"
  slug = "other-focus"
  title = "✨ Other Focus Topics"
  description = "🔎 Everything else."
"#;

const THIN: [&str; 3] = [
    "/enhance-sleep-guided-meditation/sleep-hygiene-practices",
    "/focus-and-productivity",
    "/focus-and-productivity/other-focus",
];

fn site() -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    let config = t.site().join("stillpoint.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, format!("{text}{COPY}")).unwrap();
    // The sleep category's `other` child is its last: the new child goes before it.
    edit(&t, "data/topics.toml", "\n  [[category.children]]\n  key = \"other\"", EMPTY_TOPICS);
    let topics = t.site().join("data/topics.toml");
    let text = std::fs::read_to_string(&topics).unwrap();
    std::fs::write(&topics, format!("{text}{FOCUS}")).unwrap();
    t
}

/// The site-wide data the header's menu and the footer are rendered from.
fn site_data(t: &SiteTest) -> String {
    let dir = t.out().join("page-data/sq/d");
    let files = walk(&dir);
    assert_eq!(files.len(), 1, "{files:?}");
    std::fs::read_to_string(&files[0]).unwrap()
}

const NOINDEX: &str = "<meta name=\"robots\" content=\"noindex\">";

#[test]
fn the_home_and_404_pages_say_what_the_owner_wrote() {
    let t = site();
    t.build();
    let home = t.read("index.html");
    let (title, description) = title_and_description(&home);
    assert_eq!(title, "Still Waters Meditation | Calm Test");
    assert_eq!(description, "A minimal site for tests.", "the default: site.description");
    assert!(home.contains(">Sit by still water</h1>"), "{home}");
    assert!(home.contains("Short practices for busy days."));
    assert!(!home.contains("calmer you") && !home.contains("teachers, coaches"));
    // Three articles fill the featured block: no heading over an empty section.
    assert!(!home.contains("<h2 id=\"top-stories\""), "empty Top Stories rendered");
    assert!(!home.contains("Most Linked") && !home.contains("Have More Awesome Stuff"));
    let data = t.read("page-data/index/page-data.json");
    assert!(data.contains("\"heading\":\"Sit by still water\""), "{data}");

    let not_found = t.read("404.html");
    let (title, description) = title_and_description(&not_found);
    assert_eq!(title, "Page Not Found | Calm Test");
    assert_eq!(description, "This page drifted away.");
    assert!(not_found.contains(">Nothing here</h1>"));
    assert!(!not_found.contains("Oops!"));
}

#[test]
fn topics_with_no_articles_keep_their_page_but_are_not_listed_or_indexed() {
    let t = site();
    t.build();
    let sitemap = t.read("sitemap.xml");
    let menu = site_data(&t);
    let html_sitemap = t.read("sitemap.html");
    let category = t.read("enhance-sleep-guided-meditation.html");
    for path in THIN {
        let page = t.read(&format!("{}.html", &path[1..]));
        assert!(page.contains(NOINDEX), "{path} is indexed");
        assert!(!sitemap.contains(&format!("calm.example{path}<")), "{path} in sitemap.xml");
        assert!(!menu.contains(&format!("\"{path}\"")), "{path} in the menu");
        assert!(!html_sitemap.contains(&format!("href=\"{path}\"")), "{path} in /sitemap");
        assert!(!category.contains(&format!("href=\"{path}\"")), "{path} on its category page");
    }
    for path in
        ["/enhance-sleep-guided-meditation/guided-meditation-for-sleep", "/anxiety-management"]
    {
        let page = t.read(&format!("{}.html", &path[1..]));
        assert!(!page.contains(NOINDEX), "{path} is not indexed");
        assert!(sitemap.contains(&format!("calm.example{path}<")), "{path} not in sitemap.xml");
        assert!(menu.contains(&format!("\"{path}\"")), "{path} not in the menu");
    }

    // One warning for the site, naming the count and the first topics.
    let out = t.run(&["check", "site"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("no articles yet")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].contains(
            "3 topics have no articles yet: 😴 Sleep Enhancement → 🧼 Sleep Hygiene Practices, \
             🎯 Focus and Productivity, 🎯 Focus and Productivity → ✨ Other Focus Topics; \
             their pages are left out of sitemap.xml and the menu and not indexed"
        ),
        "{err}"
    );
    assert!(err.contains("data/topics.toml:"), "{err}");

    // Listed in the menu on request; still neither in sitemap.xml nor indexed.
    let config = t.site().join("stillpoint.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, format!("{text}\n[menu]\nempty_topics = true\n")).unwrap();
    t.build();
    let sitemap = t.read("sitemap.xml");
    let menu = site_data(&t);
    for path in THIN {
        assert!(menu.contains(&format!("\"{path}\"")), "{path} not in the menu");
        assert!(t.read(&format!("{}.html", &path[1..])).contains(NOINDEX));
        assert!(!sitemap.contains(&format!("calm.example{path}<")));
    }
    assert!(t.read("sitemap.html").contains(&format!("href=\"{}\"", THIN[0])));
    let err = stderr(&t.run(&["check", "site"]));
    assert!(err.contains("their pages are left out of sitemap.xml and not indexed"), "{err}");
}

#[test]
fn editing_the_home_heading_rebuilds_the_home_page() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    let before = tree(&t.out());
    let config = t.site().join("stillpoint.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, format!("{text}\n[home]\nheading = \"Sit by still water\"\n")).unwrap();
    let out = t.run(&["build", "site", "--out", "dist", "--verify"]);
    let err = stderr(&out);
    assert!(out.status.success() && err.contains("Verified"), "{err}");
    let after = tree(&t.out());
    let changed: Vec<&str> = after
        .iter()
        .filter(|(path, bytes)| {
            before.iter().find(|(p, _)| p == path).map(|(_, b)| b) != Some(bytes)
        })
        .map(|(path, _)| path.as_str())
        .collect();
    assert!(changed.contains(&"index.html"), "{changed:?}");
    assert!(!changed.contains(&"articles/body-scan.html"), "{changed:?}");
    assert!(t.read("index.html").contains(">Sit by still water</h1>"));
}

#[test]
fn invalid_copy_is_an_error_at_its_line() {
    let t = SiteTest::from_fixture("minimal");
    let config = t.site().join("stillpoint.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let lines = text.lines().count();
    std::fs::write(&config, format!("{text}[home]\nheadng = \"x\"\n")).unwrap();
    let err = stderr(&t.run(&["check", "site"]));
    assert!(err.contains(&format!("stillpoint.toml:{}:1", lines + 2)), "{err}");
    assert!(err.contains("unknown field `headng`") && err.contains("`heading`"), "{err}");
    std::fs::write(&config, format!("{text}[not_found]\nheading = \"\"\n")).unwrap();
    let err = stderr(&t.run(&["check", "site"]));
    assert!(err.contains("`not_found.heading`: must not be empty"), "{err}");
}
