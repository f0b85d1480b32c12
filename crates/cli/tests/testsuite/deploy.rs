//! `stillpoint deploy` against a real S3 server (moto), checked with an independent client
//! (boto3): what is uploaded, with which headers, in which order, and what is deleted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Output};

use crate::s3::{Object, S3};
use crate::util::{SiteTest, stderr};

pub const BUCKET: &str = "calm-site";
pub const MANIFEST: &str = ".stillpoint/deploy-manifest.json";
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "public, max-age=0, must-revalidate";

/// The minimal site, built, and a server with the site's production and dev buckets.
pub fn setup() -> Option<(SiteTest, S3)> {
    let s3 = S3::start()?;
    s3.create_buckets(&[BUCKET, "calm-site-dev"]);
    let t = SiteTest::from_fixture("minimal");
    t.build();
    Some((t, s3))
}

/// `stillpoint deploy dist ARGS` with only the test server's credentials in the environment.
pub fn deploy_env(t: &SiteTest, s3: &S3, args: &[&str], extra: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_stillpoint"));
    cmd.arg("deploy").arg("dist").args(args).current_dir(t.tmp.path()).env("HOME", t.tmp.path());
    for (k, _) in std::env::vars() {
        if k.starts_with("AWS_") {
            cmd.env_remove(k);
        }
    }
    cmd.env_remove("STILLPOINT_ENV");
    for (k, v) in s3.env() {
        cmd.env(k, v);
    }
    for (k, v) in extra {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

pub fn deploy(t: &SiteTest, s3: &S3, args: &[&str]) -> String {
    let out = deploy_env(t, s3, args, &[]);
    assert!(out.status.success(), "deploy {args:?} failed:\n{}", stderr(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// (relative path → sha256) of every file of DIST that is published.
pub fn dist_files(dist: &Path) -> BTreeMap<String, String> {
    use sha2::Digest;
    crate::util::walk(dist)
        .into_iter()
        .map(|p| p.strip_prefix(dist).unwrap().display().to_string())
        .filter(|k| !k.starts_with(".stillpoint/"))
        .map(|k| {
            let sha = hex::encode(sha2::Sha256::digest(std::fs::read(dist.join(&k)).unwrap()));
            (k, sha)
        })
        .collect()
}

/// The bucket holds exactly DIST, byte for byte, plus the manifest and `kept` (superseded
/// hashed files).
pub fn assert_bucket_is(bucket: &BTreeMap<String, Object>, dist: &Path, kept: &BTreeSet<String>) {
    let want = dist_files(dist);
    for (k, sha) in &want {
        let got = bucket.get(k).unwrap_or_else(|| panic!("{k} missing from the bucket"));
        assert_eq!(&got.sha256, sha, "{k} differs");
    }
    let extra: BTreeSet<String> =
        bucket.keys().filter(|k| !want.contains_key(*k) && *k != MANIFEST).cloned().collect();
    assert_eq!(&extra, kept, "objects beyond DIST");
}

fn superseded(s3: &S3, bucket: &str) -> BTreeSet<String> {
    let body = crate::s3::get(s3, bucket, MANIFEST);
    let m: serde_json::Value = serde_json::from_slice(&body).unwrap();
    m["superseded"].as_object().unwrap().keys().cloned().collect()
}

/// Paths whose bytes differ between two builds (or exist in only one).
fn changed(a: &BTreeMap<String, String>, b: &BTreeMap<String, String>) -> BTreeSet<String> {
    b.iter().filter(|(k, v)| a.get(*k) != Some(*v)).map(|(k, _)| k.clone()).collect()
}

pub fn summary_count(stdout: &str, word: &str) -> usize {
    let after = stdout.split(word).nth(1).unwrap_or_else(|| panic!("no {word:?} in {stdout}"));
    after.split_whitespace().next().unwrap().trim_end_matches(',').parse().unwrap()
}

#[test]
fn first_unchanged_edited_and_removed_article() {
    let Some((t, s3)) = setup() else { return };
    let v1 = dist_files(&t.out());
    let out = deploy(&t, &s3, &[]);
    assert_eq!(summary_count(&out, "uploaded"), v1.len(), "{out}");
    assert!(out.contains("Deployed to s3://calm-site"), "{out}");
    let first = s3.dump(BUCKET);
    assert_bucket_is(&first, &t.out(), &BTreeSet::new());

    // Nothing changed: one GET of the manifest and one HEAD, no upload, no object touched.
    let out = deploy(&t, &s3, &[]);
    assert!(out.contains("uploaded 0 files"), "{out}");
    assert!(out.contains("deleted 0,") && out.contains(", 2 requests"), "{out}");
    assert_eq!(s3.dump(BUCKET), first);

    // Edit one article: the dry run lists exactly the files the build changed, and changes
    // nothing; the deploy uploads exactly those.
    let article = t.site().join("articles/body-scan.md");
    let text = std::fs::read_to_string(&article).unwrap();
    std::fs::write(&article, text.replace("Breathe slowly.", "Breathe slowly and softly."))
        .unwrap();
    t.build();
    let v2 = dist_files(&t.out());
    let edited = changed(&v1, &v2);
    assert!(edited.contains("articles/body-scan.html"), "{edited:?}");
    assert!(!edited.contains("articles/breathing.html"), "{edited:?}");
    let plan = deploy(&t, &s3, &["--dry-run"]);
    let planned: BTreeSet<String> = plan
        .lines()
        .filter_map(|l| l.trim().strip_prefix("upload  "))
        .map(|l| l.split(" (").next().unwrap().to_string())
        .collect();
    assert_eq!(planned, edited, "{plan}");
    assert!(plan.contains("nothing changed"), "{plan}");
    assert_eq!(s3.dump(BUCKET), first, "--dry-run changed the bucket");
    let out = deploy(&t, &s3, &[]);
    assert_eq!(summary_count(&out, "uploaded"), edited.len(), "{out}");
    let second = s3.dump(BUCKET);
    // Hashed files the edit replaced (search index pieces) stay one deploy longer.
    let gone_hashed: BTreeSet<String> = v1
        .keys()
        .filter(|k| !v2.contains_key(*k) && stillpoint_deploy::kind::is_hashed(k))
        .cloned()
        .collect();
    assert_eq!(superseded(&s3, BUCKET), gone_hashed);
    assert_bucket_is(&second, &t.out(), &gone_hashed);
    for k in v1.keys().filter(|k| !edited.contains(*k) && v2.contains_key(*k)) {
        assert_eq!(second[k].last_modified, first[k].last_modified, "{k} was re-uploaded");
    }

    // Remove an article: its pages are deleted, and the hashed files superseded last time go.
    std::fs::remove_file(t.site().join("articles/untagged.md")).unwrap();
    t.build();
    let v3 = dist_files(&t.out());
    let out = deploy(&t, &s3, &[]);
    let third = s3.dump(BUCKET);
    assert!(!third.contains_key("articles/rest-without-guilt.html"));
    assert!(second.contains_key("articles/rest-without-guilt.html"));
    let kept: BTreeSet<String> = v2
        .keys()
        .filter(|k| !v3.contains_key(*k) && stillpoint_deploy::kind::is_hashed(k))
        .cloned()
        .collect();
    assert_bucket_is(&third, &t.out(), &kept);
    assert!(gone_hashed.iter().all(|k| !third.contains_key(k) || v3.contains_key(k)), "{out}");
}

#[test]
fn metadata_of_each_file_kind_and_the_dev_bucket() {
    let Some((t, s3)) = setup() else { return };
    let built = t.run(&["build", "site", "--out", "dist", "--env", "dev"]);
    assert!(built.status.success(), "{}", stderr(&built));
    deploy(&t, &s3, &["--dev"]);
    assert!(s3.dump(BUCKET).is_empty(), "--dev wrote to the production bucket");
    let b = s3.dump("calm-site-dev");
    assert_bucket_is(&b, &t.out(), &BTreeSet::new());
    let check = |pred: &dyn Fn(&str) -> bool, ct: &str, cc: &str| {
        let keys: Vec<_> = b.keys().filter(|k| pred(k)).collect();
        assert!(!keys.is_empty(), "no file for {ct}");
        for k in keys {
            assert_eq!(b[k].content_type.as_deref(), Some(ct), "{k}");
            assert_eq!(b[k].cache_control.as_deref(), Some(cc), "{k}");
            assert_eq!(b[k].content_encoding, None, "{k}");
        }
    };
    let html = "text/html; charset=utf-8";
    check(&|k| k.ends_with(".html"), html, REVALIDATE);
    check(
        &|k| k.starts_with("assets/") && k.ends_with(".js"),
        "text/javascript; charset=utf-8",
        IMMUTABLE,
    );
    check(
        &|k| k.starts_with("assets/") && k.ends_with(".css"),
        "text/css; charset=utf-8",
        IMMUTABLE,
    );
    check(
        &|k| k.starts_with("search/") && k.ends_with(".bin"),
        "application/octet-stream",
        IMMUTABLE,
    );
    check(&|k| k.starts_with("page-data/sq/"), "application/json", IMMUTABLE);
    check(
        &|k| k.ends_with("page-data.json") || k.starts_with("slice-data/"),
        "application/json",
        REVALIDATE,
    );
    check(&|k| k == "page-data/app-data.json", "application/json", REVALIDATE);
    check(&|k| k == "sw.js", "text/javascript; charset=utf-8", REVALIDATE);
    check(&|k| k == "rss.xml", "application/rss+xml; charset=utf-8", REVALIDATE);
    check(&|k| k == "atom.xml", "application/atom+xml; charset=utf-8", REVALIDATE);
    check(&|k| k == "sitemap.xml", "application/xml; charset=utf-8", REVALIDATE);
    check(&|k| k.ends_with(".png"), "image/png", REVALIDATE);
    check(&|k| k == "robots.txt", "text/plain; charset=utf-8", REVALIDATE);
    let unknown: Vec<_> =
        b.iter().filter(|(_, o)| o.cache_control.is_none() || o.content_type.is_none()).collect();
    assert!(unknown.is_empty(), "{unknown:?}");

    // Gzip: a header-only change (Content-Encoding) is detected and uploads the matching files.
    let out = deploy(&t, &s3, &["--dev", "--gzip", "*.html"]);
    let htmls = b.keys().filter(|k| k.ends_with(".html")).count();
    assert_eq!(summary_count(&out, "uploaded"), htmls, "{out}");
    let g = s3.dump("calm-site-dev");
    let home = &g["index.html"];
    assert_eq!(home.content_encoding.as_deref(), Some("gzip"));
    let gz = crate::s3::get(&s3, "calm-site-dev", "index.html");
    let mut plain = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut plain).unwrap();
    assert_eq!(plain, std::fs::read(t.out().join("index.html")).unwrap());
}

#[test]
fn delete_cap_and_force() {
    let Some((t, s3)) = setup() else { return };
    deploy(&t, &s3, &[]);
    std::fs::remove_file(t.site().join("articles/untagged.md")).unwrap();
    t.build();
    let before = s3.dump(BUCKET);
    // The dry run shows the plan and says a deploy would refuse it; --site reads the bucket
    // from the site's stillpoint.toml.
    let plan = deploy(&t, &s3, &["--dry-run", "--max-deletes", "1", "--site", "site"]);
    assert!(plan.contains("Plan for s3://calm-site at http://127.0.0.1"), "{plan}");
    assert!(plan.contains("  delete  articles/rest-without-guilt.html"), "{plan}");
    assert!(plan.contains("would be refused without --force"), "{plan}");
    let out = deploy_env(&t, &s3, &["--max-deletes", "1"], &[]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.starts_with("error: refusing to delete") && err.lines().count() == 1, "{err}");
    assert_eq!(s3.dump(BUCKET), before);
    let out = deploy(&t, &s3, &["--max-deletes", "1", "--force"]);
    assert!(summary_count(&out, "deleted") >= 2, "{out}");
    assert_bucket_is(&s3.dump(BUCKET), &t.out(), &superseded(&s3, BUCKET));
}

#[test]
fn a_deploy_killed_half_way_keeps_the_site_and_a_rerun_completes_it() {
    let Some((t, s3)) = setup() else { return };
    deploy(&t, &s3, &[]);
    let first = s3.dump(BUCKET);
    std::fs::remove_file(t.site().join("articles/untagged.md")).unwrap();
    let article = t.site().join("articles/body-scan.md");
    let text = std::fs::read_to_string(&article).unwrap();
    std::fs::write(&article, text.replace("Done.", "Done, gently.")).unwrap();
    t.build();
    let args = ["--concurrency", "2"];
    let out = deploy_env(&t, &s3, &args, &[(stillpoint_deploy::ABORT_AFTER_ENV, "3")]);
    assert_eq!(out.status.code(), Some(75), "{}", stderr(&out));
    let half = s3.dump(BUCKET);
    // Nothing of the published site was deleted or lost its manifest; new objects came first
    // as hashed files, so every page still served finds what it references.
    assert_eq!(half[MANIFEST], first[MANIFEST]);
    assert!(first.keys().all(|k| half.contains_key(k)));
    let touched: Vec<_> =
        half.iter().filter(|(k, o)| first.get(*k) != Some(*o)).map(|(k, _)| k).collect();
    // The uploads in flight when the process died may have completed too: all of them new
    // content-hashed files, which no published page references yet.
    assert!((3..=4).contains(&touched.len()), "{touched:?}");
    for k in touched {
        assert!(stillpoint_deploy::kind::is_hashed(k) && !first.contains_key(k), "{k}");
    }
    let out = deploy(&t, &s3, &[]);
    assert!(out.contains("Deployed"), "{out}");
    assert_bucket_is(&s3.dump(BUCKET), &t.out(), &superseded(&s3, BUCKET));
    let again = deploy(&t, &s3, &[]);
    assert!(again.contains("uploaded 0 files"), "{again}");
}

#[test]
fn a_deploy_stopped_after_deleting_leaves_a_manifest_the_next_deploy_does_not_trust() {
    let Some((t, s3)) = setup() else { return };
    let notes = t.site().join("static/notes.txt");
    std::fs::create_dir_all(notes.parent().unwrap()).unwrap();
    std::fs::write(&notes, "breathe").unwrap();
    t.build();
    deploy(&t, &s3, &[]);
    let first = s3.dump(BUCKET);
    // A deploy whose only change is a deletion (the page data the manifest is checked against
    // stays the same), stopped after deleting.
    std::fs::remove_file(&notes).unwrap();
    t.build();
    let abort = [(stillpoint_deploy::ABORT_AFTER_ENV, stillpoint_deploy::ABORT_BEFORE_MANIFEST)];
    let out = deploy_env(&t, &s3, &[], &abort);
    assert_eq!(out.status.code(), Some(75), "{}", stderr(&out));
    let half = s3.dump(BUCKET);
    assert!(!half.contains_key("notes.txt"));
    assert_eq!(half["page-data/app-data.json"], first["page-data/app-data.json"]);
    // The file comes back: the next deploy must not take the bucket's word that it is there.
    std::fs::write(&notes, "breathe").unwrap();
    t.build();
    let out = deploy(&t, &s3, &[]);
    assert!(out.contains("state from listing"), "{out}");
    assert_bucket_is(&s3.dump(BUCKET), &t.out(), &superseded(&s3, BUCKET));
    let again = deploy(&t, &s3, &[]);
    assert!(again.contains("uploaded 0 files"), "{again}");
}

#[test]
fn a_lost_manifest_falls_back_to_listing() {
    let Some((t, s3)) = setup() else { return };
    deploy(&t, &s3, &[]);
    crate::s3::delete(&s3, BUCKET, MANIFEST);
    let out = deploy(&t, &s3, &["--dry-run"]);
    assert!(out.contains("state from listing") && out.contains("would upload 0 files"), "{out}");
    // An object changed behind the manifest's back is found by --verify.
    crate::s3::put(&s3, BUCKET, "index.html", b"tampered");
    deploy(&t, &s3, &[]);
    crate::s3::put(&s3, BUCKET, "index.html", b"tampered again");
    let out = deploy(&t, &s3, &["--verify"]);
    assert_eq!(summary_count(&out, "uploaded"), 1, "{out}");
    assert_bucket_is(&s3.dump(BUCKET), &t.out(), &BTreeSet::new());
}

#[test]
fn bad_input_is_one_clear_line() {
    let Some((t, s3)) = setup() else { return };
    let one_line = |out: &Output, want: &str| {
        assert!(!out.status.success());
        let err = stderr(out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "want {want:?} in {err}");
    };
    std::fs::create_dir_all(t.tmp.path().join("plain")).unwrap();
    let mut args = vec!["deploy", "plain"];
    let out = t.run(&args);
    one_line(&out, "plain is not a Stillpoint build");
    args[1] = "dist";
    let out = Command::new(env!("CARGO_BIN_EXE_stillpoint"))
        .args(&args)
        .current_dir(t.tmp.path())
        .env("HOME", t.tmp.path())
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env_remove("AWS_PROFILE")
        .output()
        .unwrap();
    one_line(&out, "no credentials for s3://calm-site");
    let out = deploy_env(&t, &s3, &["--to", "s3://no-such-bucket"], &[]);
    one_line(&out, &format!("bucket no-such-bucket does not exist at {}", s3.endpoint));
}
