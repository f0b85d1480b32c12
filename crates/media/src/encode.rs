//! Encoders: AVIF (ravif over rav1e), WebP (libwebp), JPEG and PNG (the image crate). None of
//! them is given metadata: EXIF, GPS, XMP and ICC of the source never reach a rendition.

use image::ExtendedColorType;
use image::ImageEncoder;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use imgref::Img;
use rgb::FromSlice;

use crate::Format;
use crate::decode::Pixels;
use crate::error::ErrorKind;

/// Encoder settings; part of every cache key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// ravif quality, 1–100.
    pub avif_quality: f32,
    /// rav1e speed, 1 (slow) – 10 (fast).
    pub avif_speed: u8,
    /// libwebp quality, 0–100.
    pub webp_quality: f32,
    /// libwebp method, 0 (fast) – 6 (slow).
    pub webp_method: i32,
    /// JPEG quality, 1–100.
    pub jpeg_quality: u8,
}

impl Settings {
    /// The settings as text, for the cache key.
    pub fn fingerprint(&self) -> String {
        format!("{self:?}")
    }
}

fn encode_error(format: Format, message: impl ToString) -> ErrorKind {
    ErrorKind::Encode { format: format.ext(), message: message.to_string() }
}

pub(crate) fn encode(pixels: &Pixels, format: Format, s: &Settings) -> Result<Vec<u8>, ErrorKind> {
    match format {
        Format::Avif => avif(pixels, s),
        Format::Webp => webp(pixels, s.webp_quality, s.webp_method),
        Format::Jpeg => jpeg(pixels, s.jpeg_quality),
        Format::Png => png(pixels),
    }
}

fn avif(p: &Pixels, s: &Settings) -> Result<Vec<u8>, ErrorKind> {
    let encoder = ravif::Encoder::new()
        .with_quality(s.avif_quality.clamp(1.0, 100.0))
        .with_alpha_quality(s.avif_quality.clamp(1.0, 100.0))
        .with_speed(s.avif_speed.clamp(1, 10))
        .with_bit_depth(ravif::BitDepth::Eight);
    let (w, h) = (p.width as usize, p.height as usize);
    let encoded = if p.alpha {
        encoder.encode_rgba(Img::new(p.data.as_rgba(), w, h))
    } else {
        encoder.encode_rgb(Img::new(p.data.as_rgb(), w, h))
    };
    encoded.map(|e| e.avif_file).map_err(|e| encode_error(Format::Avif, e))
}

pub(crate) fn webp(p: &Pixels, quality: f32, method: i32) -> Result<Vec<u8>, ErrorKind> {
    let encoder = if p.alpha {
        webp::Encoder::from_rgba(&p.data, p.width, p.height)
    } else {
        webp::Encoder::from_rgb(&p.data, p.width, p.height)
    };
    let mut config = webp::WebPConfig::new()
        .map_err(|()| encode_error(Format::Webp, "libwebp version mismatch"))?;
    config.quality = quality.clamp(0.0, 100.0);
    config.method = method.clamp(0, 6);
    config.alpha_compression = 1;
    let memory = encoder
        .encode_advanced(&config)
        .map_err(|e| encode_error(Format::Webp, format!("{e:?}")))?;
    Ok(memory.to_vec())
}

fn jpeg(p: &Pixels, quality: u8) -> Result<Vec<u8>, ErrorKind> {
    let rgb;
    let data = if p.alpha {
        // JPEG has no alpha: composite on white.
        rgb = p
            .data
            .chunks_exact(4)
            .flat_map(|px| {
                let a = u16::from(px[3]);
                let blend = |c: u8| ((u16::from(c) * a + 255 * (255 - a) + 127) / 255) as u8;
                [blend(px[0]), blend(px[1]), blend(px[2])]
            })
            .collect::<Vec<u8>>();
        &rgb[..]
    } else {
        &p.data[..]
    };
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, quality.clamp(1, 100))
        .encode(data, p.width, p.height, ExtendedColorType::Rgb8)
        .map_err(|e| encode_error(Format::Jpeg, e))?;
    Ok(out)
}

fn png(p: &Pixels) -> Result<Vec<u8>, ErrorKind> {
    let mut out = Vec::new();
    let color = if p.alpha { ExtendedColorType::Rgba8 } else { ExtendedColorType::Rgb8 };
    PngEncoder::new_with_quality(&mut out, CompressionType::Default, FilterType::Adaptive)
        .write_image(&p.data, p.width, p.height, color)
        .map_err(|e| encode_error(Format::Png, e))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: Settings = Settings {
        avif_quality: 50.0,
        avif_speed: 10,
        webp_quality: 75.0,
        webp_method: 4,
        jpeg_quality: 80,
    };

    fn gradient(alpha: bool) -> Pixels {
        let (w, h) = (48u32, 32u32);
        let channels = if alpha { 4 } else { 3 };
        let mut data = Vec::new();
        for y in 0..h {
            for x in 0..w {
                data.extend_from_slice(&[(x * 5) as u8, (y * 7) as u8, 128]);
                if alpha {
                    data.push((x * 5) as u8);
                }
            }
        }
        assert_eq!(data.len(), (w * h) as usize * channels);
        Pixels { width: w, height: h, alpha, data }
    }

    #[test]
    fn every_format_encodes_with_its_signature() {
        for alpha in [false, true] {
            let p = gradient(alpha);
            let avif = encode(&p, Format::Avif, &SETTINGS).unwrap();
            assert_eq!(&avif[4..12], b"ftypavif");
            let webp = encode(&p, Format::Webp, &SETTINGS).unwrap();
            assert_eq!(&webp[8..12], b"WEBP");
            let jpeg = encode(&p, Format::Jpeg, &SETTINGS).unwrap();
            assert_eq!(&jpeg[..3], &[0xFF, 0xD8, 0xFF]);
            let png = encode(&p, Format::Png, &SETTINGS).unwrap();
            assert_eq!(&png[1..4], b"PNG");
        }
    }
}
