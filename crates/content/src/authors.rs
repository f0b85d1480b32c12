//! `data/authors.toml`: the authors, in file order.

use std::collections::HashMap;
use std::path::Path;

use rustc_hash::FxHashMap;
use serde::Deserialize;

use crate::error::{ContentError, ContentErrorKind, line_col, toml_error};
use crate::labels::{is_slug, slugify};
use crate::located::Located;

/// Where the authors are written, relative to the site directory.
pub const AUTHORS_FILE: &str = "data/authors.toml";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Author {
    pub name: String,
    /// `/authors/{slug}`; defaults to the slug of the name.
    pub slug: String,
    /// Biography, Markdown.
    pub description: String,
    pub meta_title: String,
    pub meta_description: String,
    /// `photo`: relative to data/, under static/ (`/authors/maya.jpg`) or an `https://` URL,
    /// with where it is written; checked by `load_site`.
    pub photo: Option<Located<String>>,
    /// `photo_alt`: the photo's alt text (else the author's name).
    pub photo_alt: Option<String>,
    /// The biography's internal links (`/…` targets), with their lines in data/authors.toml:
    /// checked like an article's.
    pub links: Vec<Located<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Authors {
    pub list: Vec<Author>,
    by_name: FxHashMap<String, usize>,
}

impl Authors {
    pub fn by_name(&self, name: &str) -> Option<&Author> {
        self.by_name.get(name).map(|&i| &self.list[i])
    }

    /// Index of the author in file order.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The spec's derived views.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.list.iter().map(|a| a.name.as_str())
    }
    pub fn biography(&self, name: &str) -> Option<&str> {
        self.by_name(name).map(|a| a.description.as_str())
    }
    pub fn page_title(&self, name: &str) -> Option<&str> {
        self.by_name(name).map(|a| a.meta_title.as_str())
    }
    pub fn page_description(&self, name: &str) -> Option<&str> {
        self.by_name(name).map(|a| a.meta_description.as_str())
    }

    pub fn parse(path: &Path, text: &str) -> Result<Self, Vec<ContentError>> {
        let raw: RawFile = toml::from_str(text).map_err(|e| vec![toml_error(path, text, &e)])?;
        let mut errors = Vec::new();
        let mut list = Vec::with_capacity(raw.author.len());
        let mut by_name = FxHashMap::default();
        let mut slugs: HashMap<String, String> = HashMap::new();
        for ra in raw.author {
            let (line, col) = line_col(text, ra.name.span().start);
            let name = ra.name.into_inner().trim().to_string();
            let slug = match &ra.slug {
                Some(s) => s.get_ref().clone(),
                None => slugify(&name),
            };
            if !is_slug(&slug) {
                errors.push(ContentError::new(
                    path,
                    line,
                    col,
                    ContentErrorKind::InvalidValue {
                        field: "slug".into(),
                        message: format!("`{slug}` is not a slug; set `slug` explicitly"),
                    },
                ));
            }
            if by_name.insert(name.clone(), list.len()).is_some() {
                errors.push(ContentError::new(
                    path,
                    line,
                    col,
                    ContentErrorKind::DuplicateKey(name.clone()),
                ));
            }
            if let Some(first) = slugs.insert(slug.clone(), name.clone()) {
                errors.push(ContentError::new(
                    path,
                    line,
                    col,
                    ContentErrorKind::DuplicateSlug {
                        slug: slug.clone(),
                        first: format!("author `{first}`"),
                    },
                ));
            }
            // The biography is Markdown: it may nest no deeper than an article.
            let (bio_line, _) = line_col(text, ra.description.span().start);
            let description = ra.description.into_inner();
            let scan = crate::article::scan_body(&description, bio_line);
            errors.extend(scan.too_deep_error(path));
            let photo = ra.photo.and_then(|p| {
                let (line, col) = line_col(text, p.span().start);
                let value = p.into_inner().trim().to_string();
                (!value.is_empty()).then_some(Located { value, line, col })
            });
            if let Some(p) = &photo
                && let Err(reason) = crate::media_refs::resolve(path, &p.value)
            {
                let message = format!("`{}` in `photo`: {reason}", p.value);
                errors.push(ContentError::new(
                    path,
                    p.line,
                    p.col,
                    ContentErrorKind::InvalidImage(message),
                ));
            }
            list.push(Author {
                name,
                slug,
                description,
                meta_title: ra.meta_title,
                meta_description: ra.meta_description,
                photo,
                photo_alt: ra.photo_alt.map(|a| a.trim().to_string()).filter(|a| !a.is_empty()),
                links: scan.links,
            });
        }
        if errors.is_empty() { Ok(Self { list, by_name }) } else { Err(errors) }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    author: Vec<RawAuthor>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAuthor {
    name: toml::Spanned<String>,
    description: toml::Spanned<String>,
    meta_title: String,
    meta_description: String,
    slug: Option<toml::Spanned<String>>,
    photo: Option<toml::Spanned<String>>,
    photo_alt: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = r#"
[[author]]
name = "Maya Lindqvist"
description = "Maya teaches."
meta_title = "Maya Lindqvist, MBSR Teacher"
meta_description = "Articles by Maya."

[[author]]
name = "Rosa Villaseñor"
description = "Rosa writes."
meta_title = "Rosa Villaseñor, Writer"
meta_description = "Articles by Rosa."
"#;

    #[test]
    fn derived_views() {
        let a = Authors::parse(Path::new("data/authors.toml"), TWO).unwrap();
        assert_eq!(a.names().collect::<Vec<_>>(), ["Maya Lindqvist", "Rosa Villaseñor"]);
        assert_eq!(a.by_name("Rosa Villaseñor").unwrap().slug, "rosa-villasenor");
        assert_eq!(a.biography("Maya Lindqvist"), Some("Maya teaches."));
        assert_eq!(a.page_title("Maya Lindqvist"), Some("Maya Lindqvist, MBSR Teacher"));
        assert_eq!(a.page_description("Nobody"), None);
    }

    #[test]
    fn duplicate_names_are_reported_at_the_second() {
        let text = TWO.replace("Rosa Villaseñor\"\ndesc", "Maya Lindqvist\"\ndesc");
        let errs = Authors::parse(Path::new("data/authors.toml"), &text).unwrap_err();
        assert_eq!(errs.len(), 2, "{errs:?}"); // the name and the slug
        assert!(errs.iter().all(|e| e.line == 9));
    }

    #[test]
    fn a_biography_nested_too_deep_is_an_error_at_its_line() {
        let text = TWO.replace("Rosa writes.", &"<span>".repeat(200));
        let errs = Authors::parse(Path::new("data/authors.toml"), &text).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].line, 10, "{errs:?}");
        assert!(matches!(errs[0].kind, ContentErrorKind::TooDeep { .. }), "{errs:?}");
    }

    #[test]
    fn photos_with_alt_text() {
        let text = TWO.replace(
            "meta_description = \"Articles by Maya.\"",
            "meta_description = \"Articles by Maya.\"\nphoto = \"photos/maya.jpg\"\nphoto_alt = \"Maya in the garden\"",
        );
        let a = Authors::parse(Path::new("data/authors.toml"), &text).unwrap();
        let maya = a.by_name("Maya Lindqvist").unwrap();
        let photo = maya.photo.as_ref().unwrap();
        assert_eq!((photo.value.as_str(), photo.line, photo.col), ("photos/maya.jpg", 7, 9));
        assert_eq!(maya.photo_alt.as_deref(), Some("Maya in the garden"));
        assert_eq!(a.by_name("Rosa Villaseñor").unwrap().photo, None);
        let text = TWO.replace(
            "meta_description = \"Articles by Maya.\"",
            "meta_description = \"Articles by Maya.\"\nphoto = \"http://x.example/m.jpg\"",
        );
        let errs = Authors::parse(Path::new("data/authors.toml"), &text).unwrap_err();
        assert_eq!((errs[0].line, errs[0].col, errs[0].kind.code()), (7, 9, "invalid_image"));
    }

    #[test]
    fn missing_field() {
        let text = TWO.replace("meta_title = \"Maya Lindqvist, MBSR Teacher\"\n", "");
        let errs = Authors::parse(Path::new("data/authors.toml"), &text).unwrap_err();
        assert_eq!(errs[0].kind, ContentErrorKind::MissingField("meta_title".into()));
    }
}
