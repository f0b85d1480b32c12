//! [`probe`]: a header-only look at an image file.

use std::path::Path;

use crate::decode::header;
use crate::error::{ErrorKind, MediaError};
use crate::sniff::{Sniffed, is_animated, sniff};
use crate::svg::svg_size;
use crate::{Probe, SourceFormat};

/// Header-only check: format by content (not name), oriented size, orientation, pixel cap.
/// Nothing is decoded.
pub fn probe(path: &Path) -> Result<Probe, MediaError> {
    let bytes = std::fs::read(path).map_err(|e| MediaError::new(path, e))?;
    probe_bytes(&bytes).map_err(|kind| MediaError::new(path, kind))
}

pub(crate) fn probe_bytes(bytes: &[u8]) -> Result<Probe, ErrorKind> {
    let format = source_format(bytes)?;
    if format == SourceFormat::Svg {
        let (width, height) = svg_size(bytes).map_err(ErrorKind::Svg)?;
        return Ok(Probe { width, height, format, animated: false });
    }
    let header = header(bytes, format)?;
    Ok(Probe {
        width: header.width,
        height: header.height,
        format,
        animated: is_animated(format, bytes),
    })
}

pub(crate) fn source_format(bytes: &[u8]) -> Result<SourceFormat, ErrorKind> {
    match sniff(bytes) {
        Sniffed::Image(format) => Ok(format),
        Sniffed::Unsupported(name) => Err(ErrorKind::Unsupported(name.into())),
        Sniffed::NotAnImage(what) => Err(ErrorKind::NotAnImage(what)),
    }
}
