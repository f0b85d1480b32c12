//! A generation's manifest: every file of an output with the digest of its bytes.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::BuildError;

/// What a manifest file starts with (then the map, postcard-encoded).
const MAGIC: &[u8] = b"stillpoint manifest 1\n";

/// Path (relative, `/`-separated) → content digest, in path order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest(BTreeMap<String, String>);

impl Manifest {
    /// Reads a manifest; `None` when it is missing or unreadable (the generation is unknown).
    pub fn read(path: &Path) -> Option<Self> {
        let bytes = std::fs::read(path).ok()?;
        postcard::from_bytes(bytes.strip_prefix(MAGIC)?).ok()
    }

    /// The manifest as written to its file ([`Manifest::write`]).
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        postcard::to_io(self, &mut bytes).expect("a manifest serialises");
        bytes
    }

    /// Writes an encoded manifest through a temporary file, so it is either whole or absent.
    pub fn write(encoded: &[u8], path: &Path) -> Result<(), BuildError> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, encoded).map_err(|e| BuildError::io(&tmp, e))?;
        std::fs::rename(&tmp, path).map_err(|e| BuildError::io(path, e))
    }

    pub fn get(&self, rel: &str) -> Option<&str> {
        self.0.get(rel).map(String::as_str)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// A digest of the whole manifest: two outputs with the same one hold the same files.
    pub fn digest(&self) -> String {
        let mut hash = Sha256::new();
        for (rel, digest) in &self.0 {
            hash.update(rel.as_bytes());
            hash.update([0]);
            hash.update(digest.as_bytes());
            hash.update([b'\n']);
        }
        hex::encode(&hash.finalize()[..16])
    }
}

impl From<BTreeMap<String, String>> for Manifest {
    fn from(map: BTreeMap<String, String>) -> Self {
        Self(map)
    }
}

/// The digest that identifies a file's bytes: SHA-256, 128 bits in hex.
pub fn file_digest(bytes: &[u8]) -> String {
    hex::encode(&Sha256::digest(bytes)[..16])
}
