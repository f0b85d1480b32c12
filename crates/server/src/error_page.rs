//! Error answers with the site's own pages: `404.html` and `500.html` from the root.
//!
//! The page is read on each use (never through a symbolic link, as `files.rs` says), so a rebuilt `dist/` shows its new page without a restart.
//! If the site has no such page, a minimal built-in one stands in (and a warning is logged):
//! an error answer must not itself fail.

use std::path::{Path, PathBuf};

use axum::{body::Body, response::Response};
use http::{HeaderValue, StatusCode, header};

use crate::cache;

/// Builds the 404 and 500 answers for one site root.
#[derive(Clone, Debug)]
pub(crate) struct ErrorPages {
    root: PathBuf,
}

impl ErrorPages {
    pub(crate) fn new(root: &Path) -> Self {
        Self { root: root.to_path_buf() }
    }

    /// The site's `{status}.html` with `status`; for a HEAD request, the same headers and no body.
    pub(crate) async fn render(&self, status: StatusCode, head: bool) -> Response {
        let file = self.root.join(format!("{}.html", status.as_u16()));
        let read = file.clone();
        let page = tokio::task::spawn_blocking(move || {
            use std::io::Read;
            let mut page = Vec::new();
            crate::file_cache::open_no_follow(&read)?.read_to_end(&mut page).map(|_| page)
        });
        let page = match page.await.map_err(std::io::Error::other).flatten() {
            Ok(page) => page,
            Err(err) => {
                let file = file.display();
                tracing::warn!(%file, error = %err, "error page unreadable, using a built-in one");
                builtin_page(status).into_bytes()
            }
        };
        let length = HeaderValue::from(page.len());
        let body = if head { Body::empty() } else { Body::from(page) };
        let mut response = Response::new(body);
        *response.status_mut() = status;
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(stillpoint_dist::kind::HTML));
        headers.insert(header::CONTENT_LENGTH, length);
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache::NO_CACHE));
        response
    }
}

fn builtin_page(status: StatusCode) -> String {
    let title = status.canonical_reason().unwrap_or("Error");
    format!(
        "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>{title}</title><h1>{title}</h1></html>\n"
    )
}
