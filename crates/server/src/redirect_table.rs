//! The site's redirects (aliases and `data/redirects.toml`), as the build wrote them to
//! `.stillpoint/redirects.json`: exact paths and prefixes (`/blog/*` → `/articles/:splat`).
//!
//! The table is read at the first lookup and again whenever the file is another one (a new
//! build swapped in: another inode, size or time), so a rebuilt site's redirects hold at once.
//! It is looked up only off the hot path: when a file is loaded into the cache (an exact
//! redirect's page then answers with its redirect), for a path that names no file (exact and
//! prefix redirects, before the 404), and for a path with a trailing slash.
//!
//! Paths are compared normalised as the build normalises them: `/x/`, `/x.html` and
//! `/x/index.html` are `/x`.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

use axum::{body::Body, response::Response};
use http::{HeaderValue, StatusCode, header};
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

use stillpoint_fingerprint::Stamp;

use crate::cache;

/// Where the build writes the table, relative to the root.
pub(crate) const TABLE_FILE: &str = ".stillpoint/redirects.json";

/// What a `Location` may not hold as is.
const NOT_IN_LOCATION: &AsciiSet = &CONTROLS.add(b' ').add(b'"').add(b'<').add(b'>').add(b'`');

/// Where a path redirects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Moved {
    pub(crate) status: StatusCode,
    pub(crate) location: HeaderValue,
}

#[derive(Default)]
struct Rules {
    exact: HashMap<String, (StatusCode, String)>,
    /// Longest prefix first.
    prefixes: Vec<(String, StatusCode, String)>,
}

pub(crate) struct RedirectTable {
    file: PathBuf,
    loaded: Mutex<(Option<Stamp>, Arc<Rules>)>,
}

impl RedirectTable {
    pub(crate) fn new(root: &Path) -> Self {
        Self { file: root.join(TABLE_FILE), loaded: Mutex::new((None, Arc::default())) }
    }

    /// The rules of the table on disk now (blocking: one `stat`, and a read when it changed).
    fn rules(&self) -> Arc<Rules> {
        // Read again when the table changed, was written too recently for its stamp to be
        // trusted, or is gone while rules are still loaded.
        let meta = std::fs::metadata(&self.file).ok();
        let stamp = meta.as_ref().and_then(|m| Stamp::of(m, std::time::SystemTime::now()));
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        let unchanged = match (&meta, loaded.0) {
            (Some(m), Some(s)) => s.matches(m),
            (None, _) => loaded.1.is_empty(),
            (Some(_), None) => false,
        };
        if !unchanged {
            let rules = std::fs::read_to_string(&self.file).map_or_else(
                |_| Rules::default(),
                |text| {
                    Rules::parse(&text).unwrap_or_else(|| {
                        tracing::error!(file = %self.file.display(), "the redirect table is not valid");
                        Rules::default()
                    })
                },
            );
            *loaded = (stamp, Arc::new(rules));
        }
        loaded.1.clone()
    }

    /// An exact redirect of a decoded path (a redirect page's own path).
    pub(crate) fn exact(&self, path: &str) -> Option<Moved> {
        let rules = self.rules();
        let (status, to) = rules.exact.get(&normalize(path))?;
        moved(*status, to)
    }

    /// An exact or prefix redirect of a decoded path, with `query` kept.
    pub(crate) fn lookup(&self, path: &str, query: Option<&str>) -> Option<Moved> {
        let rules = self.rules();
        let key = normalize(path);
        let target = match rules.exact.get(&key) {
            Some((status, to)) => Some((*status, to.clone())),
            None => rules.prefixes.iter().find_map(|(prefix, status, to)| {
                let splat = if prefix == "/" {
                    key.strip_prefix('/')
                } else if key == *prefix {
                    Some("")
                } else {
                    key.strip_prefix(prefix.as_str())?.strip_prefix('/')
                }?;
                let to = to.replace(":splat", splat);
                let to = match to.strip_suffix('/') {
                    Some(trimmed) if !trimmed.is_empty() && !trimmed.ends_with('/') => {
                        trimmed.to_string()
                    }
                    _ => to,
                };
                Some((*status, to))
            }),
        }?;
        let (status, mut to) = target;
        if let Some(query) = query.filter(|q| !q.is_empty() && !to.contains('?')) {
            to.push('?');
            to.push_str(query);
        }
        moved(status, &to)
    }
}

impl Rules {
    fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.prefixes.is_empty()
    }

    fn parse(text: &str) -> Option<Self> {
        let json: serde_json::Value = serde_json::from_str(text).ok()?;
        let mut rules = Self::default();
        for r in json.get("redirects")?.as_array()? {
            let from = r.get("from")?.as_str()?.to_string();
            let to = r.get("to")?.as_str()?.to_string();
            let status = StatusCode::from_u16(r.get("status")?.as_u64()? as u16).ok()?;
            if !status.is_redirection() {
                return None;
            }
            if r.get("prefix").and_then(|p| p.as_bool()).unwrap_or(false) {
                rules.prefixes.push((from, status, to));
            } else {
                rules.exact.insert(from, (status, to));
            }
        }
        rules.prefixes.sort_by_key(|(prefix, ..)| std::cmp::Reverse(prefix.len()));
        Some(rules)
    }
}

fn moved(status: StatusCode, to: &str) -> Option<Moved> {
    let location = utf8_percent_encode(to, NOT_IN_LOCATION).to_string();
    Some(Moved { status, location: HeaderValue::try_from(location).ok()? })
}

/// The build's key of a path: no trailing slash, no `.html`, no `/index`.
fn normalize(path: &str) -> String {
    let mut p = path.trim_end_matches('/');
    if let Some(stem) = p.strip_suffix(".html") {
        p = stem;
    }
    if p == "/index" {
        p = "";
    } else if let Some(stem) = p.strip_suffix("/index") {
        p = stem;
    }
    if p.is_empty() { "/".to_string() } else { p.to_string() }
}

/// The answer: the status, `Location`, and a line of HTML with the link (none for `HEAD`).
pub(crate) fn response(moved: &Moved, head: bool) -> Response {
    let body = if head {
        Body::empty()
    } else {
        let href = html_escape(moved.location.to_str().unwrap_or("/"));
        Body::from(format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Moved</title></head><body><p>Moved to <a href=\"{href}\">{href}</a></p></body></html>\n"
        ))
    };
    let mut response = Response::new(body);
    *response.status_mut() = moved.status;
    let headers = response.headers_mut();
    headers.insert(header::LOCATION, moved.location.clone());
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache::NO_CACHE));
    response
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = r#"{"version":1,"redirects":[
        {"from":"/old/path","to":"/articles/new","status":301,"prefix":false},
        {"from":"/2019/05/body-scan","to":"/articles/body-scan","status":301,"prefix":false},
        {"from":"/blog","to":"/articles/:splat","status":302,"prefix":true},
        {"from":"/blog/2019","to":"https://old.example/:splat","status":301,"prefix":true},
        {"from":"/shop","to":"https://shop.example/","status":302,"prefix":false}
    ]}"#;

    fn table() -> (tempfile::TempDir, RedirectTable) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".stillpoint")).unwrap();
        std::fs::write(dir.path().join(TABLE_FILE), TABLE).unwrap();
        let table = RedirectTable::new(dir.path());
        (dir, table)
    }

    fn at(table: &RedirectTable, path: &str, query: Option<&str>) -> Option<(u16, String)> {
        let m = table.lookup(path, query)?;
        Some((m.status.as_u16(), m.location.to_str().unwrap().to_string()))
    }

    #[test]
    fn exact_and_prefix_redirects_with_every_spelling() {
        let (_dir, t) = table();
        let to = |s: u16, l: &str| Some((s, l.to_string()));
        assert_eq!(at(&t, "/old/path", None), to(301, "/articles/new"));
        assert_eq!(at(&t, "/old/path/", None), to(301, "/articles/new"));
        assert_eq!(at(&t, "/old/path.html", None), to(301, "/articles/new"));
        assert_eq!(at(&t, "/old/path/index.html", Some("a=1")), to(301, "/articles/new?a=1"));
        assert_eq!(at(&t, "/2019/05/body-scan.html", None), to(301, "/articles/body-scan"));
        assert_eq!(at(&t, "/blog/first-steps", None), to(302, "/articles/first-steps"));
        assert_eq!(at(&t, "/blog/a/b/", None), to(302, "/articles/a/b"));
        assert_eq!(at(&t, "/blog", None), to(302, "/articles"));
        assert_eq!(at(&t, "/blog/2019/x", None), to(301, "https://old.example/x"));
        assert_eq!(at(&t, "/shop", None), to(302, "https://shop.example/"));
        assert_eq!(at(&t, "/blogger", None), None);
        assert_eq!(at(&t, "/old", None), None);
        assert_eq!(t.exact("/blog/x"), None);
        assert_eq!(at(&t, "/blog/ü", None), to(302, "/articles/%C3%BC"));
    }

    #[test]
    fn a_new_table_is_read_and_a_removed_one_forgotten() {
        let (dir, t) = table();
        assert!(t.exact("/shop").is_some());
        let file = dir.path().join(TABLE_FILE);
        let next =
            r#"{"version":1,"redirects":[{"from":"/x","to":"/y","status":301,"prefix":false}]}"#;
        std::fs::write(dir.path().join("next.json"), next).unwrap();
        std::fs::rename(dir.path().join("next.json"), &file).unwrap();
        assert!(t.exact("/shop").is_none());
        assert!(t.exact("/x").is_some());
        std::fs::remove_file(&file).unwrap();
        assert!(t.exact("/x").is_none());
    }
}
