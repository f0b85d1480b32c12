//! What a file in a built site is, for publishing: its upload phase, Content-Type and
//! Cache-Control. Derived from the output layout `stillpoint build` emits.

/// Cache-Control of content-hashed files: their name changes whenever their bytes do.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Cache-Control of every other file: browsers and CDNs revalidate (a cheap 304 with ETag), so a
/// deploy is visible at once and no CDN invalidation is needed.
pub const REVALIDATE: &str = "public, max-age=0, must-revalidate";

/// Upload order: a phase starts only when the previous one has fully succeeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// Content-hashed files (`assets/`, the search index's `search/k…` shards, `page-data/sq/`):
    /// nothing references them until the pages of this build are up.
    Hashed,
    /// HTML, page-data, slice-data, feeds, sitemaps, images and other files at stable paths.
    Content,
    /// The entry points that switch clients to the new build: `page-data/app-data.json`, `sw.js`.
    Entry,
}

/// Paths (relative, `/`-separated) whose names carry a content hash. The search index's
/// manifest and segment files (`search/{segment}/…`) keep their names across builds.
pub fn is_hashed(path: &str) -> bool {
    if let Some(name) = path.strip_prefix("search/") {
        return name.starts_with('k') && !name.contains('/');
    }
    ["assets/", "media/", "page-data/sq/"].iter().any(|p| path.starts_with(p))
}

pub fn phase(path: &str) -> Phase {
    if is_hashed(path) {
        Phase::Hashed
    } else if path == "page-data/app-data.json" || path == "sw.js" {
        Phase::Entry
    } else {
        Phase::Content
    }
}

pub fn cache_control(path: &str) -> &'static str {
    if is_hashed(path) { IMMUTABLE } else { REVALIDATE }
}

/// Content-Type by extension (and, for `.xml`, by name: feeds are not plain XML).
pub fn content_type(path: &str) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name {
        "atom.xml" => return "application/atom+xml; charset=utf-8",
        "rss.xml" => return "application/rss+xml; charset=utf-8",
        _ => {}
    }
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "xml" | "xsl" => "application/xml; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "mp3" => "audio/mpeg",
        "m4a" => "audio/mp4",
        "ogg" => "audio/ogg",
        "wav" => "audio/wav",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "vtt" => "text/vtt; charset=utf-8",
        "pdf" => "application/pdf",
        "wasm" => "application/wasm",
        // Search index pieces and anything unknown.
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_follow_the_output_layout() {
        assert_eq!(phase("assets/entry-client-Csvmr_1K.css"), Phase::Hashed);
        assert_eq!(phase("search/k1-0.d29a1a2047653e52348e.bin"), Phase::Hashed);
        assert_eq!(phase("search/0/61.0.bin"), Phase::Content);
        assert_eq!(phase("search/0/c3.json"), Phase::Content);
        assert_eq!(phase("search/manifest.json"), Phase::Content);
        assert_eq!(cache_control("search/manifest.json"), REVALIDATE);
        assert_eq!(cache_control("search/k1-0.d29a1a2047653e52348e.bin"), IMMUTABLE);
        assert_eq!(phase("page-data/sq/d/12f89e194c7a14f48ab7.json"), Phase::Hashed);
        assert_eq!(phase("index.html"), Phase::Content);
        assert_eq!(phase("page-data/index/page-data.json"), Phase::Content);
        assert_eq!(phase("slice-data/header.json"), Phase::Content);
        assert_eq!(phase("page-data/app-data.json"), Phase::Entry);
        assert_eq!(phase("sw.js"), Phase::Entry);
        assert_eq!(phase("articles/sw.js"), Phase::Content);
    }

    #[test]
    fn headers_per_kind() {
        assert_eq!(cache_control("assets/a-1.js"), IMMUTABLE);
        for p in ["index.html", "sw.js", "page-data/app-data.json", "rss.xml", "sitemap.xml"] {
            assert_eq!(cache_control(p), REVALIDATE, "{p}");
        }
        assert_eq!(content_type("a/index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("atom.xml"), "application/atom+xml; charset=utf-8");
        assert_eq!(content_type("rss.xml"), "application/rss+xml; charset=utf-8");
        assert_eq!(content_type("sitemap.xml"), "application/xml; charset=utf-8");
        assert_eq!(content_type("manifest.webmanifest"), "application/manifest+json");
        assert_eq!(content_type("search/k1-0.abc.bin"), "application/octet-stream");
        assert_eq!(content_type("icons/icon-192.PNG"), "image/png");
        assert_eq!(content_type("README"), "application/octet-stream");
    }
}
