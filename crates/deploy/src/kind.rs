//! What a file in a built site is, for publishing: its upload phase, Content-Type and
//! Cache-Control, from the output contract's one table ([`stillpoint_dist::kind`]), which `serve`
//! and `dev` answer from too.

use stillpoint_dist::FileKind;
pub use stillpoint_dist::Phase;

/// Paths (relative, `/`-separated) whose names carry a content hash.
pub fn is_hashed(path: &str) -> bool {
    FileKind::of(path) == FileKind::Hashed
}

/// When `path` is uploaded. A file never uploaded (under `.stillpoint/`) is never listed
/// (`local::scan`): should one come here, it is uploaded with the content.
pub fn phase(path: &str) -> Phase {
    FileKind::of(path).phase().unwrap_or(Phase::Content)
}

pub fn cache_control(path: &str) -> &'static str {
    FileKind::of(path).caching().header()
}

/// Content-Type by name; `application/octet-stream` for the search index's pieces and anything
/// outside the table.
pub fn content_type(path: &str) -> &'static str {
    stillpoint_dist::kind::content_type(path).unwrap_or("application/octet-stream")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_for_publishing() {
        assert_eq!(phase("assets/entry-client-Csvmr_1K.css"), Phase::Hashed);
        assert_eq!(phase("page-data/sq/d/12f89e194c7a14f48ab7.json"), Phase::Hashed);
        assert_eq!(phase("index.html"), Phase::Content);
        assert_eq!(phase("sw.js"), Phase::Entry);
        assert_eq!(
            cache_control("media/0123456789abcdef-1200.jpg"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(cache_control("rss.xml"), "public, max-age=0, must-revalidate");
        assert_eq!(content_type("search/k1-0.abc.bin"), "application/octet-stream");
        assert_eq!(content_type("README"), "application/octet-stream");
        assert_eq!(content_type("a/index.html"), "text/html; charset=utf-8");
    }
}
