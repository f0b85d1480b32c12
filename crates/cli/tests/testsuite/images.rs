//! Images of the site: page bundles, references checked like links, pictures with their real
//! size, `og:image` as an absolute URL, and a replaced image rewriting only the pages that show
//! it (with `--verify`: the output equals a clean build).

use std::collections::{BTreeMap, BTreeSet};

use crate::util::{SiteTest, between, png, stderr, tree};

/// The minimal fixture with `body-scan` moved into a page bundle with a cover and a body image.
fn bundled() -> SiteTest {
    let t = SiteTest::from_fixture("minimal");
    let articles = t.site().join("articles");
    let bundle = articles.join("sleep/body-scan");
    std::fs::create_dir_all(bundle.join("steps")).unwrap();
    let text = std::fs::read_to_string(articles.join("body-scan.md")).unwrap();
    let text = text.replacen("slug:", "image: cover.png\nimage_alt: A still lake\nslug:", 1)
        + "\n![Lying down](steps/1.png)\n";
    std::fs::write(bundle.join("index.md"), text).unwrap();
    std::fs::remove_file(articles.join("body-scan.md")).unwrap();
    std::fs::write(bundle.join("cover.png"), png(2400, 1600)).unwrap();
    std::fs::write(bundle.join("steps/1.png"), png(800, 600)).unwrap();
    std::fs::write(bundle.join("notes.md"), "Not an article: a file of the bundle.").unwrap();
    t
}

fn snapshot(t: &SiteTest) -> BTreeMap<String, Vec<u8>> {
    tree(&t.out()).into_iter().collect()
}

fn diff(before: &BTreeMap<String, Vec<u8>>, after: &BTreeMap<String, Vec<u8>>) -> BTreeSet<String> {
    let mut out: BTreeSet<String> =
        after.iter().filter(|(k, v)| before.get(*k) != Some(v)).map(|(k, _)| k.clone()).collect();
    out.extend(before.keys().filter(|k| !after.contains_key(*k)).cloned());
    out
}

fn build_verified(t: &SiteTest) -> String {
    let out = t.run(&["build", "site", "--out", "dist", "--verify"]);
    let err = stderr(&out);
    assert!(out.status.success(), "build --verify failed:\n{err}");
    err
}

#[test]
fn a_page_bundle_publishes_its_images_as_pictures_with_their_size() {
    let t = bundled();
    t.build();
    let html = t.read("articles/body-scan.html");
    let media: Vec<String> = std::fs::read_dir(t.out().join("media"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    // Two images (the cover and the body image), each in renditions named by its key.
    let keys: BTreeSet<&str> = media.iter().map(|m| &m[..16]).collect();
    assert_eq!(keys.len(), 2, "the cover and the body image: {media:?}");
    for ext in ["avif", "webp", "png", "jpg"] {
        assert!(media.iter().any(|m| m.ends_with(ext)), "{ext}: {media:?}");
    }
    assert!(
        !t.out().join("articles/sleep").exists(),
        "a bundle's files are not copied as they are"
    );
    let body = html
        .split("<picture>")
        .find(|p| p.contains("Lying down"))
        .and_then(|p| p.split("</picture>").next())
        .expect("a body picture");
    assert!(
        body.contains(r#"<source type="image/avif" srcSet="/media/"#)
            || body.contains(r#"<source type="image/avif" srcset="/media/"#),
        "{body}"
    );
    assert!(body.contains(r#"width="800" height="600" alt="Lying down" loading="lazy""#), "{body}");
    let og = between(&html, "<meta property=\"og:image\" content=\"", "\"").unwrap();
    let origin = std::fs::read_to_string(t.site().join("stillpoint.toml")).unwrap();
    let origin = between(&origin, "url = \"", "\"").unwrap().to_string();
    assert!(
        og.starts_with(&format!("{origin}/media/")) && og.ends_with("-share-1200.jpg")
            || og.ends_with("-1200.jpg"),
        "{og}"
    );
    let data = t.read("page-data/articles/body-scan/page-data.json");
    assert!(data.contains(r#""alt":"A still lake""#), "{data}");
    assert!(data.contains(r#""width":2400,"height":1600"#), "{data}");
}

/// The renditions in the output are the image cache's files, shared as hard links where both are
/// on one file system (a build that finds its images in the cache writes no image bytes), and
/// read-only either way, so nothing changes the cache through the output.
#[cfg(unix)]
#[test]
fn renditions_are_shared_with_the_image_cache_and_read_only() {
    use std::os::unix::fs::MetadataExt;
    let t = bundled();
    t.build();
    let cache = crate::util::image_cache();
    let mut shared = 0;
    for entry in std::fs::read_dir(t.out().join("media")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let published = std::fs::metadata(entry.path()).unwrap();
        assert!(published.permissions().readonly(), "{name} is writable");
        let cached = std::fs::metadata(cache.join(&name[..2]).join(&name)).unwrap();
        assert_eq!(std::fs::read(entry.path()).unwrap().len() as u64, cached.len(), "{name}");
        if published.dev() == cached.dev() {
            assert_eq!(published.ino(), cached.ino(), "{name} is a copy, not the cache's file");
            shared += 1;
        }
    }
    let same_device =
        std::fs::metadata(&cache).unwrap().dev() == std::fs::metadata(t.out()).unwrap().dev();
    assert!(!same_device || shared > 0, "no rendition shared with the cache");
}

#[test]
fn a_missing_image_fails_check_at_its_line_with_the_nearest_name() {
    let t = bundled();
    std::fs::rename(
        t.site().join("articles/sleep/body-scan/cover.png"),
        t.site().join("articles/sleep/body-scan/cover.jpeg"),
    )
    .unwrap();
    let out = t.run(&["check", "site", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let e = &doc["errors"][0];
    assert_eq!(e["file"], "articles/sleep/body-scan/index.md", "{doc:#}");
    assert_eq!(
        (e["line"].as_u64(), e["kind"].as_str()),
        (Some(3), Some("missing_image")),
        "{doc:#}"
    );
    let text = doc.to_string();
    assert!(text.contains("did you mean `articles/sleep/body-scan/cover.jpeg`?"), "{doc:#}");
}

#[test]
fn a_replaced_image_rewrites_only_the_pages_that_show_it() {
    let t = bundled();
    t.build();
    let err = stderr(&t.build());
    assert!(err.contains("rendered 0, 0 files changed, 0 removed"), "{err}");

    // The body image: the article's HTML and the new and old renditions, nothing else.
    let before = snapshot(&t);
    std::fs::write(t.site().join("articles/sleep/body-scan/steps/1.png"), png(640, 480)).unwrap();
    build_verified(&t);
    let touched = diff(&before, &snapshot(&t));
    let pages: Vec<&String> = touched.iter().filter(|p| !p.starts_with("media/")).collect();
    assert_eq!(pages, ["articles/body-scan.html"], "{touched:?}");
    assert!(touched.iter().any(|p| p.starts_with("media/")), "its renditions: {touched:?}");

    // The cover: the article and every page that shows its card.
    let before = snapshot(&t);
    std::fs::write(t.site().join("articles/sleep/body-scan/cover.png"), png(1600, 900)).unwrap();
    build_verified(&t);
    let touched = diff(&before, &snapshot(&t));
    assert!(touched.contains("page-data/articles/body-scan/page-data.json"), "{touched:?}");
    assert!(
        touched.contains("page-data/index/page-data.json"),
        "the home page shows its card: {touched:?}"
    );
    assert!(!touched.iter().any(|p| p.starts_with("articles/breathing")), "{touched:?}");
}

/// A PNG chunk with its checksum.
fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in kind.iter().chain(data) {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&(!crc).to_be_bytes());
    out
}

/// A decompression bomb's header: 20,000 × 20,000 RGB pixels declared, a few bytes of data.
fn bomb_png() -> Vec<u8> {
    let mut ihdr = 20_000u32.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&20_000u32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(png_chunk(b"IHDR", &ihdr));
    out.extend(png_chunk(b"IDAT", &[0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0, 0, 0, 1]));
    out.extend(png_chunk(b"IEND", &[]));
    out
}

/// A 2×2 BMP, a format the pipeline does not read.
fn bmp() -> Vec<u8> {
    let mut out = b"BM".to_vec();
    out.extend_from_slice(&70u32.to_le_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&54u32.to_le_bytes());
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(&2i32.to_le_bytes());
    out.extend_from_slice(&2i32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&24u16.to_le_bytes());
    out.extend_from_slice(&[0; 24]);
    out.extend_from_slice(&[255; 16]);
    out
}

fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let pixels = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x * 7 % 256) as u8, (y * 5 % 256) as u8, ((x ^ y) % 256) as u8])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    pixels.write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

/// A two-frame GIF (red, then blue).
fn animated_gif() -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = image::codecs::gif::GifEncoder::new(&mut out);
        let frames = [[200u8, 30, 30, 255], [30, 30, 200, 255]]
            .into_iter()
            .map(|c| image::Frame::new(image::RgbaImage::from_pixel(48, 32, image::Rgba(c))));
        encoder.encode_frames(frames).unwrap();
    }
    out
}

const ARTICLE: &str = "articles/body-scan.md";

/// Adds a body image `static/images/{name}` (of `bytes`) at the end of the article: its line.
fn add_body_image(t: &SiteTest, name: &str, bytes: &[u8]) -> usize {
    let dir = t.site().join("static/images");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), bytes).unwrap();
    let path = t.site().join(ARTICLE);
    let text =
        std::fs::read_to_string(&path).unwrap() + &format!("\n![A picture](/images/{name})\n");
    std::fs::write(&path, &text).unwrap();
    text.lines().position(|l| l.contains(name)).unwrap() + 1
}

#[test]
fn a_bad_image_fails_the_build_naming_it_and_its_line_and_keeps_the_output() {
    let t = SiteTest::from_fixture("minimal");
    t.build();
    let before = tree(&t.out());
    let original = std::fs::read_to_string(t.site().join(ARTICLE)).unwrap();
    let mut corrupt = png(64, 48);
    let idat = corrupt.windows(4).position(|w| w == b"IDAT").unwrap();
    for b in &mut corrupt[idat + 8..idat + 40] {
        *b ^= 0x5A;
    }
    let half_png = png(64, 48)[..png(64, 48).len() / 2].to_vec();
    let whole_jpeg = jpeg(64, 48);
    let half_jpeg = whole_jpeg[..whole_jpeg.len() / 2].to_vec();
    // (file, bytes, what the message says, whether the header tells: `check` finds it too)
    let cases: [(&str, Vec<u8>, &str, bool); 6] = [
        ("corrupt.png", corrupt, "cannot decode the image", false),
        ("half.png", half_png, "cannot decode the image", false),
        ("half.jpg", half_jpeg, "truncated", false),
        ("bomb.png", bomb_png(), "image of 20000×20000 pixels is larger than the limit", true),
        ("notes.jpg", b"Meeting notes: breathe in.\n".to_vec(), "not an image", true),
        ("scan.bmp", bmp(), "unsupported image format BMP", true),
    ];
    for (name, bytes, says, in_header) in cases {
        let line = add_body_image(&t, name, &bytes);
        let at = format!("{ARTICLE}:{line}:1");
        let out =
            t.run_bounded(&["build", "site", "--out", "dist"], std::time::Duration::from_secs(120));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains(&format!("static/images/{name}")), "{name}: {err}");
        assert!(err.contains(&at), "{name} at {at}: {err}");
        assert!(err.contains(says), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert!(before == tree(&t.out()), "{name}: the previous output changed");

        let out = t.run(&["check", "site"]);
        let err = stderr(&out);
        if in_header {
            assert_eq!(out.status.code(), Some(1), "{name}: {err}");
            assert!(err.contains(&format!("static/images/{name}")), "{name}: {err}");
            assert!(err.contains(&at), "{name} at {at}: {err}");
            assert!(err.contains(says), "{name}: {err}");
        }
        assert!(!err.contains("panicked"), "{name}: {err}");

        std::fs::write(t.site().join(ARTICLE), &original).unwrap();
        std::fs::remove_file(t.site().join("static/images").join(name)).unwrap();
    }
}

#[test]
fn an_animated_gif_builds_with_a_warning_at_its_line() {
    let t = SiteTest::from_fixture("minimal");
    let line = add_body_image(&t, "loop.gif", &animated_gif());
    let out = t.build();
    let err = stderr(&out);
    let at = format!("{ARTICLE}:{line}:1");
    assert!(
        err.contains("`static/images/loop.gif` is animated: only the first frame is shown"),
        "{err}"
    );
    assert!(err.contains(&at), "{err}");
    let html = t.read("articles/body-scan.html");
    assert!(html.contains(r#"width="48" height="32" alt="A picture""#), "{html}");

    let out = t.run(&["check", "site", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let warning = doc["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["kind"] == "animated_image")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert_eq!(warning["file"], ARTICLE, "{doc:#}");
    assert_eq!(warning["line"].as_u64(), Some(line as u64), "{doc:#}");
}

/// The play button's content in the article's HTML: the poster's markup.
fn poster_markup(html: &str, video: &str) -> String {
    let figure = html
        .split("<figure class=\"embed embed-video\"")
        .find(|f| f.contains(video))
        .unwrap_or_else(|| panic!("no facade of {video}: {html}"));
    between(figure, "aria-label=", "<span class=\"embed-icon\"").unwrap().to_string()
}

#[test]
fn an_embed_poster_goes_through_the_pipeline_and_its_change_re_renders_the_article() {
    let t = SiteTest::from_fixture("minimal");
    let articles = t.site().join("articles");
    std::fs::write(articles.join("rain-poster.png"), png(1600, 900)).unwrap();
    std::fs::write(
        articles.join("tide.svg"),
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><rect width="640" height="360"/></svg>"#,
    )
    .unwrap();
    let path = t.site().join(ARTICLE);
    let text = std::fs::read_to_string(&path).unwrap()
        + "\n::youtube[Rain]{id=dQw4w9WgXcQ poster=rain-poster.png}\n\n::vimeo[Tide]{id=76979871 poster=tide.svg}\n";
    std::fs::write(&path, text).unwrap();
    build_verified(&t);
    let html = t.read("articles/body-scan.html");
    let rain = poster_markup(&html, "dQw4w9WgXcQ");
    assert!(rain.contains("<picture><source type=\"image/avif\""), "{rain}");
    assert!(rain.contains(r#"width="1600" height="900" alt="""#), "{rain}");
    assert!(rain.contains(r#"loading="lazy""#) && rain.contains("background:#"), "{rain}");
    assert!(rain.contains(r#"sizes="(min-width:577px) 540px,96vw""#), "the body's sizes: {rain}");
    let tide = poster_markup(&html, "76979871");
    assert!(!tide.contains("<picture>"), "an SVG poster is a plain <img>: {tide}");
    assert!(tide.contains(r#".svg" width="640" height="360" alt="""#), "{tide}");
    let media: Vec<String> = std::fs::read_dir(t.out().join("media"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !media.iter().any(|m| m.ends_with(".png") && m.contains("poster")),
        "the poster itself is not published, only its renditions: {media:?}"
    );
    let src = between(&rain, "<img src=\"/media/", "\"").unwrap();
    assert!(media.iter().any(|m| m == src), "{src}: {media:?}");

    // A new poster: the article is rendered again, and incremental equals clean.
    let before = snapshot(&t);
    std::fs::write(articles.join("rain-poster.png"), png(1200, 800)).unwrap();
    build_verified(&t);
    let touched = diff(&before, &snapshot(&t));
    assert!(touched.contains("articles/body-scan.html"), "{touched:?}");
    let rain = poster_markup(&t.read("articles/body-scan.html"), "dQw4w9WgXcQ");
    assert!(rain.contains(r#"width="1200" height="800""#), "{rain}");
}

#[test]
fn a_bad_embed_poster_fails_the_build_at_the_embed_line() {
    let t = SiteTest::from_fixture("minimal");
    std::fs::write(t.site().join("articles/rain.jpg"), b"not a picture").unwrap();
    let path = t.site().join(ARTICLE);
    let text = std::fs::read_to_string(&path).unwrap()
        + "\n::youtube[Rain]{id=dQw4w9WgXcQ poster=rain.jpg}\n";
    std::fs::write(&path, &text).unwrap();
    let line = text.lines().position(|l| l.contains("::youtube")).unwrap() + 1;
    let out = t.run(&["build", "site", "--out", "dist"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("articles/rain.jpg: not an image"), "{err}");
    assert!(err.contains(&format!("{ARTICLE}:{line}:1")), "{err}");
}

/// A photograph the pages show is published as its renditions only: its original under
/// `static/` (with whatever metadata it carries, GPS positions included) is not copied, a file
/// no page shows as an image still is, and a link to the original is a broken link that says why.
#[test]
fn a_shown_photograph_is_published_as_its_renditions_not_as_its_original() {
    let t = SiteTest::from_fixture("minimal");
    add_body_image(&t, "lake.jpg", &jpeg(640, 480));
    std::fs::write(t.site().join("static/images/unshown.jpg"), jpeg(64, 48)).unwrap();
    t.build();
    assert!(!t.out().join("images/lake.jpg").exists(), "the original is not published");
    assert!(t.out().join("images/unshown.jpg").is_file(), "a file no page shows is copied");
    assert!(t.read("articles/body-scan.html").contains("srcset=\"/media/"));

    // A file no page showed becomes a picture: the next build leaves its original out, as a
    // clean build would (`--verify`).
    add_body_image(&t, "unshown.jpg", &jpeg(64, 48));
    build_verified(&t);
    assert!(!t.out().join("images/unshown.jpg").exists(), "shown now: not published as it is");

    let path = t.site().join(ARTICLE);
    let text =
        std::fs::read_to_string(&path).unwrap() + "\nThe [whole photograph](/images/lake.jpg).\n";
    std::fs::write(&path, text).unwrap();
    let out = t.run(&["check", "site"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("/images/lake.jpg") && err.contains("renditions under /media/"), "{err}");
}
