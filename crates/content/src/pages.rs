//! `pages/*.md`: the site's own pages. Every `pages/NAME.md` is a page (NAME a slug); its route
//! comes from a `route:` front-matter field, else from [`default_route`]: the spec's three
//! information pages keep their routes, any other page is `/info/NAME`.

use std::path::Path;

use serde::Deserialize;

use crate::error::{ContentError, ContentErrorKind};
use crate::front_matter::split_optional;
use crate::labels::is_slug;

/// An information page every site has: its file, route, title, footer label and description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InfoPageSpec {
    /// The file stem under `pages/`.
    pub name: &'static str,
    pub route: &'static str,
    /// The page's title (its `title:` when it gives one does not replace it: the spec's).
    pub title: &'static str,
    /// The label of its link in the default footer.
    pub footer_label: &'static str,
    /// Its meta description, `{brand}` standing for the site's title (a `description:` in its
    /// front matter replaces it).
    pub description: &'static str,
}

/// The information pages every site has, in the order the site lists them: the one table their
/// routes, titles, descriptions, sitemap entries and footer links are read from.
pub const INFO_PAGES: [InfoPageSpec; 3] = [
    InfoPageSpec {
        name: "about-us",
        route: "/info/about-us",
        title: "About Us",
        footer_label: "About us",
        description: "Who we are and why {brand} exists: calm, practical, evidence-informed writing on meditation and mindfulness.",
    },
    InfoPageSpec {
        name: "privacy-policy",
        route: "/privacy-policy",
        title: "Privacy Policy",
        footer_label: "Privacy policy",
        description: "How {brand} handles your data: no accounts, no cookies of our own, and a search that runs in your browser.",
    },
    InfoPageSpec {
        name: "terms",
        route: "/terms",
        title: "Terms of Service",
        footer_label: "Terms",
        description: "The terms for using {brand}: informational articles about meditation and mindfulness, not medical advice.",
    },
];

/// The information page named `name`, when it is one every site has.
pub fn info_page_spec(name: &str) -> Option<&'static InfoPageSpec> {
    INFO_PAGES.iter().find(|p| p.name == name)
}

/// The one table of page routes: the spec's route of an information page, `/info/{name}` for
/// any other page.
pub fn default_route(name: &str) -> String {
    match info_page_spec(name) {
        Some(spec) => spec.route.to_string(),
        None => format!("/info/{name}"),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfoPage {
    /// File stem: `about-us`, `contact`, … (a slug).
    pub name: String,
    /// The page's route, `/info/about-us` or the `route:` it gives.
    pub route: String,
    /// Where the route was given (`route:` in the front matter), or 1:1 for a default route.
    pub route_line: u32,
    pub route_col: u32,
    pub title: Option<String>,
    pub description: Option<String>,
    /// Markdown.
    pub body: String,
    pub body_line: u32,
    /// The body's images (`![alt](…)`): as written, with where.
    pub images: Vec<crate::located::Located<String>>,
    /// The body's internal links (`/…` targets), with where: checked like an article's.
    pub links: Vec<crate::located::Located<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Raw {
    title: Option<String>,
    description: Option<String>,
    route: Option<String>,
}

impl InfoPage {
    /// The file this page was read from: `pages/{name}.md`.
    pub fn source(&self) -> String {
        format!("pages/{}.md", self.name)
    }

    pub fn parse(path: &Path, name: &str, text: &str) -> Result<Self, Vec<ContentError>> {
        if !is_slug(name) {
            return Err(vec![ContentError::new(
                path,
                1,
                1,
                ContentErrorKind::InvalidValue {
                    field: "file name".into(),
                    message: format!(
                        "`{name}` is not a slug: name page files with lowercase letters, digits and dashes, like pages/contact-us.md"
                    ),
                },
            )
            .with_help(Some(
                "rename the file: its name is the page's address (see docs/content.md#pages)"
                    .into(),
            ))]);
        }
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
        let scan = crate::article::scan_body(split.body, split.body_line);
        if let Some(e) = scan.too_deep_error(path) {
            return Err(vec![e]);
        }
        let (route, route_line, route_col) = match raw.route {
            None => (default_route(name), 1, 1),
            Some(route) => {
                let (line, col) = field_position(split.yaml, split.yaml_line, "route");
                if let Err(message) = check_route(&route) {
                    return Err(vec![
                        ContentError::new(
                            path,
                            line,
                            col,
                            ContentErrorKind::InvalidValue { field: "route".into(), message },
                        )
                        .with_help(Some("see docs/content.md#pages".into())),
                    ]);
                }
                (route, line, col)
            }
        };
        Ok(Self {
            name: name.to_string(),
            route,
            route_line,
            route_col,
            title: raw.title,
            description: raw.description,
            body: split.body.to_string(),
            body_line: split.body_line,
            images: scan.images,
            links: scan.links,
        })
    }
}

/// A page route: `/` and slugs separated by `/`, like `/contact` or `/info/podcast`.
fn check_route(route: &str) -> Result<(), String> {
    let ok = route.strip_prefix('/').is_some_and(|rest| rest.split('/').all(is_slug));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{route}` is not a page route: write an absolute path of slugs, like /contact or /info/podcast (no trailing slash, no extension)"
        ))
    }
}

/// The 1-based line and column of the value of a top-level `field:` in front matter.
fn field_position(yaml: &str, yaml_line: u32, field: &str) -> (u32, u32) {
    for (i, line) in yaml.lines().enumerate() {
        if let Some(rest) = line.strip_prefix(field).and_then(|r| r.strip_prefix(':')) {
            let value_at = field.len() + 1 + (rest.len() - rest.trim_start().len());
            return (yaml_line + i as u32, value_at as u32 + 1);
        }
    }
    (yaml_line, 1)
}

/// The pages in the order the site lists them: the spec's information pages first, then the
/// others by name.
pub fn sort_pages(pages: &mut [InfoPage]) {
    let rank = |p: &InfoPage| {
        INFO_PAGES.iter().position(|spec| spec.name == p.name).unwrap_or(INFO_PAGES.len())
    };
    pages.sort_by(|a, b| (rank(a), &a.name).cmp(&(rank(b), &b.name)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(name: &str, text: &str) -> Result<InfoPage, Vec<ContentError>> {
        InfoPage::parse(Path::new(&format!("pages/{name}.md")), name, text)
    }

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

    #[test]
    fn the_spec_pages_keep_their_routes_and_others_go_under_info() {
        assert_eq!(parse("about-us", "Hi.\n").unwrap().route, "/info/about-us");
        assert_eq!(parse("privacy-policy", "Hi.\n").unwrap().route, "/privacy-policy");
        assert_eq!(parse("terms", "Hi.\n").unwrap().route, "/terms");
        assert_eq!(parse("contact", "Hi.\n").unwrap().route, "/info/contact");
    }

    #[test]
    fn a_route_field_chooses_the_route() {
        let p = parse("podcast", "---\ntitle: Podcast\nroute: /podcast\n---\nListen.\n").unwrap();
        assert_eq!((p.route.as_str(), p.route_line, p.route_col), ("/podcast", 3, 8));
        let p = parse("terms", "---\nroute: /legal/terms\n---\nHi.\n").unwrap();
        assert_eq!(p.route, "/legal/terms");
    }

    #[test]
    fn a_bad_route_is_an_error_at_the_field() {
        for bad in ["contact", "/Contact", "/contact/", "/contact.html", "/", "/a//b", "/../x"] {
            let errs =
                parse("c", &format!("---\ntitle: C\nroute: \"{bad}\"\n---\nHi.\n")).unwrap_err();
            assert_eq!((errs[0].line, errs[0].col), (3, 8), "{bad}: {errs:?}");
            assert!(
                matches!(&errs[0].kind, ContentErrorKind::InvalidValue { field, .. } if field == "route"),
                "{bad}: {errs:?}"
            );
        }
    }

    #[test]
    fn a_file_name_that_is_not_a_slug_is_an_error() {
        for bad in ["Contact", "contact us", "contact_us", "-x"] {
            let errs = parse(bad, "Hi.\n").unwrap_err();
            assert!(errs[0].to_string().contains("not a slug"), "{bad}: {errs:?}");
        }
    }

    #[test]
    fn an_unknown_field_is_an_error() {
        let errs = parse("contact", "---\npath: /c\n---\nHi.\n").unwrap_err();
        assert!(errs[0].to_string().contains("path"), "{errs:?}");
    }

    #[test]
    fn pages_are_listed_spec_pages_first_then_by_name() {
        let mut pages: Vec<InfoPage> = ["contact", "terms", "about-us", "faq", "privacy-policy"]
            .iter()
            .map(|n| parse(n, "Hi.\n").unwrap())
            .collect();
        sort_pages(&mut pages);
        let names: Vec<&str> = pages.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["about-us", "privacy-policy", "terms", "contact", "faq"]);
    }
}
