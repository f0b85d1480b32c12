//! `stillpoint deploy` sets S3's `x-amz-website-redirect-location` on the page of each exact
//! redirect (aliases and `data/redirects.toml`), so S3 website hosting answers the old URL with a
//! 301; a changed target follows on the next deploy. Checked with boto3.

use crate::deploy::{BUCKET, MANIFEST, deploy};
use crate::s3::{self, S3};
use crate::util::{SiteTest, edit};

const REDIRECTS: &str = r#"[[redirect]]
from = "/blog/*"
to = "/articles/:splat"

[[redirect]]
from = "/guides/breathing.html"
to = "/articles/breathing"

[[redirect]]
from = "/shop"
to = "https://shop.example/"
"#;

fn location(s3: &S3, key: &str) -> Option<String> {
    s3::head(s3, BUCKET, key).0
}

#[test]
fn redirect_pages_carry_the_website_redirect_location_and_follow_their_target() {
    let Some(s3) = S3::start() else { return };
    s3.create_buckets(&[BUCKET]);
    let t = SiteTest::from_fixture("minimal");
    edit(
        &t,
        "articles/body-scan.md",
        "slug: body-scan\n",
        "slug: body-scan\naliases: [/old/path/]\n",
    );
    std::fs::write(t.site().join("data/redirects.toml"), REDIRECTS).unwrap();
    t.build();
    deploy(&t, &s3, &["--to", &format!("s3://{BUCKET}")]);

    assert_eq!(location(&s3, "old/path.html").as_deref(), Some("/articles/body-scan"));
    assert_eq!(location(&s3, "guides/breathing.html").as_deref(), Some("/articles/breathing"));
    assert_eq!(location(&s3, "shop.html").as_deref(), Some("https://shop.example/"));
    let (none, content_type, cache_control) = s3::head(&s3, BUCKET, "articles/body-scan.html");
    assert_eq!(none, None, "a page is no redirect");
    let (_, redirect_type, redirect_cache) = s3::head(&s3, BUCKET, "old/path.html");
    assert_eq!((redirect_type, redirect_cache), (content_type, cache_control));
    // The prefix redirect has no object: S3 cannot express it per object.
    assert!(!s3.dump(BUCKET).keys().any(|k| k.starts_with("blog")));
    let manifest: serde_json::Value =
        serde_json::from_slice(&s3::get(&s3, BUCKET, MANIFEST)).unwrap();
    assert_eq!(
        manifest["files"]["old/path.html"]["websiteRedirectLocation"],
        "/articles/body-scan"
    );
    assert!(manifest["files"]["index.html"].get("websiteRedirectLocation").is_none());

    // Nothing changed: nothing is uploaded again.
    let out = deploy(&t, &s3, &["--to", &format!("s3://{BUCKET}")]);
    assert!(out.contains("uploaded 0 files"), "{out}");

    // The alias moves to another article: its object now redirects there.
    edit(&t, "articles/body-scan.md", "aliases: [/old/path/]\n", "");
    edit(
        &t,
        "articles/breathing.md",
        "slug: breathing\n",
        "slug: breathing\naliases: [/old/path/]\n",
    );
    t.build();
    deploy(&t, &s3, &["--to", &format!("s3://{BUCKET}")]);
    assert_eq!(location(&s3, "old/path.html").as_deref(), Some("/articles/breathing"));
    assert_eq!(location(&s3, "shop.html").as_deref(), Some("https://shop.example/"));
}

#[test]
fn redirect_pages_under_a_prefix_are_signed_and_addressed_there() {
    let Some(s3) = S3::start() else { return };
    s3.create_buckets(&[BUCKET]);
    let t = SiteTest::from_fixture("minimal");
    std::fs::write(t.site().join("data/redirects.toml"), REDIRECTS).unwrap();
    t.build();
    deploy(&t, &s3, &["--to", &format!("s3://{BUCKET}/preview/x")]);
    assert_eq!(
        location(&s3, "preview/x/guides/breathing.html").as_deref(),
        Some("/articles/breathing")
    );
}
