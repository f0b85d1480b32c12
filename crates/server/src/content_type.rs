//! The Content-Type of a file: the output contract's table (`stillpoint_dist::kind`, which
//! `deploy` uploads with too), then `mime_guess`'s guess (`file_cache.rs`) for the rest.

pub(crate) const HTML: &str = "text/html; charset=utf-8";

/// The Content-Type for a file named `file_name`, or `None` to keep `mime_guess`'s guess.
/// Matching on the extension ignores case.
pub(crate) fn content_type(file_name: &str) -> Option<&'static str> {
    stillpoint_dist::kind::content_type(file_name)
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
            ("photo.jpg", Some("image/jpeg")),
            ("font.woff2", Some("font/woff2")),
            ("k1-0.abc.bin", None),
            ("body-scan", None),
            ("", None),
        ];
        for (name, expected) in cases {
            assert_eq!(content_type(name), expected, "{name}");
        }
    }
}
