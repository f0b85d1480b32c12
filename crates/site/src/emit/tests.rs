use super::*;

#[test]
fn digest_is_stable_and_length_prefixed() {
    assert_eq!(digest([b"ab".as_slice(), b"c"]), digest([b"ab".as_slice(), b"c"]));
    assert_ne!(digest([b"ab".as_slice(), b"c"]), digest([b"a".as_slice(), b"bc"]));
    assert_eq!(digest([b"x".as_slice()]).len(), 20);
}
