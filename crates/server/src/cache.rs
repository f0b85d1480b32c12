//! The Cache-Control of what the server answers.
//!
//! A file of the site is cached as the output contract's table says (`stillpoint_dist::kind`,
//! which `deploy` uploads with too, so a site is cached the same served here or from a bucket):
//! files named by a digest of their bytes (the web bundle, `/media/`, the site data, the search
//! index's shards) for a year, everything else revalidated on each use (cheap: ETag and
//! Last-Modified make that a 304). Redirects, refusals and error pages are [`NO_CACHE`].

use stillpoint_dist::FileKind;

pub(crate) const NO_CACHE: &str = "no-cache";

/// The Cache-Control for a successful (200, 206, 304) answer to the percent-decoded `path`.
pub(crate) fn cache_control(path: &str) -> &'static str {
    FileKind::of(path).caching().header()
}

#[cfg(test)]
mod tests {
    use super::cache_control;

    const IMMUTABLE: &str = "public, max-age=31536000, immutable";
    const REVALIDATE: &str = "public, max-age=0, must-revalidate";

    #[test]
    fn rule() {
        let cases = [
            ("/assets/app-3f2a.js", IMMUTABLE),
            ("/media/0123456789abcdef-640.avif", IMMUTABLE),
            ("/media/0123456789abcdef-evening.m4a", IMMUTABLE),
            ("/search/k2-3.9f8e0a.bin", IMMUTABLE),
            ("/page-data/sq/d/123.json", IMMUTABLE),
            ("/search/manifest.json", REVALIDATE),
            ("/search/0/c0.json", REVALIDATE),
            ("/", REVALIDATE),
            ("/articles/body-scan", REVALIDATE),
            ("/404.html", REVALIDATE),
            ("/page-data/index/page-data.json", REVALIDATE),
            ("/page-data/app-data.json", REVALIDATE),
            ("/sw.js", REVALIDATE),
            ("/rss.xml", REVALIDATE),
            ("/images/cover.jpg", REVALIDATE),
            ("/assetsx/a.js", REVALIDATE),
        ];
        for (path, expected) in cases {
            assert_eq!(cache_control(path), expected, "{path}");
        }
    }
}
