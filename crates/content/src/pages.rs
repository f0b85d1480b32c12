//! `pages/*.md`: the bodies of the fixed information pages.

use std::path::Path;

use serde::Deserialize;

use crate::error::{ContentError, ContentErrorKind};
use crate::front_matter::split_optional;

/// The information pages every site has, by file stem.
pub const INFO_PAGES: [&str; 3] = ["about-us", "privacy-policy", "terms"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfoPage {
    /// File stem: `about-us`, `privacy-policy` or `terms`.
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// Markdown.
    pub body: String,
    pub body_line: u32,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Raw {
    title: Option<String>,
    description: Option<String>,
}

impl InfoPage {
    pub fn parse(path: &Path, name: &str, text: &str) -> Result<Self, Vec<ContentError>> {
        let split = split_optional(text).map_err(|_| {
            vec![ContentError::new(
                path,
                1,
                1,
                ContentErrorKind::MalformedFrontMatter("no closing `---` line".into()),
            )]
        })?;
        let raw: Raw = if split.yaml.trim().is_empty() {
            Raw::default()
        } else {
            serde_saphyr::from_str(split.yaml).map_err(|e| {
                let line = e.location().map_or(1, |l| l.line() as u32 + split.yaml_line - 1);
                let msg = e.to_string();
                let msg = msg.lines().next().unwrap_or("").trim().to_string();
                vec![ContentError::new(path, line, 1, ContentErrorKind::MalformedFrontMatter(msg))]
            })?
        };
        if let Some(e) = crate::article::scan_body(split.body, split.body_line).too_deep_error(path)
        {
            return Err(vec![e]);
        }
        Ok(Self {
            name: name.to_string(),
            title: raw.title,
            description: raw.description,
            body: split.body.to_string(),
            body_line: split.body_line,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_is_optional() {
        let p = InfoPage::parse(Path::new("pages/terms.md"), "terms", "Be kind.\n").unwrap();
        assert_eq!(p.title, None);
        assert_eq!(p.body, "Be kind.\n");
        let p = InfoPage::parse(
            Path::new("pages/terms.md"),
            "terms",
            "---\ntitle: Terms\n---\nBe kind.\n",
        )
        .unwrap();
        assert_eq!(p.title.as_deref(), Some("Terms"));
        assert_eq!(p.body_line, 4);
    }

    #[test]
    fn a_body_nested_too_deep_is_an_error() {
        let text = format!("---\ntitle: T\n---\nHi.\n\n{}", "<span>".repeat(500));
        let errs = InfoPage::parse(Path::new("pages/terms.md"), "terms", &text).unwrap_err();
        assert_eq!(errs[0].line, 6, "{errs:?}");
        assert!(matches!(errs[0].kind, ContentErrorKind::TooDeep { .. }), "{errs:?}");
    }
}
