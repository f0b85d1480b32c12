//! What a build produces again, decided once from what changed since the output it updates.

/// What a build produces again: chosen from the outline (outline.rs) and what the last build
/// recorded of where each article was shown (shown.rs). Every step of the build asks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Scope {
    /// The outline is the last build's, and the output what that build left: the pages of
    /// articles whose files changed. Every other file is kept as it is.
    Articles,
    /// Only what some articles show changed, not where they are placed: the pages that showed
    /// them (ascending indices into the site's pages), with the pages of articles whose files
    /// changed, and every site-wide file. Every other page is kept as it is.
    Showing(Vec<u32>),
    /// Everything, the routes and links validated again.
    Site,
}

impl Scope {
    /// The scope of a build whose outline is the last one's (`same_outline`), or whose last
    /// build recorded the pages that show what changed (`replan`).
    pub(super) fn of(same_outline: bool, replan: Option<Vec<u32>>) -> Self {
        match (same_outline, replan) {
            (true, _) => Self::Articles,
            (false, Some(showing)) => Self::Showing(showing),
            (false, None) => Self::Site,
        }
    }

    /// The scope in a word, for the build's log.
    pub(super) fn name(&self) -> &'static str {
        match self {
            Self::Articles => "articles",
            Self::Showing(_) => "showing",
            Self::Site => "site",
        }
    }

    /// Whether the site-wide files are produced: the site data, the service worker, the search
    /// index, sitemaps, feeds, robots.txt, build info and redirects ([`super::site_files`]).
    pub(super) fn site_files(&self) -> bool {
        !matches!(self, Self::Articles)
    }

    /// Whether the placement is the last build's: the same pages, routes and links, which
    /// that build validated.
    pub(super) fn same_placement(&self) -> bool {
        !matches!(self, Self::Site)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_change_has_its_scope() {
        assert_eq!(Scope::of(true, Some(vec![1])), Scope::Articles);
        assert_eq!(Scope::of(false, Some(vec![1])), Scope::Showing(vec![1]));
        assert_eq!(Scope::of(false, None), Scope::Site);
        assert!(!Scope::Articles.site_files() && Scope::Articles.same_placement());
        assert!(Scope::Showing(vec![]).site_files() && Scope::Showing(vec![]).same_placement());
        assert!(Scope::Site.site_files() && !Scope::Site.same_placement());
    }
}
