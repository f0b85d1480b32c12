//! The Content-Type table. Other types are guessed with `mime_guess` (`file_cache.rs`); this
//! table fixes the ones the site depends on (feeds, JavaScript, `charset=utf-8` on text).

use std::path::Path;

pub(crate) const HTML: &str = "text/html; charset=utf-8";

/// The Content-Type for a file named `file_name`, or `None` to keep `mime_guess`'s guess.
/// Matching on the extension ignores case.
pub(crate) fn content_type(file_name: &str) -> Option<&'static str> {
    match file_name {
        "rss.xml" => return Some("application/rss+xml; charset=utf-8"),
        "atom.xml" => return Some("application/atom+xml; charset=utf-8"),
        _ => {}
    }
    let ext = Path::new(file_name).extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "html" | "htm" => HTML,
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "xml" => "application/xml; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::content_type;

    #[test]
    fn table() {
        let cases = [
            ("index.html", Some("text/html; charset=utf-8")),
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
            ("demo-logo-small.png", Some("image/png")),
            ("site.webmanifest", Some("application/manifest+json")),
            ("favicon.ico", Some("image/x-icon")),
            ("photo.jpg", None),
            ("font.woff2", None),
            ("body-scan", None),
            (".well-known", None),
            ("", None),
        ];
        for (name, expected) in cases {
            assert_eq!(content_type(name), expected, "{name}");
        }
    }
}
