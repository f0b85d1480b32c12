//! Decoding a raster source with limits: header first (size, orientation, pixel cap), then the
//! pixels of the first frame, oriented and converted to 8-bit RGB(A).

use std::io::Cursor;

use image::error::{ImageError, LimitErrorKind};
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};

use crate::error::ErrorKind;
use crate::{MAX_PIXELS, SourceFormat};

/// The most a decoder may allocate at once.
const MAX_ALLOC: u64 = 1 << 30;

/// What the header says.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Header {
    /// Oriented width.
    pub width: u32,
    /// Oriented height.
    pub height: u32,
}

/// Decoded, oriented pixels: 8-bit RGB, or RGBA when some pixel is not opaque.
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    pub alpha: bool,
    /// Row-major, 3 or 4 bytes a pixel.
    pub data: Vec<u8>,
}

impl Pixels {
    pub fn channels(&self) -> usize {
        if self.alpha { 4 } else { 3 }
    }
}

fn reader(bytes: &[u8], format: SourceFormat) -> Result<ImageReader<Cursor<&[u8]>>, ErrorKind> {
    let format = match format {
        SourceFormat::Jpeg => ImageFormat::Jpeg,
        SourceFormat::Png => ImageFormat::Png,
        SourceFormat::Webp => ImageFormat::WebP,
        SourceFormat::Gif => ImageFormat::Gif,
        SourceFormat::Svg => {
            return Err(ErrorKind::Unsupported(
                "SVG (vector images pass through untouched)".into(),
            ));
        }
    };
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    Ok(reader)
}

fn decode_error(e: ImageError) -> ErrorKind {
    match e {
        ImageError::Limits(l) if matches!(l.kind(), LimitErrorKind::InsufficientMemory) => {
            ErrorKind::Decode("the image needs more memory than the decoder may use".into())
        }
        ImageError::Limits(l) => ErrorKind::Decode(l.to_string()),
        ImageError::Unsupported(u) => ErrorKind::Decode(u.to_string()),
        ImageError::IoError(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            ErrorKind::Decode("the file is truncated".into())
        }
        other => ErrorKind::Decode(other.to_string()),
    }
}

fn check_pixels(width: u32, height: u32) -> Result<(), ErrorKind> {
    if width == 0 || height == 0 {
        return Err(ErrorKind::Decode(format!("the header says {width}×{height} pixels")));
    }
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(ErrorKind::TooLarge { width, height, limit: MAX_PIXELS / 1_000_000 });
    }
    Ok(())
}

fn oriented(width: u32, height: u32, orientation: Orientation) -> (u32, u32) {
    match orientation {
        Orientation::Rotate90
        | Orientation::Rotate270
        | Orientation::Rotate90FlipH
        | Orientation::Rotate270FlipH => (height, width),
        _ => (width, height),
    }
}

/// Reads the header only: size, orientation, and the pixel cap.
pub(crate) fn header(bytes: &[u8], format: SourceFormat) -> Result<Header, ErrorKind> {
    let mut decoder = reader(bytes, format)?.into_decoder().map_err(decode_error)?;
    let (width, height) = decoder.dimensions();
    check_pixels(width, height)?;
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let (width, height) = oriented(width, height, orientation);
    Ok(Header { width, height })
}

/// Decodes the first frame, applies the orientation and converts to 8-bit sRGB(A).
pub(crate) fn decode(bytes: &[u8], format: SourceFormat) -> Result<Pixels, ErrorKind> {
    let mut decoder = reader(bytes, format)?.into_decoder().map_err(decode_error)?;
    let (width, height) = decoder.dimensions();
    check_pixels(width, height)?;
    if format == SourceFormat::Jpeg && !jpeg_is_whole(bytes) {
        // The JPEG decoder fills what is missing with grey rather than failing.
        return Err(ErrorKind::Decode("the file is truncated (no end-of-image marker)".into()));
    }
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut image = DynamicImage::from_decoder(decoder).map_err(decode_error)?;
    image.apply_orientation(orientation);
    Ok(to_pixels(image))
}

/// Whether a JPEG has its end-of-image marker after its first scan. Walks the segments up to the
/// first start-of-scan (an EXIF thumbnail inside an APP segment has markers of its own), then
/// looks for `FF D9`, which entropy-coded data cannot contain (an `FF` there is stuffed).
fn jpeg_is_whole(bytes: &[u8]) -> bool {
    let mut pos = 2;
    let scan = loop {
        // Fill bytes (`FF FF …`) may precede a marker.
        while bytes.get(pos) == Some(&0xFF) && bytes.get(pos + 1) == Some(&0xFF) {
            pos += 1;
        }
        match (bytes.get(pos), bytes.get(pos + 1)) {
            (Some(0xFF), Some(0xDA)) => break pos + 2,
            (Some(0xFF), Some(0x01 | 0xD0..=0xD7)) => pos += 2,
            (Some(0xFF), Some(_)) => {
                let Some(len) = bytes.get(pos + 2..pos + 4) else { return false };
                pos += 2 + usize::from(u16::from_be_bytes([len[0], len[1]]));
            }
            _ => return false,
        }
    };
    bytes.get(scan..).is_some_and(|rest| rest.windows(2).any(|w| w == [0xFF, 0xD9]))
}

fn to_pixels(image: DynamicImage) -> Pixels {
    let (width, height) = (image.width(), image.height());
    if image.color().has_alpha() {
        let rgba = image.into_rgba8();
        if rgba.pixels().any(|p| p.0[3] != u8::MAX) {
            return Pixels { width, height, alpha: true, data: rgba.into_raw() };
        }
        let data = rgba.into_raw().chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
        return Pixels { width, height, alpha: false, data };
    }
    let data = match image {
        DynamicImage::ImageRgb8(rgb) => rgb.into_raw(),
        other => other.into_rgb8().into_raw(),
    };
    Pixels { width, height, alpha: false, data }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{ImageBuffer, Luma, Rgb, Rgba};

    fn png(image: DynamicImage) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn sixteen_bit_and_grey_become_eight_bit_rgb() {
        let deep = ImageBuffer::from_fn(8, 4, |x, _| Rgb([x as u16 * 8000, 0, 65535]));
        let pixels = decode(&png(DynamicImage::ImageRgb16(deep)), SourceFormat::Png).unwrap();
        assert_eq!((pixels.width, pixels.height, pixels.alpha), (8, 4, false));
        assert_eq!(pixels.data.len(), 8 * 4 * 3);
        assert_eq!(&pixels.data[..3], &[0, 0, 255]);

        let grey = ImageBuffer::from_pixel(5, 5, Luma([200u8]));
        let pixels = decode(&png(DynamicImage::ImageLuma8(grey)), SourceFormat::Png).unwrap();
        assert_eq!(&pixels.data[..3], &[200, 200, 200]);
    }

    #[test]
    fn opaque_alpha_is_dropped_and_real_alpha_kept() {
        let opaque = ImageBuffer::from_pixel(4, 4, Rgba([1u8, 2, 3, 255]));
        let pixels = decode(&png(DynamicImage::ImageRgba8(opaque)), SourceFormat::Png).unwrap();
        assert!(!pixels.alpha);
        let clear = ImageBuffer::from_pixel(4, 4, Rgba([1u8, 2, 3, 10]));
        let pixels = decode(&png(DynamicImage::ImageRgba8(clear)), SourceFormat::Png).unwrap();
        assert!(pixels.alpha);
        assert_eq!(pixels.channels(), 4);
    }

    #[test]
    fn a_jpeg_without_its_end_marker_is_not_whole() {
        let mut out = Cursor::new(Vec::new());
        DynamicImage::ImageRgb8(ImageBuffer::from_fn(16, 16, |x, y| {
            Rgb([x as u8 * 9, y as u8, 7])
        }))
        .write_to(&mut out, ImageFormat::Jpeg)
        .unwrap();
        let jpeg = out.into_inner();
        assert!(jpeg_is_whole(&jpeg));
        let mut trailing = jpeg.clone();
        trailing.extend_from_slice(b"\0\0garbage");
        assert!(jpeg_is_whole(&trailing), "bytes after the end marker are allowed");
        for n in 0..jpeg.len() - 1 {
            assert!(!jpeg_is_whole(&jpeg[..n]), "cut at {n}");
        }
        assert!(matches!(
            decode(&jpeg[..jpeg.len() - 2], SourceFormat::Jpeg),
            Err(ErrorKind::Decode(_))
        ));
    }

    #[test]
    fn orientation_swaps_the_sides() {
        assert_eq!(oriented(40, 30, Orientation::Rotate90), (30, 40));
        assert_eq!(oriented(40, 30, Orientation::Rotate180), (40, 30));
        assert_eq!(oriented(40, 30, Orientation::Rotate270FlipH), (30, 40));
    }
}
