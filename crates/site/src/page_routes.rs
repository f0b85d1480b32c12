//! The routes of `pages/*.md` may not be taken: not by another page of the site, not by what the
//! build writes itself, not by a category's tree, not by a file of `static/`, and not twice.

use std::collections::HashMap;

use stillpoint_content::{ContentError, ContentErrorKind, INFO_PAGES, Site};

use crate::layout;
use crate::plan::{PageRef, SitePage};

/// A `RouteTaken` error at the route of every page of `pages/` whose route is taken, naming
/// what owns it.
pub fn validate_page_routes(site: &Site, pages: &[SitePage]) -> Vec<ContentError> {
    let owners: HashMap<&str, &SitePage> = pages
        .iter()
        .filter(|p| !matches!(p.page, PageRef::Info(_)))
        .map(|p| (p.path.as_str(), p))
        .collect();
    let mut first: HashMap<&str, &str> = HashMap::new();
    let mut errors = Vec::new();
    for page in &site.pages {
        let route = page.route.as_str();
        let owner = owners
            .get(route)
            .map(|p| describe(site, p))
            .or_else(|| built_under(site, route))
            .or_else(|| first.get(route).map(|f| format!("pages/{f}.md has it")));
        match owner {
            Some(owner) => errors.push(ContentError::new(
                page.source(),
                page.route_line,
                page.route_col,
                ContentErrorKind::RouteTaken { route: route.to_string(), owner },
            )),
            None => {
                first.insert(route, &page.name);
            }
        }
    }
    errors
}

/// Who owns a planned page.
fn describe(site: &Site, page: &SitePage) -> String {
    match page.page {
        PageRef::Home => "it is the home page".into(),
        PageRef::Authors => "it is the authors page".into(),
        PageRef::Sitemap(_) => "it is the HTML sitemap".into(),
        PageRef::NotFound => "it is the 404 page".into(),
        PageRef::ServerError => "it is the 500 page".into(),
        PageRef::Topic(..) => "it is a topic's listing (data/topics.toml)".into(),
        PageRef::Author(..) => "it is an author's page (data/authors.toml)".into(),
        PageRef::Article(i) => format!("it is the page of {}", site.article(i).source.display()),
        PageRef::Info(i) => format!("{} has it", site.pages[i].source()),
    }
}

/// Whether the route lands where the build writes other things: under a category's folder, on a
/// name the build writes at the top, or on a file of `static/`.
fn built_under(site: &Site, route: &str) -> Option<String> {
    let rel = route.trim_start_matches('/');
    let top = rel.split('/').next().unwrap_or_default();
    let nested = rel.contains('/');
    if let Some(c) = site.topics.categories.iter().find(|c| c.topic.slug == top) {
        return Some(format!(
            "the category `{}` (data/topics.toml) has /{top} and the routes under it",
            c.topic.key
        ));
    }
    // The information pages' own files are in the build's list, but they are pages like any
    // other here: a clash with one of them is a clash with that page.
    let spec_page = INFO_PAGES.iter().any(|p| p.route == format!("/{top}"));
    let writes = |name: &str| !spec_page && layout::is_top_level(name);
    if (nested && top != "info" && layout::is_top_level(top))
        || (!nested && (writes(&format!("{top}.html")) || writes(top)))
    {
        return Some(format!("the build writes /{top}{} itself", if nested { "/" } else { "" }));
    }
    let in_static = |name: &str| {
        site.static_dir.as_deref().is_some_and(|d| d.join(name).symlink_metadata().is_ok())
    };
    [format!("{rel}.html"), rel.to_string()]
        .into_iter()
        .find(|f| in_static(f))
        .map(|f| format!("static/{f} is there"))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use stillpoint_content::{InfoPage, build_catalog};

    use super::*;
    use crate::plan::{PlanContext, site_pages};

    use crate::test_site::demo;

    /// The errors of the demo with pages of these (name, route) added.
    fn errors_with(added: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut site = demo();
        for (name, route) in added {
            let text = format!("---\nroute: {route}\n---\nHi.\n");
            let path = format!("pages/{name}.md");
            site.pages.push(InfoPage::parse(Path::new(&path), name, &text).unwrap());
        }
        let catalog = build_catalog(&site);
        let pages = site_pages(&PlanContext::new(&site, &catalog));
        validate_page_routes(&site, &pages)
            .into_iter()
            .map(|e| match e.kind {
                ContentErrorKind::RouteTaken { route, owner } => {
                    assert_eq!((e.line, e.col), (2, 8), "at the route: field");
                    (route, owner)
                }
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn the_demo_and_free_routes_pass() {
        assert_eq!(errors_with(&[]), []);
        let free =
            [("contact", "/contact"), ("podcast", "/info/podcast"), ("imprint", "/legal/imprint")];
        assert_eq!(errors_with(&free), []);
    }

    #[test]
    fn names_what_owns_a_taken_route() {
        let demo = demo();
        let article = &demo.articles[0];
        let category = &demo.topics.categories[0].topic;
        let article_route = format!("/articles/{}", article.slug);
        let under_category = format!("/{}/more", category.slug);
        let cases: Vec<(&str, &str, String)> = vec![
            ("home", "/authors", "it is the authors page".into()),
            ("map", "/sitemap", "it is the HTML sitemap".into()),
            ("nf", "/404", "it is the 404 page".into()),
            ("art", &article_route, format!("it is the page of {}", article.source.display())),
            ("cat", &under_category, format!("the category `{}`", category.key)),
            ("idx", "/index", "the build writes /index itself".into()),
            ("assets", "/assets/x", "the build writes /assets/ itself".into()),
            ("arts", "/articles/new-one", "the build writes /articles/ itself".into()),
            ("us", "/info/about-us", "pages/about-us.md has it".into()),
            ("tos", "/terms", "pages/terms.md has it".into()),
            ("icons", "/icons", "static/icons is there".into()),
        ];
        for (name, route, owner) in &cases {
            let errors = errors_with(&[(name, route)]);
            assert_eq!(errors.len(), 1, "{route}: {errors:?}");
            assert_eq!(errors[0].0, *route);
            assert!(errors[0].1.starts_with(owner.as_str()), "{route}: {:?}", errors[0].1);
        }
    }

    #[test]
    fn two_pages_with_one_route_are_an_error_at_the_second() {
        let errors = errors_with(&[("a", "/contact"), ("b", "/contact")]);
        assert_eq!(errors, [("/contact".to_string(), "pages/a.md has it".to_string())]);
    }
}
