//! The site's files: method check, trailing-slash redirect, path checks, then the hot-file
//! cache (see `file_cache.rs`); misses are resolved and read on the blocking pool.
//!
//! Path rules: the percent-decoded path must be UTF-8 and every segment non-empty, without
//! `\`, control characters, or a leading `.` (so no `..`, and nothing under `/.stillpoint/`); and
//! not `/_redirects`. `/` serves `index.html`; `/x` serves the file `x`, else `x.html` (a page, as
//! the builder writes it), else `x/index.html`. The site's redirects (`redirect_table.rs`) come
//! first: the page an exact redirect left at an old URL answers with the redirect, and what names
//! no file is looked up there before the 404. What names no file gets `404.html`; any other I/O
//! failure is logged and gets `500.html`.

use std::{
    io,
    path::{Path, PathBuf},
    sync::Arc,
};

use axum::{
    body::Body,
    extract::{Request, State},
    response::Response,
};
use http::{HeaderValue, Method, StatusCode, header};
use percent_encoding::percent_decode_str;

use crate::{
    cache,
    error_page::ErrorPages,
    file_cache::{self, Cache, Entry},
    redirect,
    redirect_table::{self, Moved, RedirectTable},
    respond,
};

/// Everything needed to answer from one site root. Cheap to clone (once per request).
#[derive(Clone)]
pub(crate) struct StaticSite(Arc<Inner>);

struct Inner {
    root: PathBuf,
    cache: Cache,
    pages: ErrorPages,
    /// The Content-Security-Policy every answer carries (built into the cached heads).
    csp: HeaderValue,
    /// Whether files get gzip and brotli variants.
    compress: bool,
    /// The site's redirects (`.stillpoint/redirects.json`).
    redirects: Arc<RedirectTable>,
}

impl StaticSite {
    pub(crate) fn new(root: &Path, cache_bytes: u64, csp: HeaderValue, compress: bool) -> Self {
        Self(Arc::new(Inner {
            root: root.to_path_buf(),
            cache: file_cache::new_cache(cache_bytes),
            pages: ErrorPages::new(root),
            csp,
            compress,
            redirects: Arc::new(RedirectTable::new(root)),
        }))
    }

    /// The current entry for `key` (a clean decoded path), loading it on a miss or when the
    /// file changed. `Ok(None)`: no such file.
    pub(crate) async fn entry(&self, key: &str) -> io::Result<Option<Arc<Entry>>> {
        if let Some(entry) = self.0.cache.get(key) {
            // One stat on the hot path: cheap (dentry and inode are in memory) and needed to
            // see a swapped root at once.
            if std::fs::metadata(&entry.path).is_ok_and(|meta| entry.is_current(&meta)) {
                return Ok(Some(entry));
            }
            self.0.cache.remove(key);
        }
        let guard = match self.0.cache.get_value_or_guard_async(key).await {
            Ok(entry) => return Ok(Some(entry)),
            Err(guard) => guard,
        };
        let (root, owned, csp) = (self.0.root.clone(), key.to_owned(), self.0.csp.clone());
        let (compress, redirects) = (self.0.compress, self.0.redirects.clone());
        let loaded = tokio::task::spawn_blocking(move || {
            let mut loaded = resolve_and_load(&root, &owned, &csp, compress)?;
            if let Some(entry) = &mut loaded
                && entry.path.extension().is_some_and(|x| x == "html")
            {
                entry.redirect = redirects.exact(&owned);
            }
            io::Result::Ok(loaded)
        })
        .await
        .map_err(io::Error::other)??;
        let Some(entry) = loaded else { return Ok(None) };
        let entry = Arc::new(entry);
        let _ = guard.insert(entry.clone());
        Ok(Some(entry))
    }
}

impl StaticSite {
    /// Drops the cached entry for `key` (its file was replaced while being served).
    pub(crate) fn forget(&self, key: &str) {
        self.0.cache.remove(key);
    }

    /// An exact or prefix redirect of a decoded path (blocking: see `redirect_table.rs`).
    async fn redirect(&self, path: &str, query: Option<&str>) -> Option<Moved> {
        let (table, path, query) =
            (self.0.redirects.clone(), path.to_owned(), query.map(str::to_owned));
        tokio::task::spawn_blocking(move || table.lookup(&path, query.as_deref())).await.ok()?
    }
}

/// A build that renames a new directory over the root leaves a moment with no root at all:
/// a miss then waits up to this long for the new one before answering 404.
const SWAP_WAIT: std::time::Duration = std::time::Duration::from_millis(200);

/// Blocking: finds the file for `key` under `root` and loads it.
fn resolve_and_load(
    root: &Path,
    key: &str,
    csp: &HeaderValue,
    compress: bool,
) -> io::Result<Option<Entry>> {
    let started = std::time::Instant::now();
    loop {
        let found = resolve_and_load_once(root, key, csp, compress)?;
        if found.is_some() || root.exists() || started.elapsed() > SWAP_WAIT {
            return Ok(found);
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

fn resolve_and_load_once(
    root: &Path,
    key: &str,
    csp: &HeaderValue,
    compress: bool,
) -> io::Result<Option<Entry>> {
    let Some(path) = resolve(root, key.trim_start_matches('/'))? else { return Ok(None) };
    match file_cache::load(path, key, csp, compress) {
        Ok(entry) => Ok(Some(entry)),
        Err(err) if means_not_found(&err) => Ok(None),
        // Replaced while read: once more, from the new file.
        Err(err) if err.kind() == io::ErrorKind::Interrupted => {
            resolve_and_load_once(root, key, csp, compress)
        }
        Err(err) => Err(err),
    }
}

/// The handler for every path no other route claims.
pub(crate) async fn serve_file(State(site): State<StaticSite>, request: Request) -> Response {
    let method = request.method();
    if method != Method::GET && method != Method::HEAD {
        return bare(
            StatusCode::METHOD_NOT_ALLOWED,
            header::ALLOW,
            HeaderValue::from_static("GET, HEAD"),
        );
    }
    let head = method == Method::HEAD;
    let uri = request.uri();
    if let Some(location) = redirect::trailing_slash_target(uri.path(), uri.query())
        .and_then(|target| HeaderValue::try_from(target).ok())
    {
        // `/old/` of a redirected `/old`: straight to the target, in one redirect.
        if let Ok(decoded) = percent_decode_str(uri.path()).decode_utf8()
            && let Some(moved) = site.redirect(&decoded, uri.query()).await
        {
            return redirect_table::response(&moved, head);
        }
        return bare(StatusCode::MOVED_PERMANENTLY, header::LOCATION, location);
    }
    let decoded = match percent_decode_str(uri.path()).decode_utf8() {
        Ok(decoded) if is_clean(&decoded) => decoded,
        _ => return site.0.pages.render(StatusCode::NOT_FOUND, head).await,
    };
    for _ in 0..3 {
        let entry = match site.entry(&decoded).await {
            Ok(Some(entry)) => entry,
            Ok(None) => {
                if let Some(moved) = site.redirect(&decoded, uri.query()).await {
                    return redirect_table::response(&moved, head);
                }
                return site.0.pages.render(StatusCode::NOT_FOUND, head).await;
            }
            Err(err) => {
                tracing::error!(path = %decoded, error = %err, "cannot read a file");
                return site.0.pages.render(StatusCode::INTERNAL_SERVER_ERROR, head).await;
            }
        };
        if let Some(moved) = &entry.redirect {
            let moved = match uri.query() {
                // The query goes along, as with the other redirects.
                Some(_) => site.redirect(&decoded, uri.query()).await.unwrap_or(moved.clone()),
                None => moved.clone(),
            };
            return redirect_table::response(&moved, head);
        }
        match respond::respond(&entry, request.headers(), head).await {
            Ok(response) => return response,
            // Streamed from disk and replaced since cached: drop the entry and look again.
            Err(respond::Stale) => {
                site.0.cache.remove(&*decoded);
            }
        }
    }
    tracing::error!(path = %decoded, "a file kept changing while served");
    site.0.pages.render(StatusCode::INTERNAL_SERVER_ERROR, head).await
}

/// A decoded path that may name a file under the root (see the module docs).
pub(crate) fn is_clean(path: &str) -> bool {
    let Some(rest) = path.strip_prefix('/') else { return false };
    // The rules for other hosts (`_redirects`) are read, never served, as those hosts do.
    if rest == stillpoint_dist::layout::REDIRECTS_TXT {
        return false;
    }
    rest.is_empty()
        || rest.split('/').all(|segment| {
            !segment.is_empty()
                && !segment.starts_with('.')
                && !segment.chars().any(|c| c == '\\' || c.is_control())
        })
}

/// The file a path names (see the module's rules), if any. Symbolic links below the root are
/// never followed (nginx's `disable_symlinks on`): a path through one names no file, so a link
/// in `DIST` cannot serve what lies outside it. The root itself may be a link.
fn resolve(root: &Path, relative: &str) -> io::Result<Option<PathBuf>> {
    if relative.is_empty() {
        return Ok(match kind(root, "index.html")? {
            Kind::File => Some(root.join("index.html")),
            _ => None,
        });
    }
    let is_dir = match kind(root, relative)? {
        Kind::File => return Ok(Some(root.join(relative))),
        Kind::Dir => true,
        Kind::None => false,
    };
    let page = format!("{relative}.html");
    if kind(root, &page)? == Kind::File {
        return Ok(Some(root.join(page)));
    }
    let index = format!("{relative}/index.html");
    Ok((is_dir && kind(root, &index)? == Kind::File).then(|| root.join(index)))
}

#[derive(Debug, PartialEq, Eq)]
enum Kind {
    File,
    Dir,
    /// Nothing, a link, or another kind of file.
    None,
}

/// What `relative` names under `root`, looking at each component without following links.
fn kind(root: &Path, relative: &str) -> io::Result<Kind> {
    let mut path = root.to_path_buf();
    let mut kind = Kind::Dir;
    for segment in relative.split('/') {
        if kind != Kind::Dir {
            return Ok(Kind::None);
        }
        path.push(segment);
        kind = match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_file() => Kind::File,
            Ok(meta) if meta.is_dir() => Kind::Dir,
            Ok(_) => Kind::None,
            Err(err) if means_not_found(&err) => Kind::None,
            Err(err) => return Err(err),
        };
    }
    Ok(kind)
}

/// I/O errors that say the path names no readable file: not found, permission denied, a file
/// used as a directory, invalid names (NUL, too long).
fn means_not_found(err: &io::Error) -> bool {
    use io::ErrorKind::*;
    matches!(
        err.kind(),
        NotFound | PermissionDenied | NotADirectory | InvalidInput | InvalidFilename
    )
}

/// An answer with no body: a redirect or a refusal.
fn bare(status: StatusCode, name: header::HeaderName, value: HeaderValue) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(name, value);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache::NO_CACHE));
    response
}

#[cfg(test)]
mod tests {
    use super::is_clean;

    #[test]
    fn clean_paths() {
        for ok in ["/", "/authors", "/a/b.json", "/a b", "/assets/app-1.js"] {
            assert!(is_clean(ok), "{ok}");
        }
        for bad in [
            "",
            "a",
            "//",
            "/a//b",
            "/..",
            "/a/../b",
            "/.stillpoint/build.json",
            "/_redirects",
            "/.env",
            "/a/.git/config",
            "/a\\b",
            "/a\0",
            "/a\tb",
        ] {
            assert!(!is_clean(bad), "{bad:?}");
        }
    }
}
