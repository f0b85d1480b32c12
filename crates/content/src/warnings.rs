//! Content warnings: things that build fine but are probably not what the site owner meant.
//! `stillpoint check` reports them apart from errors; they fail it only with `--deny-warnings`.

use std::fmt;
use std::path::PathBuf;

use crate::catalog::Catalog;
use crate::error::line_col;
use crate::load::Site;
use crate::topics::OTHER;

/// One warning, located like a `ContentError` (`line` 0: the whole file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentWarning {
    pub path: PathBuf,
    pub line: u32,
    pub col: u32,
    pub kind: WarningKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WarningKind {
    /// An author of data/authors.toml whom no article names.
    AuthorWithoutArticles(String),
    /// `![](url)` in an article: an image a screen reader cannot describe.
    ImageWithoutAlt(String),
    /// An `entities` entry with no subcategories: the article is filed under the category's
    /// `other` subcategory.
    FiledUnderOther { category: String },
}

/// Every warning code, as `accept` lists them (in front matter and in `[check]`).
pub const WARNING_CODES: &[&str] = &[
    "author_without_articles",
    "image_without_alt",
    "filed_under_other",
    "unknown_subcategory",
    "shortcode",
];

impl WarningKind {
    /// A stable name for machines (`check --format json`).
    pub fn code(&self) -> &'static str {
        match self {
            Self::AuthorWithoutArticles(_) => "author_without_articles",
            Self::ImageWithoutAlt(_) => "image_without_alt",
            Self::FiledUnderOther { .. } => "filed_under_other",
        }
    }

    /// A one-line suggestion of how to fix it.
    pub fn hint(&self) -> &'static str {
        match self {
            Self::AuthorWithoutArticles(_) => {
                "name the author in an article's `author`, or remove the entry (the author page lists no articles)"
            }
            Self::ImageWithoutAlt(_) => {
                "describe the image between the brackets: ![A calm lake at dawn](/images/lake.jpg)"
            }
            Self::FiledUnderOther { .. } => {
                "list the article's `subcategories` under this category, or leave it in `other` on purpose"
            }
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AuthorWithoutArticles(name) => write!(f, "author `{name}` has no articles"),
            Self::ImageWithoutAlt(url) => write!(f, "image `{url}` has no alt text"),
            Self::FiledUnderOther { category } => write!(
                f,
                "no subcategories under `{category}`: the article is filed under `{OTHER}`"
            ),
        }
    }
}

/// Every warning of a loaded site, sorted by file and line.
pub fn content_warnings(site: &Site, catalog: &Catalog) -> Vec<ContentWarning> {
    let mut out = Vec::new();
    let authors_toml =
        std::fs::read_to_string(site.root.join("data/authors.toml")).unwrap_or_default();
    for (author, articles) in site.authors.list.iter().zip(&catalog.by_author) {
        if articles.is_empty() {
            let quoted = format!("\"{}\"", author.name);
            let (line, col) =
                authors_toml.find(&quoted).map_or((0, 0), |at| line_col(&authors_toml, at));
            out.push(ContentWarning {
                path: "data/authors.toml".into(),
                line,
                col,
                kind: WarningKind::AuthorWithoutArticles(author.name.clone()),
            });
        }
    }
    for a in &site.articles {
        for img in &a.images_without_alt {
            out.push(ContentWarning {
                path: a.source.clone(),
                line: img.line,
                col: img.col,
                kind: WarningKind::ImageWithoutAlt(img.value.clone()),
            });
        }
        for e in &a.entities {
            let has_other =
                site.topics.category(&e.category.value).is_some_and(|c| c.child(OTHER).is_some());
            if e.subcategories.is_empty() && has_other {
                out.push(ContentWarning {
                    path: a.source.clone(),
                    line: e.category.line,
                    col: e.category.col,
                    kind: WarningKind::FiledUnderOther { category: e.category.value.clone() },
                });
            }
        }
    }
    out.sort_by(|a, b| (&a.path, a.line, a.col).cmp(&(&b.path, b.line, b.col)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &std::path::Path, rel: &str, text: &str) {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn reports_idle_authors_images_without_alt_and_bare_entities() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            root,
            "stillpoint.toml",
            "[site]\nid = \"s\"\ntitle = \"S\"\nurl = \"https://s.example\"\ndescription = \"d\"\n\
             start_date = \"2024-09-12\"\ncontact_email = \"a@s.example\"\n\
             [site.social]\nvideo = \"https://v\"\nfeed = \"https://f\"\nphoto = \"https://p\"\n",
        );
        write(
            root,
            "data/topics.toml",
            "[[category]]\nkey = \"calm\"\nslug = \"calm\"\ntitle = \"Calm\"\ndescription = \"d\"\n\
             [[category.children]]\nkey = \"breath\"\nslug = \"breath\"\ntitle = \"Breath\"\ndescription = \"d\"\n\
             [[category.children]]\nkey = \"other\"\nslug = \"other-calm\"\ntitle = \"Other\"\ndescription = \"d\"\n",
        );
        write(
            root,
            "data/authors.toml",
            "[[author]]\nname = \"Ana\"\ndescription = \"A.\"\nmeta_title = \"A\"\nmeta_description = \"A\"\n\n\
             [[author]]\nname = \"Ben\"\ndescription = \"B.\"\nmeta_title = \"B\"\nmeta_description = \"B\"\n",
        );
        for page in crate::pages::INFO_PAGES {
            write(root, &format!("pages/{page}.md"), "---\ntitle: P\n---\nText.\n");
        }
        write(
            root,
            "articles/a.md",
            "---\ntitle: A\nslug: a\nauthor: Ana\nentities:\n  - category: calm\n---\nText.\n\n![](/x.png) ![ok](/y.png)\n",
        );
        write(
            root,
            "articles/b.md",
            "---\ntitle: B\nslug: b\nauthor: Ana\nentities:\n  - category: calm\n    subcategories:\n      - subcategory: breath\n---\nText.\n",
        );
        let site = crate::load_site(root).unwrap_or_else(|d| panic!("{d}"));
        let catalog = crate::build_catalog(&site);
        let found: Vec<String> = content_warnings(&site, &catalog)
            .iter()
            .map(|w| format!("{}:{}:{} {}", w.path.display(), w.line, w.col, w.kind))
            .collect();
        assert_eq!(
            found,
            [
                "articles/a.md:6:15 no subcategories under `calm`: the article is filed under `other`",
                "articles/a.md:10:1 image `/x.png` has no alt text",
                "data/authors.toml:8:8 author `Ben` has no articles",
            ]
        );
    }
}
