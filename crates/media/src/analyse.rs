//! What a page shows while an image loads: its dominant colour and a tiny preview.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::decode::Pixels;
use crate::encode::webp;
use crate::error::ErrorKind;
use crate::resize::resize;

/// The longest side of the preview, in pixels (the browser scales it up, which blurs it).
const PREVIEW_SIDE: u32 = 16;
/// The largest preview data URI, in bytes.
pub const PREVIEW_MAX_BYTES: usize = 400;

/// The dominant colour, `#rrggbb`: the mean of the most populated cell of a 16×16×16 grid
/// of the RGB cube (transparent pixels ignored). `small` should be a small rendition.
pub(crate) fn dominant_color(small: &Pixels) -> String {
    let channels = small.channels();
    let mut cells = vec![(0u32, [0u64; 3]); 4096];
    for px in small.data.chunks_exact(channels) {
        if channels == 4 && px[3] < 128 {
            continue;
        }
        let cell = (usize::from(px[0] >> 4) << 8)
            | (usize::from(px[1] >> 4) << 4)
            | usize::from(px[2] >> 4);
        let entry = &mut cells[cell];
        entry.0 += 1;
        for (sum, &value) in entry.1.iter_mut().zip(&px[..3]) {
            *sum += u64::from(value);
        }
    }
    let (count, sums) = cells.iter().max_by_key(|(count, _)| *count).copied().unwrap_or_default();
    if count == 0 {
        return "#ffffff".into();
    }
    let mean = |c: usize| (sums[c] + u64::from(count) / 2) / u64::from(count);
    format!("#{:02x}{:02x}{:02x}", mean(0), mean(1), mean(2))
}

/// A `data:image/webp;base64,…` URI of the image at most 16 px on its longest side.
pub(crate) fn preview(small: &Pixels) -> Result<String, ErrorKind> {
    let mut uri = String::new();
    for (side, quality) in [(PREVIEW_SIDE, 30.0), (12, 20.0), (8, 10.0)] {
        let (w, h) = fit(small.width, small.height, side);
        let tiny = resize(small, w, h).map_err(ErrorKind::Decode)?;
        let bytes = webp(&tiny, quality, 6)?;
        uri = format!("data:image/webp;base64,{}", STANDARD.encode(bytes));
        if uri.len() <= PREVIEW_MAX_BYTES {
            break;
        }
    }
    Ok(uri)
}

/// The size of `width`×`height` scaled so its longest side is `side` (never enlarged).
fn fit(width: u32, height: u32, side: u32) -> (u32, u32) {
    let longest = width.max(height);
    if longest <= side {
        return (width.max(1), height.max(1));
    }
    let scale = |v: u32| {
        ((u64::from(v) * u64::from(side) + u64::from(longest) / 2) / u64::from(longest)).max(1)
            as u32
    };
    (scale(width), scale(height))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_colours() -> Pixels {
        // 3/4 dark green, 1/4 red.
        let mut data = Vec::new();
        for i in 0..64 {
            data.extend_from_slice(if i % 4 == 0 { &[220, 20, 20] } else { &[20, 90, 40] });
        }
        Pixels { width: 8, height: 8, alpha: false, data }
    }

    #[test]
    fn dominant_colour_is_the_most_common() {
        assert_eq!(dominant_color(&two_colours()), "#145a28");
    }

    #[test]
    fn transparent_pixels_do_not_count() {
        let data = [[0, 0, 0, 0], [0, 0, 0, 0], [255, 255, 255, 255]].concat();
        let p = Pixels { width: 3, height: 1, alpha: true, data };
        assert_eq!(dominant_color(&p), "#ffffff");
    }

    #[test]
    fn preview_is_a_small_webp_data_uri() {
        let uri = preview(&two_colours()).unwrap();
        assert!(uri.starts_with("data:image/webp;base64,"));
        assert!(uri.len() <= PREVIEW_MAX_BYTES, "{}", uri.len());
    }

    #[test]
    fn fit_keeps_the_ratio() {
        assert_eq!(fit(1920, 1080, 16), (16, 9));
        assert_eq!(fit(100, 4000, 16), (1, 16));
        assert_eq!(fit(10, 5, 16), (10, 5));
    }
}
