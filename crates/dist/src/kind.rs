//! What a file of the output is, from its path (relative to the output root, `/`-separated):
//! whether its name carries a digest of its bytes, its cache policy, its Content-Type, and when
//! `deploy` uploads it. `serve`, `deploy` and `dev` all answer from this one table, so a file is
//! cached the same way whether the site is served here or from a bucket.

use crate::layout::{
    APP_DATA, ASSETS_DIR, MEDIA_DIR, PRIVATE_DIR, SEARCH_DIR, SERVICE_WORKER, SITE_DATA_DIR,
};

/// What a file of the output is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// Named by a digest of its bytes, so it never changes under its name: the web bundle
    /// (`assets/`), image renditions and recordings (`media/`), the site data (`page-data/sq/`)
    /// and the search index's shards (`search/k…`).
    Hashed,
    /// The entry points that switch clients to a new build: `page-data/app-data.json`, `sw.js`.
    Entry,
    /// Every other file: pages, page data, slices, feeds, sitemaps, the search manifest and its
    /// segments, static files. Its bytes change under the same name.
    Stable,
    /// Under `.stillpoint/`: what the build keeps beside the site, never served or deployed.
    Private,
}

/// How long browsers and CDNs may keep a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Caching {
    /// For good: the name changes whenever the bytes do.
    Immutable,
    /// Revalidated on each use (a cheap 304 with the ETag), so a new build or deploy is seen at
    /// once and a CDN needs no invalidation.
    Revalidate,
}

/// The order `deploy` uploads in: a phase starts only when the previous one has fully succeeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// Content-hashed files: nothing references them until the pages of this build are up.
    Hashed,
    /// Pages, data, feeds, sitemaps and static files at stable paths.
    Content,
    /// The entry points ([`FileKind::Entry`]).
    Entry,
}

impl FileKind {
    /// The kind of the output file `path` (relative; a leading `/` is ignored).
    pub fn of(path: &str) -> Self {
        let path = path.strip_prefix('/').unwrap_or(path);
        let under = |dir: &str| path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'));
        if let Some(name) = path.strip_prefix(SEARCH_DIR).and_then(|p| p.strip_prefix('/')) {
            // The shards are named by content; the manifest and segments keep their names.
            if name.starts_with('k') && !name.contains('/') { Self::Hashed } else { Self::Stable }
        } else if under(ASSETS_DIR) || under(MEDIA_DIR) || under(SITE_DATA_DIR) {
            Self::Hashed
        } else if path == APP_DATA || path == SERVICE_WORKER {
            Self::Entry
        } else if under(PRIVATE_DIR) {
            Self::Private
        } else {
            Self::Stable
        }
    }

    pub fn caching(self) -> Caching {
        match self {
            Self::Hashed => Caching::Immutable,
            Self::Entry | Self::Stable | Self::Private => Caching::Revalidate,
        }
    }

    /// When `deploy` uploads a file of this kind; None for a file it never uploads.
    pub fn phase(self) -> Option<Phase> {
        match self {
            Self::Hashed => Some(Phase::Hashed),
            Self::Stable => Some(Phase::Content),
            Self::Entry => Some(Phase::Entry),
            Self::Private => None,
        }
    }
}

impl Caching {
    /// The `Cache-Control` header value.
    pub fn header(self) -> &'static str {
        match self {
            Self::Immutable => "public, max-age=31536000, immutable",
            Self::Revalidate => "public, max-age=0, must-revalidate",
        }
    }
}

/// The Content-Type of a page (and of the server's error pages).
pub const HTML: &str = "text/html; charset=utf-8";

/// The Content-Type of a file named `path` by its extension (ignoring case), and by name for
/// the feeds (not plain XML); None for an extension outside the table.
pub fn content_type(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name {
        "atom.xml" => return Some("application/atom+xml; charset=utf-8"),
        "rss.xml" => return Some("application/rss+xml; charset=utf-8"),
        _ => {}
    }
    let (_, ext) = name.rsplit_once('.')?;
    Some(match ext.to_ascii_lowercase().as_str() {
        "html" | "htm" => HTML,
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
        "ogg" | "opus" => "audio/ogg",
        "wav" => "audio/wav",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "vtt" => "text/vtt; charset=utf-8",
        "pdf" => "application/pdf",
        "wasm" => "application/wasm",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_the_layout() {
        let cases = [
            ("assets/entry-client-Csvmr_1K.css", FileKind::Hashed),
            ("/assets/app-3f2a.js", FileKind::Hashed),
            ("assets/fonts/inter-9c1d.woff2", FileKind::Hashed),
            ("media/0123456789abcdef-640.webp", FileKind::Hashed),
            ("media/0123456789abcdef-evening.m4a", FileKind::Hashed),
            ("search/k1-0.d29a1a2047653e52348e.bin", FileKind::Hashed),
            ("page-data/sq/d/12f89e194c7a14f48ab7.json", FileKind::Hashed),
            ("search/0/61.0.bin", FileKind::Stable),
            ("search/0/c3.json", FileKind::Stable),
            ("search/manifest.json", FileKind::Stable),
            ("index.html", FileKind::Stable),
            ("/authors", FileKind::Stable),
            ("page-data/index/page-data.json", FileKind::Stable),
            ("slice-data/header.json", FileKind::Stable),
            ("rss.xml", FileKind::Stable),
            ("icons/demo-logo-small.png", FileKind::Stable),
            ("assetsx/a.js", FileKind::Stable),
            ("articles/sw.js", FileKind::Stable),
            ("page-data/app-data.json", FileKind::Entry),
            ("sw.js", FileKind::Entry),
            ("/sw.js", FileKind::Entry),
            (".stillpoint/build.json", FileKind::Private),
        ];
        for (path, kind) in cases {
            assert_eq!(FileKind::of(path), kind, "{path}");
        }
    }

    #[test]
    fn caching_and_phase_per_kind() {
        assert_eq!(FileKind::Hashed.caching().header(), "public, max-age=31536000, immutable");
        for kind in [FileKind::Entry, FileKind::Stable] {
            assert_eq!(kind.caching().header(), "public, max-age=0, must-revalidate");
        }
        assert_eq!(FileKind::Hashed.phase(), Some(Phase::Hashed));
        assert_eq!(FileKind::Stable.phase(), Some(Phase::Content));
        assert_eq!(FileKind::Entry.phase(), Some(Phase::Entry));
        assert_eq!(FileKind::Private.phase(), None);
        assert!(Phase::Hashed < Phase::Content && Phase::Content < Phase::Entry);
    }

    #[test]
    fn content_types() {
        let cases = [
            ("a/index.html", Some("text/html; charset=utf-8")),
            ("404.HTML", Some("text/html; charset=utf-8")),
            ("app-3f2a.css", Some("text/css; charset=utf-8")),
            ("app-3f2a.js", Some("text/javascript; charset=utf-8")),
            ("sw.js", Some("text/javascript; charset=utf-8")),
            ("app-3f2a.js.map", Some("application/json")),
            ("page-data.json", Some("application/json")),
            ("sitemap.xml", Some("application/xml; charset=utf-8")),
            ("rss.xml", Some("application/rss+xml; charset=utf-8")),
            ("atom.xml", Some("application/atom+xml; charset=utf-8")),
            ("robots.txt", Some("text/plain; charset=utf-8")),
            ("logo.svg", Some("image/svg+xml")),
            ("icons/icon-192.PNG", Some("image/png")),
            ("manifest.webmanifest", Some("application/manifest+json")),
            ("favicon.ico", Some("image/x-icon")),
            ("photo.jpg", Some("image/jpeg")),
            ("font.woff2", Some("font/woff2")),
            ("search/k1-0.abc.bin", None),
            ("body-scan", None),
            ("README", None),
            ("", None),
        ];
        for (name, expected) in cases {
            assert_eq!(content_type(name), expected, "{name}");
        }
    }
}
