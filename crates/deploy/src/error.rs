//! Why a deploy stopped; each is one line for the operator.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum DeployError {
    #[error(
        "{0} is not a Stillpoint build (no .stillpoint/build.json); run `stillpoint build` first or pass --site"
    )]
    NotABuild(PathBuf),
    #[error("{path}: {1}", path = .0.display())]
    Io(PathBuf, std::io::Error),
    #[error("{0}")]
    Input(String),
    #[error(
        "no credentials for {0}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile in ~/.aws/credentials (AWS_PROFILE), AWS_WEB_IDENTITY_TOKEN_FILE, or AWS_METADATA_ENDPOINT for an instance role"
    )]
    NoCredentials(String),
    #[error("bucket {bucket} does not exist at {endpoint}")]
    NoBucket { bucket: String, endpoint: String },
    #[error("access to bucket {bucket} at {endpoint} denied: {detail}")]
    Denied { bucket: String, endpoint: String, detail: String },
    #[error("{op} {key} in bucket {bucket} at {endpoint} failed: {detail}")]
    Request { op: &'static str, key: String, bucket: String, endpoint: String, detail: String },
    #[error(
        "refusing to delete {count} objects (more than --max-deletes {max}); check DIST and the target, then re-run with --force"
    )]
    TooManyDeletes { count: usize, max: usize },
    #[error(
        "{bucket} at {endpoint} holds the deploy manifest of site {found}, not {site}: refusing to deploy over another site; check --to and DIST, or re-run with --force"
    )]
    OtherSite { bucket: String, endpoint: String, found: String, site: String },
    #[error("{0} changed while deploying (a build finished meanwhile?); re-run the deploy")]
    DistChanged(String),
    /// Stopped by the caller's [`Progress`](crate::Progress) hook (a test's simulated kill).
    #[error("{0}")]
    Aborted(String),
}

impl From<crate::run::Abort> for DeployError {
    fn from(abort: crate::run::Abort) -> Self {
        Self::Aborted(abort.0)
    }
}
