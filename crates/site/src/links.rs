//! Internal links in Markdown must point at a page this build writes (or a static file).

use std::collections::HashSet;
use std::path::PathBuf;

use stillpoint_content::{ContentError, ContentErrorKind, Located, Site, did_you_mean};

use crate::layout;
use crate::plan::SitePage;

/// Every internal link of every article (those whose files have errors too, as far as they
/// parsed), author biography, page of `pages/` and `[footer]`/`[header]` link that resolves to no page of `pages` and no file under
/// `static/`.
pub fn validate_links(site: &Site, pages: &[SitePage]) -> Vec<ContentError> {
    let routes: HashSet<&str> =
        pages.iter().filter(|p| !p.is_error_page()).map(|p| p.path.as_str()).collect();
    let redirected = stillpoint_content::redirect_sources(site);
    // Shown as images: published as their renditions, not as they are.
    let unpublished = crate::images::unpublished_originals(site);
    let exists = |path: &str| {
        routes.contains(path)
            || stillpoint_content::normalize_path(path)
                .is_ok_and(|p| redirected.contains_key(p.as_str()))
            || path.strip_prefix('/').is_some_and(|f| layout::FEEDS.contains(&f))
            || site.static_dir.as_ref().is_some_and(|d| {
                let rel = path.trim_start_matches('/');
                // As the build copies them: plain files, not symbolic links.
                !rel.split('/').any(|s| s == "..")
                    && !unpublished.contains(rel)
                    && d.join(rel).symlink_metadata().is_ok_and(|m| m.is_file())
            })
    };
    let broken = |file: PathBuf, link: &Located<String>| {
        ContentError::new(
            file,
            link.line,
            link.col,
            ContentErrorKind::BrokenLink(link.value.clone()),
        )
        .with_help(if unpublished.contains(link.value.trim_start_matches('/')) {
            Some(
                "a photograph the pages show is published as its resized renditions under \
                 /media/, not as the original (whose metadata may hold GPS positions): link to \
                 the page that shows it"
                    .to_string(),
            )
        } else {
            closest_route(&link.value, &routes).map(|r| format!("did you mean `{r}`?"))
        })
    };
    let mut errors = Vec::new();
    for a in site.articles.iter().chain(&site.failed) {
        for link in &a.links {
            if !exists(&link.value) {
                errors.push(broken(a.source.clone(), link));
            }
        }
    }
    for page in &site.pages {
        for link in page.links.iter().filter(|l| !exists(&l.value)) {
            errors.push(broken(page.source().into(), link));
        }
    }
    for author in &site.authors.list {
        for link in author.links.iter().filter(|l| !exists(&l.value)) {
            errors.push(broken(stillpoint_content::AUTHORS_FILE.into(), link));
        }
    }
    let config = &site.config;
    for link in config.footer.links.iter().chain(&config.header.links).filter(|l| l.line > 0) {
        if let Some(path) = stillpoint_content::internal_path(&link.href)
            && !exists(&path)
        {
            let at = Located { value: path, line: link.line, col: link.col };
            errors.push(broken("stillpoint.toml".into(), &at));
        }
    }
    errors
}

/// The page a mistyped link most likely meant: among the pages in the same folder, the one whose
/// last segment (the slug) is closest; else the one page elsewhere with that very last segment
/// (`/article/x` for `/articles/x`).
fn closest_route<'a>(path: &str, routes: &HashSet<&'a str>) -> Option<&'a str> {
    let mut routes: Vec<&'a str> = routes.iter().copied().collect();
    routes.sort_unstable(); // one answer whatever the set's order
    let (parent, last) = path.rsplit_once('/')?;
    let siblings: Vec<(&str, &'a str)> = routes
        .iter()
        .filter_map(|r| r.rsplit_once('/').filter(|(p, _)| *p == parent).map(|(_, l)| (l, *r)))
        .collect();
    if let Some(slug) = did_you_mean(last, siblings.iter().map(|(l, _)| *l)) {
        return siblings.iter().find(|(l, _)| *l == slug).map(|(_, r)| *r);
    }
    let mut same_slug =
        routes.iter().filter(|r| r.rsplit_once('/').is_some_and(|(_, l)| l == last));
    match (same_slug.next(), same_slug.next()) {
        (Some(r), None) => Some(r),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{PlanContext, site_pages};

    #[test]
    fn links_in_author_biographies_and_pages_are_checked_where_they_are_written() {
        let dir = crate::test_site::demo_copy();
        let authors = dir.path().join(stillpoint_content::AUTHORS_FILE);
        let text = std::fs::read_to_string(&authors).unwrap();
        let first_bio = text.find("description = \"").expect("a one-line biography") + 15;
        let edited = format!(
            "{}See [my notes](/articles/no-such-notes). {}",
            &text[..first_bio],
            &text[first_bio..]
        );
        std::fs::write(&authors, &edited).unwrap();
        let bio_line = edited[..first_bio].lines().count() as u32;
        let terms = dir.path().join("pages/terms.md");
        let page = std::fs::read_to_string(&terms).unwrap();
        std::fs::write(&terms, format!("{page}\nSee [the guide](/info/no-such-guide).\n")).unwrap();
        let publish = stillpoint_content::Publish::at_clock();
        let site = stillpoint_content::load_site_partial(dir.path(), &publish).0.unwrap();
        let catalog = stillpoint_content::build_catalog(&site);
        let pages = site_pages(&PlanContext::new(&site, &catalog));
        let found: Vec<(String, u32, String)> = validate_links(&site, &pages)
            .into_iter()
            .map(|e| (e.path.display().to_string(), e.line, e.kind.to_string()))
            .collect();
        assert_eq!(found.len(), 2, "{found:#?}");
        assert!(found.iter().any(|(file, line, kind)| file == "data/authors.toml"
            && *line == bio_line
            && kind.contains("/articles/no-such-notes")));
        assert!(found.iter().any(
            |(file, _, kind)| file == "pages/terms.md" && kind.contains("/info/no-such-guide")
        ));
    }

    #[test]
    fn closest_route_prefers_a_sibling_slug() {
        let routes: HashSet<&str> =
            ["/articles/body-scan", "/articles/box-breathing", "/sleep", "/articles"].into();
        assert_eq!(closest_route("/articles/body-scn", &routes), Some("/articles/body-scan"));
        assert_eq!(closest_route("/article/body-scan", &routes), Some("/articles/body-scan"));
        assert_eq!(closest_route("/articles/zen", &routes), None);
    }
}
