//! One source image → its renditions: decode once, resize down a cascade of widths, encode
//! each width as AVIF, WebP and the fallback format, plus the sharing JPEG.

use std::time::{Duration, Instant};

use crate::analyse::{dominant_color, preview};
use crate::decode::{Pixels, decode};
use crate::encode::{Settings, encode};
use crate::error::ErrorKind;
use crate::resize::resize_to_width;
use crate::sniff::is_animated;
use crate::{Format, Processed, Rendition, SourceFormat};

/// Bumped whenever the pipeline's output changes for the same input: part of every key.
pub const PIPELINE_VERSION: u32 = 3;

/// The widths of the renditions (those no wider than the source, plus the source width when
/// it is narrower than the largest). 768 is the full-width slot of a phone at twice its CSS
/// pixels (375–412 px wide): without it such a phone takes the 960 px rendition, a third more
/// pixels than it draws (docs/images.md, "Widths").
pub const WIDTHS: [u32; 5] = [320, 640, 768, 960, 1280];

/// The most bits a pixel an AVIF rendition may spend: one over it (a detailed photograph of
/// leaves, gravel or water) is encoded again [`AVIF_BUDGET_STEP`] quality points lower and the
/// smaller file kept. 1.2 bits keeps a 768 px cover up to 3:2 within a phone's 60 KB
/// (docs/images.md, "Bytes").
pub const AVIF_BUDGET_BITS: f64 = 1.2;

/// How far below the settings' quality the second AVIF encoding goes.
pub const AVIF_BUDGET_STEP: f32 = 10.0;

/// The width of the sharing (`og:image`) JPEG.
pub const SHARE_WIDTH: u32 = 1200;

/// The encoder settings in use.
pub const SETTINGS: Settings = Settings {
    avif_quality: 60.0,
    avif_speed: 8,
    webp_quality: 75.0,
    webp_method: 4,
    jpeg_quality: 80,
};

/// Where the time of one image went.
#[derive(Debug, Default, Clone, Copy)]
pub struct Timings {
    pub decode: Duration,
    pub resize: Duration,
    pub avif: Duration,
    pub webp: Duration,
    pub fallback: Duration,
    /// Sharing JPEG, colour, preview.
    pub other: Duration,
}

impl std::ops::AddAssign for Timings {
    fn add_assign(&mut self, o: Self) {
        self.decode += o.decode;
        self.resize += o.resize;
        self.avif += o.avif;
        self.webp += o.webp;
        self.fallback += o.fallback;
        self.other += o.other;
    }
}

/// The cache key of a source: 16 hex digits of XXH3 over the pipeline version, the widths,
/// the settings and the source's `digest`: the [`Digest`] of its bytes, as hex, which is also
/// the build's digest of a file, so a build that knows a file's digest finds its entry without
/// reading the file.
pub(crate) fn key(digest: &str, settings: &Settings) -> String {
    let recipe = format!(
        "stillpoint-media {PIPELINE_VERSION}\n{WIDTHS:?} {SHARE_WIDTH} {AVIF_BUDGET_BITS} {AVIF_BUDGET_STEP}\n{}\n{digest}",
        settings.fingerprint()
    );
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(recipe.as_bytes()))
}

/// The rendition widths for a source `width` wide, ascending: those of `set` (ascending) below
/// it, then the widest `set` allows.
pub(crate) fn widths_of(set: &[u32], width: u32) -> Vec<u32> {
    let widest = width.min(set[set.len() - 1]);
    let mut out: Vec<u32> = set.iter().copied().filter(|&w| w < widest).collect();
    out.push(widest);
    out
}

/// The fallback format: the source's own when it is JPEG or PNG, else JPEG, or PNG when the
/// image has transparency.
pub(crate) fn fallback_format(source: SourceFormat, alpha: bool) -> Format {
    match source {
        _ if alpha => Format::Png,
        SourceFormat::Png | SourceFormat::Gif => Format::Png,
        _ => Format::Jpeg,
    }
}

fn file_name(key: &str, width: u32, format: Format) -> String {
    format!("{key}-{width}.{}", format.ext())
}

/// `source` at each of the widths of `set` it allows ([`widths_of`]), ascending. A cascade: each
/// width is resized from the next larger one (Lanczos3 at ratios ≥ 1/2 loses nothing visible
/// and saves most of the work on large photos).
pub(crate) fn cascade(source: &Pixels, set: &[u32]) -> Result<Vec<Pixels>, String> {
    let mut sized: Vec<Pixels> = Vec::new();
    for &width in widths_of(set, source.width).iter().rev() {
        let from = sized.last().unwrap_or(source);
        sized.push(resize_to_width(from, width)?);
    }
    sized.reverse();
    Ok(sized)
}

/// AVIF at the settings' quality, or, when that spends more than [`AVIF_BUDGET_BITS`] a pixel,
/// the smaller of it and an encoding [`AVIF_BUDGET_STEP`] points lower.
fn avif_within_budget(pixels: &Pixels, settings: &Settings) -> Result<Vec<u8>, ErrorKind> {
    let first = encode(pixels, Format::Avif, settings)?;
    let budget = f64::from(pixels.width) * f64::from(pixels.height) * AVIF_BUDGET_BITS / 8.0;
    if first.len() as f64 <= budget {
        return Ok(first);
    }
    let lower = Settings { avif_quality: settings.avif_quality - AVIF_BUDGET_STEP, ..*settings };
    let second = encode(pixels, Format::Avif, &lower)?;
    Ok(if second.len() < first.len() { second } else { first })
}

/// Where each encoded file goes: its name and bytes.
pub(crate) type Sink<'a> = dyn FnMut(&str, &[u8]) -> Result<(), ErrorKind> + 'a;

/// Processes `bytes` (of `format`) under `key`, handing each encoded file to `sink` as soon as
/// it is ready.
pub(crate) fn run(
    bytes: &[u8],
    format: SourceFormat,
    key: &str,
    settings: &Settings,
    sink: &mut Sink<'_>,
) -> Result<(Processed, Timings), ErrorKind> {
    let mut t = Timings::default();
    let start = Instant::now();
    let source = decode(bytes, format)?;
    t.decode = start.elapsed();
    let fallback = fallback_format(format, source.alpha);

    let start = Instant::now();
    let sized = cascade(&source, &WIDTHS).map_err(ErrorKind::Decode)?;
    t.resize = start.elapsed();

    let mut renditions = Vec::new();
    for pixels in &sized {
        for rendition_format in [Format::Avif, Format::Webp, fallback] {
            let start = Instant::now();
            let encoded = match rendition_format {
                Format::Avif => avif_within_budget(pixels, settings)?,
                other => encode(pixels, other, settings)?,
            };
            let elapsed = start.elapsed();
            match rendition_format {
                Format::Avif => t.avif += elapsed,
                Format::Webp => t.webp += elapsed,
                _ => t.fallback += elapsed,
            }
            let file = file_name(key, pixels.width, rendition_format);
            sink(&file, &encoded)?;
            renditions.push(Rendition {
                width: pixels.width,
                height: pixels.height,
                format: rendition_format,
                file,
            });
        }
    }

    let start = Instant::now();
    let share_width = SHARE_WIDTH.min(source.width);
    let share = match renditions.iter().find(|r| r.width == share_width && r.format == Format::Jpeg)
    {
        Some(r) => r.clone(),
        None => {
            let pixels = resize_to_width(&source, share_width).map_err(ErrorKind::Decode)?;
            let encoded = encode(&pixels, Format::Jpeg, settings)?;
            let file = file_name(key, share_width, Format::Jpeg);
            sink(&file, &encoded)?;
            Rendition { width: pixels.width, height: pixels.height, format: Format::Jpeg, file }
        }
    };
    let smallest = &sized[0];
    let color = dominant_color(smallest);
    let preview = preview(smallest)?;
    t.other = start.elapsed();

    let processed = Processed {
        key: key.to_string(),
        width: source.width,
        height: source.height,
        renditions,
        share,
        color,
        preview,
        animated: is_animated(format, bytes),
    };
    Ok((processed, t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use stillpoint_fingerprint::Digest;

    #[test]
    fn widths_never_exceed_the_source() {
        assert_eq!(widths_of(&WIDTHS, 4000), vec![320, 640, 768, 960, 1280]);
        assert_eq!(widths_of(&WIDTHS, 1280), vec![320, 640, 768, 960, 1280]);
        assert_eq!(widths_of(&WIDTHS, 800), vec![320, 640, 768, 800]);
        assert_eq!(widths_of(&WIDTHS, 700), vec![320, 640, 700]);
        assert_eq!(widths_of(&WIDTHS, 320), vec![320]);
        assert_eq!(widths_of(&WIDTHS, 100), vec![100]);
    }

    #[test]
    fn key_is_16_hex_digits_and_depends_on_settings() {
        let digest = Digest::of(b"bytes").to_string();
        let a = key(&digest, &SETTINGS);
        assert_eq!(a.len(), 16);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        let other = Settings { avif_quality: SETTINGS.avif_quality + 10.0, ..SETTINGS };
        assert_ne!(a, key(&digest, &other));
        assert_ne!(a, key(&Digest::of(b"bytes2").to_string(), &SETTINGS));
    }

    /// Noise: the most detail a picture can have, far over the budget at any quality.
    fn noise(width: u32, height: u32) -> Pixels {
        let mut state = 0x2545_f491_u32;
        let data = (0..width * height * 3)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state >> 24) as u8
            })
            .collect();
        Pixels { width, height, alpha: false, data }
    }

    /// A smooth gradient: far under the budget.
    fn gradient(width: u32, height: u32) -> Pixels {
        let data = (0..height)
            .flat_map(|y| (0..width).flat_map(move |x| [(x % 256) as u8, (y % 256) as u8, 128]))
            .collect();
        Pixels { width, height, alpha: false, data }
    }

    #[test]
    fn an_avif_over_the_budget_is_encoded_again_smaller() {
        let detailed = noise(96, 64);
        let at_quality = encode(&detailed, Format::Avif, &SETTINGS).unwrap();
        assert!(at_quality.len() as f64 > 96.0 * 64.0 * AVIF_BUDGET_BITS / 8.0);
        let kept = avif_within_budget(&detailed, &SETTINGS).unwrap();
        assert!(kept.len() < at_quality.len(), "{} ≥ {}", kept.len(), at_quality.len());

        let smooth = gradient(96, 64);
        let at_quality = encode(&smooth, Format::Avif, &SETTINGS).unwrap();
        assert_eq!(avif_within_budget(&smooth, &SETTINGS).unwrap(), at_quality);
    }

    #[test]
    fn fallback_follows_the_source() {
        assert_eq!(fallback_format(SourceFormat::Jpeg, false), Format::Jpeg);
        assert_eq!(fallback_format(SourceFormat::Png, false), Format::Png);
        assert_eq!(fallback_format(SourceFormat::Webp, false), Format::Jpeg);
        assert_eq!(fallback_format(SourceFormat::Webp, true), Format::Png);
    }
}
