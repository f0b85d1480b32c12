//! [`ArticleId`]: how the catalog, the plans and the caches name an article of a loaded site.

use serde::{Deserialize, Serialize};

/// An article's place in `Site::articles` (sorted by source path), valid for the site it was
/// taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ArticleId(u32);

impl ArticleId {
    /// The id of the article at `index` of `Site::articles`.
    pub fn new(index: usize) -> Self {
        Self(u32::try_from(index).expect("fewer than 2^32 articles"))
    }

    /// Its index in `Site::articles`.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Every id of a site of `count` articles, in order.
    pub fn all(count: usize) -> impl DoubleEndedIterator<Item = Self> + ExactSizeIterator {
        (0..count).map(Self::new)
    }
}

impl std::fmt::Display for ArticleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "article #{}", self.0)
    }
}
