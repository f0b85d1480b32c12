//! Byte-level mutations of corpus inputs, the way coverage fuzzers mutate: insert a token of the
//! target's dictionary or random bytes, delete, duplicate or overwrite a run, splice in part of
//! another seed. Positions and choices are numbers taken modulo what they pick from, so they shrink towards
//! the start of the input and the first token.

use proptest::prelude::*;

/// One edit of a byte string.
#[derive(Debug, Clone)]
pub enum Edit {
    /// Insert dictionary token `token` at `at`.
    Token { at: usize, token: usize },
    /// Insert these bytes at `at`.
    Bytes { at: usize, bytes: Vec<u8> },
    /// Remove up to `len` bytes from `at`.
    Delete { at: usize, len: usize },
    /// Repeat the run of up to `len` bytes at `at` right after it.
    Duplicate { at: usize, len: usize },
    /// Overwrite the byte at `at`.
    Set { at: usize, byte: u8 },
    /// Insert part of seed `seed` (from `from`, up to `len` bytes) at `at`.
    Splice { at: usize, seed: usize, from: usize, len: usize },
}

/// A position or a choice.
fn n() -> impl Strategy<Value = usize> {
    any::<u16>().prop_map(usize::from)
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (n(), n()).prop_map(|(at, token)| Edit::Token { at, token }),
        1 => (n(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Edit::Bytes { at, bytes }),
        2 => (n(), 1usize..64).prop_map(|(at, len)| Edit::Delete { at, len }),
        1 => (n(), 1usize..64).prop_map(|(at, len)| Edit::Duplicate { at, len }),
        1 => (n(), any::<u8>()).prop_map(|(at, byte)| Edit::Set { at, byte }),
        1 => (n(), n(), n(), 1usize..256)
            .prop_map(|(at, seed, from, len)| Edit::Splice { at, seed, from, len }),
    ]
}

/// A seed with a few edits applied.
pub fn mutants(
    seeds: Vec<Vec<u8>>,
    dictionary: &'static [&'static [u8]],
) -> impl Strategy<Value = Vec<u8>> {
    assert!(!seeds.is_empty() && !dictionary.is_empty(), "mutants need seeds and a dictionary");
    (n(), prop::collection::vec(edit(), 0..6)).prop_map(move |(seed, edits)| {
        let mut out = seeds[seed % seeds.len()].clone();
        for e in &edits {
            apply(&mut out, e, &seeds, dictionary);
        }
        out
    })
}

/// Applies `edit` to `bytes`.
pub fn apply(bytes: &mut Vec<u8>, edit: &Edit, seeds: &[Vec<u8>], dictionary: &[&[u8]]) {
    let at = |i: &usize, len: usize| i % (len + 1);
    let pick = |i: &usize, len: usize| i % len;
    match edit {
        Edit::Token { at: i, token } => {
            let pos = at(i, bytes.len());
            bytes.splice(pos..pos, dictionary[pick(token, dictionary.len())].iter().copied());
        }
        Edit::Bytes { at: i, bytes: b } => {
            let pos = at(i, bytes.len());
            bytes.splice(pos..pos, b.iter().copied());
        }
        Edit::Delete { at: i, len } => {
            let pos = at(i, bytes.len());
            let end = (pos + len).min(bytes.len());
            bytes.drain(pos..end);
        }
        Edit::Duplicate { at: i, len } => {
            let pos = at(i, bytes.len());
            let end = (pos + len).min(bytes.len());
            let run = bytes[pos..end].to_vec();
            bytes.splice(end..end, run);
        }
        Edit::Set { at: i, byte } => {
            if !bytes.is_empty() {
                let pos = pick(i, bytes.len());
                bytes[pos] = *byte;
            }
        }
        Edit::Splice { at: i, seed, from, len } => {
            let other = &seeds[pick(seed, seeds.len())];
            let start = at(from, other.len()).min(other.len());
            let end = (start + len).min(other.len());
            let pos = at(i, bytes.len());
            bytes.splice(pos..pos, other[start..end].iter().copied());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_do_what_they_say() {
        let seeds = vec![b"abcdef".to_vec()];
        let dict: &[&[u8]] = &[b"XY"];
        let mut b = b"hello".to_vec();
        apply(&mut b, &Edit::Token { at: 0, token: 0 }, &seeds, dict);
        assert_eq!(b, b"XYhello");
        apply(&mut b, &Edit::Delete { at: 0, len: 2 }, &seeds, dict);
        assert_eq!(b, b"hello");
        apply(&mut b, &Edit::Duplicate { at: 0, len: 2 }, &seeds, dict);
        assert_eq!(b, b"hehello");
        apply(&mut b, &Edit::Set { at: 0, byte: b'J' }, &seeds, dict);
        assert_eq!(b, b"Jehello");
        let splice = Edit::Splice { at: 0, seed: 0, from: 0, len: 3 };
        apply(&mut b, &splice, &seeds, dict);
        assert_eq!(b, b"abcJehello");
        let mut empty = Vec::new();
        apply(&mut empty, &Edit::Delete { at: 500, len: 9 }, &seeds, dict);
        apply(&mut empty, &Edit::Set { at: 500, byte: 1 }, &seeds, dict);
        assert!(empty.is_empty());
    }
}
