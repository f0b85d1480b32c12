//! The one error type of the crate: what went wrong, and with which file.

use std::fmt;
use std::path::{Path, PathBuf};

/// An error about one file. Its `Display` starts with the file:
/// `static/images/x.jpg: not an image (…)`.
#[derive(Debug)]
pub struct MediaError {
    pub path: PathBuf,
    pub kind: ErrorKind,
}

/// What went wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read or written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The bytes are not an image of a format the pipeline reads.
    #[error("not an image ({0})")]
    NotAnImage(String),
    /// An image format the pipeline does not read (TIFF, BMP, HEIC, …).
    #[error("unsupported image format {0} (use JPEG, PNG, WebP, GIF or SVG)")]
    Unsupported(String),
    /// The image is larger than the pixel cap (refused from its header, before decoding).
    #[error("image of {width}×{height} pixels is larger than the limit of {limit} megapixels")]
    TooLarge { width: u32, height: u32, limit: u64 },
    /// The image could not be decoded (corrupt or truncated).
    #[error("cannot decode the image ({0})")]
    Decode(String),
    /// A rendition could not be encoded.
    #[error("cannot encode the {format} rendition ({message})")]
    Encode { format: &'static str, message: String },
    /// An SVG file whose size cannot be read.
    #[error("SVG without a usable size ({0})")]
    Svg(String),
    /// The cache's metadata of an entry is unreadable.
    #[error("corrupt cache entry ({0})")]
    Cache(String),
}

impl MediaError {
    pub fn new(path: &Path, kind: impl Into<ErrorKind>) -> Self {
        Self { path: path.to_path_buf(), kind: kind.into() }
    }
}

impl fmt::Display for MediaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.kind)
    }
}

impl std::error::Error for MediaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_file() {
        let e = MediaError::new(
            Path::new("static/images/x.jpg"),
            ErrorKind::NotAnImage("starts with \"hello\"".into()),
        );
        assert_eq!(e.to_string(), "static/images/x.jpg: not an image (starts with \"hello\")");
    }
}
