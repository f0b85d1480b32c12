//! `stillpoint dev` on a copy of the minimal fixture: the real binary serves on a free port,
//! files are edited as editors save them (a temporary renamed over the file), and the events
//! stream and the served pages are read over HTTP.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{SOURCE_DATE_EPOCH, SiteTest, web_bundle};

const WAIT: Duration = Duration::from_secs(60);

/// A running `stillpoint dev site --port 0`, stopped with SIGINT when dropped.
struct Dev {
    child: Child,
    addr: String,
    log: Arc<Mutex<String>>,
}

impl Dev {
    fn start(t: &SiteTest) -> Self {
        Self::start_with(t, &[])
    }

    /// Started with `args` after the usual ones.
    fn start_with(t: &SiteTest, args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stillpoint"))
            .args(["dev", "site", "--host", "127.0.0.1", "--port", "0", "--jobs", "1"])
            .args(args)
            .current_dir(t.tmp.path())
            .env("STILLPOINT_WEB", web_bundle())
            .env("STILLPOINT_IMAGE_CACHE", crate::util::image_cache())
            .env("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
            .env_remove("STILLPOINT_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let log = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = channel();
        let stderr = child.stderr.take().unwrap();
        let sink = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(at) = line.find("at http://") {
                    let addr = line[at + 10..].split_whitespace().next().unwrap_or("").to_string();
                    let _ = tx.send(addr);
                }
                let mut log = sink.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        let addr = rx
            .recv_timeout(WAIT)
            .unwrap_or_else(|_| panic!("dev did not start:\n{}", log.lock().unwrap()));
        Self { child, addr, log }
    }

    fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// `(status line, headers, body)` of a GET (or HEAD) over HTTP/1.0.
    fn request(&self, method: &str, path: &str) -> (String, String, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.0\r\nHost: {}\r\nAccept-Encoding: gzip, br\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut bytes = Vec::new();
        s.read_to_end(&mut bytes).unwrap();
        let raw = String::from_utf8_lossy(&bytes);
        let (head, body) = raw.split_once("\r\n\r\n").unwrap();
        let (status, headers) = head.split_once("\r\n").unwrap();
        (status.to_string(), headers.to_ascii_lowercase(), body.to_string())
    }

    fn get(&self, path: &str) -> String {
        let (status, _, body) = self.request("GET", path);
        assert!(status.contains(" 200 "), "GET {path}: {status}");
        body
    }

    /// The status line and what follows (up to 64 KiB) of a raw `head`, closed after the first
    /// read that ends the answer's head.
    fn raw(&self, head: &str) -> (String, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(WAIT)).unwrap();
        s.write_all(head.as_bytes()).unwrap();
        let mut reader = BufReader::new(s);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        let mut rest = String::new();
        let mut line = String::new();
        // The head, then the body if it is not a stream (a refusal's line).
        while reader.read_line(&mut line).unwrap_or(0) > 0 && rest.len() < 64 << 10 {
            rest.push_str(&line);
            if line == "\r\n" && status.contains(" 200 ") {
                break;
            }
            line.clear();
        }
        (status, rest)
    }

    /// The events stream, one parsed event per `data:` line.
    fn events(&self) -> Receiver<Value> {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        write!(
            s,
            "GET /__stillpoint/events HTTP/1.0\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            self.addr
        )
        .unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(s).lines().map_while(Result::ok) {
                if let Some(json) = line.strip_prefix("data: ")
                    && tx.send(serde_json::from_str(json).unwrap()).is_err()
                {
                    break;
                }
            }
        });
        rx
    }

    /// The events stream, past the `hello` every new listener is greeted with.
    fn greeted_events(&self) -> Receiver<Value> {
        let events = self.events();
        next(&events, "hello");
        events
    }

    /// SIGINT, then the exit status (within `WAIT`).
    fn interrupt(&mut self) -> std::process::ExitStatus {
        Command::new("kill").args(["-INT", &self.child.id().to_string()]).status().unwrap();
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(started.elapsed() < WAIT, "dev did not stop:\n{}", self.log());
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Dev {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The next event of `kind`, skipping others.
fn next(events: &Receiver<Value>, kind: &str) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match events.recv_timeout(left) {
            Ok(e) if e["type"] == kind => return e,
            Ok(_) => {}
            Err(e) => panic!("no `{kind}` event: {e:?}"),
        }
    }
}

/// Saves `rel` as editors do: vim's swap file, a temporary written and renamed over the file.
fn save(site: &Path, rel: &str, edit: impl FnOnce(String) -> String) {
    let path = site.join(rel);
    let text = edit(std::fs::read_to_string(&path).unwrap());
    let dir = path.parent().unwrap();
    let name = path.file_name().unwrap().to_str().unwrap();
    std::fs::write(dir.join(format!(".{name}.swp")), "swap").unwrap();
    let tmp = dir.join(format!("{name}.tmp"));
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
}

const ARTICLE: &str = "articles/body-scan.md";
const OLD_TITLE: &str = "A 10-Minute Body Scan for Deeper Sleep";
const NEW_TITLE: &str = "A 12-Minute Body Scan for Deeper Sleep";

#[test]
fn an_edit_rebuilds_once_and_reaches_open_tabs() {
    let t = SiteTest::from_fixture("minimal");
    let dev = Dev::start(&t);
    let page = dev.get("/articles/body-scan");
    assert!(page.contains(OLD_TITLE));
    assert_eq!(page.matches("<script src=\"/__stillpoint/dev.js\" defer></script>").count(), 1);
    let events = dev.events();
    let hello = next(&events, "hello");
    assert_eq!(hello["build"], 1);

    save(&t.site(), ARTICLE, |s| s.replace(OLD_TITLE, NEW_TITLE));
    let rebuilt = next(&events, "rebuilt");
    assert_eq!(rebuilt["build"], 2);
    assert_eq!(rebuilt["sources"], serde_json::json!([ARTICLE]));
    let pages: Vec<&str> =
        rebuilt["pages"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert!(pages.contains(&"/articles/body-scan"), "{pages:?}");
    assert_eq!(rebuilt["bundle"], false);
    assert!(dev.get("/articles/body-scan").contains(NEW_TITLE));
    assert!(dev.get("/page-data/articles/body-scan/page-data.json").contains(NEW_TITLE));

    // One save, one rebuild: nothing else comes.
    match events.recv_timeout(Duration::from_millis(1500)) {
        Err(RecvTimeoutError::Timeout) => {}
        other => panic!("unexpected after the rebuild: {other:?}"),
    }
    let log = dev.log();
    assert_eq!(log.matches("changed: ").count(), 1, "{log}");
    assert!(log.contains(&format!("changed: {ARTICLE}\n")), "{log}");

    // The files written to disk never carry the dev client.
    let built =
        std::fs::read_to_string(t.site().join(".stillpoint/dev-dist/articles/body-scan.html"))
            .unwrap();
    assert!(built.contains(NEW_TITLE) && !built.contains("__stillpoint"));

    // A static file is not in any page data: the event says so, and tabs reload.
    std::fs::write(t.site().join("static/icons/calm-logo-small.png"), b"not really a png").unwrap();
    let rebuilt = next(&events, "rebuilt");
    assert_eq!(rebuilt["sources"], serde_json::json!(["static/icons/calm-logo-small.png"]));
    assert_eq!(rebuilt["staticFiles"], true);
    assert_eq!(dev.get("/icons/calm-logo-small.png"), "not really a png");
}

#[test]
fn a_content_error_is_reported_until_fixed_and_the_last_good_site_stays() {
    let t = SiteTest::from_fixture("minimal");
    let dev = Dev::start(&t);
    let events = dev.greeted_events();

    let broken = |s: String| s.replace(&format!("title: \"{OLD_TITLE}\""), "title: [unclosed");
    save(&t.site(), ARTICLE, broken);
    let error = next(&events, "error");
    let problem = &error["problems"][0];
    assert_eq!(problem["file"], ARTICLE);
    assert_eq!(problem["line"], 2, "{error}");
    assert!(problem["message"].as_str().unwrap().starts_with("malformed front matter"), "{error}");
    assert_eq!(problem["source"], "title: [unclosed");
    assert!(problem["hint"].as_str().unwrap().contains("YAML"));

    // The terminal shows what `stillpoint check` prints.
    // (`check` also counts the warnings it holds back; the diagnostics themselves are the same.)
    let check = t.run(&["check", "site"]);
    let printed: String = String::from_utf8_lossy(&check.stderr)
        .lines()
        .filter(|l| !l.contains("content warning"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(printed.contains("--> articles/body-scan.md:2:"), "{printed}");
    let deadline = Instant::now() + WAIT;
    while !dev.log().contains(&printed) {
        assert!(
            Instant::now() < deadline,
            "dev printed:\n{}\ncheck printed:\n{printed}",
            dev.log()
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    // The last good site is still served, and a tab opened now is told about the error.
    assert!(dev.get("/articles/body-scan").contains(OLD_TITLE));
    let late = dev.greeted_events();
    assert_eq!(next(&late, "error")["problems"][0]["file"], ARTICLE);

    save(&t.site(), ARTICLE, |s| s.replace("title: [unclosed", &format!("title: \"{NEW_TITLE}\"")));
    let ok = next(&events, "ok");
    let rebuilt = next(&events, "rebuilt");
    assert_eq!(ok["build"], rebuilt["build"]);
    assert!(dev.get("/articles/body-scan").contains(NEW_TITLE));
}

#[test]
fn dev_routes_headers_and_a_clean_stop() {
    let t = SiteTest::from_fixture("minimal");
    std::fs::write(t.site().join("static/favicon.ico"), b"\0\0\x01\0\0\0").unwrap();
    let mut dev = Dev::start(&t);

    let (status, headers, body) = dev.request("GET", "/sw.js");
    assert!(status.contains(" 200 "), "{status}");
    assert!(headers.contains("content-type: text/javascript"), "{headers}");
    assert!(body.contains("registration.unregister()") && body.contains("caches.delete"));
    assert!(!body.contains("'fetch'"), "the dev worker must not serve requests");

    let client = dev.get("/__stillpoint/dev.js");
    assert!(client.contains("/__stillpoint/events") && client.contains("stillpoint:refresh"));
    assert!(dev.get("/__stillpoint/dev.css").contains(".sp-dev-overlay"));

    // The site's CSP lets the client load (same-origin script) and connect (same origin); HTML is
    // sent uncompressed, with the length of what is sent.
    let (_, headers, body) = dev.request("GET", "/");
    let csp = headers.lines().find(|l| l.starts_with("content-security-policy:")).unwrap();
    assert!(csp.contains("default-src 'self'") && csp.contains("script-src 'self'"), "{csp}");
    assert!(csp.contains("connect-src 'self';"), "{csp}");
    // Pages link the site stylesheet and inline no styles: styles come from the site only.
    assert!(!body.contains("<style"), "{body}");
    assert!(body.contains(r#"<link rel="stylesheet" href="/assets/style-"#), "{body}");
    assert!(csp.contains("style-src 'self';"), "{csp}");
    assert!(!headers.contains("content-encoding"), "{headers}");
    assert!(body.contains("/__stillpoint/dev.js"));
    let (_, head_headers, _) = dev.request("HEAD", "/");
    assert!(head_headers.contains(&format!("content-length: {}", body.len())), "{head_headers}");
    // Only hashed files may be kept by the browser in dev.
    let (_, headers, _) = dev.request("GET", "/icons/calm-logo-small.png");
    assert!(headers.contains("cache-control: no-cache"), "{headers}");
    // What every browser asks for, when the site has it.
    let (status, headers, _) = dev.request("GET", "/favicon.ico");
    assert!(status.contains(" 200 ") && headers.contains("content-type: image/x-icon"), "{status}");
    let (status, _, body) = dev.request("GET", "/no/such/page");
    assert!(status.contains(" 404 ") && body.contains("/__stillpoint/dev.js"), "{status}");

    // Ctrl-C with a tab connected: the stream ends and the server exits cleanly.
    let _tab = dev.greeted_events();
    let status = dev.interrupt();
    assert!(status.success(), "{status:?}\n{}", dev.log());
}

/// DNS rebinding: a page on another site whose name resolves to 127.0.0.1 must not read the
/// drafts or the error stream. Only local names are answered (any port); the events stream
/// also refuses a foreign `Origin`.
#[test]
fn only_requests_for_local_names_are_answered() {
    let t = SiteTest::from_fixture("minimal");
    let dev = Dev::start(&t);
    let port = dev.addr.rsplit(':').next().unwrap().to_string();
    let get = |path: &str, host: &str, origin: Option<&str>| {
        let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
        dev.raw(&format!(
            "GET {path} HTTP/1.1\r\nHost: {host}\r\n{origin}Connection: close\r\n\r\n"
        ))
    };
    for host in ["evil.example", &format!("evil.example:{port}"), "localhost.evil.example"] {
        for path in ["/articles/body-scan", "/__stillpoint/events"] {
            let (status, rest) = get(path, host, None);
            assert!(status.contains(" 403 "), "{host}{path}: {status}");
            assert!(rest.contains("DNS rebinding") && !rest.contains(OLD_TITLE), "{rest}");
        }
    }
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}"), "[::1]:1".to_owned()] {
        let (status, rest) = get("/articles/body-scan", &host, None);
        assert!(status.contains(" 200 "), "{host}: {status}");
        assert!(rest.to_ascii_lowercase().contains("content-type: text/html"), "{rest}");
    }
    let local = format!("localhost:{port}");
    let (status, rest) = get("/__stillpoint/events", &local, Some("http://evil.example"));
    assert!(status.contains(" 403 ") && rest.contains("other origins"), "{status}{rest}");
    let (status, _) = get("/__stillpoint/events", &local, Some(&format!("http://{local}")));
    assert!(status.contains(" 200 "), "{status}");
    // A page's own requests carry no Origin, or a local one: a cross-origin GET is answered
    // (the browser keeps its body from the other page without CORS headers).
    let (status, _) = get("/articles/body-scan", &local, Some("http://evil.example"));
    assert!(status.contains(" 200 "), "{status}");
}

/// The site directory deleted and made again, or swapped for another (`rm -rf site && git
/// checkout site`, a tool renaming a new directory into place): dev says so, watches the new
/// directory, rebuilds, and serves it; later edits in it are seen too.
#[test]
fn a_replaced_site_directory_is_watched_and_served_again() {
    let t = SiteTest::from_fixture("minimal");
    let dev = Dev::start(&t);
    assert!(dev.get("/articles/body-scan").contains(OLD_TITLE));
    let events = dev.greeted_events();

    // Moved away, then a modified copy (without the dev output, as a checkout has none)
    // renamed into place.
    let moved = t.tmp.path().join("site.moved");
    std::fs::rename(t.site(), &moved).unwrap();
    let deadline = Instant::now() + WAIT;
    while !dev.log().contains("is gone") {
        assert!(Instant::now() < deadline, "no word of the site going:\n{}", dev.log());
        std::thread::sleep(Duration::from_millis(50));
    }
    let fresh = t.tmp.path().join("site.new");
    crate::util::copy_sources(&moved, &fresh);
    assert!(!fresh.join(".stillpoint").exists(), "a copy holds the sources only");
    let article = fresh.join(ARTICLE);
    let text = std::fs::read_to_string(&article).unwrap().replace(OLD_TITLE, NEW_TITLE);
    std::fs::write(&article, text).unwrap();
    std::fs::rename(&fresh, t.site()).unwrap();

    let served = |title: &str| {
        let deadline = Instant::now() + WAIT;
        // The output is inside the site directory: none until the new one is built (404).
        while !dev.request("GET", "/articles/body-scan").2.contains(title) {
            assert!(Instant::now() < deadline, "{title} not served:\n{}", dev.log());
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    served(NEW_TITLE);
    let log = dev.log();
    assert_eq!(log.matches("is gone").count(), 1, "{log}");
    assert_eq!(log.matches("is back").count(), 1, "{log}");

    // The new directory is watched (and the old one, still about, no longer counts).
    save(&t.site(), ARTICLE, |s| s.replace(NEW_TITLE, OLD_TITLE));
    served(OLD_TITLE);
    std::fs::remove_dir_all(&moved).unwrap();
    save(&t.site(), ARTICLE, |s| s.replace(OLD_TITLE, NEW_TITLE));
    served(NEW_TITLE);
    assert!(dev.log().contains(&format!("changed: {ARTICLE}\n")), "{}", dev.log());
    drop(events);
}

/// A build that fails before it reads the articles (a broken `stillpoint.toml`) keeps its cache
/// for the next, which must still read the article saved while the site was broken: the
/// watcher's word for the next build names only the files saved since.
#[test]
fn an_article_saved_while_the_configuration_is_broken_shows_once_it_is_fixed() {
    let t = SiteTest::from_fixture("minimal");
    let dev = Dev::start(&t);
    let events = dev.greeted_events();

    let config = "stillpoint.toml";
    let good = std::fs::read_to_string(t.site().join(config)).unwrap();
    save(&t.site(), config, |s| format!("{s}\n[broken\n"));
    next(&events, "error");
    save(&t.site(), ARTICLE, |s| s.replace(OLD_TITLE, NEW_TITLE));
    next(&events, "error");
    save(&t.site(), config, |_| good);
    next(&events, "rebuilt");
    assert!(dev.get("/articles/body-scan").contains(NEW_TITLE), "{}", dev.log());
}

/// The build cache is written once no change has come for a while, and when `dev` stops; not
/// after every rebuild, where it would take a core from the tab showing the edit.
#[test]
fn the_build_cache_is_saved_when_idle_and_on_stopping() {
    let t = SiteTest::from_fixture("minimal");
    let mut dev = Dev::start(&t);
    let cache = t.site().join(".stillpoint/dev-cache/build-cache.bin");
    let modified = || std::fs::metadata(&cache).and_then(|m| m.modified()).ok();
    let events = dev.greeted_events();

    // Idle: the rebuild's cache reaches the disk without a stop.
    save(&t.site(), ARTICLE, |s| s.replace(OLD_TITLE, NEW_TITLE));
    next(&events, "rebuilt");
    let rebuilt = std::time::SystemTime::now();
    let deadline = Instant::now() + WAIT;
    while modified().is_none_or(|m| m < rebuilt) {
        assert!(Instant::now() < deadline, "no cache saved while idle:\n{}", dev.log());
        std::thread::sleep(Duration::from_millis(100));
    }

    // Stopped right after a rebuild: saved as it stops.
    save(&t.site(), ARTICLE, |s| s.replace(NEW_TITLE, OLD_TITLE));
    next(&events, "rebuilt");
    let rebuilt = std::time::SystemTime::now();
    assert!(dev.interrupt().success(), "{}", dev.log());
    assert!(modified().is_some_and(|m| m >= rebuilt), "the cache was not saved on stopping");
}

/// What a `dev` session keeps between rebuilds (the articles' places, the pages each was
/// rendered from, the search index's keys, the output's manifest written only when idle) never
/// shows in its output: after body edits, retitles and a reading-time crossing, the output equals
/// a clean build's, byte for byte. Killed before it wrote its manifest, the next session finds
/// the output unknown and writes it afresh, equal again.
#[test]
fn a_dev_session_leaves_the_output_a_clean_build_makes() {
    let t = SiteTest::from_fixture("minimal");
    let dev_dist = t.site().join(".stillpoint/dev-dist");
    let clean = |t: &SiteTest| {
        let _ = std::fs::remove_dir_all(t.tmp.path().join("clean"));
        let _ = std::fs::remove_dir_all(t.tmp.path().join(".clean.gens"));
        let out = t.run(&["build", "site", "--out", "clean", "--no-cache"]);
        assert!(out.status.success(), "{}", crate::util::stderr(&out));
        crate::util::tree(&t.tmp.path().join("clean"))
    };
    let dev = Dev::start_with(&t, &["--no-drafts"]);
    let events = dev.greeted_events();
    let edits: [(&str, &dyn Fn(String) -> String); 5] = [
        (ARTICLE, &|s| s.replace("Lie down and let the day go.", "Lie down and let it go.")),
        (ARTICLE, &|s| s.replace(OLD_TITLE, NEW_TITLE)),
        ("articles/breathing.md", &|s| s + "\nOne more breath.\n"),
        ("articles/breathing.md", &|s| s + &"Breathe in, and out. ".repeat(400)),
        (ARTICLE, &|s| s.replace(NEW_TITLE, OLD_TITLE)),
    ];
    for (rel, edit) in edits {
        save(&t.site(), rel, edit);
        next(&events, "rebuilt");
        assert_eq!(crate::util::tree(&dev_dist), clean(&t), "after an edit of {rel}");
    }

    // Killed right after a rebuild: the live generation has no manifest file yet.
    save(&t.site(), ARTICLE, |s| s.replace("let it go.", "let the day go."));
    next(&events, "rebuilt");
    drop(dev);
    let live = std::fs::read_link(&dev_dist).unwrap();
    let name = live.file_name().unwrap().to_str().unwrap().to_string();
    let manifest = t.site().join(format!(".stillpoint/.dev-dist.gens/{name}.manifest"));
    assert!(!manifest.exists(), "written before the tab was told");

    let mut dev = Dev::start_with(&t, &["--no-drafts"]);
    assert_eq!(crate::util::tree(&dev_dist), clean(&t));
    assert!(dev.interrupt().success(), "{}", dev.log());
    let live = std::fs::read_link(&dev_dist).unwrap();
    let name = live.file_name().unwrap().to_str().unwrap().to_string();
    assert!(
        t.site().join(format!(".stillpoint/.dev-dist.gens/{name}.manifest")).exists(),
        "written on stopping"
    );
}
