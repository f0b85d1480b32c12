//! What a build changed in the output as far as the browser cares, from the outputs it reports
//! as changed (`stillpoint_dist::Changed`): the routes whose page data or HTML changed (an
//! article's body is in its HTML only), and whether the web bundle (its build hash, CSS or JS
//! files) did.

use std::path::Path;

use stillpoint_dist::layout::APP_DATA;
use stillpoint_dist::{Changed, Output};

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
    /// From the files a build changed (see `BuildReport::changed`).
    pub fn of(changed: &[Changed]) -> Self {
        let mut diff = Diff::default();
        for c in changed {
            match c.output {
                Output::AppData => diff.bundle = true,
                Output::Page | Output::RedirectPage | Output::Static => {
                    diff.pages.extend(c.route().map(Into::into));
                }
                Output::Asset => {
                    diff.css |= c.file.ends_with(".css");
                    diff.js |= c.file.ends_with(".js");
                }
                _ => {}
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
        let changed = [
            Changed::new("articles/a.html", Output::Page),
            Changed::new("page-data/articles/a/page-data.json", Output::Page),
            Changed::new("page-data/index/page-data.json", Output::Page),
            Changed::new("page-data/sq/d/123.json", Output::SiteData),
            Changed::new("search/manifest.json", Output::SearchIndex),
            // A static HTML file is shown at its route; other static files are no page.
            Changed::new("welcome.html", Output::Static),
            Changed::new("favicon.ico", Output::Static),
        ];
        assert_eq!(
            Diff::of(&changed),
            Diff {
                pages: vec!["/".into(), "/articles/a".into(), "/welcome".into()],
                ..Diff::default()
            }
        );
        // An article whose body alone changed: its HTML, not its page-data.
        let body = [Changed::new("articles/b.html", Output::Page)];
        assert_eq!(Diff::of(&body), Diff { pages: vec!["/articles/b".into()], ..Diff::default() });
        let bundle = [
            Changed::new("assets/entry-2.css", Output::Asset),
            Changed::new(APP_DATA, Output::AppData),
        ];
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
