//! One article file: YAML front matter + Markdown body.

use std::path::{Path, PathBuf};

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

use crate::config::parse_date;
use crate::error::{ContentError, ContentErrorKind, line_col};
use crate::front_matter::{SplitError, split};
use crate::labels::is_slug;
use crate::parsed::text_digest;
use crate::redirects::normalize_path;

/// An article as parsed. It serialises without its body, which is kept by
/// [`ParsedArticles`](crate::ParsedArticles) as the file it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Article {
    /// Path of the source file, relative to the site directory.
    pub source: PathBuf,
    pub title: String,
    /// `/articles/{slug}`.
    pub slug: String,
    pub date: jiff::civil::Date,
    /// An author's `name`; checked against data/authors.toml by `load_site`.
    pub author: Option<Located<String>>,
    /// As written, or taken from the first paragraph.
    pub description: String,
    pub image: Option<String>,
    pub entities: Vec<Entity>,
    /// Internal links (`/…` targets) in the body, with their file line.
    pub links: Vec<Located<String>>,
    /// Images in the body written with no alt text (`![](…)`): their URL and file line.
    pub images_without_alt: Vec<Located<String>>,
    pub words: u32,
    /// Lines of the front matter fields that later checks point at.
    pub slug_line: u32,
    /// Old URLs of the article (`aliases:`), normalised (`crate::normalize_path`), with their
    /// lines: each redirects permanently to `/articles/{slug}`.
    #[serde(default)]
    pub aliases: Vec<Located<String>>,
    /// Digest of the file's bytes ([`text_digest`]).
    pub digest: String,
}

/// A value with the 1-based line and column it was written at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Located<T> {
    pub value: T,
    pub line: u32,
    pub col: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entity {
    pub category: Located<String>,
    pub subcategories: Vec<EntitySubcategory>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntitySubcategory {
    pub subcategory: String,
    pub subsubcategories: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    title: Option<Spanned<String>>,
    slug: Option<Spanned<String>>,
    date: Option<Spanned<String>>,
    author: Option<Spanned<String>>,
    description: Option<String>,
    image: Option<String>,
    entities: Option<Vec<RawEntity>>,
    aliases: Option<Vec<Spanned<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntity {
    category: Spanned<String>,
    #[serde(default)]
    subcategories: Option<Vec<RawSub>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSub {
    subcategory: String,
    #[serde(default)]
    subsubcategories: Option<Vec<String>>,
}

impl Article {
    /// Parses an article file. `source` names the file in errors; `default_date` is the site's start date.
    pub fn parse(
        source: &Path,
        text: &str,
        default_date: jiff::civil::Date,
    ) -> Result<Self, Vec<ContentError>> {
        let fm_err = |line, msg: &str| {
            vec![ContentError::new(
                source,
                line,
                1,
                ContentErrorKind::MalformedFrontMatter(msg.into()),
            )]
        };
        let split = match split(text) {
            Ok(s) => s,
            Err(SplitError::NoOpeningFence) => {
                return Err(fm_err(1, "the file must start with a `---` line"));
            }
            Err(SplitError::Unclosed) => return Err(fm_err(1, "no closing `---` line")),
        };
        let off = split.yaml_line - 1;
        let raw: Raw = serde_saphyr::from_str(split.yaml).map_err(|e| {
            let (line, col) = e.location().map_or((0, 0), |l| (l.line() as u32, l.column() as u32));
            let line = if line == 0 { 1 } else { line + off };
            vec![ContentError::new(source, line, col, yaml_kind(&e))]
        })?;
        let at = |s: &Spanned<String>| (s.defined.line() as u32 + off, s.defined.column() as u32);
        let mut errors = Vec::new();
        let missing = |field: &str| {
            ContentError::new(source, 1, 1, ContentErrorKind::MissingField(field.into()))
        };

        let title = raw.title.as_ref().map(|t| t.value.trim().to_string()).unwrap_or_default();
        if title.is_empty() {
            errors.push(missing("title"));
        }
        let (slug, slug_line) = match &raw.slug {
            Some(s) => {
                let (line, col) = at(s);
                if !is_slug(&s.value) {
                    errors.push(ContentError::new(
                        source,
                        line,
                        col,
                        ContentErrorKind::InvalidValue {
                            field: "slug".into(),
                            message: format!(
                                "`{}` is not lowercase letters, digits and single dashes",
                                s.value
                            ),
                        },
                    ));
                }
                (s.value.clone(), line)
            }
            None => {
                errors.push(missing("slug"));
                (String::new(), 1)
            }
        };
        let date = match &raw.date {
            None => default_date,
            Some(d) => parse_date(&d.value).unwrap_or_else(|| {
                let (line, col) = at(d);
                errors.push(ContentError::new(
                    source,
                    line,
                    col,
                    ContentErrorKind::InvalidValue {
                        field: "date".into(),
                        message: format!("`{}` is not a date like 2025-03-02", d.value),
                    },
                ));
                default_date
            }),
        };
        let entities: Vec<Entity> = match raw.entities {
            None => {
                errors.push(missing("entities"));
                Vec::new()
            }
            Some(list) => list
                .into_iter()
                .map(|e| {
                    let (line, col) = at(&e.category);
                    Entity {
                        category: Located { value: e.category.value, line, col },
                        subcategories: e
                            .subcategories
                            .unwrap_or_default()
                            .into_iter()
                            .map(|s| EntitySubcategory {
                                subcategory: s.subcategory,
                                subsubcategories: s
                                    .subsubcategories
                                    .unwrap_or_default()
                                    .into_iter()
                                    .map(|x| x.trim().to_string())
                                    .filter(|x| !x.is_empty())
                                    .collect(),
                            })
                            .collect(),
                    }
                })
                .collect(),
        };
        if entities.is_empty() {
            errors.push(ContentError::new(
                source,
                1,
                1,
                ContentErrorKind::InvalidValue {
                    field: "entities".into(),
                    message: "list at least one category".into(),
                },
            ));
        }
        let mut aliases = Vec::new();
        for alias in raw.aliases.iter().flatten() {
            let (line, col) = at(alias);
            match normalize_path(alias.value.trim()) {
                Ok(value) => aliases.push(Located { value, line, col }),
                Err(message) => errors.push(ContentError::new(
                    source,
                    line,
                    col,
                    ContentErrorKind::InvalidValue { field: "aliases".into(), message },
                )),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let author = raw.author.map(|a| {
            let (line, col) = at(&a);
            Located { value: a.value.trim().to_string(), line, col }
        });
        let scan = scan_body(split.body, split.body_line);
        let description = raw
            .description
            .map(|d| d.trim().to_string())
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| scan.first_paragraph.clone());
        Ok(Self {
            source: source.to_path_buf(),
            title,
            slug,
            date,
            author,
            description,
            image: raw.image.filter(|i| !i.trim().is_empty()),
            entities,
            links: scan.links,
            images_without_alt: scan.images_without_alt,
            words: scan.words,
            slug_line,
            aliases,
            digest: text_digest(text),
        })
    }
}

fn yaml_kind(e: &serde_saphyr::Error) -> ContentErrorKind {
    let text = e.to_string();
    // The library renders a snippet after the message; the first line is the message.
    let first = text.lines().next().unwrap_or("").trim();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    // The position is reported separately; drop the library's own "line N column M: ".
    let first = match first.strip_prefix("line ").and_then(|r| r.split_once(": ")) {
        Some((pos, rest)) if pos.contains("column") => rest,
        _ => first,
    };
    if let Some(field) = first.split("missing field `").nth(1).and_then(|r| r.split('`').next()) {
        return ContentErrorKind::MissingField(field.to_string());
    }
    ContentErrorKind::MalformedFrontMatter(first.to_string())
}

/// What one pass over the Markdown tells the loader.
pub(crate) struct BodyScan {
    pub links: Vec<Located<String>>,
    pub images_without_alt: Vec<Located<String>>,
    pub words: u32,
    pub first_paragraph: String,
}

/// Collects internal link targets (with lines), images without alt text, the word count and
/// the first paragraph's text.
pub(crate) fn scan_body(body: &str, body_line: u32) -> BodyScan {
    let mut links = Vec::new();
    let mut images_without_alt = Vec::new();
    // The image being read: its URL, where it starts, and its alt text so far.
    let mut image: Option<(String, usize, String)> = None;
    let mut words = 0u32;
    let mut first = String::new();
    let mut in_first: Option<bool> = None; // None: not seen yet; Some(true): inside it
    let parser = Parser::new_ext(body, Options::all()).into_offset_iter();
    for (event, range) in parser {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => {
                if let Some(path) = internal_path(&dest_url) {
                    let (line, col) = line_col(body, range.start);
                    links.push(Located { value: path, line: line + body_line - 1, col });
                }
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                image = Some((dest_url.to_string(), range.start, String::new()));
            }
            Event::End(TagEnd::Image) => {
                if let Some((url, start, alt)) = image.take()
                    && alt.trim().is_empty()
                {
                    let (line, col) = line_col(body, start);
                    images_without_alt.push(Located {
                        value: url,
                        line: line + body_line - 1,
                        col,
                    });
                }
            }
            Event::Start(Tag::Paragraph) if in_first.is_none() => in_first = Some(true),
            Event::End(TagEnd::Paragraph) if in_first == Some(true) => in_first = Some(false),
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, _, alt)) = &mut image {
                    alt.push_str(&t);
                }
                words += t.split_whitespace().count() as u32;
                if in_first == Some(true) {
                    first.push_str(&t);
                }
            }
            Event::SoftBreak | Event::HardBreak if in_first == Some(true) => first.push(' '),
            _ => {}
        }
    }
    BodyScan {
        links,
        images_without_alt,
        words,
        first_paragraph: truncate_words(first.trim(), 160),
    }
}

/// Internal links in any Markdown text whose first line is `body_line` of its file.
pub fn scan_links(body: &str, body_line: u32) -> Vec<Located<String>> {
    scan_body(body, body_line).links
}

/// The site path of a link target when it is internal (`/x`, not `//host` or `https://`).
pub fn internal_path(dest: &str) -> Option<String> {
    if !dest.starts_with('/') || dest.starts_with("//") {
        return None;
    }
    let end = dest.find(['?', '#']).unwrap_or(dest.len());
    let path = &dest[..end];
    let path = if path.len() > 1 { path.trim_end_matches('/') } else { path };
    Some(path.to_string())
}

/// At most `max` characters, cut at a word boundary with an ellipsis.
pub fn truncate_words(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(a, _)| a);
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.']))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date() -> jiff::civil::Date {
        jiff::civil::date(2024, 9, 12)
    }

    const GOOD: &str = "---
title: \"A 10-Minute Body Scan\"
slug: body-scan
date: 2025-03-02
author: \"Maya Lindqvist\"
entities:
  - category: sleepEnhancement
    subcategories:
      - subcategory: guidedMeditationForSleep
        subsubcategories: [\"body scan\", \"yoga nidra\"]
  - category: anxietyManagement
---
Lie down and *rest*. See [the other](/articles/other-one#x) and [web](https://x.example).

## Next

More [topic](/anxiety-management/).
";

    #[test]
    fn parses_everything() {
        let a = Article::parse(Path::new("articles/a.md"), GOOD, date()).unwrap();
        assert_eq!(a.title, "A 10-Minute Body Scan");
        assert_eq!(a.slug, "body-scan");
        assert_eq!(a.slug_line, 3);
        assert_eq!(a.date.to_string(), "2025-03-02");
        assert_eq!(a.author.as_ref().unwrap().value, "Maya Lindqvist");
        assert_eq!(a.author.as_ref().unwrap().line, 5);
        assert_eq!(a.entities.len(), 2);
        assert_eq!(a.entities[0].category.line, 7);
        assert_eq!(a.entities[0].subcategories[0].subsubcategories, ["body scan", "yoga nidra"]);
        assert!(a.entities[1].subcategories.is_empty());
        assert_eq!(a.description, "Lie down and rest. See the other and web.");
        let links: Vec<_> = a.links.iter().map(|l| (l.value.as_str(), l.line)).collect();
        assert_eq!(links, [("/articles/other-one", 13), ("/anxiety-management", 17)]);
    }

    #[test]
    fn default_date_and_no_author() {
        let text =
            GOOD.replace("date: 2025-03-02\n", "").replace("author: \"Maya Lindqvist\"\n", "");
        let a = Article::parse(Path::new("a.md"), &text, date()).unwrap();
        assert_eq!(a.date, date());
        assert!(a.author.is_none());
    }

    #[test]
    fn malformed_yaml_points_into_the_file() {
        let text = GOOD.replace("slug: body-scan", "slug: [unclosed");
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        assert!(matches!(errs[0].kind, ContentErrorKind::MalformedFrontMatter(_)), "{errs:?}");
        assert!(errs[0].line >= 3, "{errs:?}");
    }

    #[test]
    fn missing_fences() {
        let errs = Article::parse(Path::new("a.md"), "title: x\n", date()).unwrap_err();
        assert!(matches!(errs[0].kind, ContentErrorKind::MalformedFrontMatter(_)));
        let errs = Article::parse(Path::new("a.md"), "---\ntitle: x\n", date()).unwrap_err();
        assert!(matches!(errs[0].kind, ContentErrorKind::MalformedFrontMatter(_)));
    }

    #[test]
    fn missing_and_invalid_fields_are_all_reported() {
        let text =
            GOOD.replace("title: \"A 10-Minute Body Scan\"\n", "").replace("2025-03-02", "someday");
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(errs.iter().any(|e| e.kind == ContentErrorKind::MissingField("title".into())));
        assert!(errs.iter().any(
            |e| matches!(&e.kind, ContentErrorKind::InvalidValue { field, .. } if field == "date")
                && e.line == 3
        ));
    }

    #[test]
    fn unknown_field_is_malformed() {
        let text = GOOD.replace("slug: body-scan", "slug: body-scan\ntitel: typo");
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        assert!(
            matches!(&errs[0].kind, ContentErrorKind::MalformedFrontMatter(m) if m.contains("titel")),
            "{errs:?}"
        );
    }

    #[test]
    fn internal_paths() {
        assert_eq!(internal_path("/a/b/?q=1"), Some("/a/b".into()));
        assert_eq!(internal_path("/"), Some("/".into()));
        assert_eq!(internal_path("//cdn.example/x"), None);
        assert_eq!(internal_path("https://x.example"), None);
        assert_eq!(internal_path("#top"), None);
    }

    #[test]
    fn truncation() {
        assert_eq!(truncate_words("short", 10), "short");
        assert_eq!(truncate_words("one two three four", 12), "one two…");
    }
}
