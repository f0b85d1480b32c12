//! A built site in a temp directory, and a way to ask `app()` about it.

use std::path::PathBuf;

use axum::{Router, body::Body};
use http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::BodyExt;
use stillpoint_server::{ServeConfig, app};
use tempfile::TempDir;
use tower::ServiceExt;

/// A file outside the site root that no request may ever reach.
pub const SECRET: &str = "TOP SECRET: outside the root";

/// The files of a small built site: `(path under the root, contents)`.
const FILES: &[(&str, &[u8])] = &[
    ("index.html", b"<h1>Home</h1>"),
    ("404.html", b"<h1>Page Not Found</h1>"),
    ("500.html", b"<h1>Something Went Wrong</h1>"),
    ("authors.html", b"<h1>Meet Our Mindfulness Experts</h1>"),
    ("articles/body-scan.html", b"<h1>Body scan</h1>"),
    ("info/about-us/index.html", b"<h1>About Us</h1>"),
    ("assets/app-3f2a.js", b"console.log('plain');"),
    ("assets/app-3f2a.js.br", b"BROTLI-BYTES"),
    ("assets/app-3f2a.js.gz", b"GZIP-BYTES"),
    ("assets/app-3f2a.js.map", b"{\"version\":3}"),
    ("assets/app-3f2a.css", b"body{margin:0}"),
    ("page-data/index/page-data.json", b"{\"path\":\"/\"}"),
    ("page-data/authors/page-data.json", b"{\"path\":\"/authors\"}"),
    ("page-data/app-data.json", b"{\"webpackCompilationHash\":\"3f2a\"}"),
    ("slice-data/header.json", b"{}"),
    ("sitemap.xml", b"<?xml version=\"1.0\"?><urlset/>"),
    ("rss.xml", b"<?xml version=\"1.0\"?><rss/>"),
    ("atom.xml", b"<?xml version=\"1.0\"?><feed/>"),
    ("robots.txt", b"User-agent: *\n"),
    ("sw.js", b"self.addEventListener('fetch', () => {});"),
    ("site.webmanifest", b"{\"name\":\"Stillpoint\"}"),
    ("icons/demo-logo-small.png", b"\x89PNG\r\n\x1a\nfake"),
    ("icons/logo.svg", b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
    ("images/cover.jpg", b"\xff\xd8\xff fake jpeg"),
    ("guide.pdf", b"%PDF-1.4 fake"),
];

pub struct TestSite {
    dir: TempDir,
}

impl TestSite {
    /// The standard fixture: `FILES` under `{tmp}/site`, and a secret at `{tmp}/secret.txt`.
    pub fn new() -> Self {
        let site = Self { dir: tempfile::tempdir().expect("temp dir") };
        for (path, contents) in FILES {
            site.write(path, contents);
        }
        std::fs::write(site.dir.path().join("secret.txt"), SECRET).expect("write secret");
        site
    }

    pub fn root(&self) -> PathBuf {
        self.dir.path().join("site")
    }

    pub fn write(&self, path: &str, contents: &[u8]) {
        let file = self.root().join(path);
        std::fs::create_dir_all(file.parent().expect("parent")).expect("create dir");
        std::fs::write(file, contents).expect("write file");
    }

    pub fn remove(&self, path: &str) {
        std::fs::remove_file(self.root().join(path)).expect("remove file");
    }

    pub fn file(&self, path: &str) -> PathBuf {
        self.root().join(path)
    }

    pub fn config(&self) -> ServeConfig {
        // Two accept loops, as on a two-core machine: connections land on either.
        ServeConfig { root: self.root(), workers: 2, ..ServeConfig::default() }
    }

    pub fn app(&self) -> Router {
        app(&self.config())
    }

    pub async fn get(&self, uri: &str) -> Answer {
        self.send(Method::GET, uri, &[]).await
    }

    pub async fn head(&self, uri: &str) -> Answer {
        self.send(Method::HEAD, uri, &[]).await
    }

    pub async fn send(&self, method: Method, uri: &str, headers: &[(&str, &str)]) -> Answer {
        let mut request = Request::builder().method(method).uri(uri);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        send(self.app(), request.body(Body::empty()).expect("request")).await
    }
}

/// A response with its body read.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    /// A header as text, or "" when absent.
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", |v| v.to_str().expect("ASCII header"))
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

pub async fn send(app: Router, request: Request<Body>) -> Answer {
    let response = app.oneshot(request).await.expect("infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.expect("body").to_bytes().to_vec();
    Answer { status, headers, body }
}
