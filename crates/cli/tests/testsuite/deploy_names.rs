//! File names as object keys and in the output, against a real S3 server (moto) read back with
//! boto3: a key is the file's path byte for byte (no percent-encoding), a name that cannot be a
//! key is refused with the reason, and names are printed escaped.

use std::collections::BTreeSet;

use crate::deploy::{BUCKET, MANIFEST, assert_bucket_is, deploy, deploy_env, setup, summary_count};
use crate::util::stderr;

#[test]
fn keys_are_the_file_paths_byte_for_byte() {
    let Some((t, s3)) = setup() else { return };
    let names = ["static/ü-ñ.txt", "a#b.txt", "100% sure?.txt", "q/[x]{y}~^`|<>\"\\'.txt"];
    for n in names {
        let p = t.out().join(n);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, n).unwrap();
    }
    deploy(&t, &s3, &[]);
    let bucket = s3.dump(BUCKET);
    assert_bucket_is(&bucket, &t.out(), &BTreeSet::new());
    for n in names {
        assert_eq!(crate::s3::get(&s3, BUCKET, n), n.as_bytes(), "{n}");
    }
    // Listing finds them under their names: nothing is uploaded again.
    let out = deploy(&t, &s3, &["--verify"]);
    assert_eq!(summary_count(&out, "uploaded"), 0, "{out}");
    for n in names {
        assert_eq!(s3.dump(BUCKET)[n], bucket[n], "{n} was uploaded again");
    }
}

#[test]
fn names_are_printed_escaped_and_control_characters_refused() {
    let Some((t, s3)) = setup() else { return };
    // Printable only to a terminal: a line separator, a C1 CSI and a right-to-left override.
    let sly = "static/a\u{2028}  delete  index.html\u{9b}2K\u{202e}txt.exe";
    std::fs::create_dir_all(t.out().join("static")).unwrap();
    std::fs::write(t.out().join(sly), "x").unwrap();
    let plan = deploy(&t, &s3, &["--dry-run"]);
    assert!(
        plan.contains(
            "  upload  static/a\\u{2028}  delete  index.html\\u{9b}2K\\u{202e}txt.exe (1 bytes)\n"
        ),
        "{plan}"
    );
    assert!(!plan.contains(['\u{2028}', '\u{9b}', '\u{202e}']), "{plan:?}");
    deploy(&t, &s3, &[]);
    assert_eq!(crate::s3::get(&s3, BUCKET, sly), b"x");

    // A newline or an ANSI escape cannot be a key: refused before any request, with the name
    // escaped in a one-line error.
    let before = s3.dump(BUCKET);
    std::fs::write(t.out().join("evil\n  delete  index.html"), "x").unwrap();
    std::fs::write(t.out().join("static/\u{1b}[2Kred"), "x").unwrap();
    for args in [&["--dry-run"][..], &[]] {
        let out = deploy_env(&t, &s3, args, &[]);
        let err = stderr(&out);
        assert!(!out.status.success() && err.lines().count() == 1, "{err:?}");
        assert!(
            err.starts_with("error: evil\\n  delete  index.html: cannot be an object key: the name holds the control character U+000A"),
            "{err:?}"
        );
    }
    std::fs::remove_file(t.out().join("evil\n  delete  index.html")).unwrap();
    let out = deploy_env(&t, &s3, &[], &[]);
    let err = stderr(&out);
    assert!(err.starts_with("error: static/\\u{1b}[2Kred: cannot be an object key"), "{err:?}");
    assert_eq!(s3.dump(BUCKET), before);
}

/// A bucket published by a deploy that percent-encoded keys (manifest format 1) is repaired by
/// the next deploy: the files are uploaded under their names, and the encoded objects, which
/// that manifest recorded, are deleted.
#[test]
fn a_bucket_with_percent_encoded_keys_is_repaired() {
    let Some((t, s3)) = setup() else { return };
    let names = [("static/ü-ñ.txt", "static/%C3%BC-%C3%B1.txt"), ("a#b.txt", "a%23b.txt")];
    for (n, _) in names {
        let p = t.out().join(n);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, n).unwrap();
    }
    deploy(&t, &s3, &[]);
    // What the earlier deploys left: the encoded keys, and a format 1 manifest of the paths.
    for (n, encoded) in names {
        crate::s3::put(&s3, BUCKET, encoded, n.as_bytes());
        crate::s3::delete(&s3, BUCKET, n);
    }
    let mut m: serde_json::Value =
        serde_json::from_slice(&crate::s3::get(&s3, BUCKET, MANIFEST)).unwrap();
    m["format"] = 1.into();
    crate::s3::put(&s3, BUCKET, MANIFEST, &serde_json::to_vec(&m).unwrap());

    let out = deploy(&t, &s3, &[]);
    assert_eq!((summary_count(&out, "uploaded"), summary_count(&out, "deleted")), (2, 2), "{out}");
    assert_bucket_is(&s3.dump(BUCKET), &t.out(), &BTreeSet::new());
}
