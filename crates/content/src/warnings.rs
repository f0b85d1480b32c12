//! Content warnings: things that build fine but are probably not what the site owner meant.
//! `stillpoint check` reports them apart from errors; they fail it only with `--deny-warnings`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::article::scan_body;
use crate::catalog::Catalog;
use crate::error::line_col;
use crate::load::Site;
use crate::suggest::did_you_mean;
use crate::topics::OTHER;
use crate::warning::{ContentWarning, WarningKind};

/// Every warning of a loaded site, sorted by file and line.
pub fn content_warnings(site: &Site, catalog: &Catalog) -> Vec<ContentWarning> {
    let mut out = Vec::new();
    let authors_toml =
        std::fs::read_to_string(site.root.join(crate::AUTHORS_FILE)).unwrap_or_default();
    for (author, articles) in site.authors.list.iter().zip(&catalog.by_author) {
        if articles.is_empty() {
            let quoted = format!("\"{}\"", author.name);
            let (line, col) =
                authors_toml.find(&quoted).map_or((0, 0), |at| line_col(&authors_toml, at));
            out.push(ContentWarning {
                path: crate::AUTHORS_FILE.into(),
                line,
                col,
                kind: WarningKind::AuthorWithoutArticles(author.name.clone()),
            });
        }
    }
    let redirected = crate::redirects::exact_targets(site);
    for page in &site.pages {
        for code in scan_body(&page.body, page.body_line).shortcodes {
            out.push(ContentWarning {
                path: format!("pages/{}.md", page.name).into(),
                line: code.line,
                col: code.col,
                kind: WarningKind::Shortcode(code.value),
            });
        }
    }
    for a in &site.articles {
        for link in &a.links {
            let key = crate::redirects::normalize_path(&link.value).unwrap_or_default();
            if let Some(to) = redirected.get(key.as_str()) {
                out.push(ContentWarning {
                    path: a.source.clone(),
                    line: link.line,
                    col: link.col,
                    kind: WarningKind::RedirectedLink { link: link.value.clone(), to: to.clone() },
                });
            }
        }
        for img in &a.images_without_alt {
            out.push(ContentWarning {
                path: a.source.clone(),
                line: img.line,
                col: img.col,
                kind: WarningKind::ImageWithoutAlt(img.value.clone()),
            });
        }
        if let Some(image) = &a.image
            && a.image_alt.is_none()
        {
            out.push(ContentWarning {
                path: a.source.clone(),
                line: image.line,
                col: image.col,
                kind: WarningKind::CoverWithoutAlt(image.value.clone()),
            });
        }
        for code in &a.shortcodes {
            out.push(ContentWarning {
                path: a.source.clone(),
                line: code.line,
                col: code.col,
                kind: WarningKind::Shortcode(code.value.clone()),
            });
        }
        for e in &a.entities {
            let category = site.topics.category(&e.category.value);
            for sub in &e.subcategories {
                let Some(category) = category else { break };
                if category.child(&sub.subcategory).is_none() {
                    let keys = category.children.iter().map(|c| c.key.as_str());
                    out.push(ContentWarning {
                        path: a.source.clone(),
                        line: sub.line,
                        col: sub.col,
                        kind: WarningKind::UnknownSubcategory {
                            category: e.category.value.clone(),
                            subcategory: sub.subcategory.clone(),
                            suggestion: did_you_mean(&sub.subcategory, keys).map(str::to_string),
                        },
                    });
                }
            }
            let has_other = category.is_some_and(|c| c.child(OTHER).is_some());
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
    for e in &site.draft_problems {
        out.push(ContentWarning {
            path: e.path.clone(),
            line: e.line,
            col: e.col,
            kind: WarningKind::InDraft {
                code: e.kind.code(),
                message: e.kind.to_string(),
                hint: e.kind.hint(),
            },
        });
    }
    crate::placeholders::placeholder_warnings(site, &mut out);
    let mut links = site.symlinks.clone();
    static_symlinks(&site.root, Path::new("static"), &mut links);
    out.extend(links.into_iter().map(|path| ContentWarning {
        path,
        line: 0,
        col: 0,
        kind: WarningKind::SymlinkNotFollowed,
    }));
    out.extend(crate::thin::empty_topics_warning(site, catalog));
    out.sort_by(|a, b| (&a.path, a.line, a.col).cmp(&(&b.path, b.line, b.col)));
    out
}

/// The warnings a site accepts on purpose: a code in `[check] accept` of stillpoint.toml, or in
/// the `accept` list of the article a warning is about. Made once per check: a site of 100,000
/// articles has thousands of warnings, and looking each one's article up among them all took
/// minutes.
pub struct Acceptance<'s> {
    site: &'s [String],
    by_article: HashMap<&'s Path, &'s [String]>,
}

impl<'s> Acceptance<'s> {
    pub fn of(site: &'s Site) -> Self {
        let by_article = site
            .articles
            .iter()
            .filter(|a| !a.accept.is_empty())
            .map(|a| (a.source.as_path(), a.accept.as_slice()))
            .collect();
        Self { site: &site.config.accept, by_article }
    }

    /// Whether the site accepts `w` on purpose.
    pub fn accepts(&self, w: &ContentWarning) -> bool {
        let code = w.kind.code();
        let listed = |codes: &[String]| codes.iter().any(|c| c == code);
        listed(self.site) || self.by_article.get(w.path.as_path()).is_some_and(|c| listed(c))
    }
}

/// The symbolic links under `root/rel` (not followed), relative to `root`: the build copies
/// only the files of `static/`.
fn static_symlinks(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root.join(rel)) else { return };
    for entry in entries.filter_map(Result::ok) {
        let path = rel.join(entry.file_name());
        match entry.file_type() {
            Ok(t) if t.is_symlink() => out.push(path),
            Ok(t) if t.is_dir() => static_symlinks(root, &path, out),
            _ => {}
        }
    }
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
    fn reports_idle_authors_images_without_alt_bare_entities_and_symlinks() {
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
            write(root, &format!("pages/{}.md", page.name), "---\ntitle: P\n---\nText.\n");
        }
        write(root, "pages/terms.md", "---\ntitle: P\n---\nText.\n\n{% include terms.html %}\n");
        write(
            root,
            "articles/a.md",
            "---\ntitle: A\nslug: a\nauthor: Ana\nentities:\n  - category: calm\n---\nText.\n\n![](/x.png) ![ok](/y.png)\n",
        );
        write(
            root,
            "articles/b.md",
            "---\ntitle: B\nslug: b\nauthor: Ana\nimage: /y.png\nentities:\n  - category: calm\n    subcategories:\n      - subcategory: breath\n---\nText.\n",
        );
        write(root, "static/images/y.png", "png");
        write(root, "static/x.png", "png");
        write(root, "static/y.png", "png");
        std::os::unix::fs::symlink(root.join("articles/b.md"), root.join("articles/c.md")).unwrap();
        std::os::unix::fs::symlink(root.join("articles"), root.join("articles/more")).unwrap();
        std::os::unix::fs::symlink(
            root.join("static/images/y.png"),
            root.join("static/images/z.png"),
        )
        .unwrap();
        write(
            root,
            "articles/d.md",
            "---\ntitle: D\nslug: d\nauthor: Ana\naccept: [shortcode]\nentities:\n  - category: calm\n    subcategories:\n      - subcategory: breat\n      - subcategory: sleep\n---\nText.\n\n{{< youtube x >}}\n",
        );
        let site = crate::load_site(root).unwrap_or_else(|d| panic!("{d}"));
        assert_eq!(site.articles.len(), 3, "links are not followed: a, b and d");
        let catalog = crate::build_catalog(&site);
        let warnings = content_warnings(&site, &catalog);
        let found: Vec<String> = warnings
            .iter()
            .map(|w| {
                let accepted = if Acceptance::of(&site).accepts(w) { " (accepted)" } else { "" };
                format!("{}:{}:{} {}{accepted}", w.path.display(), w.line, w.col, w.kind)
            })
            .collect();
        assert_eq!(
            found,
            [
                "articles/a.md:6:15 no subcategories under `calm`: the article is filed under `other`",
                "articles/a.md:10:1 image `/x.png` has no alt text",
                "articles/b.md:5:8 cover `/y.png` has no `image_alt`",
                "articles/c.md:0:0 a symbolic link: symlinks are not followed, so it is left out",
                "articles/d.md:9:22 `calm` has no subcategory `breat`: the article is filed under `other` (did you mean `breath`?)",
                "articles/d.md:10:22 `calm` has no subcategory `sleep`: the article is filed under `other`",
                "articles/d.md:14:1 `{{< youtube x >}}` looks like a shortcode of another site generator (accepted)",
                "articles/more:0:0 a symbolic link: symlinks are not followed, so it is left out",
                "data/authors.toml:8:8 author `Ben` has no articles",
                "pages/terms.md:6:1 `{% include terms.html %}` looks like a shortcode of another site generator",
                "static/images/z.png:0:0 a symbolic link: symlinks are not followed, so it is left out",
                "stillpoint.toml:4:7 placeholder left to replace: `https://s.example`",
                "stillpoint.toml:7:17 placeholder left to replace: `a@s.example`",
            ]
        );
    }

    #[test]
    fn every_code_is_listed_once() {
        let kinds = [
            WarningKind::AuthorWithoutArticles(String::new()),
            WarningKind::ImageWithoutAlt(String::new()),
            WarningKind::CoverWithoutAlt(String::new()),
            WarningKind::FiledUnderOther { category: String::new() },
            WarningKind::UnknownSubcategory {
                category: String::new(),
                subcategory: String::new(),
                suggestion: None,
            },
            WarningKind::Shortcode(String::new()),
            WarningKind::SymlinkNotFollowed,
            WarningKind::InDraft { code: "", message: String::new(), hint: "" },
            WarningKind::RedirectedLink { link: String::new(), to: String::new() },
            WarningKind::Placeholder { text: String::new(), hint: "" },
            WarningKind::EmptyTopics { count: 0, names: Vec::new(), in_menu: false },
            WarningKind::BlockedByPolicy { what: String::new(), hint: "" },
            WarningKind::AnimatedImage(String::new()),
        ];
        let codes: Vec<&str> = kinds.iter().map(WarningKind::code).collect();
        assert_eq!(codes, crate::warning::WARNING_CODES);
    }
}
