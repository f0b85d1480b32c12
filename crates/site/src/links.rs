//! Internal links in Markdown must point at a page this build writes (or a static file).

use std::collections::HashSet;

use stillpoint_content::{ContentError, ContentErrorKind, Site};

use crate::layout;
use crate::plan::SitePage;

/// Every internal link of every article, author biography and info page that resolves to no page
/// of `pages` and no file under `static/`.
pub fn validate_links(site: &Site, pages: &[SitePage]) -> Vec<ContentError> {
    let routes: HashSet<&str> =
        pages.iter().filter(|p| !p.is_error_page()).map(|p| p.path.as_str()).collect();
    let redirected = stillpoint_content::redirect_sources(site);
    let exists = |path: &str| {
        routes.contains(path)
            || stillpoint_content::normalize_path(path)
                .is_ok_and(|p| redirected.contains_key(p.as_str()))
            || path.strip_prefix('/').is_some_and(|f| layout::FEEDS.contains(&f))
            || site.static_dir.as_ref().is_some_and(|d| {
                let rel = path.trim_start_matches('/');
                // As the build copies them: plain files, not symbolic links.
                !rel.split('/').any(|s| s == "..")
                    && d.join(rel).symlink_metadata().is_ok_and(|m| m.is_file())
            })
    };
    let mut errors = Vec::new();
    for a in &site.articles {
        for link in &a.links {
            if !exists(&link.value) {
                errors.push(ContentError::new(
                    &a.source,
                    link.line,
                    link.col,
                    ContentErrorKind::BrokenLink(link.value.clone()),
                ));
            }
        }
    }
    for page in &site.pages {
        for link in stillpoint_content::scan_links(&page.body, page.body_line) {
            if !exists(&link.value) {
                errors.push(ContentError::new(
                    format!("pages/{}.md", page.name),
                    link.line,
                    link.col,
                    ContentErrorKind::BrokenLink(link.value),
                ));
            }
        }
    }
    errors
}
