//! `.stillpoint/build.json` in every output: what a built site is, for the commands that take a
//! built site rather than its sources (`serve` reads the proxy allow-list and the policy,
//! `deploy` the bucket). Nothing under `.stillpoint/` is served or deployed.

use std::path::Path;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::layout::BUILD_INFO;
use crate::shard::Shard;

/// The site a build was made from, as the serving and publishing commands need it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildInfo {
    /// The engine version that wrote the output.
    pub engine: String,
    pub site: BuiltSite,
    /// The environment built for (`build --env`); `production` in outputs of older versions.
    #[serde(default = "production")]
    pub env: String,
    /// Every page asks robots not to index it: `serve` adds `X-Robots-Tag: noindex`.
    #[serde(default)]
    pub noindex: bool,
    /// Set in a shard build's output (`build --shard i/N`): which shard of how many it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// CSP sources (`'sha256-…'`) of the `<style>` elements the pages inline; `serve` and `dev`
    /// add them to `style-src`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub style_hashes: Vec<String>,
    /// The Content-Security-Policy the site's pages need (header form, derived from what the
    /// site uses). `serve`, `dev` and the service worker send it; every page carries it as a
    /// `<meta>` too. Absent in outputs of older versions: `serve` then sends its fixed policy
    /// with `style_hashes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csp: Option<String>,
    /// Built with drafts (`build --drafts`): a preview, not for the public.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub preview: bool,
    /// The article dated after the build's instant that goes live first: the site must be
    /// built again at that instant for it to appear (docs/ci/scheduled.yml).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_scheduled: Option<Upcoming>,
    /// The published article whose `expires` comes first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_expiry: Option<Upcoming>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BuiltSite {
    pub id: String,
    pub title: String,
    /// Canonical origin, without a trailing slash.
    pub url: String,
    /// The environment's bucket (production's unless built with `--env`).
    pub bucket: String,
    /// URL prefixes the third-party proxy may fetch.
    pub proxy_allow: Vec<String>,
}

/// An article and the instant it appears or goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upcoming {
    pub title: String,
    pub slug: String,
    pub at: Timestamp,
}

/// The environment of outputs written before builds recorded one.
pub const PRODUCTION: &str = "production";

fn production() -> String {
    PRODUCTION.to_string()
}

impl BuildInfo {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("build info serialises") + "\n"
    }

    /// Reads the build information of the built site at `dist` (an `InvalidData` error when
    /// the file is not build information).
    pub fn from_dist(dist: &Path) -> std::io::Result<Self> {
        let text = std::fs::read_to_string(dist.join(BUILD_INFO))?;
        serde_json::from_str(&text)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_writes_and_what_older_versions_wrote() {
        let dir = std::env::temp_dir().join(format!("stillpoint-dist-{}", std::process::id()));
        std::fs::create_dir_all(dir.join(".stillpoint")).unwrap();
        let old = r#"{"engine":"0.1.0","site":{"id":"s","title":"T","url":"https://e.org","bucket":"b","proxyAllow":[]}}"#;
        std::fs::write(dir.join(BUILD_INFO), old).unwrap();
        let info = BuildInfo::from_dist(&dir).unwrap();
        assert_eq!(
            (info.env.as_str(), info.noindex, info.csp.as_deref()),
            ("production", false, None)
        );
        let info = BuildInfo {
            shard: Some(Shard { index: 1, count: 4 }),
            next_scheduled: Some(Upcoming {
                title: "Dawn".into(),
                slug: "dawn".into(),
                at: "2027-03-01T06:00:00Z".parse().unwrap(),
            }),
            ..info
        };
        std::fs::write(dir.join(BUILD_INFO), info.to_json()).unwrap();
        assert_eq!(BuildInfo::from_dist(&dir).unwrap(), info);
        std::fs::write(dir.join(BUILD_INFO), "{").unwrap();
        let error = BuildInfo::from_dist(&dir).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
