//! The pipeline's steps one by one, for `examples/images_bench.rs` and
//! `examples/images_metric.rs` (`bash bench/images.sh`): the very functions
//! [`ImageCache::process`](crate::ImageCache::process) runs, so a measurement is of what a
//! build does. Not a stable API.

use crate::error::ErrorKind;
use crate::{Format, SourceFormat};

pub use crate::decode::Pixels;
pub use crate::encode::Settings;
pub use crate::pipeline::SETTINGS;

/// Decodes the first frame, applies the EXIF orientation, converts to 8-bit RGB(A).
pub fn decode(bytes: &[u8], format: SourceFormat) -> Result<Pixels, ErrorKind> {
    crate::decode::decode(bytes, format)
}

/// The widths of the comparison with sharp (`bench/images/sharp.mjs`): the anchor's four, not
/// the pipeline's own [`WIDTHS`](crate::pipeline::WIDTHS), so both sides make the same renditions.
pub const WIDTHS: [u32; 4] = [320, 640, 960, 1280];

/// `source` at each of [`WIDTHS`] it allows, ascending, resized as the pipeline does it.
pub fn cascade(source: &Pixels) -> Result<Vec<Pixels>, String> {
    crate::pipeline::cascade(source, &WIDTHS)
}

/// `source` resized (Lanczos3) straight to `width`×`height`.
pub fn resize(source: &Pixels, width: u32, height: u32) -> Result<Pixels, String> {
    crate::resize::resize(source, width, height)
}

/// One rendition encoded with `settings`.
pub fn encode(pixels: &Pixels, format: Format, settings: &Settings) -> Result<Vec<u8>, ErrorKind> {
    crate::encode::encode(pixels, format, settings)
}
