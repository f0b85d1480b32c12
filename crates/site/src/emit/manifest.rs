//! A generation's manifest: every file of an output with the digest of its bytes.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use imbl::OrdMap;
use imbl::ordmap::DiffItem;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use stillpoint_fingerprint::{Digest, Digester};

use crate::error::BuildError;

/// What a manifest file starts with (then the map, postcard-encoded).
const MAGIC: &[u8] = b"stillpoint manifest 2\n";

/// Path (relative, `/`-separated) → content digest, in path order.
///
/// A persistent map: a build's new manifest is the live one with the entries it changed, and
/// shares the rest of the live one's tree (at 100,000 articles a manifest holds 251,000 entries;
/// making the new one from the live one costs what changed), and comparing the two skips the
/// parts they share. Paths are shared (`Arc<str>`) too, and digests are kept as their 16 bytes:
/// at 1,000,000 articles a manifest holds 2.5 million entries. A manifest never changes once made, so its
/// [digest](Manifest::digest) is computed once; and a manifest made from another by changing a
/// few entries takes the other's digest brought up to date by those entries
/// ([`Manifest::know_digest`]).
#[derive(Debug, Clone, Default)]
pub struct Manifest(OrdMap<Arc<str>, Digest>, OnceLock<u128>);

impl PartialEq for Manifest {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for Manifest {}

impl Serialize for Manifest {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl Manifest {
    /// Reads a manifest; `None` when it is missing or unreadable (the generation is unknown).
    pub fn read(path: &Path) -> Option<Self> {
        let bytes = std::fs::read(path).ok()?;
        postcard::from_bytes(bytes.strip_prefix(MAGIC)?).ok()
    }

    /// Writes the manifest through a temporary file, so it is either whole or absent, as it is
    /// encoded: at 1,000,000 articles its 2.5 million entries are about 300 MB, which a build
    /// at its peak does not also hold as one buffer.
    pub fn write(&self, path: &Path) -> Result<(), BuildError> {
        stillpoint_fingerprint::replace_file_with(path, false, |file| {
            file.write_all(MAGIC)?;
            postcard::to_io(self, file).map_err(std::io::Error::other)?;
            Ok(())
        })
        .map_err(|e| BuildError::io(path, e))
    }

    pub fn get(&self, rel: &str) -> Option<Digest> {
        self.0.get(rel).copied()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, Digest)> {
        self.0.iter().map(|(k, v)| (&**k, *v))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The entries, as a map.
    pub(super) fn map(&self) -> &OrdMap<Arc<str>, Digest> {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The paths whose digest differs between `self` and `other` (present in one only, or with
    /// another digest), in path order, with the digest each has. The parts of the two trees
    /// they share are skipped whole: comparing a manifest with one made from it costs what
    /// differs.
    pub fn differences<'a>(
        &'a self,
        other: &'a Manifest,
    ) -> impl Iterator<Item = (&'a str, Option<Digest>, Option<Digest>)> + 'a {
        self.shared_differences(other).map(|(rel, a, b)| (&**rel, a, b))
    }

    /// [`Manifest::differences`] with each path as the manifests share it.
    pub(super) fn shared_differences<'a>(
        &'a self,
        other: &'a Manifest,
    ) -> impl Iterator<Item = (&'a Arc<str>, Option<Digest>, Option<Digest>)> + 'a {
        self.0.diff(&other.0).map(|item| match item {
            DiffItem::Remove(rel, d) => (rel, Some(*d), None),
            DiffItem::Add(rel, d) => (rel, None, Some(*d)),
            DiffItem::Update { old: (rel, a), new: (_, b) } => (rel, Some(*a), Some(*b)),
        })
    }

    /// A digest of the whole manifest: two outputs with the same one hold the same files. It is
    /// the sum (modulo 2^128) of the digests of the entries, a digest of the set of them, so
    /// that one made by changing a few entries of another is known from the other's.
    pub fn digest(&self) -> String {
        format!("{:032x}", self.sum())
    }

    fn sum(&self) -> u128 {
        *self.1.get_or_init(|| {
            self.0.iter().fold(0, |sum, (rel, digest)| sum.wrapping_add(entry_sum(rel, *digest)))
        })
    }

    /// Sets the digest of `self`, whose entries are `base`'s but for `differences` (each path
    /// that differs, with its digest in `self` and in `base`, as [`Manifest::differences`]
    /// gives them): `base`'s digest brought up to date by those entries alone.
    pub fn know_digest<'a>(
        &self,
        base: &Manifest,
        differences: impl IntoIterator<Item = (&'a str, Option<Digest>, Option<Digest>)>,
    ) {
        let sum = differences.into_iter().fold(base.sum(), |sum, (rel, new, old)| {
            let added = new.map_or(0, |d| entry_sum(rel, d));
            let removed = old.map_or(0, |d| entry_sum(rel, d));
            sum.wrapping_add(added).wrapping_sub(removed)
        });
        let _ = self.1.set(sum); // already known: the same value
    }
}

/// One entry's part of a manifest's digest.
fn entry_sum(rel: &str, digest: Digest) -> u128 {
    u128::from_be_bytes(Digester::new().part(rel.as_bytes()).part(&digest.bytes()).finish().bytes())
}

/// Read from the encoded bytes without a string of its own for each entry.
impl<'de> Deserialize<'de> for Manifest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = Manifest;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of paths to digests")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Manifest, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(1 << 20));
                while let Some((rel, digest)) = map.next_entry::<&str, Digest>()? {
                    entries.push((Arc::from(rel), digest));
                }
                Ok(Manifest::from(entries.into_iter().collect::<OrdMap<_, _>>()))
            }
        }
        d.deserialize_map(Entries)
    }
}

impl From<OrdMap<Arc<str>, Digest>> for Manifest {
    fn from(map: OrdMap<Arc<str>, Digest>) -> Self {
        Self(map, OnceLock::new())
    }
}

impl From<BTreeMap<Arc<str>, Digest>> for Manifest {
    fn from(map: BTreeMap<Arc<str>, Digest>) -> Self {
        Self::from(map.into_iter().collect::<OrdMap<_, _>>())
    }
}

/// The digest that identifies a file's bytes. In hex, it is also the image cache's name for a
/// source (`stillpoint_media`), so a build that knows an image file's digest finds it without
/// reading it.
pub fn file_digest(bytes: &[u8]) -> Digest {
    Digest::of(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(entries: &[(&str, &str)]) -> Manifest {
        Manifest::from(
            entries.iter().map(|&(r, b)| (Arc::from(r), d(b))).collect::<BTreeMap<_, _>>(),
        )
    }

    /// A file's digest, by the bytes named.
    fn d(bytes: &str) -> Digest {
        Digest::of(bytes.as_bytes())
    }

    #[test]
    fn differences_are_every_path_added_removed_or_changed_in_order() {
        let a = manifest(&[("a", "1"), ("b", "2"), ("d", "4"), ("e", "5")]);
        let b = manifest(&[("b", "2"), ("c", "3"), ("d", "x"), ("f", "6")]);
        let diff: Vec<_> = a.differences(&b).collect();
        assert_eq!(
            diff,
            [
                ("a", Some(d("1")), None),
                ("c", None, Some(d("3"))),
                ("d", Some(d("4")), Some(d("x"))),
                ("e", Some(d("5")), None),
                ("f", None, Some(d("6"))),
            ]
        );
        assert_eq!(a.differences(&a).count(), 0);
        assert_eq!(Manifest::default().differences(&a).count(), 4);
    }

    #[test]
    fn a_digest_brought_up_to_date_is_the_digest_made_afresh() {
        let base = manifest(&[("a", "1"), ("b", "2"), ("d", "4"), ("e", "5")]);
        let next = manifest(&[("b", "2"), ("c", "3"), ("d", "x"), ("f", "6")]);
        let fresh = manifest(&[("b", "2"), ("c", "3"), ("d", "x"), ("f", "6")]).digest();
        let differences: Vec<_> = next.differences(&base).collect();
        next.know_digest(&base, differences.iter().copied());
        assert_eq!(next.digest(), fresh);
        assert_ne!(next.digest(), base.digest());
        // Order-free and entry-bound: the same entries give the same digest, a moved digest
        // another.
        assert_eq!(
            manifest(&[("a", "1"), ("b", "2")]).digest(),
            manifest(&[("b", "2"), ("a", "1")]).digest()
        );
        assert_ne!(
            manifest(&[("a", "1"), ("b", "2")]).digest(),
            manifest(&[("a", "2"), ("b", "1")]).digest()
        );
        assert_ne!(Manifest::default().digest(), manifest(&[("a", "")]).digest());
    }

    #[test]
    fn a_manifest_reads_back_and_other_bytes_are_unknown() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.manifest");
        let m = manifest(&[("index.html", "00ff"), ("sw.js", "1234")]);
        m.write(&path).unwrap();
        assert_eq!(Manifest::read(&path), Some(m));
        std::fs::write(&path, br#"{"index.html":"00ff"}"#).unwrap();
        assert_eq!(Manifest::read(&path), None);
    }
}
