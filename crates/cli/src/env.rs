//! The environment a command works for (`--env NAME`, `STILLPOINT_ENV`), as its first line
//! names it.

use std::path::Path;

use stillpoint_content::{PRODUCTION, SiteConfig};

/// `staging (https://staging.example.org)` for an environment other than production whose
/// configuration reads; None for production (named as before: not at all) or when
/// `stillpoint.toml` has errors, which the command itself then reports.
pub fn describe(site_dir: &Path, env: &str) -> Option<String> {
    if env == PRODUCTION {
        return None;
    }
    let path = site_dir.join("stillpoint.toml");
    let text = std::fs::read_to_string(&path).ok()?;
    let config = SiteConfig::parse(&path, &text).ok()?.for_env(env).ok()?;
    Some(label(&config.env, &config.url))
}

/// `staging (https://staging.example.org)`.
pub fn label(env: &str, url: &str) -> String {
    format!("{env} ({url})")
}
