//! Environments: `[env.NAME]` sections of `stillpoint.toml` and the configuration a build for
//! one of them uses (`build --env NAME`, see docs/configuration.md#environments).

use serde::Deserialize;

use crate::config::SiteConfig;

/// The default environment: `[site]` and `[deploy]` as written, indexed by search engines.
pub const PRODUCTION: &str = "production";

/// The environment `deploy --dev` means; it needs no section.
pub const DEV: &str = "dev";

/// What an `[env.NAME]` section may change; every other key is an error.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvSection {
    /// The environment's own origin [default: the production host with `NAME.` in front].
    pub url: Option<String>,
    /// Its bucket [default: `{bucket}-NAME`].
    pub bucket: Option<String>,
    /// Third-party scripts instead of `site.scripts` (e.g. `[]`: no analytics on staging).
    pub scripts: Option<Vec<String>>,
}

/// Why an `[env.NAME]` section is refused, if it is.
pub(crate) fn check_env(name: &str, section: &EnvSection) -> Result<(), String> {
    if name == PRODUCTION {
        return Err(
            "production is [site] and [deploy] themselves; it takes no [env] section".into()
        );
    }
    if !crate::labels::is_slug(name) {
        return Err("an environment's name uses lowercase letters, digits and dashes".into());
    }
    match &section.url {
        Some(url) if !(url.starts_with("https://") || url.starts_with("http://")) => {
            Err("url must start with https:// or http://".into())
        }
        _ => Ok(()),
    }
}

impl SiteConfig {
    /// The environments a build may name: production, dev, then every `[env.NAME]`.
    pub fn env_names(&self) -> Vec<&str> {
        let mut names = vec![PRODUCTION, DEV];
        names.extend(self.envs.keys().map(String::as_str).filter(|n| *n != DEV));
        names
    }

    /// Whether this configuration is production's (pages are indexed).
    pub fn is_production(&self) -> bool {
        self.env == PRODUCTION
    }

    /// This configuration for environment `name`: its section's keys replace those of `[site]`
    /// and `[deploy]`. An environment without `url` is at the production host with `NAME.` in
    /// front (a leading `www.` dropped); without `bucket`, in `{bucket}-NAME`.
    pub fn for_env(&self, name: &str) -> Result<SiteConfig, String> {
        if name == PRODUCTION {
            return Ok(self.clone());
        }
        let section = match self.envs.get(name) {
            Some(s) => s.clone(),
            None if name == DEV => EnvSection::default(),
            None => {
                return Err(format!(
                    "stillpoint.toml has no environment `{name}`; it has: {} (add an [env.{name}] section)",
                    self.env_names().join(", ")
                ));
            }
        };
        let mut c = self.clone();
        c.env = name.to_string();
        c.url = match section.url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None => prefixed_host(&self.url, name),
        };
        c.bucket = section.bucket.unwrap_or_else(|| format!("{}-{name}", self.bucket));
        if let Some(scripts) = section.scripts {
            c.scripts = scripts;
        }
        Ok(c)
    }
}

/// `https://www.example.org` → `https://NAME.example.org`.
fn prefixed_host(url: &str, name: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("https", url));
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    format!("{scheme}://{name}.{rest}")
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::error::ContentErrorKind;

    const SITE: &str = r#"
[site]
id = "calm"
title = "Calm"
url = "https://www.calm.example/"
description = "Calm."
start_date = "2024-09-12"
contact_email = "hello@calm.example"
scripts = ["https://analytics.example/a.js"]

[site.social]
video = "https://v.example"
feed = "https://f.example"
photo = "https://p.example"
"#;

    fn parse(extra: &str) -> Result<SiteConfig, Vec<crate::ContentError>> {
        SiteConfig::parse(Path::new("stillpoint.toml"), &format!("{SITE}{extra}"))
    }

    #[test]
    fn production_is_the_default_and_unchanged() {
        let c = parse("").unwrap();
        assert!(c.is_production());
        assert_eq!(c.for_env(PRODUCTION).unwrap(), c);
    }

    #[test]
    fn dev_needs_no_section() {
        let dev = parse("").unwrap().for_env(DEV).unwrap();
        assert_eq!(dev.url, "https://dev.calm.example");
        assert_eq!(dev.bucket, "calm-site-dev");
        assert!(!dev.is_production());
        assert_eq!(dev.scripts, ["https://analytics.example/a.js"]);
    }

    #[test]
    fn a_section_replaces_url_bucket_and_scripts() {
        let c = parse(
            "[env.staging]\nurl = \"https://staging.calm.example/\"\nbucket = \"calm-staging\"\nscripts = []\n",
        )
        .unwrap();
        let s = c.for_env("staging").unwrap();
        assert_eq!(s.url, "https://staging.calm.example");
        assert_eq!(s.bucket, "calm-staging");
        assert!(s.scripts.is_empty());
        assert_eq!(s.env, "staging");
        assert_eq!(c.for_env("dev").unwrap().bucket, "calm-site-dev");
        let e = parse("[env.qa]\n").unwrap().for_env("qa").unwrap();
        assert_eq!(
            (e.url.as_str(), e.bucket.as_str()),
            ("https://qa.calm.example", "calm-site-qa")
        );
    }

    #[test]
    fn an_unknown_env_lists_the_known_ones() {
        let c = parse("[env.staging]\n").unwrap();
        let e = c.for_env("stagin").unwrap_err();
        assert!(e.contains("no environment `stagin`"), "{e}");
        assert!(e.contains("production, dev, staging"), "{e}");
    }

    #[test]
    fn an_unknown_key_in_a_section_names_the_line() {
        let errs =
            parse("\n[env.staging]\nurl = \"https://s.example\"\nindex = true\n").unwrap_err();
        assert!(matches!(&errs[0].kind, ContentErrorKind::InvalidToml(m) if m.contains("index")));
        assert_eq!(errs[0].line as usize, SITE.lines().count() + 4);
    }

    #[test]
    fn bad_sections_name_their_line() {
        let errs =
            parse("[env.production]\n[env.Staging]\n[env.qa]\nurl = \"qa.example\"\n").unwrap_err();
        assert_eq!(errs.len(), 3, "{errs:?}");
        let base = SITE.lines().count() + 1;
        let mut lines: Vec<usize> = errs.iter().map(|e| e.line as usize).collect();
        lines.sort();
        assert_eq!(lines, [base, base + 1, base + 2]);
    }
}
