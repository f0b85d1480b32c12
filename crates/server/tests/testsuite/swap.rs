//! Following the atomic swap of the output directory under load: by exchanging a new directory
//! with DIST in one atomic rename, and by renaming a new symlink over DIST (generation
//! directories). No request fails, and every body is wholly one version.

use std::{
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use axum::body::Body;
use http::{Request, StatusCode};

use crate::{
    client::{Client, Server},
    support::{Answer, send},
};
use stillpoint_server::{ServeConfig, app};

const PATHS: [&str; 4] = ["/", "/articles/calm", "/assets/app.js", "/assets/big.js"];
/// The files of a version: (directory, name, key of its body).
const FILES: [(&str, &str, &str); 4] = [
    ("", "index.html", ""),
    ("articles", "calm.html", "articles/calm"),
    ("assets", "app.js", "assets"),
    ("assets", "big.js", "big"),
];
const SWAPS: usize = 40;
const CLIENTS: usize = 4;

/// One version of the site: every file carries the version in a large-enough body to be
/// compressed, and differs in size between versions (and in content).
fn write_version(dir: &Path, version: usize) {
    for (path, file, key) in FILES {
        let dir = dir.join(path);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(file), body(key, version)).unwrap();
    }
    std::fs::write(dir.join("404.html"), "<h1>Not found</h1>").unwrap();
}

/// `big` is large enough to go out with `sendfile` on the fast path.
fn body(key: &str, version: usize) -> String {
    let times = if key == "big" { 3000 } else { 50 };
    format!("<p>{key} version {version}</p>\n").repeat(times + version % 7)
}

fn is_some_version(path: &str, text: &str) -> bool {
    let key = match path {
        "/" => "",
        "/articles/calm" => "articles/calm",
        "/assets/big.js" => "big",
        _ => "assets",
    };
    (0..=SWAPS + 1).any(|v| text == body(key, v))
}

async fn load_while(config: ServeConfig, swapping: Arc<AtomicBool>) -> usize {
    let app = app(&config);
    let total = load(app.clone(), swapping).await;
    // Once the swapping stops, the last version is what is served.
    for (path, key) in PATHS.into_iter().zip(FILES.map(|f| f.2)) {
        let answer = send(app.clone(), Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(answer.text(), body(key, SWAPS), "{path}");
    }
    total
}

async fn load(app: axum::Router, swapping: Arc<AtomicBool>) -> usize {
    let mut tasks = tokio::task::JoinSet::new();
    for client in 0..CLIENTS {
        let (app, swapping) = (app.clone(), swapping.clone());
        tasks.spawn(async move {
            let mut checked = 0;
            let mut i = client;
            // Bounded: stops with the swapping, and after 20 000 requests at most.
            while swapping.load(Ordering::Relaxed) && checked < 20_000 {
                let path = PATHS[i % PATHS.len()];
                i += 1;
                let accept = if i % 2 == 0 { "br, gzip" } else { "" };
                let request = Request::get(path)
                    .header("accept-encoding", accept)
                    .body(Body::empty())
                    .unwrap();
                check(path, &send(app.clone(), request).await);
                checked += 1;
            }
            checked
        });
    }
    let mut total = 0;
    while let Some(n) = tasks.join_next().await {
        total += n.expect("no client failed");
    }
    total
}

/// A 200 with a whole body of some version.
fn check(path: &str, answer: &Answer) {
    assert_eq!(answer.status, StatusCode::OK, "{path}");
    let text = match answer.header("content-encoding") {
        "br" => {
            let mut out = Vec::new();
            brotli::BrotliDecompress(&mut answer.body.as_slice(), &mut out).unwrap();
            String::from_utf8(out).unwrap()
        }
        "" => answer.text(),
        other => panic!("unexpected coding {other}"),
    };
    assert!(is_some_version(path, &text), "{path}: a mixed or partial body");
}

/// [`load`] over real keep-alive connections, through the HTTP/1.1 fast path.
async fn load_over_sockets(addr: std::net::SocketAddr, swapping: Arc<AtomicBool>) -> usize {
    let mut tasks = tokio::task::JoinSet::new();
    for client in 0..CLIENTS {
        let swapping = swapping.clone();
        tasks.spawn(async move {
            let mut connection = Client::connect(addr).await;
            let (mut checked, mut i) = (0, client);
            while swapping.load(Ordering::Relaxed) && checked < 20_000 {
                let path = PATHS[i % PATHS.len()];
                i += 1;
                let accept = if i % 2 == 0 { "br, gzip" } else { "" };
                check(path, &connection.send("GET", path, &[("accept-encoding", accept)]).await);
                checked += 1;
            }
            checked
        });
    }
    let mut total = 0;
    while let Some(n) = tasks.join_next().await {
        total += n.expect("no client failed");
    }
    total
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follows_a_directory_exchanged_with_dist() {
    let tmp = tempfile::tempdir().unwrap();
    let dist = tmp.path().join("dist");
    write_version(&dist, 0);
    let swapping = Arc::new(AtomicBool::new(true));
    let config = ServeConfig { root: dist.clone(), ..ServeConfig::default() };
    let load = tokio::spawn(load_while(config, swapping.clone()));
    let swapper = tokio::task::spawn_blocking(move || {
        for version in 1..=SWAPS {
            let staging = dist.with_file_name(format!("staging-{version}"));
            write_version(&staging, version);
            // The new directory exchanged with DIST in one atomic rename (two renames, old
            // aside then new in, would leave a moment with no DIST at all), the old one removed.
            let cwd = rustix::fs::CWD;
            rustix::fs::renameat_with(cwd, &staging, cwd, &dist, rustix::fs::RenameFlags::EXCHANGE)
                .unwrap();
            std::fs::remove_dir_all(&staging).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    });
    swapper.await.unwrap();
    swapping.store(false, Ordering::Relaxed);
    let served = load.await.unwrap();
    assert!(served > 0);
}

/// The window between the two renames above can answer 404; the symlink swap has none, so
/// this test also checks that every answer is a 200.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follows_a_symlink_renamed_over_dist() {
    follows_symlink_swaps(false).await;
}

/// The same over real connections: the HTTP/1.1 fast path, `sendfile` included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follows_a_symlink_renamed_over_dist_over_sockets() {
    follows_symlink_swaps(true).await;
}

async fn follows_symlink_swaps(sockets: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let gens = tmp.path().join(".dist.gens");
    let (a, b): (PathBuf, PathBuf) = (gens.join("a"), gens.join("b"));
    write_version(&a, 0);
    let dist = tmp.path().join("dist");
    std::os::unix::fs::symlink(&a, &dist).unwrap();
    let swapping = Arc::new(AtomicBool::new(true));
    let config = ServeConfig { root: dist.clone(), ..ServeConfig::default() };
    let server = if sockets { Some(Server::start(config.clone()).await) } else { None };
    let load = match &server {
        Some(server) => tokio::spawn(load_over_sockets(server.addr, swapping.clone())),
        None => tokio::spawn(load_while(config, swapping.clone())),
    };
    let swapper = tokio::task::spawn_blocking(move || {
        for version in 1..=SWAPS {
            let spare = if version % 2 == 1 { &b } else { &a };
            // Generation directories are reused: files are replaced by rename, in place.
            let staging = gens.join(format!("staging-{version}"));
            write_version(&staging, version);
            for (dir, file, _) in FILES {
                std::fs::create_dir_all(spare.join(dir)).unwrap();
                std::fs::rename(staging.join(dir).join(file), spare.join(dir).join(file)).unwrap();
            }
            std::fs::rename(staging.join("404.html"), spare.join("404.html")).unwrap();
            std::fs::remove_dir_all(&staging).unwrap();
            let link = dist.with_file_name("dist.new");
            std::os::unix::fs::symlink(spare, &link).unwrap();
            std::fs::rename(&link, &dist).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    });
    swapper.await.unwrap();
    swapping.store(false, Ordering::Relaxed);
    let served = load.await.unwrap();
    assert!(served > 0);
    if let Some(server) = server {
        // Once the swapping stops, the last version is what is served.
        let mut client = Client::connect(server.addr).await;
        for (path, key) in PATHS.into_iter().zip(FILES.map(|f| f.2)) {
            assert_eq!(client.send("GET", path, &[]).await.text(), body(key, SWAPS), "{path}");
        }
        server.stop().await;
    }
}
