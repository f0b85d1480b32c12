//! Nothing outside the root is ever served; bad requests get a 4xx, never a 500 or a crash.

use std::sync::Arc;

use axum::body::Body;
use http::{Request, StatusCode};

use crate::support::{SECRET, TestSite, send};

#[tokio::test]
async fn traversal_attempts_get_4xx_and_never_the_secret() {
    let site = TestSite::new();
    for path in [
        "/../secret.txt",
        "/../Cargo.toml",
        "/assets/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2e%2e/",
        "/%2E%2E/%2E%2E/secret.txt",
        "/..%2fsecret.txt",
        "/..%2f",
        "/%2e%2e%2fsecret.txt",
        "/assets/..%2f..%2fsecret.txt",
        "/%5C..%5Csecret.txt",
        "/..%5csecret.txt",
        "/%00",
        "/index.html%00",
        "/%00/../secret.txt",
        "/assets/app-3f2a.js%00.html",
        "/%ff",
        "/%c0%ae%c0%ae/secret.txt",
        "/%",
        "/%zz",
        "/C:/secret.txt",
        "/C:%5Csecret.txt",
    ] {
        let answer = site.get(path).await;
        assert!(answer.status.is_client_error(), "{path}: {}", answer.status);
        assert!(!answer.text().contains(SECRET), "{path}");
        let head = site.head(path).await;
        assert!(head.status.is_client_error(), "HEAD {path}: {}", head.status);
    }
}

#[tokio::test]
async fn names_the_file_system_refuses_are_not_found() {
    let site = TestSite::new();
    let too_long = format!("/{}", "a".repeat(300));
    let too_deep = "/a".repeat(3000);
    for path in [too_long.as_str(), too_deep.as_str(), "/index.html/inside-a-file"] {
        let answer = site.get(path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", &path[..40.min(path.len())]);
    }
}

#[tokio::test]
async fn keeps_answering_under_concurrent_load() {
    let site = Arc::new(TestSite::new());
    let app = site.app();
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..400 {
        let app = app.clone();
        let path = match i % 4 {
            0 => "/authors",
            1 => "/assets/app-3f2a.js",
            2 => "/nope",
            _ => "/%2e%2e/secret.txt",
        };
        tasks.spawn(async move {
            let request = Request::get(path).body(Body::empty()).unwrap();
            (path, send(app, request).await.status)
        });
    }
    while let Some(result) = tasks.join_next().await {
        let (path, status) = result.expect("no task panicked");
        let expected = match path {
            "/authors" | "/assets/app-3f2a.js" => StatusCode::OK,
            _ => StatusCode::NOT_FOUND,
        };
        assert_eq!(status, expected, "{path}");
    }
}

/// Symbolic links inside the root are never followed (nginx's `disable_symlinks on`): a link
/// to a file or a directory outside it, or even to a file inside it, names no file, and an
/// error page that is a link is not read. Checked
/// through the router and over a socket (the fast path).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn symbolic_links_in_the_root_are_not_followed() {
    use std::os::unix::fs::symlink;
    let site = TestSite::new();
    let outside = site.root().parent().unwrap().to_path_buf();
    symlink(outside.join("secret.txt"), site.file("leak.txt")).unwrap();
    symlink(outside.join("secret.txt"), site.file("leak-page.html")).unwrap();
    symlink(&outside, site.file("up")).unwrap();
    std::fs::create_dir_all(outside.join("elsewhere")).unwrap();
    std::fs::write(outside.join("elsewhere/index.html"), SECRET).unwrap();
    symlink(outside.join("elsewhere"), site.file("dir")).unwrap();
    symlink(site.file("authors.html"), site.file("inside.html")).unwrap();
    // The error page too: the built-in one stands in.
    site.remove("404.html");
    symlink(outside.join("secret.txt"), site.file("404.html")).unwrap();
    let paths = ["/leak.txt", "/leak-page", "/up/secret.txt", "/dir", "/dir/index.html", "/inside"];
    for path in paths {
        let answer = site.get(path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert!(!answer.text().contains(SECRET), "{path}");
    }
    let server = crate::client::Server::start(site.config()).await;
    for path in paths {
        let mut client = crate::client::Client::connect(server.addr).await;
        let answer = client.send("GET", path, &[]).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path} over a socket");
        assert!(!answer.text().contains(SECRET), "{path} over a socket");
    }
    // A regular file is still served, through a root that is itself a link.
    let linked_root = outside.join("root-link");
    symlink(site.root(), &linked_root).unwrap();
    let config = stillpoint_server::ServeConfig { root: linked_root, ..site.config() };
    let answer = send(
        stillpoint_server::app(&config),
        Request::get("/authors").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    server.stop().await;
}
