//! `data/sponsored.json`: paid third-party link HTML per page path. Raw here; the site
//! sanitises it before it reaches a page.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::error::{ContentError, ContentErrorKind};

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Sponsored {
    /// Page path (`/articles/x`) → HTML fragments.
    #[serde(default)]
    pub sape_links: BTreeMap<String, Vec<String>>,
    /// One HTML fragment shown with every page's entries.
    #[serde(default)]
    pub sape_new_url: Option<String>,
}

impl Sponsored {
    pub fn parse(path: &Path, text: &str) -> Result<Self, Vec<ContentError>> {
        serde_json::from_str(text).map_err(|e| {
            vec![ContentError::new(
                path,
                e.line() as u32,
                e.column() as u32,
                ContentErrorKind::InvalidJson(e.to_string()),
            )]
        })
    }

    /// The raw fragments for a page path: its own entries, then `sapeNewUrl`.
    pub fn for_path(&self, path: &str) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .sape_links
            .get(path)
            .map(|v| v.iter().map(String::as_str).collect())
            .unwrap_or_default();
        if let Some(extra) = self.sape_new_url.as_deref().filter(|s| !s.trim().is_empty()) {
            out.push(extra);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_then_new_url() {
        let s = Sponsored::parse(
            Path::new("data/sponsored.json"),
            r#"{"sapeLinks": {"/a": ["<a href=\"https://x.example\">x</a>"]}, "sapeNewUrl": "<b>n</b>"}"#,
        )
        .unwrap();
        assert_eq!(s.for_path("/a").len(), 2);
        assert_eq!(s.for_path("/b"), vec!["<b>n</b>"]);
    }

    #[test]
    fn bad_json_has_line() {
        let errs = Sponsored::parse(Path::new("s.json"), "{\n  \"sapeLinks\": [\n").unwrap_err();
        assert_eq!(errs[0].line, 2);
    }
}
