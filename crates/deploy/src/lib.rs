//! `stillpoint deploy`: publish a built site to an S3-compatible bucket (AWS S3, Cloudflare R2,
//! MinIO), uploading only new or changed files, in an order that keeps the published site
//! consistent at every moment, and recording what was published in a manifest object.
//!
//! - [`kind`]: each output file's upload phase, Content-Type and Cache-Control.
//! - [`local`]: scanning and digesting DIST (optionally gzip-compressed).
//! - [`manifest`]: the manifest object written last by every deploy.
//! - [`merge`]: several shard outputs (`build --shard i/N`) deployed as one site.
//! - [`plan`]: uploads, deletions and superseded hashed files, computed without I/O.
//! - [`remote`]: the bucket client (object_store), request counting, errors; reading the
//!   bucket's state from its manifest or by listing.
//! - [`creds`]: credentials and region from the AWS shared files.
//! - [`run`]: carrying out a deploy.

pub mod creds;
mod error;
pub mod kind;
pub mod local;
pub mod manifest;
pub mod merge;
pub mod plan;
pub mod remote;
pub mod run;

pub use error::DeployError;
pub use local::Gzip;
pub use manifest::MANIFEST_KEY;
pub use merge::Dists;
pub use remote::{Source, Target};
pub use run::{ABORT_AFTER_ENV, Options, Progress, Report, build_info, deploy};
