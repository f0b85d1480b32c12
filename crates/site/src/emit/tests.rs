use super::*;

#[test]
fn digest_is_stable_and_length_prefixed() {
    assert_eq!(digest([b"ab".as_slice(), b"c"]), digest([b"ab".as_slice(), b"c"]));
    assert_ne!(digest([b"ab".as_slice(), b"c"]), digest([b"a".as_slice(), b"bc"]));
    assert_eq!(digest([b"x".as_slice()]).len(), 20);
}

#[test]
fn an_output_kept_open_follows_its_builds_and_notices_a_change_from_outside() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dist");
    let mut output = Output::open(&dest).unwrap();
    let build = |output: &mut Output, b: &str| {
        let update = output.begin();
        update.put("a.txt", b"a").unwrap();
        update.put("b.txt", b.as_bytes()).unwrap();
        update.commit().unwrap()
    };
    build(&mut output, "1");
    assert!(output.is_as_left(&dest));
    let (same, changed) = build(&mut output, "1");
    assert_eq!((same.changed, same.written, changed.len()), (0, 0, 0));
    let (stats, changed) = build(&mut output, "2");
    assert_eq!((stats.changed, stats.unchanged, stats.written), (1, 1, 1));
    assert_eq!(changed, ["b.txt"]);
    assert_eq!(std::fs::read_to_string(dest.join("b.txt")).unwrap(), "2");
    assert!(output.is_as_left(&dest));
    assert!(!output.is_as_left(&dir.path().join("elsewhere")));

    // Removed by hand: no longer as the last build left it.
    std::fs::remove_file(&dest).unwrap();
    assert!(!output.is_as_left(&dest));
}
