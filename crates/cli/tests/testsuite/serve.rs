//! `stillpoint serve` as a process: the proxy allow-list from build.json, access log lines on
//! stdout, `/__health`, and a clean exit on SIGTERM.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    process::{Child, Command, Stdio},
    time::Duration,
};

struct Server {
    child: Child,
    addr: String,
    stdout: BufReader<std::process::ChildStdout>,
    stderr_log: String,
}

/// Starts the binary on a free port and waits for its "Serving … at http://ADDR" line.
fn start(dist: &std::path::Path, extra: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stillpoint"))
        .arg("serve")
        .arg(dist)
        .args(["--port", "0"])
        .args(extra)
        .env("STILLPOINT_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut log = String::new();
    let addr = loop {
        let mut line = String::new();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "serve exited early:\n{log}");
        log.push_str(&line);
        if let Some(at) = line.split("at http://").nth(1) {
            break at.split_whitespace().next().unwrap().to_owned();
        }
    };
    // Keep draining stderr so the server never blocks on it.
    std::thread::spawn(move || {
        let mut sink = String::new();
        let _ = stderr.read_to_string(&mut sink);
    });
    let stdout = BufReader::new(child.stdout.take().unwrap());
    Server { child, addr, stdout, stderr_log: log }
}

fn get(addr: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: x\r\nUser-Agent: t\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

fn stop(mut server: Server) {
    let pid = server.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

fn site() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("index.html"), "<h1>Home</h1>").unwrap();
    std::fs::write(tmp.path().join("404.html"), "<h1>Not found</h1>").unwrap();
    tmp
}

#[test]
fn access_log_json_health_and_sigterm() {
    let dist = site();
    let mut server = start(dist.path(), &["--access-log", "json"]);
    assert!(server.stderr_log.contains("build.json"), "{}", server.stderr_log);
    let health = get(&server.addr, "/__health");
    assert!(health.starts_with("HTTP/1.1 200") && health.ends_with("ok\n"), "{health}");
    let page = get(&server.addr, "/?q=1");
    assert!(page.ends_with("<h1>Home</h1>"), "{page}");
    let mut lines = Vec::new();
    for _ in 0..2 {
        let mut line = String::new();
        server.stdout.read_line(&mut line).unwrap();
        lines.push(serde_json::from_str::<serde_json::Value>(&line).expect("a JSON line"));
    }
    assert_eq!(lines[0]["path"], "/__health");
    assert_eq!(lines[1]["path"], "/?q=1");
    assert_eq!(lines[1]["status"], 200);
    assert_eq!(lines[1]["bytes"], 13);
    assert_eq!(lines[1]["remote"], "127.0.0.1");
    assert_eq!(lines[1]["method"], "GET");
    stop(server);
}

#[test]
fn access_log_common_format() {
    let dist = site();
    let mut server = start(dist.path(), &["--access-log", "common"]);
    get(&server.addr, "/nope");
    let mut line = String::new();
    server.stdout.read_line(&mut line).unwrap();
    let (start, rest) = line.split_once(" - - [").unwrap();
    assert_eq!(start, "127.0.0.1");
    assert!(rest.contains("] \"GET /nope HTTP/1.1\" 404 18"), "{line}");
    stop(server);
}

#[test]
fn the_proxy_allow_list_comes_from_build_json() {
    let dist = site();
    std::fs::create_dir_all(dist.path().join(".stillpoint")).unwrap();
    std::fs::write(
        dist.path().join(".stillpoint/build.json"),
        r#"{"engine":"0.1.0","site":{"id":"t","title":"T","url":"https://t.example","bucket":"b","proxyAllow":["https://cdn.example.com/lib/"]}}"#,
    )
    .unwrap();
    let server = start(dist.path(), &[]);
    // Outside the list: refused with a reason, without any network access.
    let refused =
        get(&server.addr, "/__third-party-proxy?url=https%3A%2F%2Fother.example.com%2Fx.js");
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    assert!(refused.contains("not under any proxy.allow entry"), "{refused}");
    // The build information itself is never served.
    let hidden = get(&server.addr, "/.stillpoint/build.json");
    assert!(hidden.starts_with("HTTP/1.1 404"), "{hidden}");
    stop(server);
}

#[test]
fn the_inline_style_hashes_come_from_build_json() {
    let dist = site();
    std::fs::create_dir_all(dist.path().join(".stillpoint")).unwrap();
    let hash = "'sha256-X1RutGBrXCt9KkSaXMK7tHftWiRscFHOhxsS8tv8hBk='";
    std::fs::write(
        dist.path().join(".stillpoint/build.json"),
        format!(
            r#"{{"engine":"0.1.0","site":{{"id":"t","title":"T","url":"https://t.example","bucket":"b","proxyAllow":[]}},"styleHashes":["{hash}"]}}"#
        ),
    )
    .unwrap();
    let server = start(dist.path(), &[]);
    for path in ["/", "/missing"] {
        let answer = get(&server.addr, path);
        let csp = answer
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("content-security-policy:"))
            .unwrap_or_else(|| panic!("no CSP on {path}:\n{answer}"));
        assert!(csp.contains(&format!("style-src 'self' {hash}; script-src 'self';")), "{csp}");
    }
    stop(server);
}

#[test]
fn redirect_http_without_tls_is_a_clear_error() {
    let dist = site();
    let out = Command::new(env!("CARGO_BIN_EXE_stillpoint"))
        .arg("serve")
        .arg(dist.path())
        .args(["--port", "0", "--redirect-http", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--redirect-http needs TLS"));
}

/// The `x-robots-tag` header of an answer, if any.
fn robots_tag(answer: &str) -> Option<&str> {
    let head = answer.split("\r\n\r\n").next().unwrap();
    head.lines()
        .find_map(|l| l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("x-robots-tag")))
        .map(|(_, v)| v.trim())
}

/// Writes a build.json for environment `env` (`noindex` when it is not production).
fn built_for(dist: &std::path::Path, env: &str) {
    std::fs::create_dir_all(dist.join(".stillpoint")).unwrap();
    std::fs::write(
        dist.join(".stillpoint/build.json"),
        format!(
            r#"{{"engine":"0.1.0","site":{{"id":"t","title":"T","url":"https://{env}.t.example","bucket":"b","proxyAllow":[]}},"env":"{env}","noindex":{}}}"#,
            env != "production"
        ),
    )
    .unwrap();
}

#[test]
fn a_build_for_another_environment_is_served_noindex() {
    let dist = site();
    built_for(dist.path(), "staging");
    // Without an access log, files are answered on the fast path; with one, by the router.
    for extra in [&[][..], &["--access-log", "common"][..]] {
        let server = start(dist.path(), extra);
        assert!(server.stderr_log.contains("staging, not indexed"), "{}", server.stderr_log);
        let plain = |path: &str| get(&server.addr, path);
        let bad_host = {
            let mut stream = TcpStream::connect(&server.addr).unwrap();
            write!(stream, "GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n").unwrap();
            let mut response = String::new();
            stream.read_to_string(&mut response).unwrap();
            response
        };
        let answers = [
            plain("/"),
            plain("/missing"),
            plain("/__health"),
            plain("/__third-party-proxy?url=https%3A%2F%2Fx.example%2Fa.js"),
            bad_host,
        ];
        for answer in &answers {
            assert_eq!(robots_tag(answer), Some("noindex"), "{extra:?}:\n{answer}");
        }
        assert!(answers[0].starts_with("HTTP/1.1 200") && answers[1].starts_with("HTTP/1.1 404"));
        assert!(answers[4].starts_with("HTTP/1.1 400"), "{}", answers[4]);
        stop(server);
    }
}

#[test]
fn a_production_build_is_served_without_x_robots_tag() {
    let dist = site();
    built_for(dist.path(), "production");
    let server = start(dist.path(), &[]);
    for path in ["/", "/missing"] {
        let answer = get(&server.addr, path);
        assert_eq!(robots_tag(&answer), None, "{answer}");
    }
    stop(server);
}
