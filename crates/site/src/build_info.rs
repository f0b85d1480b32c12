//! `.stillpoint/build.json` ([`stillpoint_dist::BuildInfo`]) as the build writes it: the site's
//! settings, schedule and inline styles.

use stillpoint_content::Site;
use stillpoint_dist::build_info::Upcoming;
pub use stillpoint_dist::build_info::{BuildInfo, BuiltSite};

/// The build information of `site`, before the policy and the inline styles are known.
pub fn of(site: &Site) -> BuildInfo {
    let c = &site.config;
    let upcoming = |u: &Option<stillpoint_content::Upcoming>| {
        u.as_ref().map(|u| Upcoming { title: u.title.clone(), slug: u.slug.clone(), at: u.at })
    };
    BuildInfo {
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
        next_scheduled: upcoming(&site.schedule.next),
        next_expiry: upcoming(&site.schedule.next_expiry),
    }
}
