//! Writing the output: the spare generation is brought up to date and swapped in whole (see
//! `output`), each generation described by its manifest of file digests (`manifest`).

mod manifest;
mod output;

use stillpoint_fingerprint::Digester;

pub use manifest::{Manifest, file_digest};
pub use output::{EmitStats, Generations, Transfer, Update, generations_dir, live_stamp};

/// A short content digest (20 hex digits) of byte strings, for content-hashed names and the
/// build hash.
pub fn digest<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut d = Digester::new();
    for p in parts {
        d.part(p);
    }
    d.finish().short(20)
}

#[cfg(test)]
mod tests;
