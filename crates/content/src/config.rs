//! `stillpoint.toml`: the site configuration.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::copy::{HomeCopy, MenuConfig, NotFoundCopy, RawHome, RawNotFound};
use crate::env::check_env;
use crate::env::{EnvSection, PRODUCTION};
use crate::error::{ContentError, ContentErrorKind, line_col, toml_error};
use crate::site_links::{Footer, Header, RawFooter, RawHeader, resolve_footer, resolve_header};
use crate::social::{RawSocial, SocialLink, resolve_social};
use crate::suggest::did_you_mean_text;
use crate::theme::{RawTheme, Theme};
use crate::warning::WARNING_CODES;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteConfig {
    /// The site identifier: logo path, bucket names, sponsored label choice.
    pub id: String,
    /// The brand; every page title ends with ` | {title}`.
    pub title: String,
    /// Canonical origin, without a trailing slash.
    pub url: String,
    pub description: String,
    pub locale: String,
    /// Default date of articles without one (`YYYY-MM-DD`).
    pub start_date: jiff::civil::Date,
    pub contact_email: String,
    /// `[site.social]`, in file order.
    pub social: Vec<SocialLink>,
    /// `[footer]` and `[header]`: the owner's links and the footer's texts.
    pub footer: Footer,
    pub header: Header,
    /// Production bucket; the dev bucket is `{bucket}-dev`.
    pub bucket: String,
    /// URL prefixes the third-party script proxy may fetch.
    pub proxy_allow: Vec<String>,
    /// Third-party scripts to load deferred on every page.
    pub scripts: Vec<String>,
    /// `[markdown] unsafe_html`: raw HTML in Markdown is trusted and kept as written
    /// (default false: it is sanitised).
    pub unsafe_html: bool,
    /// `[check] accept`: warning codes the site accepts on purpose, everywhere.
    pub accept: Vec<String>,
    /// The environment this configuration is for: [`PRODUCTION`] unless
    /// [`SiteConfig::for_env`] chose another (see `env.rs`).
    pub env: String,
    /// The `[env.NAME]` sections, by name.
    pub envs: BTreeMap<String, EnvSection>,
    /// `[theme]`: design tokens (theme.rs, docs/theme.md).
    pub theme: Theme,
    /// `[home]`, `[not_found]`, `[menu]`: the owner's texts and navigation (see `copy.rs`).
    pub home: HomeCopy,
    pub not_found: NotFoundCopy,
    pub menu: MenuConfig,
    /// `[podcast]`: the RSS feed is a podcast of the articles with audio (see podcast.rs).
    pub podcast: Option<crate::podcast::Podcast>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    site: RawSite,
    #[serde(default)]
    deploy: RawDeploy,
    #[serde(default)]
    proxy: RawProxy,
    #[serde(default)]
    markdown: RawMarkdown,
    #[serde(default)]
    env: BTreeMap<toml::Spanned<String>, EnvSection>,
    #[serde(default)]
    check: RawCheck,
    #[serde(default)]
    theme: RawTheme,
    #[serde(default)]
    footer: RawFooter,
    #[serde(default)]
    header: RawHeader,
    #[serde(default)]
    home: RawHome,
    #[serde(default)]
    not_found: RawNotFound,
    #[serde(default)]
    menu: MenuConfig,
    podcast: Option<crate::podcast::RawPodcast>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheck {
    #[serde(default)]
    accept: Vec<toml::Spanned<String>>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMarkdown {
    #[serde(default)]
    unsafe_html: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSite {
    id: toml::Spanned<String>,
    title: String,
    url: toml::Spanned<String>,
    description: String,
    #[serde(default = "default_locale")]
    locale: String,
    start_date: toml::Spanned<String>,
    contact_email: String,
    #[serde(default)]
    social: RawSocial,
    #[serde(default)]
    scripts: Vec<String>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeploy {
    bucket: Option<String>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProxy {
    #[serde(default)]
    allow: Vec<String>,
}

fn default_locale() -> String {
    "en_US".to_string()
}

impl SiteConfig {
    /// Parses the text of `stillpoint.toml`; `path` only names the file in errors.
    pub fn parse(path: &Path, text: &str) -> Result<Self, Vec<ContentError>> {
        let raw: Raw = toml::from_str(text).map_err(|e| vec![toml_error(path, text, &e)])?;
        let mut errors = Vec::new();
        let at = |span: std::ops::Range<usize>, field: &str, message: &str| {
            let (line, col) = line_col(text, span.start);
            ContentError::new(
                path,
                line,
                col,
                ContentErrorKind::InvalidValue { field: field.into(), message: message.into() },
            )
        };
        let id = raw.site.id.get_ref();
        if !crate::labels::is_slug(id) {
            errors.push(at(
                raw.site.id.span(),
                "site.id",
                "use lowercase letters, digits and dashes",
            ));
        }
        let url = raw.site.url.get_ref().trim_end_matches('/').to_string();
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            errors.push(at(raw.site.url.span(), "site.url", "must start with https:// or http://"));
        }
        let start_date = parse_date(raw.site.start_date.get_ref());
        if start_date.is_none() {
            errors.push(at(
                raw.site.start_date.span(),
                "site.start_date",
                "expected a date like 2024-09-12 or 2024-09-12T00:00:00Z",
            ));
        }
        for code in &raw.check.accept {
            let name = code.get_ref().as_str();
            if !WARNING_CODES.contains(&name) {
                let help =
                    did_you_mean_text(name, WARNING_CODES.iter().copied()).unwrap_or_else(|| {
                        format!(
                            "use one of {} (see docs/check.md#warnings)",
                            WARNING_CODES.join(", ")
                        )
                    });
                errors.push(
                    at(code.span(), "check.accept", &format!("`{name}` is not a warning code"))
                        .with_help(Some(help)),
                );
            }
        }
        for (name, section) in &raw.env {
            if let Err(message) = check_env(name.get_ref(), section) {
                errors.push(at(name.span(), &format!("env.{}", name.get_ref()), &message));
            }
        }
        let theme = crate::theme::parse(raw.theme, path, text).map_err(|e| errors.extend(e)).ok();
        let social = resolve_social(path, text, raw.site.social).unwrap_or_else(|e| {
            errors.extend(e);
            Vec::new()
        });
        let footer = resolve_footer(path, text, raw.footer, &mut errors);
        let header = resolve_header(path, text, raw.header, &mut errors);
        let podcast = raw.podcast.and_then(|p| p.resolve(path, text, &mut errors));
        let mut blank = Vec::new();
        let home = raw.home.resolve(&mut blank);
        let not_found = raw.not_found.resolve(&mut blank);
        for (span, key) in blank {
            errors.push(at(span, &key, "must not be empty"));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let bucket = raw.deploy.bucket.unwrap_or_else(|| format!("{id}-site"));
        Ok(Self {
            id: id.clone(),
            title: raw.site.title,
            url,
            description: raw.site.description,
            locale: raw.site.locale,
            start_date: start_date.expect("checked above"),
            contact_email: raw.site.contact_email,
            social,
            footer,
            header,
            bucket,
            proxy_allow: raw.proxy.allow,
            scripts: raw.site.scripts,
            unsafe_html: raw.markdown.unsafe_html,
            accept: raw.check.accept.into_iter().map(toml::Spanned::into_inner).collect(),
            env: PRODUCTION.to_string(),
            envs: raw.env.into_iter().map(|(k, v)| (k.into_inner(), v)).collect(),
            theme: theme.expect("checked above"),
            home,
            not_found,
            menu: raw.menu,
            podcast,
        })
    }

    pub fn dev_bucket(&self) -> String {
        format!("{}-dev", self.bucket)
    }
}

/// A date, or the date part of an RFC 3339 timestamp.
pub fn parse_date(s: &str) -> Option<jiff::civil::Date> {
    let s = s.trim();
    if let Ok(d) = s.parse::<jiff::civil::Date>() {
        return Some(d);
    }
    s.parse::<jiff::Timestamp>().ok().map(|t| t.to_zoned(jiff::tz::TimeZone::UTC).date())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
[site]
id = "stillpoint"
title = "Stillpoint"
url = "https://stillpoint.example/"
description = "Calm."
start_date = "2024-09-12T00:00:00Z"
contact_email = "hello@stillpoint.example"

[site.social]
video = "https://v.example"
feed = "https://f.example"
photo = "https://p.example"
"#;

    #[test]
    fn parses_and_fills_defaults() {
        let c = SiteConfig::parse(Path::new("stillpoint.toml"), GOOD).unwrap();
        assert_eq!(c.url, "https://stillpoint.example");
        assert_eq!(c.locale, "en_US");
        assert_eq!(c.bucket, "stillpoint-site");
        assert_eq!(c.dev_bucket(), "stillpoint-site-dev");
        assert_eq!(c.start_date.to_string(), "2024-09-12");
        assert!(c.proxy_allow.is_empty());
        assert!(!c.unsafe_html, "raw HTML is sanitised unless the site opts in");
    }

    #[test]
    fn markdown_unsafe_html_opt_in() {
        let text = format!("{GOOD}\n[markdown]\nunsafe_html = true\n");
        let c = SiteConfig::parse(Path::new("stillpoint.toml"), &text).unwrap();
        assert!(c.unsafe_html);
        let text = format!("{GOOD}\n[markdown]\nunsafe = true\n");
        let errs = SiteConfig::parse(Path::new("stillpoint.toml"), &text).unwrap_err();
        assert!(matches!(errs[0].kind, ContentErrorKind::InvalidToml(_)), "{:?}", errs[0]);
    }

    #[test]
    fn check_accept_lists_warning_codes() {
        let text = format!("{GOOD}\n[check]\naccept = [\"author_without_articles\"]\n");
        let c = SiteConfig::parse(Path::new("stillpoint.toml"), &text).unwrap();
        assert_eq!(c.accept, ["author_without_articles"]);
        let text = format!("{GOOD}\n[check]\naccept = [\"author_without_article\"]\n");
        let errs = SiteConfig::parse(Path::new("stillpoint.toml"), &text).unwrap_err();
        assert_eq!((errs[0].line, errs[0].col), (16, 11), "{errs:?}");
        assert_eq!(errs[0].hint(), "did you mean `author_without_articles`?");
    }

    #[test]
    fn missing_field_names_the_field_and_line() {
        let text = GOOD.replace("title = \"Stillpoint\"\n", "");
        let errs = SiteConfig::parse(Path::new("stillpoint.toml"), &text).unwrap_err();
        assert_eq!(errs[0].kind, ContentErrorKind::MissingField("title".into()));
        assert_eq!(errs[0].line, 2);
    }

    #[test]
    fn invalid_toml_has_a_position() {
        let text = GOOD.replace("title = \"Stillpoint\"", "title = \"Stillpoint");
        let errs = SiteConfig::parse(Path::new("stillpoint.toml"), &text).unwrap_err();
        assert!(matches!(errs[0].kind, ContentErrorKind::InvalidToml(_)), "{:?}", errs[0]);
        assert_eq!(errs[0].line, 4);
    }

    #[test]
    fn bad_values_are_all_reported() {
        let text = GOOD.replace("\"stillpoint\"", "\"Still Point\"").replace("2024-09-12T", "soon");
        let errs = SiteConfig::parse(Path::new("stillpoint.toml"), &text).unwrap_err();
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert_eq!(errs[0].line, 3);
    }
}
