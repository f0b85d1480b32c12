//! 128-bit XXH3: it tells the site's own inputs apart as surely as a build needs (they are the
//! owner's files, not an adversary's) at a tenth of SHA-256's cost.

use std::fmt;
use std::io::Write;

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::{Xxh3, xxh3_128};

/// The digest of some bytes. Shown (and stored in text) as 32 lowercase hex digits; kept and
/// encoded as its 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[u8; 16]", into = "[u8; 16]")]
pub struct Digest(u128);

impl From<[u8; 16]> for Digest {
    fn from(bytes: [u8; 16]) -> Self {
        Self::from_bytes(bytes)
    }
}

impl From<Digest> for [u8; 16] {
    fn from(d: Digest) -> Self {
        d.bytes()
    }
}

impl Digest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        Self(xxh3_128(bytes))
    }

    /// The digest of a file's bytes, read in blocks (the file is never held whole).
    pub fn of_file(path: &std::path::Path) -> std::io::Result<Self> {
        Self::of_reader(std::fs::File::open(path)?)
    }

    /// The digest of everything `reader` yields, read in blocks: for a file already open, so
    /// the bytes digested are those of the file its caller looked at.
    pub fn of_reader(mut reader: impl std::io::Read) -> std::io::Result<Self> {
        let mut hasher = Xxh3::new();
        let mut buf = vec![0; 1 << 16];
        loop {
            match reader.read(&mut buf)? {
                0 => return Ok(Self(hasher.digest128())),
                n => hasher.update(&buf[..n]),
            }
        }
    }

    /// The first `n` hex digits (at most 32): a short name that is still unique in practice
    /// among one site's files.
    pub fn short(self, n: usize) -> String {
        let mut hex = self.to_string();
        hex.truncate(n);
        hex
    }

    /// The digest's 16 bytes, most significant first.
    pub fn bytes(self) -> [u8; 16] {
        self.0.to_be_bytes()
    }

    /// The digest of these 16 bytes ([`Self::bytes`]).
    pub fn from_bytes(bytes: [u8; 16]) -> Self {
        Self(u128::from_be_bytes(bytes))
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

/// A writer that digests the bytes written through it: the digest of a file as it is written,
/// for a file named by its digest ([`crate::write_file_named_by_digest`]).
pub struct Digesting<W> {
    inner: W,
    hasher: Xxh3,
}

impl<W: Write> Digesting<W> {
    pub fn new(inner: W) -> Self {
        Self { inner, hasher: Xxh3::new() }
    }

    /// The writer, and the digest of everything written through it ([`Digest::of`] of those
    /// bytes).
    pub fn finish(self) -> (W, Digest) {
        (self.inner, Digest(self.hasher.digest128()))
    }
}

impl<W: Write> Write for Digesting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A digest built part by part. Each part is length-prefixed, so parts cannot run together:
/// `("ab", "c")` and `("a", "bc")` differ.
pub struct Digester(Xxh3);

impl Digester {
    pub fn new() -> Self {
        Self(Xxh3::new())
    }

    /// Adds one part.
    pub fn part(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update(&(bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    pub fn finish(&self) -> Digest {
        Digest(self.0.digest128())
    }
}

/// The digest a [`Digester`] given `parts` finishes with, taken in one pass over `buf` (cleared
/// first): for many small digests, where a `Digester`'s setup (the hasher's whole state) costs
/// more than hashing the parts.
pub fn digest_parts<'p>(parts: impl IntoIterator<Item = &'p [u8]>, buf: &mut Vec<u8>) -> Digest {
    buf.clear();
    for part in parts {
        buf.extend_from_slice(&(part.len() as u64).to_le_bytes());
        buf.extend_from_slice(part);
    }
    Digest::of(buf)
}

impl Default for Digester {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_as_32_hex_digits() {
        let d = Digest::of(b"stillpoint");
        let hex = d.to_string();
        assert_eq!(hex.len(), 32);
        assert!(hex.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        assert_eq!(d.short(20), hex[..20]);
        assert_ne!(d, Digest::of(b"stillpoinT"));
        assert_eq!(hex, format!("{:032x}", u128::from_be_bytes(d.bytes())));
        assert_eq!(Digest::from_bytes(d.bytes()), d);
    }

    #[test]
    fn a_digest_made_while_writing_is_the_digest_of_the_bytes_written() {
        let mut w = Digesting::new(Vec::new());
        for chunk in [&b"still"[..], b"", b"point"] {
            w.write_all(chunk).unwrap();
        }
        let (bytes, digest) = w.finish();
        assert_eq!((bytes.as_slice(), digest), (&b"stillpoint"[..], Digest::of(b"stillpoint")));
    }

    #[test]
    fn parts_cannot_run_together() {
        let digest = |parts: &[&[u8]]| {
            let mut d = Digester::new();
            for p in parts {
                d.part(p);
            }
            d.finish()
        };
        assert_ne!(digest(&[b"ab", b"c"]), digest(&[b"a", b"bc"]));
        assert_eq!(digest(&[b"ab", b"c"]), digest(&[b"ab", b"c"]));
        assert_ne!(digest(&[b""]), digest(&[]));
        let mut buf = b"left over".to_vec();
        for parts in
            [&[&b"ab"[..], b"c"][..], &[b"a", b"bc"], &[b""], &[], &[&[7u8; 300][..], b"x"]]
        {
            assert_eq!(digest_parts(parts.iter().copied(), &mut buf), digest(parts));
        }
    }

    #[test]
    fn a_file_digest_is_its_bytes_digest() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(Digest::of_file(&path).unwrap(), Digest::of(&bytes));
    }
}
