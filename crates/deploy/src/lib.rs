//! `stillpoint deploy`: publish a built site to an S3-compatible bucket (AWS S3, Cloudflare R2,
//! MinIO), uploading only new or changed files, in an order that keeps the published site
//! consistent at every moment, and recording what was published in a manifest object.
//!
//! - [`kind`]: each output file's upload phase, Content-Type and Cache-Control.
//! - [`local`]: scanning and digesting DIST (optionally gzip-compressed).
//! - [`manifest`]: the manifest object written last by every deploy.
//! - [`merge`]: several shard outputs (`build --shard i/N`) deployed as one site.
//! - [`plan`]: uploads, deletions and superseded hashed files, computed without I/O.
//! - [`remote`]: the bucket client (object_store), request counting, errors; object keys.
//! - [`state`]: what the bucket holds, from its manifest or by listing, and which of it this
//!   deploy may delete (what a manifest of this site recorded); another site's bucket refused.
//! - [`escape`]: names as the plan and messages print them.
//! - [`creds`]: credentials and region from the AWS shared files.
//! - [`run`]: carrying out a deploy.

pub mod creds;
mod error;
pub mod escape;
pub mod kind;
pub mod local;
pub mod manifest;
pub mod merge;
pub mod plan;
pub mod remote;
pub mod run;
pub mod state;

pub use error::DeployError;
pub use escape::escape;
pub use local::{Gzip, build_info};
pub use manifest::MANIFEST_KEY;
pub use merge::Dists;
pub use remote::{Source, Target};
pub use run::{ABORT_AFTER_ENV, ABORT_BEFORE_MANIFEST, Abort, Options, Progress, Report, deploy};
