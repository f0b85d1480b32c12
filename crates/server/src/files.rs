//! The site's files: method check, trailing-slash redirect, then `ServeDir`, whose answers get
//! the site's Content-Type, Cache-Control and error pages.
//!
//! `ServeDir` does the file serving and the path checks (no `..`, backslashes or drive prefixes;
//! percent-decoding; `/x` → `x/index.html`; precompressed siblings; ETag and Last-Modified;
//! conditional and range requests). What it answers 404, and I/O errors meaning "no such
//! file", become `404.html`; any other failure is logged and becomes `500.html`.

use std::{io, path::Path};

use axum::{
    body::Body,
    extract::{Request, State},
    response::Response,
};
use http::{HeaderValue, Method, StatusCode, header};
use percent_encoding::percent_decode_str;
use tower_http::services::ServeDir;

use crate::{cache, content_type, error_page::ErrorPages, redirect};

/// Everything needed to answer from one site root. Cheap to clone (once per request).
#[derive(Clone, Debug)]
pub(crate) struct StaticSite {
    dir: ServeDir,
    pages: ErrorPages,
}

impl StaticSite {
    pub(crate) fn new(root: &Path) -> Self {
        let dir = ServeDir::new(root)
            .append_index_html_on_directories(true)
            // `/x` is canonical: serve `x/index.html` there instead of redirecting to `/x/`.
            .redirect_to_trailing_slash(false)
            .precompressed_br()
            .precompressed_gzip();
        Self { dir, pages: ErrorPages::new(root) }
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
        return bare(StatusCode::MOVED_PERMANENTLY, header::LOCATION, location);
    }
    let path = percent_decode_str(uri.path()).decode_utf8_lossy().into_owned();

    let mut dir = site.dir.clone();
    match dir.try_call(request).await {
        Ok(response) if response.status() == StatusCode::NOT_FOUND => {
            site.pages.render(StatusCode::NOT_FOUND, head).await
        }
        Ok(response) if response.status().is_server_error() => {
            tracing::error!(path, status = %response.status(), "the file service failed");
            site.pages.render(StatusCode::INTERNAL_SERVER_ERROR, head).await
        }
        Ok(response) => with_file_headers(response.map(Body::new), &path),
        Err(err) if means_not_found(&err) => site.pages.render(StatusCode::NOT_FOUND, head).await,
        Err(err) => {
            tracing::error!(path, error = %err, "cannot read a file");
            site.pages.render(StatusCode::INTERNAL_SERVER_ERROR, head).await
        }
    }
}

/// I/O errors that say the path names no readable file: `ServeDir`'s own list (not found,
/// permission denied, a file used as a directory) plus invalid names (NUL, too long).
fn means_not_found(err: &io::Error) -> bool {
    use io::ErrorKind::*;
    matches!(
        err.kind(),
        NotFound | PermissionDenied | NotADirectory | InvalidInput | InvalidFilename
    )
}

/// Content-Type and Cache-Control for what `ServeDir` answered about the decoded `path`.
fn with_file_headers(mut response: Response, path: &str) -> Response {
    let status = response.status();
    let headers = response.headers_mut();
    if let Some(guessed) = headers.get(header::CONTENT_TYPE) {
        let name = path.rsplit('/').next().unwrap_or_default();
        // `ServeDir` guesses from the file it opened: `text/html` for `/x` means `x/index.html`.
        let guessed_html = guessed.as_bytes().starts_with(b"text/html");
        let fixed = content_type::content_type(name).or(guessed_html.then_some(content_type::HTML));
        if let Some(fixed) = fixed {
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(fixed));
        }
    }
    let cache_control = match status {
        StatusCode::OK | StatusCode::PARTIAL_CONTENT | StatusCode::NOT_MODIFIED => {
            cache::cache_control(path)
        }
        // 412, 416: not worth keeping.
        _ => cache::NO_CACHE,
    };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache_control));
    headers.entry(header::VARY).or_insert_with(|| HeaderValue::from_static("accept-encoding"));
    response
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
