//! Writing the output: the spare generation is brought up to date and swapped in whole (see
//! `output`), each generation described by its manifest of file digests (`manifest`).

mod manifest;
mod output;

use sha2::{Digest, Sha256};

pub use manifest::{Manifest, file_digest};
pub use output::{EmitStats, Output, Update};

/// A short content digest (hex) of byte strings, for content-hashed names and the build hash.
pub fn digest<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    hex::encode(&h.finalize()[..10])
}

#[cfg(test)]
mod tests;
