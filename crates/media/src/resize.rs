//! Resizing with fast_image_resize (SIMD convolution, Lanczos3; alpha is premultiplied for the
//! filter and divided back).

use fast_image_resize::images::{Image, ImageRef};
use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer};

use crate::decode::Pixels;

/// The height of an image `width` wide with the aspect ratio of `src_w`×`src_h`, at least 1.
pub(crate) fn scaled_height(src_w: u32, src_h: u32, width: u32) -> u32 {
    let h = (u64::from(src_h) * u64::from(width) + u64::from(src_w) / 2) / u64::from(src_w.max(1));
    h.clamp(1, u64::from(u32::MAX)) as u32
}

/// `src` resized to `width` (height keeps the aspect ratio).
pub(crate) fn resize_to_width(src: &Pixels, width: u32) -> Result<Pixels, String> {
    let height = scaled_height(src.width, src.height, width);
    resize(src, width, height)
}

/// `src` resized to exactly `width`×`height`.
pub(crate) fn resize(src: &Pixels, width: u32, height: u32) -> Result<Pixels, String> {
    if (width, height) == (src.width, src.height) {
        return Ok(Pixels { width, height, alpha: src.alpha, data: src.data.clone() });
    }
    let pixel_type = if src.alpha { PixelType::U8x4 } else { PixelType::U8x3 };
    let source =
        ImageRef::new(src.width, src.height, &src.data, pixel_type).map_err(|e| e.to_string())?;
    let mut target = Image::new(width, height, pixel_type);
    let options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3));
    Resizer::new().resize(&source, &mut target, &options).map_err(|e| e.to_string())?;
    Ok(Pixels { width, height, alpha: src.alpha, data: target.into_vec() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_aspect_ratio() {
        assert_eq!(scaled_height(4000, 3000, 640), 480);
        assert_eq!(scaled_height(1920, 1080, 320), 180);
        assert_eq!(scaled_height(10_000, 3, 320), 1);
    }

    #[test]
    fn resizes_rgb_and_rgba() {
        let rgb = Pixels { width: 40, height: 20, alpha: false, data: vec![100; 40 * 20 * 3] };
        let small = resize_to_width(&rgb, 10).unwrap();
        assert_eq!((small.width, small.height, small.data.len()), (10, 5, 150));
        assert!(small.data.iter().all(|&v| v == 100));
        let rgba = Pixels { width: 40, height: 20, alpha: true, data: vec![50; 40 * 20 * 4] };
        let small = resize_to_width(&rgba, 20).unwrap();
        assert_eq!(small.data.len(), 20 * 10 * 4);
    }
}
