//! `.stillpoint/build.json` in every output: what a built site is, for the commands that take a
//! built site rather than its sources (`serve` reads the proxy allow-list, `deploy` the bucket).
//! Nothing under `.stillpoint/` is served or deployed.

use std::path::Path;

use serde::{Deserialize, Serialize};
use stillpoint_content::{Site, Upcoming};

use crate::error::BuildError;

/// Where the build information lives, relative to the output root.
pub const BUILD_INFO_FILE: &str = crate::layout::BUILD_INFO;

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
    pub shard: Option<crate::shard::Shard>,
    /// CSP sources (`'sha256-…'`) of the `<style>` elements the pages inline; `serve` and `dev`
    /// add them to `style-src`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub style_hashes: Vec<String>,
    /// The Content-Security-Policy the site's pages need (header form, derived from what the
    /// site uses: `crate::csp`). `serve`, `dev` and the service worker send it; every page
    /// carries it as a `<meta>` too. Absent in outputs of older versions: `serve` then sends
    /// its fixed policy with `style_hashes`.
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

fn production() -> String {
    stillpoint_content::PRODUCTION.to_string()
}

impl BuildInfo {
    pub fn of(site: &Site) -> Self {
        let c = &site.config;
        Self {
            engine: env!("CARGO_PKG_VERSION").to_string(),
            site: BuiltSite {
                id: c.id.clone(),
                title: c.title.clone(),
                url: c.url.clone(),
                bucket: c.bucket.clone(),
                proxy_allow: c.proxy_allow.clone(),
            },
            env: c.env.clone(),
            noindex: !c.is_production(),
            shard: None,
            style_hashes: Vec::new(),
            csp: None,
            preview: site.schedule.preview,
            next_scheduled: site.schedule.next.clone(),
            next_expiry: site.schedule.next_expiry.clone(),
        }
    }

    /// With the CSP source of the inline `<style>` holding `css` (none when `css` is empty).
    pub fn with_inline_style(mut self, css: &str) -> Self {
        if !css.is_empty() {
            self.style_hashes.push(crate::render::csp_hash(css));
        }
        self
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("build info serialises") + "\n"
    }

    /// Reads the build information of the built site at `dist`.
    pub fn from_dist(dist: &Path) -> Result<Self, BuildError> {
        let path = dist.join(BUILD_INFO_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| BuildError::io(&path, e))?;
        serde_json::from_str(&text).map_err(|e| {
            BuildError::io(&path, std::io::Error::new(std::io::ErrorKind::InvalidData, e))
        })
    }
}
