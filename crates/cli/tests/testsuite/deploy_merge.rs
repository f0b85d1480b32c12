//! `stillpoint deploy --merge SHARD_DIST...` against a real S3 server (moto), read back with an
//! independent client (boto3): three shards merged publish exactly what the whole build
//! publishes; a second merge uploads nothing; shards that disagree or are incomplete are refused.

use std::collections::BTreeMap;
use std::process::{Command, Output};

use crate::s3::{Object, S3};
use crate::util::{SiteTest, stderr};

const MANIFEST: &str = ".stillpoint/deploy-manifest.json";

/// `stillpoint ARGS` in the site's temporary directory with only the test server's credentials.
fn run(t: &SiteTest, s3: &S3, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_stillpoint"));
    cmd.args(args).current_dir(t.tmp.path()).env("HOME", t.tmp.path());
    for (k, _) in std::env::vars() {
        if k.starts_with("AWS_") {
            cmd.env_remove(k);
        }
    }
    cmd.envs(s3.env()).output().unwrap()
}

fn ok(t: &SiteTest, s3: &S3, args: &[&str]) -> String {
    let out = run(t, s3, args);
    assert!(out.status.success(), "{args:?} failed:\n{}", stderr(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// What a visitor gets from each object: bytes and headers, not when it was written.
fn published(s3: &S3, bucket: &str) -> BTreeMap<String, Object> {
    s3.dump(bucket)
        .into_iter()
        .filter(|(k, _)| k != MANIFEST)
        .map(|(k, o)| (k, Object { last_modified: String::new(), ..o }))
        .collect()
}

/// The demo site (fifty articles over three shards), built whole and as shards 0/3, 1/3, 2/3.
fn setup() -> Option<(SiteTest, S3)> {
    let s3 = S3::start()?;
    s3.create_buckets(&["whole", "merged"]);
    let t = SiteTest::demo();
    let build = |args: &[&str]| {
        let out = t.run(&[&["build", "site"], args].concat());
        assert!(out.status.success(), "build {args:?}:\n{}", stderr(&out));
    };
    build(&["--out", "dist"]);
    for i in 0..3 {
        build(&["--out", &format!("shard-{i}"), "--shard", &format!("{i}/3")]);
    }
    Some((t, s3))
}

const SHARDS: [&str; 3] = ["shard-0", "shard-1", "shard-2"];

#[test]
fn merging_three_shards_publishes_the_whole_build_and_again_uploads_nothing() {
    let Some((t, s3)) = setup() else { return };
    let gzip = ["--gzip", "*.html"];
    let whole = ok(&t, &s3, &[&["deploy", "dist", "--to", "s3://whole"], &gzip[..]].concat());
    let merge = [&["deploy", "--to", "s3://merged", "--merge"], &SHARDS[..], &gzip[..]].concat();
    let first = ok(&t, &s3, &merge);
    let want = published(&s3, "whole");
    assert!(
        want.contains_key("index.html") && want.contains_key("articles/the-noting-technique.html")
    );
    assert_eq!(published(&s3, "merged"), want, "{whole}\n{first}");
    let uploaded =
        |out: &str| out.split("uploaded ").nth(1).unwrap().split(' ').next().unwrap().to_string();
    assert_eq!(uploaded(&first), want.len().to_string(), "{first}");
    assert_eq!(uploaded(&first), uploaded(&whole));

    let objects = s3.dump("merged");
    let again = ok(&t, &s3, &merge);
    assert!(again.contains("uploaded 0 files") && again.contains("deleted 0,"), "{again}");
    assert_eq!(s3.dump("merged"), objects, "a merge with no change touched the bucket");

    // The whole build deployed over the merged bucket finds nothing to do either.
    let over = ok(&t, &s3, &["deploy", "dist", "--to", "s3://merged", "--gzip", "*.html"]);
    assert!(over.contains("uploaded 0 files") && over.contains("deleted 0,"), "{over}");
}

#[test]
fn shards_that_disagree_or_are_incomplete_are_refused() {
    let Some((t, s3)) = setup() else { return };
    let fail = |args: &[&str]| {
        let out = run(&t, &s3, args);
        assert_eq!(out.status.code(), Some(1), "{args:?} succeeded");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        err
    };
    let err = fail(&["deploy", "--to", "s3://merged", "--merge", "shard-0", "shard-2"]);
    assert!(err.contains("shard 1/3 missing"), "{err}");
    let err = fail(&["deploy", "--to", "s3://merged", "--merge", "shard-0", "shard-1", "shard-1"]);
    assert!(err.contains("are both shard 1/3"), "{err}");
    let err = fail(&["deploy", "--to", "s3://merged", "--merge", "dist", "shard-1", "shard-2"]);
    assert!(err.contains("dist: a whole build, not a shard"), "{err}");

    // Shard 1 carries a page of shard 0's with other bytes.
    let page = t.tmp.path().join("shard-1/index.html");
    std::fs::write(&page, "<p>not the home page</p>").unwrap();
    let err = fail(&["deploy", "--to", "s3://merged", "--merge", "shard-0", "shard-1", "shard-2"]);
    assert!(err.contains("index.html: ") && err.contains("different bytes"), "{err}");
    assert!(s3.dump("merged").is_empty(), "a refused merge wrote to the bucket");
    // The same bytes in two shards are fine.
    std::fs::copy(t.tmp.path().join("shard-0/index.html"), &page).unwrap();
    let out =
        ok(&t, &s3, &["deploy", "--to", "s3://merged", "--merge", "shard-0", "shard-1", "shard-2"]);
    assert!(out.contains("Deployed to s3://merged"), "{out}");

    // Several DISTs without --merge, or DIST with --merge, are usage errors.
    for args in [
        &["deploy", "shard-0", "shard-1"][..],
        &["deploy", "dist", "--merge", "shard-0"][..],
        &["deploy"][..],
    ] {
        assert_eq!(run(&t, &s3, args).status.code(), Some(2), "{args:?}");
    }
}
