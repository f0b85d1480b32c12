//! A fresh `stillpoint new` site: `check` warns about every placeholder left until the owner has
//! replaced it, the build links the favicon set made from the logo, and `serve` answers
//! `/favicon.ico`.

use std::io::{Read, Write};

use crate::serve::{start, stop};
use crate::util::{SiteTest, edit, stderr};

fn new_site() -> SiteTest {
    let t = SiteTest { tmp: tempfile::tempdir().unwrap() };
    let out = t.run(&["new", "site", "--title", "Still Waters Meditation", "--id", "still-waters"]);
    assert!(out.status.success(), "{}", stderr(&out));
    t
}

fn check_json(t: &SiteTest, extra: &[&str]) -> (Option<i32>, serde_json::Value) {
    let out = t.run(&[&["check", "site", "--format", "json"], extra].concat());
    (out.status.code(), serde_json::from_slice(&out.stdout).unwrap())
}

#[test]
fn check_warns_about_every_placeholder_until_each_is_replaced() {
    let t = new_site();
    let (code, doc) = check_json(&t, &[]);
    assert_eq!(code, Some(0), "warnings only: {doc:#}");
    let all = doc["warnings"].as_array().unwrap();
    // Beside the placeholders, one warning counts the starter's topics that have no articles yet.
    let (warnings, others): (Vec<_>, Vec<_>) = all.iter().partition(|w| w["kind"] == "placeholder");
    assert_eq!(others.len(), 1, "{doc:#}");
    assert_eq!(others[0]["kind"], "empty_topics");
    let count = |file: &str| warnings.iter().filter(|w| w["file"] == file).count();
    // site.url, contact_email and the three social links guessed from the id.
    assert_eq!(count("stillpoint.toml"), 5, "{doc:#}");
    // The name, the biography, the author page's title and description.
    assert_eq!(count("data/authors.toml"), 4);
    // "Describe what readers find under …": 7 categories and 28 children (not the `other`s).
    assert_eq!(count("data/topics.toml"), 35);
    for page in ["pages/about-us.md", "pages/privacy-policy.md", "pages/terms.md"] {
        assert_eq!(count(page), 1, "{page}");
    }
    assert_eq!(count("articles/three-minute-breathing-space.md"), 1);
    assert_eq!(warnings.len(), 48);
    let url = &warnings.iter().find(|w| w["file"] == "stillpoint.toml").unwrap();
    assert_eq!((url["line"].as_u64(), url["column"].as_u64()), (Some(10), Some(7)), "{url:#}");
    assert_eq!(url["message"], "placeholder left to replace: `https://still-waters.example`");
    assert!(url["hint"].as_str().unwrap().contains("domain"), "{url:#}");

    let out = t.run(&["check", "site", "--deny-warnings"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("--> data/authors.toml:5:8"), "{err}");
    assert!(err.contains("49 content warnings"), "{err}");

    // The owner replaces each one: nothing warns any more.
    for (from, to) in [
        ("https://still-waters.example", "https://stillwaters.com"),
        ("hello@still-waters.example", "hello@stillwaters.com"),
        ("https://www.youtube.com/@still-waters", "https://www.youtube.com/@stillwatersmed"),
        ("https://x.com/still-waters", "https://x.com/stillwatersmed"),
        ("https://www.instagram.com/still-waters", "https://www.instagram.com/stillwatersmed"),
    ] {
        edit(&t, "stillpoint.toml", from, to);
    }
    let authors = std::fs::read_to_string(t.site().join("data/authors.toml")).unwrap();
    let bio = authors.lines().find(|l| l.starts_with("description")).unwrap();
    edit(&t, "data/authors.toml", bio, "description = \"Ana teaches breath-led meditation.\"");
    let authors = std::fs::read_to_string(t.site().join("data/authors.toml")).unwrap();
    std::fs::write(t.site().join("data/authors.toml"), authors.replace("Your Name", "Ana Reyes"))
        .unwrap();
    edit(&t, "articles/three-minute-breathing-space.md", "Your Name", "Ana Reyes");
    edit(&t, "articles/three-minute-breathing-space.md", "This is your first article.", "");
    let topics = std::fs::read_to_string(t.site().join("data/topics.toml")).unwrap();
    let topics = topics.replace("Describe what readers find under", "Practices and articles on");
    std::fs::write(t.site().join("data/topics.toml"), topics).unwrap();
    edit(&t, "pages/about-us.md", "Describe who you are,", "We are");
    edit(&t, "pages/privacy-policy.md", "Describe what data this site collects", "We collect");
    edit(&t, "pages/terms.md", "Replace this text with your own terms.", "Be kind.");
    // The starter's topics still wait for articles: that one is accepted on purpose.
    let config = std::fs::read_to_string(t.site().join("stillpoint.toml")).unwrap();
    std::fs::write(
        t.site().join("stillpoint.toml"),
        format!("{config}\n[check]\naccept = [\"empty_topics\"]\n"),
    )
    .unwrap();
    let (code, doc) = check_json(&t, &["--deny-warnings"]);
    assert_eq!(code, Some(0), "{doc:#}");
    assert_eq!(doc, serde_json::json!({"ok": true, "errors": [], "warnings": [], "accepted": 1}));
}

#[test]
fn the_build_links_the_favicon_set_and_serve_answers_favicon_ico() {
    let t = new_site();
    for f in [
        "static/favicon.svg",
        "static/favicon.ico",
        "static/icons/apple-touch-icon.png",
        "static/icons/icon-192.png",
        "static/icons/icon-512.png",
        "static/icons/still-waters-logo.svg",
        "static/icons/still-waters-logo-small.png",
        "static/manifest.webmanifest",
    ] {
        assert!(t.site().join(f).is_file(), "{f} is written");
    }
    t.build();
    let home = t.read("index.html");
    for link in [
        r#"<link rel="icon" href="/favicon.ico" sizes="32x32">"#,
        r#"<link rel="icon" href="/favicon.svg" type="image/svg+xml">"#,
        r#"<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">"#,
        r#"<link rel="manifest" href="/manifest.webmanifest">"#,
    ] {
        assert!(home.contains(link), "{link} in\n{home}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&t.read("manifest.webmanifest")).unwrap();
    assert_eq!(manifest["name"], "Still Waters Meditation");
    let ico = std::fs::read(t.out().join("favicon.ico")).unwrap();
    assert_eq!(ico[..6], [0, 0, 1, 0, 3, 0], "an icon file of three images");
    assert!(t.out().join("icons/apple-touch-icon.png").is_file());

    let server = start(&t.out(), &[]);
    let (head, body) = get_bytes(&server.addr, "/favicon.ico");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.to_ascii_lowercase().contains("content-type: image/x-icon"), "{head}");
    assert_eq!(body, ico);
    stop(server);
}

/// One GET: the response's head as text and its body (with `Connection: close`, not chunked
/// for a static file).
fn get_bytes(addr: &str, path: &str) -> (String, Vec<u8>) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let at = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    (String::from_utf8_lossy(&response[..at]).into_owned(), response[at + 4..].to_vec())
}
