//! Environments (`[env.NAME]`, `--env`, `STILLPOINT_ENV`): a build for another environment than
//! production points every URL at its own origin and is not indexed; switching environments in
//! one output re-renders what depends on it.

use std::collections::BTreeMap;
use std::path::Path;

use crate::util::{SiteTest, stderr, tree};

const PRODUCTION_URL: &str = "https://calm.example";
const STAGING_URL: &str = "https://staging.calm.example";
const NOINDEX: &str = "<meta name=\"robots\" content=\"noindex\">";

/// The minimal site with a staging environment.
pub fn with_staging() -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    let toml = t.site().join("stillpoint.toml");
    let mut text = std::fs::read_to_string(&toml).unwrap();
    text.push_str(&format!(
        "\n[env.staging]\nurl = \"{STAGING_URL}/\"\nbucket = \"calm-staging\"\n"
    ));
    std::fs::write(&toml, text).unwrap();
    t
}

/// Every published file of `dist` (not `.stillpoint/`), as text where it is text.
fn published(dist: &Path) -> BTreeMap<String, Vec<u8>> {
    tree(dist).into_iter().filter(|(rel, _)| !rel.starts_with(".stillpoint/")).collect()
}

fn text_files(files: &BTreeMap<String, Vec<u8>>) -> Vec<(&str, &str)> {
    files
        .iter()
        .filter_map(|(rel, b)| std::str::from_utf8(b).ok().map(|t| (rel.as_str(), t)))
        .collect()
}

fn is_error_page(rel: &str) -> bool {
    rel == "404.html" || rel == "500.html"
}

#[test]
fn a_staging_build_is_noindex_and_points_at_its_own_url() {
    let t = with_staging();
    t.build();
    let production = published(&t.out());
    let htmls: Vec<&str> =
        production.keys().filter(|k| k.ends_with(".html")).map(|k| k.as_str()).collect();
    assert!(htmls.len() > 5, "{htmls:?}");
    for (rel, text) in text_files(&production) {
        if rel.ends_with(".html") {
            assert_eq!(text.contains(NOINDEX), is_error_page(rel), "production {rel}");
        }
        assert!(!text.contains(STAGING_URL), "production {rel}");
    }
    assert!(t.read("robots.txt").contains(&format!("Sitemap: {PRODUCTION_URL}/sitemap.xml")));

    // Into the same output, with the cache of the production build; --verify compares it with a
    // clean staging build.
    let out = t.run(&["build", "site", "--out", "dist", "--env", "staging", "--verify"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.lines().next().unwrap().contains(&format!("Building staging ({STAGING_URL})")),
        "{err}"
    );
    assert!(err.contains("Verified"), "{err}");
    let staging = published(&t.out());
    // The same files, but for the site data, whose name is its digest.
    let names = |files: &BTreeMap<String, Vec<u8>>| -> Vec<String> {
        files.keys().filter(|k| !k.starts_with("page-data/sq/")).cloned().collect()
    };
    assert_eq!(names(&staging), names(&production));
    for (rel, text) in text_files(&staging) {
        if rel.ends_with(".html") {
            assert_eq!(text.matches(NOINDEX).count(), 1, "staging {rel}");
            if !is_error_page(rel) {
                let canonical = format!("<link rel=\"canonical\" href=\"{STAGING_URL}/");
                assert!(text.contains(&canonical), "staging {rel}");
                let og = format!("<meta property=\"og:url\" content=\"{STAGING_URL}/");
                assert!(text.contains(&og), "staging {rel}");
            }
        }
        // Canonical links, page data, sitemap, feeds: nothing points at production.
        assert!(!text.contains(PRODUCTION_URL), "staging {rel} names production");
    }
    assert_eq!(t.read("robots.txt"), "User-agent: *\nDisallow: /\n");
    for file in ["sitemap.xml", "rss.xml", "atom.xml"] {
        assert!(t.read(file).contains(&format!("{STAGING_URL}/articles/")), "{file}");
    }
    let info: serde_json::Value = serde_json::from_str(&t.read(".stillpoint/build.json")).unwrap();
    assert_eq!(info["env"], "staging");
    assert_eq!(info["noindex"], true);
    assert_eq!(info["site"]["url"], STAGING_URL);
    assert_eq!(info["site"]["bucket"], "calm-staging");

    // And back: the production output is the one built first, byte for byte.
    let out = t.run(&["build", "site", "--out", "dist"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("Building"), "production is named as before");
    assert!(published(&t.out()) == production, "switching back left staging files");
}

#[test]
fn dev_needs_no_section_and_stillpoint_env_names_the_environment() {
    let t = SiteTest::from_fixture("minimal");
    let out = t.run(&["check", "site", "--env", "dev"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_stillpoint"))
        .args(["build", "site", "--out", "dist"])
        .current_dir(t.tmp.path())
        .env("STILLPOINT_WEB", crate::util::web_bundle())
        .env("STILLPOINT_IMAGE_CACHE", crate::util::image_cache())
        .env("STILLPOINT_ENV", "dev")
        .env_remove("STILLPOINT_LOG")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("Building dev (https://dev.calm.example)"), "{}", stderr(&out));
    assert!(t.read("sitemap.xml").contains("<loc>https://dev.calm.example/</loc>"));
    assert!(t.read("index.html").contains(NOINDEX));
    let info: serde_json::Value = serde_json::from_str(&t.read(".stillpoint/build.json")).unwrap();
    assert_eq!(
        (info["env"].as_str(), info["site"]["bucket"].as_str()),
        (Some("dev"), Some("calm-site-dev"))
    );
}

#[test]
fn an_unknown_environment_lists_the_known_ones() {
    let t = with_staging();
    for args in [&["build", "site", "--env", "stagin"][..], &["check", "site", "--env", "stagin"]] {
        let out = t.run(args);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("no environment `stagin`"), "{args:?}: {err}");
        assert!(err.contains("production, dev, staging"), "{args:?}: {err}");
    }
    assert!(!t.out().exists(), "a failed build writes nothing");
}

#[test]
fn an_unknown_key_in_an_env_section_names_file_and_line() {
    let t = with_staging();
    let toml = t.site().join("stillpoint.toml");
    let text = std::fs::read_to_string(&toml).unwrap() + "noindex = false\n";
    let line = text.lines().count();
    std::fs::write(&toml, text).unwrap();
    let out = t.run(&["check", "site"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains(&format!("stillpoint.toml:{line}")), "{err}");
    assert!(err.contains("noindex"), "{err}");
}
