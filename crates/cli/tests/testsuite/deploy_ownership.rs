//! What a deploy may delete, against a real S3 server (moto) read back with boto3: only objects
//! a deploy manifest of this site recorded, every deletion counted against `--max-deletes`;
//! objects of a bucket without one only with `--prune`; a bucket holding another site's
//! manifest is refused unless `--force`.

use std::collections::BTreeSet;

use crate::deploy::{
    BUCKET, MANIFEST, assert_bucket_is, deploy, deploy_env, dist_files, setup, summary_count,
};
use crate::util::stderr;

/// A bucket shared with uploads of another tool, at hashed-looking paths, and no manifest: two
/// deploys delete none of them, whatever the cap. With `--prune` they become the site's
/// (superseded, as hashed files are), and their deletion one deploy later is 300 deletions,
/// refused over the cap of 256 until `--force`.
#[test]
fn objects_no_manifest_recorded_are_never_deleted_and_every_deletion_counts() {
    let Some((t, s3)) = setup() else { return };
    s3.create_buckets(&["shared-site"]);
    crate::s3::fill(&s3, "shared-site", "assets/user-upload-{}.png", 300);
    let uploads: BTreeSet<String> =
        (0..300).map(|i| format!("assets/user-upload-{i}.png")).collect();
    let to = ["--to", "s3://shared-site"];
    let mut outs = Vec::new();
    for _ in 0..2 {
        let out = deploy(&t, &s3, &to);
        assert_eq!(summary_count(&out, "deleted"), 0, "{out}");
        assert_bucket_is(&s3.dump("shared-site"), &t.out(), &uploads);
        outs.push(out);
    }
    // The first deploy lists the bucket and says what it kept; the second trusts the manifest
    // the first wrote, which records DIST only.
    assert!(outs[0].contains("note: 300 objects not in DIST were kept"), "{}", outs[0]);
    assert!(!outs[1].contains("note:"), "{}", outs[1]);

    let out = deploy(&t, &s3, &["--to", "s3://shared-site", "--prune"]);
    assert_eq!(summary_count(&out, "deleted"), 0, "hashed files are kept one deploy: {out}");
    let before = s3.dump("shared-site");
    assert_bucket_is(&before, &t.out(), &uploads);
    let plan = deploy(&t, &s3, &["--to", "s3://shared-site", "--dry-run"]);
    assert!(plan.contains("would upload 0 files (0.00 MB), delete 300,"), "{plan}");
    assert!(plan.contains("note: 300 deletions exceed --max-deletes 256"), "{plan}");
    let out = deploy_env(&t, &s3, &to, &[]);
    let err = stderr(&out);
    assert!(
        !out.status.success() && err.starts_with("error: refusing to delete 300 objects"),
        "{err}"
    );
    let said = String::from_utf8(out.stdout).unwrap();
    let header = format!("Deploying site calm to s3://shared-site at {}", s3.endpoint);
    assert!(said.starts_with(&header) && said.contains("300 objects to delete"), "{said}");
    assert_eq!(s3.dump("shared-site"), before, "a refused deploy changed the bucket");
    let out = deploy(&t, &s3, &["--to", "s3://shared-site", "--force"]);
    assert_eq!(summary_count(&out, "deleted"), 300, "{out}");
    assert_bucket_is(&s3.dump("shared-site"), &t.out(), &BTreeSet::new());
}

/// A first deploy to a bucket with no manifest (another site's files, a typo in `--to`) names
/// the bucket, endpoint and site before it changes anything, and deletes nothing it was not
/// told to: only `--prune` removes what DIST does not have.
#[test]
fn a_bucket_without_a_manifest_loses_nothing_without_prune() {
    let Some((t, s3)) = setup() else { return };
    for k in ["index.html", "notes.txt", "other/index.html"] {
        crate::s3::put(&s3, BUCKET, k, format!("someone else's {k}").as_bytes());
    }
    let out = deploy(&t, &s3, &[]);
    let header =
        format!("Deploying site calm to s3://calm-site at {} (state from listing)", s3.endpoint);
    assert!(out.lines().next().is_some_and(|l| l.starts_with(&header)), "{out}");
    assert_eq!(summary_count(&out, "deleted"), 0, "{out}");
    let theirs: BTreeSet<String> = ["notes.txt", "other/index.html"].map(String::from).into();
    assert_bucket_is(&s3.dump(BUCKET), &t.out(), &theirs);
    // The manifest now records the site; the objects it never recorded stay out of it.
    let again = deploy(&t, &s3, &["--verify"]);
    assert!(again.contains("uploaded 0 files") && again.contains("deleted 0,"), "{again}");

    let plan = deploy(&t, &s3, &["--dry-run", "--prune"]);
    assert!(plan.contains("(site calm, state from listing)"), "{plan}");
    assert!(
        plan.contains("  delete  notes.txt\n") && plan.contains("  delete  other/index.html\n"),
        "{plan}"
    );
    let out = deploy(&t, &s3, &["--prune"]);
    assert_eq!(summary_count(&out, "deleted"), 2, "{out}");
    assert_bucket_is(&s3.dump(BUCKET), &t.out(), &BTreeSet::new());
}

/// A bucket whose manifest names another site is refused before any change (a tampered or
/// foreign DIST, or a wrong `--to`); `--force` deploys over it but still deletes nothing that
/// manifest recorded.
#[test]
fn another_sites_bucket_is_refused() {
    let Some((t, s3)) = setup() else { return };
    deploy(&t, &s3, &[]);
    let mut m: serde_json::Value =
        serde_json::from_slice(&crate::s3::get(&s3, BUCKET, MANIFEST)).unwrap();
    m["site"] = "rain".into();
    let entry = m["files"]["robots.txt"].clone();
    m["files"]["rain.html"] = entry;
    crate::s3::put(&s3, BUCKET, "rain.html", b"rain");
    crate::s3::put(&s3, BUCKET, MANIFEST, &serde_json::to_vec(&m).unwrap());
    std::fs::remove_file(t.site().join("articles/untagged.md")).unwrap();
    t.build();
    let before = s3.dump(BUCKET);
    for args in [&[][..], &["--dry-run"], &["--prune"]] {
        let out = deploy_env(&t, &s3, args, &[]);
        let err = stderr(&out);
        assert!(!out.status.success() && err.lines().count() == 1, "{args:?}: {err}");
        let want = format!(
            "error: s3://calm-site at {} holds the deploy manifest of site rain, not calm",
            s3.endpoint
        );
        assert!(err.starts_with(&want), "{err}");
    }
    assert_eq!(s3.dump(BUCKET), before);

    let out = deploy(&t, &s3, &["--force"]);
    assert_eq!(summary_count(&out, "deleted"), 0, "{out}");
    let after = s3.dump(BUCKET);
    assert!(
        after.contains_key("rain.html") && after.contains_key("articles/rest-without-guilt.html")
    );
    let m: serde_json::Value =
        serde_json::from_slice(&crate::s3::get(&s3, BUCKET, MANIFEST)).unwrap();
    assert_eq!(m["site"], "calm");
    let files: BTreeSet<String> = m["files"].as_object().unwrap().keys().cloned().collect();
    assert_eq!(files, dist_files(&t.out()).into_keys().collect(), "the manifest records DIST only");
}
