//! What identifies a file, for every part of Stillpoint that keeps something derived from one:
//! its [`Stamp`] (what `stat` says, so an unchanged file is not read again) and the [`Digest`]
//! of its bytes (so an unchanged input is not processed again); and how such a thing is written
//! ([`replace_file`]: whole or not at all).
//!
//! One stamp rule and one digest algorithm serve the loader's parse store, the build cache's
//! file digests, the page keys and the server's file cache. Digests that others define stay
//! where they are required: SHA-256 for CSP hashes, TLS pins and S3 payload checksums, MD5 for
//! S3 ETags, and the slug hash that places an article in a shard.

mod digest;
mod replace;
mod stamp;

pub use digest::{Digest, Digester, Digesting, digest_parts};
pub use replace::{
    remove_temporaries, replace_file, replace_file_with, write_file_named_by_digest,
};
pub use stamp::{SETTLED, Stamp};
