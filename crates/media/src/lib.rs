//! The image pipeline of Stillpoint.
//!
//! [`probe`] checks an image from its header (format by content, oriented size, pixel cap);
//! [`ImageCache::process`] decodes a raster image once, writes its renditions (every width ×
//! AVIF, WebP and a JPEG/PNG fallback, plus a 1200 px JPEG for sharing) into a
//! content-addressed cache and returns what a page needs to reference them; a later build
//! finds them there without decoding anything. SVG passes through untouched.
//!
//! No dependency on the rest of the engine: paths in, files and descriptions out.

mod analyse;
#[doc(hidden)]
pub mod bench;
mod cache;
mod decode;
mod encode;
mod error;
mod pipeline;
mod probe;
mod resize;
mod sniff;
mod svg;

pub use cache::{DEFAULT_MAX_BYTES, GcReport, ImageCache};
pub use error::{ErrorKind, MediaError};
pub use pipeline::{PIPELINE_VERSION, SHARE_WIDTH, Timings, WIDTHS};
pub use probe::probe;

use serde::{Deserialize, Serialize};

/// The largest image the pipeline decodes, in pixels (refused from the header above this).
pub const MAX_PIXELS: u64 = 100_000_000;

/// What [`probe`] finds in a file's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    /// Width once the EXIF orientation is applied.
    pub width: u32,
    /// Height once the EXIF orientation is applied.
    pub height: u32,
    pub format: SourceFormat,
    /// More than one frame (animated GIF, animated WebP, APNG): only the first is used, which
    /// deserves a warning to the owner. (Addition to the shared API.)
    pub animated: bool,
}

/// The format of a source file, recognised from its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceFormat {
    Jpeg,
    Png,
    Webp,
    Gif,
    Svg,
}

impl SourceFormat {
    pub fn name(self) -> &'static str {
        match self {
            Self::Jpeg => "JPEG",
            Self::Png => "PNG",
            Self::Webp => "WebP",
            Self::Gif => "GIF",
            Self::Svg => "SVG",
        }
    }
}

/// The format of a rendition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Avif,
    Webp,
    Jpeg,
    Png,
}

impl Format {
    /// The media type: `image/avif`, …
    pub fn mime(self) -> &'static str {
        match self {
            Self::Avif => "image/avif",
            Self::Webp => "image/webp",
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
        }
    }

    /// The file extension, without the dot.
    pub fn ext(self) -> &'static str {
        match self {
            Self::Avif => "avif",
            Self::Webp => "webp",
            Self::Jpeg => "jpg",
            Self::Png => "png",
        }
    }
}

/// One encoded file of an image.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rendition {
    pub width: u32,
    pub height: u32,
    pub format: Format,
    /// The file name, `{key}-{width}.{ext}`: the name under `media/` in the output.
    pub file: String,
}

/// Everything a page needs to reference a processed image.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Processed {
    /// 16 hex digits: digest of the source bytes, the parameters and [`PIPELINE_VERSION`].
    pub key: String,
    /// Oriented source width.
    pub width: u32,
    /// Oriented source height.
    pub height: u32,
    /// Every width × (AVIF, WebP, fallback), widths ascending, in that format order.
    pub renditions: Vec<Rendition>,
    /// 1200 px wide (or the source width if smaller) JPEG, for `og:image`.
    pub share: Rendition,
    /// Dominant colour, `#rrggbb`.
    pub color: String,
    /// Tiny blurred preview, `data:image/webp;base64,…`.
    pub preview: String,
    /// Only the first frame of an animated source was used. (Addition to the shared API.)
    #[serde(default)]
    pub animated: bool,
}

impl Processed {
    /// The renditions of one format, widths ascending.
    pub fn of_format(&self, format: Format) -> impl Iterator<Item = &Rendition> {
        self.renditions.iter().filter(move |r| r.format == format)
    }

    /// The fallback format of this image (JPEG, or PNG when it has transparency).
    pub fn fallback_format(&self) -> Format {
        self.renditions
            .iter()
            .map(|r| r.format)
            .find(|f| matches!(f, Format::Jpeg | Format::Png))
            .unwrap_or(Format::Jpeg)
    }

    /// The fallback rendition for `<img src>`: the largest fallback no wider than 1280 px.
    pub fn fallback(&self) -> &Rendition {
        let format = self.fallback_format();
        self.of_format(format)
            .filter(|r| r.width <= 1280)
            .last()
            .or_else(|| self.of_format(format).next())
            .unwrap_or(&self.share)
    }

    /// A `srcset` of one format with URLs `{prefix}{file}`: `"/media/k-320.avif 320w,…"`.
    pub fn srcset(&self, format: Format, prefix: &str) -> String {
        self.of_format(format)
            .map(|r| format!("{prefix}{} {}w", r.file, r.width))
            .collect::<Vec<_>>()
            .join(",")
    }
}
