//! The trailing-slash rule. Canonical URLs have no trailing slash (DESIGN.md, Routes), so
//! `/x/` answers 301 with `Location: /x`.

use percent_encoding::percent_decode_str;

/// The spec's static extensions: a path ending in one of these (before its trailing slash) is
/// served or answered 404 as it is, never redirected.
const STATIC_EXTENSIONS: [&str; 7] = ["html", "json", "js", "map", "txt", "xml", "pdf"];

/// Where a `GET`/`HEAD` of `path` (with `query`) redirects to, or `None` to serve it as it is.
///
/// `/x/` (and `/x//`) redirect to `/x`, keeping the query string. There is no redirect for:
/// - a path without a trailing slash, and `/` itself;
/// - a path whose last segment ends in a static extension (`/sitemap.xml/`);
/// - a path that cannot name a file under the root anyway: empty segments, segments starting
///   with `.` (`..`, `/.git/`, `/.well-known/`), backslashes, control characters, encoded
///   slashes or invalid percent-encoding. Those go to the file service, which answers 404
///   (at once: no redirect to a 404).
///
/// So a target is always `/` followed by a non-empty, clean first segment: it can never be
/// protocol-relative (`//evil.example`, `/\evil.example`) and never leaves the site.
pub(crate) fn trailing_slash_target(path: &str, query: Option<&str>) -> Option<String> {
    let trimmed = path.strip_suffix('/')?.trim_end_matches('/');
    let segments = trimmed.strip_prefix('/')?;
    if segments.is_empty() || !segments.split('/').all(is_clean_segment) {
        return None;
    }
    if has_static_extension(segments.rsplit('/').next().unwrap_or(segments)) {
        return None;
    }
    let mut target = String::with_capacity(path.len() + query.map_or(0, |q| q.len() + 1));
    target.push_str(trimmed);
    if let Some(query) = query {
        target.push('?');
        target.push_str(query);
    }
    Some(target)
}

/// A clean segment (as `files::is_clean` accepts it, and no `/` once decoded), written in plain
/// URL characters.
fn is_clean_segment(raw: &str) -> bool {
    let plain = raw.bytes().all(|b| b.is_ascii_graphic() && !matches!(b, b'\\' | b'?' | b'#'));
    if !plain {
        return false;
    }
    match percent_decode_str(raw).decode_utf8() {
        Ok(decoded) => {
            !decoded.is_empty()
                && !decoded.starts_with('.')
                && !decoded.chars().any(|c| c == '/' || c == '\\' || c.is_control())
        }
        Err(_) => false,
    }
}

fn has_static_extension(segment: &str) -> bool {
    segment.rsplit_once('.').is_some_and(|(_, ext)| {
        STATIC_EXTENSIONS.iter().any(|known| ext.eq_ignore_ascii_case(known))
    })
}

#[cfg(test)]
mod tests {
    use super::trailing_slash_target;
    use proptest::prelude::*;

    #[test]
    fn redirects_and_exemptions() {
        let cases: &[(&str, Option<&str>, Option<&str>)] = &[
            // (path, query, expected target)
            ("/authors/", None, Some("/authors")),
            ("/articles/body-scan/", None, Some("/articles/body-scan")),
            ("/authors/", Some("page=2&x=%20"), Some("/authors?page=2&x=%20")),
            ("/authors//", None, Some("/authors")),
            ("/a%20b/", None, Some("/a%20b")),
            ("/v1.2/", None, Some("/v1.2")),
            ("/feed.rss/", None, Some("/feed.rss")),
            ("/authors", None, None),
            ("/", None, None),
            ("/", Some("q=1"), None),
            ("//", None, None),
            ("", None, None),
            ("authors/", None, None),
            ("/index.html/", None, None),
            ("/page-data/index/page-data.json/", None, None),
            ("/assets/app-1.js/", None, None),
            ("/assets/app-1.js.map/", None, None),
            ("/robots.txt/", None, None),
            ("/sitemap.xml/", None, None),
            ("/SITEMAP.XML/", None, None),
            ("/guide.pdf/", None, None),
            ("//evil.example/", None, None),
            ("///evil.example/", None, None),
            ("/\\evil.example/", None, None),
            ("/%5Cevil.example/", None, None),
            ("/%2F%2Fevil.example/", None, None),
            ("/a//b/", None, None),
            ("/../", None, None),
            ("/a/../b/", None, None),
            ("/%2e%2e/", None, None),
            ("/./a/", None, None),
            ("/.git/", None, None),
            ("/.well-known/", None, None),
            ("/a/.hidden/", None, None),
            ("/%2Egit/", None, None),
            ("/a.b/", None, Some("/a.b")),
            ("/%00/", None, None),
            ("/%ff/", None, None),
            ("/a\tb/", None, None),
        ];
        for &(path, query, expected) in cases {
            assert_eq!(
                trailing_slash_target(path, query).as_deref(),
                expected,
                "path {path:?} query {query:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn target_is_always_a_same_origin_path(
            path in prop_oneof![
                "[/\\\\a-z.%0-9]{0,24}",
                "/[a-z]{1,8}(/[a-z.-]{1,8}){0,3}/{1,3}",
                ".{0,24}",
            ],
            query in proptest::option::of(".{0,16}"),
        ) {
            if let Some(target) = trailing_slash_target(&path, query.as_deref()) {
                let target_path = target.split('?').next().unwrap_or_default();
                prop_assert!(target.starts_with('/'));
                let second = target_path.as_bytes().get(1).copied();
                prop_assert!(second.is_some_and(|b| b != b'/' && b != b'\\'), "{target:?}");
                prop_assert!(!target_path.ends_with('/'));
                // The target is the request's own path, shortened: never somewhere else.
                prop_assert!(path.starts_with(target_path));
                // And it is final: redirecting it again changes nothing.
                prop_assert_eq!(trailing_slash_target(target_path, None), None);
            }
        }

        #[test]
        fn clean_routes_with_a_trailing_slash_always_redirect(
            route in "(/[a-z0-9-]{1,12}){1,4}",
        ) {
            prop_assert_eq!(trailing_slash_target(&format!("{route}/"), None), Some(route));
        }
    }
}
