//! Redirects: `data/redirects.toml` (site-wide, exact or prefix) and the `aliases:` of articles.
//!
//! Paths are normalised so that the spellings of one URL are one key (see [`normalize_path`]).
//! Whether a target exists, chains, loops and shadowed pages need the site's routes: those are
//! checked by `stillpoint-site`.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{ContentError, ContentErrorKind, line_col, toml_error};

/// The redirects file, relative to the site directory.
pub const REDIRECTS_FILE: &str = "data/redirects.toml";

/// One redirect, from whichever file declared it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The normalised path; for a prefix redirect, the prefix without its `/*`.
    pub from: String,
    /// A normalised internal path or an absolute `http(s)://` URL; a prefix redirect's target
    /// may hold `:splat`.
    pub to: String,
    /// 301 when true (the default), 302 otherwise.
    pub permanent: bool,
    /// `from = "/x/*"`: every path under `/x/`.
    pub prefix: bool,
    /// Where it was declared (relative to the site directory), for diagnostics.
    pub source: PathBuf,
    pub line: u32,
    pub col: u32,
}

impl Redirect {
    pub fn status(&self) -> u16 {
        if self.permanent { 301 } else { 302 }
    }

    /// Whether the target is a path of this site (not an absolute URL).
    pub fn is_internal(&self) -> bool {
        self.to.starts_with('/')
    }

    /// The `from` as written in a `_redirects` file: the prefix form ends in `/*`.
    pub fn from_pattern(&self) -> String {
        match (self.prefix, self.from.as_str()) {
            (true, "/") => "/*".to_string(),
            (true, from) => format!("{from}/*"),
            (false, from) => from.to_string(),
        }
    }
}

/// The normalised form of an internal path, the one key of its spellings: `/x/`, `/x.html`,
/// `/x/index.html` and `/x` are all `/x`; `/index.html` and `/` are `/`. It must start with `/`
/// and hold no query, fragment, whitespace, `\`, empty segment or `.`/`..` segment.
pub fn normalize_path(path: &str) -> Result<String, String> {
    if !path.starts_with('/') || path.starts_with("//") {
        return Err(format!("`{path}` is not a path starting with one `/`"));
    }
    if let Some(c) =
        path.chars().find(|c| c.is_whitespace() || c.is_control() || "?#\\".contains(*c))
    {
        return Err(format!("`{path}` holds `{}`; write the path alone", c.escape_default()));
    }
    let mut p = path.trim_end_matches('/');
    if let Some(stem) = p.strip_suffix(".html") {
        p = stem;
    }
    if p == "/index" {
        p = "";
    } else if let Some(stem) = p.strip_suffix("/index") {
        p = stem;
    }
    if p.is_empty() {
        return Ok("/".to_string());
    }
    if p[1..].split('/').any(|s| s.is_empty() || s == "." || s == "..") {
        return Err(format!("`{path}` has an empty, `.` or `..` segment"));
    }
    Ok(p.to_string())
}

/// Where each exact old URL of the site (an alias or an exact redirect) leads.
pub fn exact_targets(site: &crate::Site) -> std::collections::HashMap<&str, String> {
    let mut map = std::collections::HashMap::new();
    for r in site.redirects.iter().filter(|r| !r.prefix) {
        map.entry(r.from.as_str()).or_insert_with(|| r.to.clone());
    }
    for a in &site.articles {
        for alias in &a.aliases {
            map.entry(alias.value.as_str()).or_insert_with(|| format!("/articles/{}", a.slug));
        }
    }
    map
}

/// A redirect target: an absolute `http://`/`https://` URL as written, or a normalised path.
fn normalize_target(to: &str, prefix: bool) -> Result<String, String> {
    if let Some(rest) = to.strip_prefix("https://").or_else(|| to.strip_prefix("http://")) {
        let host = rest.split('/').next().unwrap_or("");
        if host.is_empty() || to.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!("`{to}` is not an absolute URL"));
        }
        return Ok(to.to_string());
    }
    if prefix {
        // `/articles/:splat`: normalise the part before the placeholder.
        if let Some(head) = to.strip_suffix(":splat") {
            let head = normalize_path(head)?;
            return Ok(if head == "/" { "/:splat".into() } else { format!("{head}/:splat") });
        }
    }
    normalize_path(to).map_err(|e| format!("{e} (or an absolute https:// URL)"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    redirect: Vec<RawRedirect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRedirect {
    from: toml::Spanned<String>,
    to: toml::Spanned<String>,
    #[serde(default = "yes")]
    permanent: bool,
}

fn yes() -> bool {
    true
}

/// Parses `data/redirects.toml`: `[[redirect]]` tables of `from`, `to` and `permanent`.
pub fn parse_redirects(path: &Path, text: &str) -> Result<Vec<Redirect>, Vec<ContentError>> {
    let raw: RawFile = toml::from_str(text).map_err(|e| vec![toml_error(path, text, &e)])?;
    let mut errors = Vec::new();
    let mut list = Vec::with_capacity(raw.redirect.len());
    for r in raw.redirect {
        let (line, col) = line_col(text, r.from.span().start);
        let invalid = |field: &str, span: std::ops::Range<usize>, message: String| {
            let (line, col) = line_col(text, span.start);
            let field = field.into();
            ContentError::new(path, line, col, ContentErrorKind::InvalidValue { field, message })
        };
        let raw_from = r.from.get_ref();
        let (from, prefix) = match raw_from.strip_suffix('*') {
            Some(head) if head.ends_with('/') => (normalize_path(head), true),
            Some(_) => {
                (Err(format!("`{raw_from}`: `*` may only end a path, as in `/blog/*`")), true)
            }
            None => (normalize_path(raw_from), false),
        };
        let to = normalize_target(r.to.get_ref(), prefix);
        match (from, to) {
            (Ok(from), Ok(to)) => list.push(Redirect {
                from,
                to,
                permanent: r.permanent,
                prefix,
                source: path.to_path_buf(),
                line,
                col,
            }),
            (from, to) => {
                if let Err(m) = from {
                    errors.push(invalid("from", r.from.span(), m));
                }
                if let Err(m) = to {
                    errors.push(invalid("to", r.to.span(), m));
                }
            }
        }
    }
    if errors.is_empty() { Ok(list) } else { Err(errors) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_one_path_are_one_key() {
        for (path, key) in [
            ("/old/path/", "/old/path"),
            ("/old/path", "/old/path"),
            ("/old/path.html", "/old/path"),
            ("/old/path/index.html", "/old/path"),
            ("/2019/05/body-scan.html", "/2019/05/body-scan"),
            ("/", "/"),
            ("/index.html", "/"),
            ("/a.pdf", "/a.pdf"),
        ] {
            assert_eq!(normalize_path(path).as_deref(), Ok(key), "{path}");
        }
        for bad in ["old", "//evil.example/x", "/a//b", "/a/../b", "/a?x=1", "/a#b", "/a b", ""] {
            assert!(normalize_path(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parses_exact_and_prefix_redirects_with_their_lines() {
        let text = "[[redirect]]\nfrom = \"/old/\"\nto = \"/articles/new/\"\n\n[[redirect]]\nfrom = \"/blog/*\"\nto = \"/articles/:splat\"\npermanent = false\n\n[[redirect]]\nfrom = \"/shop\"\nto = \"https://shop.example/\"\n";
        let list = parse_redirects(Path::new("data/redirects.toml"), text).unwrap();
        assert_eq!(list.len(), 3);
        assert_eq!((list[0].from.as_str(), list[0].to.as_str()), ("/old", "/articles/new"));
        assert_eq!((list[0].status(), list[0].prefix, list[0].line), (301, false, 2));
        assert_eq!((list[1].from.as_str(), list[1].to.as_str()), ("/blog", "/articles/:splat"));
        assert_eq!((list[1].status(), list[1].prefix, list[1].line), (302, true, 6));
        assert_eq!(list[1].from_pattern(), "/blog/*");
        assert_eq!(list[2].to, "https://shop.example/");
        assert!(!list[2].is_internal());
    }

    #[test]
    fn a_bad_path_is_reported_at_its_line() {
        let text = "[[redirect]]\nfrom = \"/ok\"\nto = \"/a\"\n\n[[redirect]]\nfrom = \"/x*\"\nto = \"nowhere\"\n";
        let errors = parse_redirects(Path::new("data/redirects.toml"), text).unwrap_err();
        let lines: Vec<(u32, String)> =
            errors.iter().map(|e| (e.line, e.kind.to_string())).collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[0].0, 6);
        assert!(lines[0].1.contains("`*` may only end a path"), "{lines:?}");
        assert_eq!(lines[1].0, 7);
        let unknown = "[[redirect]]\nfrom = \"/a\"\nto = \"/b\"\ncode = 307\n";
        let errors = parse_redirects(Path::new("data/redirects.toml"), unknown).unwrap_err();
        assert_eq!(errors[0].line, 4);
    }
}
