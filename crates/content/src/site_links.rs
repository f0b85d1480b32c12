//! `[footer]` and `[header]`: the owner's links and the footer's texts. Every key is optional;
//! the defaults are the footer every site had before (docs/configuration.md).

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::error::{ContentError, ContentErrorKind, line_col};
use crate::pages::INFO_PAGES;

/// A link written in `stillpoint.toml`. `line` is 0 for a default link (not in the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigLink {
    pub label: String,
    /// An absolute path on the site (`/contact`) or an http(s) or mailto URL.
    pub href: String,
    pub line: u32,
    pub col: u32,
}

impl ConfigLink {
    fn default_link(label: &str, href: &str) -> Self {
        Self { label: label.into(), href: href.into(), line: 0, col: 0 }
    }

    /// Whether the href is a path on this site (checked like a Markdown link).
    pub fn is_internal(&self) -> bool {
        self.href.starts_with('/')
    }
}

/// The footer's column headings.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FooterTitles {
    pub categories: String,
    pub info: String,
    pub contacts: String,
    pub mail: String,
}

impl Default for FooterTitles {
    fn default() -> Self {
        Self {
            categories: "Categories".into(),
            info: "Info".into(),
            contacts: "Contacts".into(),
            mail: "Mail".into(),
        }
    }
}

/// `[footer]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Footer {
    /// With `{year}` and `{brand}` still to fill in.
    pub copyright: String,
    /// The Info column.
    pub links: Vec<ConfigLink>,
    pub titles: FooterTitles,
}

pub const DEFAULT_COPYRIGHT: &str = "© {year} {brand}";

impl Default for Footer {
    fn default() -> Self {
        Self {
            copyright: DEFAULT_COPYRIGHT.into(),
            links: std::iter::once(("Authors", "/authors"))
                .chain(INFO_PAGES.iter().map(|p| (p.footer_label, p.route)))
                .chain([("Sitemap", "/sitemap")])
                .map(|(l, h)| ConfigLink::default_link(l, h))
                .collect(),
            titles: FooterTitles::default(),
        }
    }
}

impl Footer {
    /// The copyright line with its placeholders filled in.
    pub fn copyright_line(&self, year: i16, brand: &str) -> String {
        self.copyright.replace("{year}", &year.to_string()).replace("{brand}", brand)
    }
}

/// `[header]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Header {
    /// Extra links beside the menu; none by default.
    pub links: Vec<ConfigLink>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFooter {
    copyright: Option<Spanned<String>>,
    links: Option<Vec<RawLink>>,
    #[serde(default)]
    titles: FooterTitles,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawHeader {
    #[serde(default)]
    links: Vec<RawLink>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLink {
    label: Spanned<String>,
    href: Spanned<String>,
}

struct At<'a> {
    path: &'a Path,
    text: &'a str,
}

impl At<'_> {
    fn error(&self, span: std::ops::Range<usize>, field: &str, message: String) -> ContentError {
        let (line, col) = line_col(self.text, span.start);
        let section = field.split('.').next().unwrap_or(field);
        ContentError::new(
            self.path,
            line,
            col,
            ContentErrorKind::InvalidValue { field: field.into(), message },
        )
        .with_help(Some(format!("see docs/configuration.md#{section}-optional")))
    }

    fn links(
        &self,
        raw: Vec<RawLink>,
        field: &str,
        errors: &mut Vec<ContentError>,
    ) -> Vec<ConfigLink> {
        let mut out = Vec::new();
        for link in raw {
            let href = link.href.get_ref();
            if link.label.get_ref().trim().is_empty() {
                errors.push(self.error(link.label.span(), field, "the label is empty".into()));
            } else if !is_href(href) {
                errors.push(self.error(
                    link.href.span(),
                    field,
                    format!(
                        "`{href}` is not a link: write a path on the site (/contact) or a URL (https://…, mailto:…)"
                    ),
                ));
            } else {
                let (line, col) = line_col(self.text, link.href.span().start);
                out.push(ConfigLink {
                    label: link.label.into_inner(),
                    href: link.href.into_inner(),
                    line,
                    col,
                });
            }
        }
        out
    }
}

fn is_href(href: &str) -> bool {
    (href.starts_with('/') && !href.starts_with("//"))
        || href.starts_with("https://")
        || href.starts_with("http://")
        || href.strip_prefix("mailto:").is_some_and(|a| a.contains('@'))
}

pub(crate) fn resolve_footer(
    path: &Path,
    text: &str,
    raw: RawFooter,
    errors: &mut Vec<ContentError>,
) -> Footer {
    let at = At { path, text };
    let mut footer = Footer { titles: raw.titles, ..Footer::default() };
    if let Some(links) = raw.links {
        footer.links = at.links(links, "footer.links", errors);
    }
    if let Some(c) = raw.copyright {
        let unknown = placeholders(c.get_ref()).find(|p| !matches!(*p, "year" | "brand"));
        match unknown {
            Some(p) => errors.push(at.error(
                c.span(),
                "footer.copyright",
                format!("unknown placeholder `{{{p}}}`: use {{year}} and {{brand}}"),
            )),
            None => footer.copyright = c.into_inner(),
        }
    }
    footer
}

pub(crate) fn resolve_header(
    path: &Path,
    text: &str,
    raw: RawHeader,
    errors: &mut Vec<ContentError>,
) -> Header {
    Header { links: At { path, text }.links(raw.links, "header.links", errors) }
}

/// The names between braces: `{year}` → `year`.
fn placeholders(s: &str) -> impl Iterator<Item = &str> {
    s.split('{').skip(1).filter_map(|part| part.split_once('}').map(|(name, _)| name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Doc {
        #[serde(default)]
        footer: RawFooter,
        #[serde(default)]
        header: RawHeader,
    }

    fn parse(text: &str) -> Result<(Footer, Header), Vec<ContentError>> {
        let doc: Doc = toml::from_str(text)
            .map_err(|e| vec![crate::error::toml_error(Path::new("stillpoint.toml"), text, &e)])?;
        let path = Path::new("stillpoint.toml");
        let mut errors = Vec::new();
        let footer = resolve_footer(path, text, doc.footer, &mut errors);
        let header = resolve_header(path, text, doc.header, &mut errors);
        if errors.is_empty() { Ok((footer, header)) } else { Err(errors) }
    }

    #[test]
    fn defaults_are_todays_footer_and_no_header_links() {
        let (footer, header) = parse("").unwrap();
        assert_eq!(footer, Footer::default());
        assert_eq!(footer.titles.contacts, "Contacts");
        let hrefs: Vec<&str> = footer.links.iter().map(|l| l.href.as_str()).collect();
        assert_eq!(hrefs, ["/authors", "/info/about-us", "/privacy-policy", "/terms", "/sitemap"]);
        assert_eq!(footer.copyright_line(2025, "Stillpoint"), "© 2025 Stillpoint");
        assert!(header.links.is_empty());
    }

    #[test]
    fn reads_links_titles_and_copyright() {
        let (footer, header) = parse(
            "[footer]\ncopyright = \"{brand}, since {year}\"\n\
             links = [{ label = \"Contact\", href = \"/info/contact\" }, { label = \"Shop\", href = \"https://shop.example\" }]\n\
             [footer.titles]\ninfo = \"About\"\n\
             [header]\nlinks = [{ label = \"Podcast\", href = \"/podcast\" }]\n",
        )
        .unwrap();
        assert_eq!(footer.copyright_line(2026, "Still Waters"), "Still Waters, since 2026");
        assert_eq!(footer.links.len(), 2);
        assert_eq!((footer.links[0].line, footer.links[0].col), (3, 38));
        assert!(footer.links[0].is_internal() && !footer.links[1].is_internal());
        assert_eq!(footer.titles.info, "About");
        assert_eq!(footer.titles.categories, "Categories");
        assert_eq!(header.links[0].label, "Podcast");
        assert_eq!(header.links[0].line, 7);
    }

    #[test]
    fn an_empty_list_means_no_links() {
        let (footer, _) = parse("[footer]\nlinks = []\n").unwrap();
        assert!(footer.links.is_empty());
    }

    #[test]
    fn bad_hrefs_labels_and_placeholders_are_errors_at_their_place() {
        let errs = parse(
            "[footer]\ncopyright = \"© {yaer}\"\nlinks = [{ label = \"\", href = \"/a\" }, { label = \"B\", href = \"b.html\" }]\n\
             [header]\nlinks = [{ label = \"C\", href = \"//evil.example\" }]\n",
        )
        .unwrap_err();
        let at: Vec<(u32, u32)> = errs.iter().map(|e| (e.line, e.col)).collect();
        assert_eq!(at, [(3, 20), (3, 61), (2, 13), (5, 32)], "{errs:?}");
        assert!(errs[2].to_string().contains("{yaer}"), "{errs:?}");
    }

    #[test]
    fn unknown_keys_are_errors() {
        let errs = parse("[footer.titles]\ncontact = \"Reach us\"\n").unwrap_err();
        assert!(errs[0].to_string().contains("contact"), "{errs:?}");
        let errs = parse("[header]\nlink = []\n").unwrap_err();
        assert!(errs[0].to_string().contains("link"), "{errs:?}");
    }
}
