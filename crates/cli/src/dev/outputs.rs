//! What a build changed in the output as far as the browser cares, read from the paths the
//! build reports as new, changed or gone (through the output layout, `stillpoint_dist::layout`):
//! the routes whose page data or HTML changed (an article's body is in its HTML only), and
//! whether the web bundle (its build hash, CSS or JS files) did.

use std::path::Path;

use stillpoint_dist::layout::{self, APP_DATA, ASSETS_DIR};

/// The difference a build made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diff {
    /// Changed, added or removed routes, sorted.
    pub pages: Vec<String>,
    pub bundle: bool,
    pub css: bool,
    pub js: bool,
}

impl Diff {
    /// From the output paths a build changed (see `BuildReport::changed`).
    pub fn of(changed: &[String]) -> Self {
        let mut diff = Diff::default();
        for path in changed {
            if path == APP_DATA {
                diff.bundle = true;
            } else if let Some(route) = layout::route_of(path) {
                diff.pages.push(route.into());
            } else if let Some(asset) =
                path.strip_prefix(ASSETS_DIR).and_then(|p| p.strip_prefix('/'))
            {
                diff.css |= asset.ends_with(".css");
                diff.js |= asset.ends_with(".js");
            }
        }
        diff.pages.sort();
        diff.pages.dedup();
        diff
    }
}

/// The build hash the output at `dist` was built with.
pub fn build_hash(dist: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dist.join(APP_DATA)).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value["webpackCompilationHash"].as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_changed_pages_and_the_bundle() {
        let changed: Vec<String> = [
            "articles/a.html",
            "page-data/articles/a/page-data.json",
            "page-data/index/page-data.json",
            "page-data/sq/d/123.json",
            "search/manifest.json",
        ]
        .map(String::from)
        .into();
        assert_eq!(
            Diff::of(&changed),
            Diff { pages: vec!["/".into(), "/articles/a".into()], ..Diff::default() }
        );
        // An article whose body alone changed: its HTML, not its page-data.
        let body: Vec<String> = ["articles/b.html"].map(String::from).into();
        assert_eq!(Diff::of(&body), Diff { pages: vec!["/articles/b".into()], ..Diff::default() });
        let bundle: Vec<String> =
            ["assets/entry-2.css", "page-data/app-data.json"].map(String::from).into();
        assert_eq!(Diff::of(&bundle), Diff { bundle: true, css: true, ..Diff::default() });
        assert_eq!(Diff::of(&[]), Diff::default());
    }

    #[test]
    fn reads_the_build_hash() {
        let tmp = tempfile::tempdir().unwrap();
        assert_eq!(build_hash(tmp.path()), None);
        std::fs::create_dir_all(tmp.path().join("page-data")).unwrap();
        std::fs::write(
            tmp.path().join("page-data/app-data.json"),
            r#"{"webpackCompilationHash":"h1"}"#,
        )
        .unwrap();
        assert_eq!(build_hash(tmp.path()).as_deref(), Some("h1"));
    }
}
