//! `data/topics.toml`: the topic tree. Order is significant (menus follow file order).

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use crate::error::{ContentError, ContentErrorKind, line_col, toml_error};
use crate::labels::is_slug;

/// The key of the fallback child every category ends with.
pub const OTHER: &str = "other";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topic {
    pub key: String,
    pub slug: String,
    /// With its emoji, as written.
    pub title: String,
    pub description: String,
    /// Where `slug` is written in data/topics.toml (1-based line and column).
    pub slug_line: u32,
    pub slug_col: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Category {
    pub topic: Topic,
    /// Subcategories in file order; the last is keyed `other`.
    pub children: Vec<Topic>,
}

impl Category {
    pub fn child(&self, key: &str) -> Option<&Topic> {
        self.children.iter().find(|c| c.key == key)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Topics {
    pub categories: Vec<Category>,
}

impl Topics {
    pub fn category(&self, key: &str) -> Option<&Category> {
        self.categories.iter().find(|c| c.topic.key == key)
    }

    pub fn parse(path: &Path, text: &str) -> Result<Self, Vec<ContentError>> {
        let raw: RawFile = toml::from_str(text).map_err(|e| vec![toml_error(path, text, &e)])?;
        let mut errors = Vec::new();
        let err = |span: std::ops::Range<usize>, kind| {
            let (line, col) = line_col(text, span.start);
            ContentError::new(path, line, col, kind)
        };
        let mut cat_keys: HashMap<String, ()> = HashMap::new();
        let mut cat_slugs: HashMap<String, ()> = HashMap::new();
        let mut categories = Vec::with_capacity(raw.category.len());
        for rc in raw.category {
            let key_span = rc.key.span();
            let mut topic =
                check_topic(&rc.key, &rc.slug, rc.title, rc.description, &mut |s, k| {
                    errors.push(err(s, k))
                });
            (topic.slug_line, topic.slug_col) = line_col(text, rc.slug.span().start);
            if cat_keys.insert(topic.key.clone(), ()).is_some() {
                errors
                    .push(err(key_span.clone(), ContentErrorKind::DuplicateKey(topic.key.clone())));
            }
            if cat_slugs.insert(topic.slug.clone(), ()).is_some() {
                errors.push(err(
                    rc.slug.span(),
                    ContentErrorKind::DuplicateSlug {
                        slug: topic.slug.clone(),
                        first: "topics.toml".into(),
                    },
                ));
            }
            let mut children = Vec::with_capacity(rc.children.len());
            let mut child_keys: HashMap<String, ()> = HashMap::new();
            let mut child_slugs: HashMap<String, ()> = HashMap::new();
            for ch in rc.children {
                let mut t =
                    check_topic(&ch.key, &ch.slug, ch.title, ch.description, &mut |s, k| {
                        errors.push(err(s, k))
                    });
                (t.slug_line, t.slug_col) = line_col(text, ch.slug.span().start);
                if child_keys.insert(t.key.clone(), ()).is_some() {
                    errors.push(err(ch.key.span(), ContentErrorKind::DuplicateKey(t.key.clone())));
                }
                if child_slugs.insert(t.slug.clone(), ()).is_some() || t.slug == "page" {
                    errors.push(err(
                        ch.slug.span(),
                        ContentErrorKind::DuplicateSlug {
                            slug: t.slug.clone(),
                            first: format!("category `{}`", topic.key),
                        },
                    ));
                }
                children.push(t);
            }
            if children.last().map(|c| c.key.as_str()) != Some(OTHER) {
                errors.push(err(
                    key_span,
                    ContentErrorKind::Topics(format!(
                        "the last child of category `{}` must be keyed `other`",
                        topic.key
                    )),
                ));
            }
            categories.push(Category { topic, children });
        }
        if categories.is_empty() {
            errors
                .push(ContentError::file(path, ContentErrorKind::Topics("no [[category]]".into())));
        }
        if errors.is_empty() { Ok(Self { categories }) } else { Err(errors) }
    }
}

fn check_topic(
    key: &toml::Spanned<String>,
    slug: &toml::Spanned<String>,
    title: String,
    description: String,
    report: &mut impl FnMut(std::ops::Range<usize>, ContentErrorKind),
) -> Topic {
    if key.get_ref().is_empty() || !key.get_ref().chars().all(|c| c.is_ascii_alphanumeric()) {
        report(
            key.span(),
            ContentErrorKind::InvalidValue {
                field: "key".into(),
                message: "use a camelCase key of ASCII letters and digits".into(),
            },
        );
    }
    if !is_slug(slug.get_ref()) {
        report(
            slug.span(),
            ContentErrorKind::InvalidValue {
                field: "slug".into(),
                message: "use lowercase letters, digits and single dashes".into(),
            },
        );
    }
    Topic {
        key: key.get_ref().clone(),
        slug: slug.get_ref().clone(),
        title,
        description,
        slug_line: 0,
        slug_col: 0,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    category: Vec<RawCategory>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCategory {
    key: toml::Spanned<String>,
    slug: toml::Spanned<String>,
    title: String,
    description: String,
    #[serde(default)]
    children: Vec<RawChild>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawChild {
    key: toml::Spanned<String>,
    slug: toml::Spanned<String>,
    title: String,
    description: String,
    /// Allowed by the model, empty in practice: the third level comes from articles.
    #[serde(default)]
    #[allow(dead_code, reason = "accepted for compatibility with the topic model; leaves only")]
    children: Option<toml::Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topics(body: &str) -> Result<Topics, Vec<ContentError>> {
        Topics::parse(Path::new("data/topics.toml"), body)
    }

    const ONE: &str = r#"
[[category]]
key = "sleepEnhancement"
slug = "enhance-sleep"
title = "😴 Sleep"
description = "🌙 Sleep."

  [[category.children]]
  key = "guidedMeditationForSleep"
  slug = "guided"
  title = "🛌 Guided"
  description = "..."

  [[category.children]]
  key = "other"
  slug = "other-sleep"
  title = "✨ Other"
  description = "..."
"#;

    #[test]
    fn parses_in_file_order() {
        let t = topics(ONE).unwrap();
        assert_eq!(t.categories.len(), 1);
        let c = t.category("sleepEnhancement").unwrap();
        assert_eq!(
            c.children.iter().map(|c| c.key.as_str()).collect::<Vec<_>>(),
            ["guidedMeditationForSleep", "other"]
        );
        assert_eq!(c.child("other").unwrap().slug, "other-sleep");
        assert_eq!((c.topic.slug_line, c.topic.slug_col), (4, 8));
    }

    #[test]
    fn last_child_must_be_other() {
        let text = ONE.replace("key = \"other\"", "key = \"misc\"");
        let errs = topics(&text).unwrap_err();
        assert!(matches!(errs[0].kind, ContentErrorKind::Topics(_)));
        assert_eq!(errs[0].line, 3);
    }

    #[test]
    fn duplicate_child_slug_and_bad_slug() {
        let text = ONE
            .replace("slug = \"other-sleep\"", "slug = \"guided\"")
            .replace("enhance-sleep", "Enhance Sleep");
        let errs = topics(&text).unwrap_err();
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(
            errs.iter()
                .any(|e| matches!(e.kind, ContentErrorKind::DuplicateSlug { .. }) && e.line == 16),
            "{errs:?}"
        );
        assert!(
            errs.iter()
                .any(|e| matches!(e.kind, ContentErrorKind::InvalidValue { .. }) && e.line == 4)
        );
    }
}
