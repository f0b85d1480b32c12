//! The owner's words in `stillpoint.toml`: `[home]` (the home page's title, description, heading,
//! lead and section titles), `[not_found]` (the 404 page's texts) and `[menu]` (whether topics
//! with no articles are listed). Every key is optional; the defaults are the spec's texts.

use serde::Deserialize;
use toml::Spanned;

/// The spec's 404 description: the default `[not_found] text`.
pub const NOT_FOUND_TEXT: &str = "Oops! The page you're looking for doesn't exist. But don't worry, let's get you back to a calm state of mind.";

/// `[home]`: the home page's texts and sections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HomeCopy {
    /// The `<title>`, before ` | {brand}`.
    pub title: String,
    /// The meta description; `None`: `site.description`.
    pub description: Option<String>,
    /// The h1.
    pub heading: String,
    /// The paragraph under the h1; empty: none.
    pub lead: String,
    pub top_stories: HomeSection,
    pub popular: HomeSection,
    pub more: HomeSection,
}

/// `[home.top_stories]`, `[home.popular]`, `[home.more]`: a section's heading, and whether it is
/// shown at all (a section with no articles is not, whatever `show` says).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HomeSection {
    pub title: String,
    pub show: bool,
}

/// `[not_found]`: the 404 page's texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFoundCopy {
    /// The `<title>`, before ` | {brand}`.
    pub title: String,
    /// The h1.
    pub heading: String,
    /// The paragraph under the h1, also the meta description.
    pub text: String,
}

/// `[menu]`: what the navigation lists.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MenuConfig {
    /// Topics with no articles are listed in the menu, the footer, the HTML sitemap and their
    /// category's page (default false: they are left out; their pages exist but are `noindex`).
    #[serde(default)]
    pub empty_topics: bool,
}

impl Default for HomeCopy {
    fn default() -> Self {
        Self {
            title: "Guided Meditations for a Calmer You".into(),
            description: None,
            heading: "Guided meditations for a calmer you".into(),
            lead: "Practical guidance on meditation, sleep, stress and focus, written by teachers, coaches and psychologists.".into(),
            top_stories: HomeSection::titled("Top Stories"),
            popular: HomeSection::titled("Popular Articles"),
            more: HomeSection::titled("Have More Awesome Stuff"),
        }
    }
}

impl HomeSection {
    fn titled(title: &str) -> Self {
        Self { title: title.into(), show: true }
    }
}

impl Default for NotFoundCopy {
    fn default() -> Self {
        Self {
            title: "Page Not Found".into(),
            heading: "Page Not Found".into(),
            text: NOT_FOUND_TEXT.into(),
        }
    }
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawHome {
    title: Option<Spanned<String>>,
    description: Option<Spanned<String>>,
    heading: Option<Spanned<String>>,
    lead: Option<String>,
    #[serde(default)]
    top_stories: RawSection,
    #[serde(default)]
    popular: RawSection,
    #[serde(default)]
    more: RawSection,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSection {
    title: Option<Spanned<String>>,
    show: Option<bool>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawNotFound {
    title: Option<Spanned<String>>,
    heading: Option<Spanned<String>>,
    text: Option<Spanned<String>>,
}

/// A blank text where one is needed: its span and its key.
pub(crate) type Blank = (std::ops::Range<usize>, String);

/// `value` trimmed, or `default`; a blank value is reported in `blank` under `key`.
fn text(
    value: Option<Spanned<String>>,
    default: String,
    key: &str,
    blank: &mut Vec<Blank>,
) -> String {
    match value {
        Some(v) if v.get_ref().trim().is_empty() => {
            blank.push((v.span(), key.to_string()));
            default
        }
        Some(v) => v.into_inner().trim().to_string(),
        None => default,
    }
}

impl RawHome {
    pub(crate) fn resolve(self, blank: &mut Vec<Blank>) -> HomeCopy {
        let d = HomeCopy::default();
        let section =
            |raw: RawSection, d: HomeSection, key: &str, blank: &mut Vec<Blank>| HomeSection {
                title: text(raw.title, d.title, &format!("home.{key}.title"), blank),
                show: raw.show.unwrap_or(d.show),
            };
        HomeCopy {
            title: text(self.title, d.title, "home.title", blank),
            description: self
                .description
                .map(|v| text(Some(v), String::new(), "home.description", blank)),
            heading: text(self.heading, d.heading, "home.heading", blank),
            lead: self.lead.map_or(d.lead, |l| l.trim().to_string()),
            top_stories: section(self.top_stories, d.top_stories, "top_stories", blank),
            popular: section(self.popular, d.popular, "popular", blank),
            more: section(self.more, d.more, "more", blank),
        }
    }
}

impl RawNotFound {
    pub(crate) fn resolve(self, blank: &mut Vec<Blank>) -> NotFoundCopy {
        let d = NotFoundCopy::default();
        NotFoundCopy {
            title: text(self.title, d.title, "not_found.title", blank),
            heading: text(self.heading, d.heading, "not_found.heading", blank),
            text: text(self.text, d.text, "not_found.text", blank),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::SiteConfig;
    use crate::error::ContentErrorKind;

    use super::*;

    const SITE: &str = "[site]\nid = \"s\"\ntitle = \"S\"\nurl = \"https://s.example\"\n\
        description = \"Calm.\"\nstart_date = \"2024-09-12\"\ncontact_email = \"a@s.example\"\n\
        [site.social]\nvideo = \"https://v\"\nfeed = \"https://f\"\nphoto = \"https://p\"\n";

    fn parse(extra: &str) -> Result<SiteConfig, Vec<crate::ContentError>> {
        SiteConfig::parse(Path::new("stillpoint.toml"), &format!("{SITE}{extra}"))
    }

    #[test]
    fn defaults_are_the_spec_texts() {
        let c = parse("").unwrap();
        assert_eq!(c.home, HomeCopy::default());
        assert_eq!(c.home.heading, "Guided meditations for a calmer you");
        assert_eq!(c.home.title, "Guided Meditations for a Calmer You");
        assert_eq!(c.home.description, None, "the site's description");
        let titles = [&c.home.top_stories, &c.home.popular, &c.home.more].map(|s| s.title.as_str());
        assert_eq!(titles, ["Top Stories", "Popular Articles", "Have More Awesome Stuff"]);
        assert!(c.home.top_stories.show && c.home.popular.show && c.home.more.show);
        assert_eq!(c.not_found.title, "Page Not Found");
        assert_eq!(c.not_found.heading, "Page Not Found");
        assert_eq!(c.not_found.text, NOT_FOUND_TEXT);
        assert!(!c.menu.empty_topics, "empty topics are left out of the menu by default");
    }

    #[test]
    fn every_text_can_be_the_owners() {
        let c = parse(
            "[home]\ntitle = \"Still Waters\"\ndescription = \"Sit.\"\nheading = \"Sit still\"\nlead = \"\"\n\
             [home.top_stories]\ntitle = \"New\"\n[home.popular]\nshow = false\n[home.more]\ntitle = \"All\"\n\
             [not_found]\ntitle = \"Lost\"\nheading = \"Nothing here\"\ntext = \"Try the search.\"\n\
             [menu]\nempty_topics = true\n",
        )
        .unwrap();
        assert_eq!(c.home.title, "Still Waters");
        assert_eq!(c.home.description.as_deref(), Some("Sit."));
        assert_eq!(c.home.heading, "Sit still");
        assert_eq!(c.home.lead, "", "an empty lead: no paragraph");
        assert_eq!(c.home.top_stories, HomeSection { title: "New".into(), show: true });
        assert_eq!(c.home.popular, HomeSection { title: "Popular Articles".into(), show: false });
        assert_eq!(c.home.more.title, "All");
        assert_eq!(
            c.not_found,
            NotFoundCopy {
                title: "Lost".into(),
                heading: "Nothing here".into(),
                text: "Try the search.".into()
            }
        );
        assert!(c.menu.empty_topics);
    }

    #[test]
    fn unknown_keys_are_errors_with_the_keys_there_are() {
        for (extra, line) in [
            ("[home]\nheadline = \"x\"\n", 13),
            ("[home.popular]\nhide = true\n", 13),
            ("[not_found]\ndescription = \"x\"\n", 13),
            ("[menu]\nempty = true\n", 13),
        ] {
            let errs = parse(extra).unwrap_err();
            let ContentErrorKind::InvalidToml(message) = &errs[0].kind else {
                panic!("{extra}: {errs:?}")
            };
            assert!(message.contains("unknown field"), "{extra}: {message}");
            assert!(message.contains("expected"), "names the keys there are: {message}");
            assert_eq!(errs[0].line, line, "{extra}: {errs:?}");
        }
        let errs = parse("[home]\nheadng = \"x\"\n").unwrap_err();
        assert_eq!(errs[0].hint(), "did you mean `heading`?");
        let errs = parse("[menu]\nempty_topic = true\n").unwrap_err();
        assert_eq!(errs[0].hint(), "did you mean `empty_topics`?");
    }

    #[test]
    fn blank_texts_are_errors_at_their_position() {
        let errs = parse("[home]\nheading = \"  \"\n[not_found]\ntext = \"\"\n").unwrap_err();
        let found: Vec<(u32, u32, String)> =
            errs.iter().map(|e| (e.line, e.col, e.kind.to_string())).collect();
        assert_eq!(
            found,
            [
                (13, 11, "invalid value for `home.heading`: must not be empty".to_string()),
                (15, 8, "invalid value for `not_found.text`: must not be empty".to_string()),
            ]
        );
    }
}
