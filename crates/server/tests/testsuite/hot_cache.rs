//! The in-memory cache: content-digest ETags, compressed variants, dot-paths, ranges, and
//! seeing files replaced the way builds replace them (rename over the old name).

use http::{Method, StatusCode};

use crate::support::TestSite;

fn replace(site: &TestSite, path: &str, contents: &[u8]) {
    let temp = site.file(&format!("{path}.tmp"));
    std::fs::write(&temp, contents).unwrap();
    std::fs::rename(temp, site.file(path)).unwrap();
}

#[tokio::test]
async fn etags_follow_the_content_not_the_file() {
    let site = TestSite::new();
    let app = site.app();
    let get = |app: axum::Router, path: &'static str| async move {
        let request = http::Request::get(path).body(axum::body::Body::empty()).unwrap();
        crate::support::send(app, request).await
    };
    let first = get(app.clone(), "/authors").await;
    let etag = first.header("etag").to_owned();
    assert!(etag.starts_with('"') && !etag.starts_with("W/"), "strong: {etag}");

    // Rebuilt with the same bytes (new inode, new mtime): same ETag.
    replace(&site, "authors.html", b"<h1>Meet Our Mindfulness Experts</h1>");
    let same = get(app.clone(), "/authors").await;
    assert_eq!(same.header("etag"), etag);

    // Rebuilt with new bytes: served at once, with a new ETag.
    replace(&site, "authors.html", b"<h1>New experts</h1>");
    let changed = get(app.clone(), "/authors").await;
    assert_eq!(changed.text(), "<h1>New experts</h1>");
    assert_ne!(changed.header("etag"), etag);
}

#[tokio::test]
async fn text_is_compressed_once_with_a_distinct_etag_per_coding() {
    let site = TestSite::new();
    let page = "<p>breathe in, breathe out</p>\n".repeat(100);
    site.write("articles/breath.html", page.as_bytes());
    let app = site.app();
    let mut etags = Vec::new();
    for (accept, coding) in [("br, gzip", "br"), ("gzip", "gzip"), ("", "")] {
        let request = http::Request::get("/articles/breath")
            .header("accept-encoding", accept)
            .body(axum::body::Body::empty())
            .unwrap();
        let answer = crate::support::send(app.clone(), request).await;
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(answer.header("content-encoding"), coding, "{accept}");
        assert_eq!(answer.header("vary"), "accept-encoding");
        assert_eq!(answer.header("content-length"), answer.body.len().to_string());
        let mut plain = Vec::new();
        match coding {
            "br" => brotli::BrotliDecompress(&mut answer.body.as_slice(), &mut plain).unwrap(),
            "gzip" => {
                std::io::Read::read_to_end(
                    &mut flate2::read::GzDecoder::new(answer.body.as_slice()),
                    &mut plain,
                )
                .unwrap();
            }
            _ => plain = answer.body.clone(),
        }
        assert_eq!(plain, page.as_bytes(), "{accept}");
        etags.push(answer.header("etag").to_owned());
        // Any representation's tag revalidates.
        let again =
            site.send(Method::GET, "/articles/breath", &[("if-none-match", &etags[0])]).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    }
    etags.dedup();
    assert_eq!(etags.len(), 3, "{etags:?}");
}

#[tokio::test]
async fn dot_paths_are_never_served() {
    let site = TestSite::new();
    site.write(".stillpoint/build.json", b"{\"engine\":\"0.1.0\"}");
    site.write(".well-known/secret", b"secret");
    site.write("assets/.hidden", b"secret");
    for path in [
        "/.stillpoint/build.json",
        "/%2estillpoint/build.json",
        "/.well-known/secret",
        "/assets/.hidden",
        "/.stillpoint",
    ] {
        let answer = site.get(path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert!(!answer.text().contains("engine") && !answer.text().contains("secret"));
    }
}

#[tokio::test]
async fn a_single_byte_range_is_answered_206() {
    let site = TestSite::new();
    let answer = site.send(Method::GET, "/robots.txt", &[("range", "bytes=0-3")]).await;
    assert_eq!(answer.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(answer.text(), "User");
    assert_eq!(answer.header("content-range"), "bytes 0-3/14");
    let past = site.send(Method::GET, "/robots.txt", &[("range", "bytes=100-")]).await;
    assert_eq!(past.status, StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(past.header("content-range"), "bytes */14");
}

#[tokio::test]
async fn large_files_are_streamed_from_disk() {
    let site = TestSite::new();
    let big: Vec<u8> = (0..5_000_000u32).map(|i| (i % 251) as u8).collect();
    site.write("audio/long.mp3", &big);
    let answer = site.send(Method::GET, "/audio/long.mp3", &[("accept-encoding", "br")]).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("content-encoding"), "");
    assert_eq!(answer.body, big);
    let part = site.send(Method::GET, "/audio/long.mp3", &[("range", "bytes=4999990-")]).await;
    assert_eq!(part.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.body, &big[4_999_990..]);
    // Replaced (as a build does): the new bytes, never the old ETag with them.
    let first_etag = answer.header("etag").to_owned();
    let mut other = big.clone();
    other[0] = 255;
    replace(&site, "audio/long.mp3", &other);
    let again = site.get("/audio/long.mp3").await;
    assert_eq!(again.body, other);
    assert_ne!(again.header("etag"), first_etag);
}

#[tokio::test]
async fn health_answers_ok() {
    let site = TestSite::new();
    let answer = site.get("/__health").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.text(), "ok\n");
    assert_eq!(answer.header("cache-control"), "no-store");
}
