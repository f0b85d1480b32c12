//! Articles parsed by an earlier load, so that a rebuild parses only the files that changed.
//!
//! Every article file is still read and the site is still checked as a whole; only the front
//! matter and Markdown scan of a file whose bytes are exactly those parsed before are taken
//! from here. The store is the caller's to keep (the build cache persists it); a store that does
//! not fit simply misses.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::article::Article;
use crate::front_matter::split;

/// Source path (relative to the site) → what parsing its bytes gave.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ParsedArticles {
    entries: HashMap<PathBuf, Parsed>,
    #[serde(skip)]
    changed: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Parsed {
    /// The site's start date the article was parsed with (its date when it gives none).
    default_date: jiff::civil::Date,
    /// Without its body.
    article: Article,
}

/// The digest [`ParsedArticles`] keys a file's text by.
pub fn text_digest(text: &str) -> String {
    let hash = Sha256::digest(text.as_bytes());
    hash[..16].iter().map(|b| format!("{b:02x}")).collect()
}

impl ParsedArticles {
    /// The article parsed from exactly `text` before, with its body taken from `text`.
    pub(crate) fn get(
        &self,
        source: &Path,
        digest: &str,
        text: &str,
        default_date: jiff::civil::Date,
    ) -> Option<Article> {
        let p = self.entries.get(source)?;
        if p.article.digest != digest || p.default_date != default_date {
            return None;
        }
        let body = split(text).ok()?.body;
        Some(Article { body: body.to_string(), ..p.article.clone() })
    }

    /// Records a file's parse (its body is not stored).
    pub(crate) fn insert(&mut self, default_date: jiff::civil::Date, article: &Article) {
        let article = Article { body: String::new(), ..article.clone() };
        self.entries.insert(article.source.clone(), Parsed { default_date, article });
        self.changed = true;
    }

    /// Forgets files that are no longer there.
    pub(crate) fn retain(&mut self, keep: impl Fn(&Path) -> bool) {
        let before = self.entries.len();
        self.entries.retain(|path, _| keep(path));
        self.changed |= self.entries.len() != before;
    }

    /// Whether anything was added or forgotten since it was made or read.
    pub fn is_changed(&self) -> bool {
        self.changed
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::load_site_partial_with;

    fn demo_copy() -> tempfile::TempDir {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo");
        let dir = tempfile::tempdir().unwrap();
        for entry in walkdir::WalkDir::new(&from) {
            let entry = entry.unwrap();
            let to = dir.path().join(entry.path().strip_prefix(&from).unwrap());
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to).unwrap();
            } else {
                std::fs::copy(entry.path(), &to).unwrap();
            }
        }
        dir
    }

    #[test]
    fn unchanged_files_come_from_the_store_and_changed_ones_are_parsed_again() {
        let dir = demo_copy();
        let mut store = ParsedArticles::default();
        let (first, diag) = load_site_partial_with(dir.path(), &mut store);
        assert!(diag.is_empty(), "{diag:?}");
        let first = first.unwrap();
        assert_eq!(store.len(), first.articles.len());

        // A store read back from its serialised form gives the same site, bodies included.
        let mut store: ParsedArticles =
            serde_json::from_str(&serde_json::to_string(&store).unwrap()).unwrap();
        let (again, _) = load_site_partial_with(dir.path(), &mut store);
        assert_eq!(again.unwrap().articles, first.articles);
        assert!(!store.is_changed(), "nothing was parsed again");

        let a = &first.articles[0];
        let path = dir.path().join(&a.source);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace(&a.title, "A New Title")).unwrap();
        let gone = &first.articles[1].source;
        std::fs::remove_file(dir.path().join(gone)).unwrap();
        let (edited, _) = load_site_partial_with(dir.path(), &mut store);
        let edited = edited.unwrap();
        assert_eq!(edited.articles[0].title, "A New Title");
        assert_ne!(edited.articles[0].digest, a.digest);
        assert_eq!(store.len(), first.articles.len() - 1);
        assert!(store.is_changed());
    }
}
