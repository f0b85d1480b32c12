//! The Cache-Control rule for files served from the site root.
//!
//! Hashed assets, the image renditions (`/media/`) and the search index's directory shards
//! (`/search/k…`), each named by a digest of their bytes, never change under their name, so browsers may keep them for a year. The search
//! manifest and the segment files (`/search/{segment}/…`, stable names that the client asks for
//! with their segment's version) are revalidated. Pages, page data, the search manifest and the service worker change
//! under the same name, so they are revalidated on each use (cheap: ETag/Last-Modified make that a 304). Everything else
//! (images, icons, feeds, sitemap) may be an hour stale.

use std::path::Path;

pub(crate) const IMMUTABLE: &str = "public, max-age=31536000, immutable";
pub(crate) const NO_CACHE: &str = "no-cache";
pub(crate) const ONE_HOUR: &str = "public, max-age=3600";

/// The Cache-Control for a successful (200, 206, 304) answer to the percent-decoded `path`.
/// Redirects and error pages are always [`NO_CACHE`].
pub(crate) fn cache_control(path: &str) -> &'static str {
    if let Some(name) = path.strip_prefix("/search/") {
        if name.starts_with('k') && !name.contains('/') { IMMUTABLE } else { NO_CACHE }
    } else if path.starts_with("/assets/") || path.starts_with("/media/") {
        IMMUTABLE
    } else if is_page(path)
        || path.starts_with("/page-data/")
        || path.starts_with("/slice-data/")
        || path == "/sw.js"
    {
        NO_CACHE
    } else {
        ONE_HOUR
    }
}

/// A route (`/`, `/authors`: served from an `.html` file) or an `.html` file.
fn is_page(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or_default();
    match Path::new(name).extension() {
        None => true,
        Some(ext) => ext.eq_ignore_ascii_case("html") || ext.eq_ignore_ascii_case("htm"),
    }
}

#[cfg(test)]
mod tests {
    use super::{IMMUTABLE, NO_CACHE, ONE_HOUR, cache_control};

    #[test]
    fn rule() {
        let cases = [
            ("/assets/app-3f2a.js", IMMUTABLE),
            ("/assets/app-3f2a.css", IMMUTABLE),
            ("/media/0123456789abcdef-640.avif", IMMUTABLE),
            ("/media/0123456789abcdef.svg", IMMUTABLE),
            ("/media/0123456789abcdef-evening.m4a", IMMUTABLE),
            ("/search/manifest.json", NO_CACHE),
            ("/search/k2-3.9f8e0a.bin", IMMUTABLE),
            ("/search/0/c0.json", NO_CACHE),
            ("/search/0/6b.61.bin", NO_CACHE),
            ("/assets/fonts/inter-9c1d.woff2", IMMUTABLE),
            ("/", NO_CACHE),
            ("/authors", NO_CACHE),
            ("/articles/body-scan", NO_CACHE),
            ("/index.html", NO_CACHE),
            ("/404.html", NO_CACHE),
            ("/page-data/index/page-data.json", NO_CACHE),
            ("/page-data/app-data.json", NO_CACHE),
            ("/page-data/sq/d/123.json", NO_CACHE),
            ("/slice-data/header.json", NO_CACHE),
            ("/sw.js", NO_CACHE),
            ("/sitemap.xml", ONE_HOUR),
            ("/rss.xml", ONE_HOUR),
            ("/robots.txt", ONE_HOUR),
            ("/icons/demo-logo-small.png", ONE_HOUR),
            ("/images/cover.jpg", ONE_HOUR),
            ("/site.webmanifest", ONE_HOUR),
            ("/assetsx/a.js", ONE_HOUR),
        ];
        for (path, expected) in cases {
            assert_eq!(cache_control(path), expected, "{path}");
        }
    }
}
