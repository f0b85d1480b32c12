//! Bad input through the public API: every case gives its own error (or, for the formats the
//! pipeline converts, a result), naming the file; never a panic, a hang or unbounded memory.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use image::codecs::gif::GifEncoder;
use image::{DynamicImage, Frame, ImageBuffer, ImageFormat, Rgb, Rgba, RgbaImage};
use stillpoint_media::{ErrorKind, Format, ImageCache, MediaError, Processed, SourceFormat, probe};

/// A cache and a folder of sources, both in one temporary directory.
struct Case {
    dir: tempfile::TempDir,
    cache: ImageCache,
}

impl Case {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let cache = ImageCache::open(&dir.path().join("cache"), 1 << 30).unwrap();
        Self { dir, cache }
    }

    /// Writes `bytes` as `name` and returns its path.
    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn process(&self, path: &Path) -> Result<Processed, MediaError> {
        self.cache.process(path)
    }
}

fn encode(image: DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, format).unwrap();
    out.into_inner()
}

/// A photo-like gradient, so that the encoded file has real entropy-coded data to damage.
fn gradient(width: u32, height: u32) -> DynamicImage {
    DynamicImage::ImageRgb8(ImageBuffer::from_fn(width, height, |x, y| {
        Rgb([(x * 7 % 256) as u8, (y * 5 % 256) as u8, ((x ^ y) % 256) as u8])
    }))
}

/// The error's display names the file first, then says what is wrong.
fn assert_names_file(e: &MediaError, path: &Path) {
    let shown = e.to_string();
    assert!(shown.starts_with(&format!("{}: ", path.display())), "{shown}");
    assert_eq!(e.path, path);
}

/// The peak resident memory of this process in bytes (Linux; `None` elsewhere). nextest runs
/// each test in its own process, so this is the test's own peak there.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn assert_bounded_memory() {
    if let Some(peak) = peak_rss() {
        assert!(peak < 512 << 20, "peak memory {} MiB", peak >> 20);
    }
}

/// A chunk of a PNG: length, type, data, CRC.
fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc32([kind.as_slice(), data].concat().as_slice()).to_be_bytes());
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// A PNG whose header says `width`×`height` RGB pixels, with a few bytes of (valid zlib) data:
/// a decompression bomb's shape, without the bomb.
fn png_declaring(width: u32, height: u32) -> Vec<u8> {
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]); // 8-bit RGB, no interlace
    // An empty stored zlib stream: 78 01, final stored block of length 0, adler32 of nothing.
    let idat = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01];
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(png_chunk(b"IHDR", &ihdr));
    out.extend(png_chunk(b"IDAT", &idat));
    out.extend(png_chunk(b"IEND", &[]));
    out
}

/// A real small JPEG whose start-of-frame is patched to say `width`×`height`.
fn jpeg_declaring(width: u16, height: u16) -> Vec<u8> {
    let mut jpeg = encode(gradient(16, 16), ImageFormat::Jpeg);
    let sof = jpeg
        .windows(2)
        .position(|w| w[0] == 0xFF && matches!(w[1], 0xC0..=0xC2))
        .expect("a start-of-frame marker");
    // FF Cx, length (2), precision (1), height (2), width (2).
    jpeg[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
    jpeg[sof + 7..sof + 9].copy_from_slice(&width.to_be_bytes());
    jpeg
}

/// A 2×2 24-bit BMP, written by hand (the pipeline's `image` has no BMP codec).
fn bmp() -> Vec<u8> {
    let pixels = [0u8, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0]; // 2 rows of 8
    let mut out = b"BM".to_vec();
    out.extend_from_slice(&(54 + pixels.len() as u32).to_le_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&54u32.to_le_bytes());
    out.extend_from_slice(&40u32.to_le_bytes()); // BITMAPINFOHEADER
    out.extend_from_slice(&2i32.to_le_bytes());
    out.extend_from_slice(&2i32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&24u16.to_le_bytes());
    out.extend_from_slice(&[0; 24]);
    out.extend_from_slice(&pixels);
    out
}

/// A minimal little-endian TIFF header (no codec reads further than the magic).
fn tiff() -> Vec<u8> {
    let mut out = b"II*\0".to_vec();
    out.extend_from_slice(&8u32.to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out
}

fn animated_gif() -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new(&mut out);
        let frames = [Rgba([200u8, 30, 30, 255]), Rgba([30, 30, 200, 255])]
            .into_iter()
            .map(|c| Frame::new(RgbaImage::from_pixel(48, 32, c)));
        encoder.encode_frames(frames).unwrap();
    }
    out
}

fn expect_err(result: Result<Processed, MediaError>) -> MediaError {
    match result {
        Ok(p) => panic!("processed: {p:?}"),
        Err(e) => e,
    }
}

#[test]
fn a_png_declaring_20000_by_20000_pixels_is_too_large_from_its_header() {
    let case = Case::new();
    let path = case.file("bomb.png", &png_declaring(20_000, 20_000));
    let e = probe(&path).unwrap_err();
    assert!(
        matches!(e.kind, ErrorKind::TooLarge { width: 20_000, height: 20_000, limit: 100 }),
        "{e:?}"
    );
    assert_names_file(&e, &path);
    assert!(e.to_string().contains("20000×20000"), "{e}");
    let e = expect_err(case.process(&path));
    assert!(matches!(e.kind, ErrorKind::TooLarge { .. }), "{e:?}");
    assert_names_file(&e, &path);
    assert_bounded_memory();
}

#[test]
fn a_jpeg_declaring_20000_by_20000_pixels_is_too_large_from_its_header() {
    let case = Case::new();
    let path = case.file("bomb.jpg", &jpeg_declaring(20_000, 20_000));
    let e = probe(&path).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::TooLarge { width: 20_000, height: 20_000, .. }), "{e:?}");
    assert_names_file(&e, &path);
    let e = expect_err(case.process(&path));
    assert!(matches!(e.kind, ErrorKind::TooLarge { .. }), "{e:?}");
    assert_names_file(&e, &path);
    assert_bounded_memory();
}

#[test]
fn a_large_declared_size_under_the_cap_with_no_data_is_a_decode_error_in_bounded_memory() {
    // 10000×9000 = 90 MP, under the cap: the header passes, the data is missing.
    let case = Case::new();
    let path = case.file("empty-large.png", &png_declaring(10_000, 9_000));
    let found = probe(&path).unwrap();
    assert_eq!((found.width, found.height, found.format), (10_000, 9_000, SourceFormat::Png));
    let e = expect_err(case.process(&path));
    assert!(matches!(e.kind, ErrorKind::Decode(_)), "{e:?}");
    assert_names_file(&e, &path);
    // The decoder may hold the frame (270 MB of RGB) but never more than its 1 GiB limit.
    if let Some(peak) = peak_rss() {
        assert!(peak < 1 << 30, "peak memory {} MiB", peak >> 20);
    }
}

#[test]
fn a_corrupt_png_is_a_decode_error() {
    let case = Case::new();
    let mut png = encode(gradient(64, 48), ImageFormat::Png);
    let idat = png.windows(4).position(|w| w == b"IDAT").unwrap();
    // Damage the compressed data, not the header: the file is still recognised as a PNG.
    for b in &mut png[idat + 8..idat + 40] {
        *b ^= 0x5A;
    }
    let path = case.file("corrupt.png", &png);
    assert_eq!(probe(&path).unwrap().format, SourceFormat::Png, "the header is intact");
    let e = expect_err(case.process(&path));
    assert!(matches!(e.kind, ErrorKind::Decode(_)), "{e:?}");
    assert_names_file(&e, &path);
    assert!(e.to_string().contains("cannot decode the image"), "{e}");
}

#[test]
fn a_corrupt_jpeg_header_is_a_decode_error() {
    let case = Case::new();
    let mut jpeg = encode(gradient(64, 48), ImageFormat::Jpeg);
    // Keep SOI, break everything after it: a JPEG by its magic, no valid segments.
    for b in &mut jpeg[3..40] {
        *b = 0x00;
    }
    let path = case.file("corrupt.jpg", &jpeg);
    let e = probe(&path).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Decode(_)), "{e:?}");
    assert_names_file(&e, &path);
    let e = expect_err(case.process(&path));
    assert!(matches!(e.kind, ErrorKind::Decode(_)), "{e:?}");
    assert_names_file(&e, &path);
}

#[test]
fn a_truncated_png_is_a_decode_error() {
    let case = Case::new();
    let png = encode(gradient(64, 48), ImageFormat::Png);
    let path = case.file("half.png", &png[..png.len() / 2]);
    let e = expect_err(case.process(&path));
    assert!(matches!(e.kind, ErrorKind::Decode(_)), "{e:?}");
    assert_names_file(&e, &path);
}

#[test]
fn a_truncated_jpeg_is_a_decode_error() {
    let case = Case::new();
    let jpeg = encode(gradient(64, 48), ImageFormat::Jpeg);
    let path = case.file("half.jpg", &jpeg[..jpeg.len() / 2]);
    let e = expect_err(case.process(&path));
    assert!(matches!(e.kind, ErrorKind::Decode(_)), "{e:?}");
    assert_names_file(&e, &path);
}

#[test]
fn every_truncation_is_an_error_never_a_panic() {
    let case = Case::new();
    for (name, bytes) in [
        ("cut.jpg", encode(gradient(24, 16), ImageFormat::Jpeg)),
        ("cut.png", encode(gradient(24, 16), ImageFormat::Png)),
    ] {
        for n in (0..bytes.len()).step_by(7) {
            let path = case.file(name, &bytes[..n]);
            let _ = probe(&path);
            let e = expect_err(case.process(&path));
            assert_names_file(&e, &path);
        }
    }
    // A GIF cut after its first frame is a whole one-frame GIF: only never a panic.
    let gif = animated_gif();
    for n in (0..gif.len()).step_by(5) {
        let path = case.file("cut.gif", &gif[..n]);
        let _ = probe(&path);
        if let Err(e) = case.process(&path) {
            assert_names_file(&e, &path);
        }
    }
}

#[test]
fn text_named_jpg_is_not_an_image() {
    let case = Case::new();
    let path = case.file("notes.jpg", b"Meeting notes: breathe in, breathe out.\n");
    let e = probe(&path).unwrap_err();
    assert!(matches!(&e.kind, ErrorKind::NotAnImage(what) if what.contains("Meeting")), "{e:?}");
    assert_names_file(&e, &path);
    let e = expect_err(case.process(&path));
    assert!(matches!(e.kind, ErrorKind::NotAnImage(_)), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!("{}: not an image (it starts with the text \"Meeting notes: b\")", path.display())
    );
}

#[test]
fn bmp_and_tiff_are_unsupported_formats() {
    let case = Case::new();
    for (name, bytes, format) in [("scan.bmp", bmp(), "BMP"), ("scan.tiff", tiff(), "TIFF")] {
        let path = case.file(name, &bytes);
        let e = probe(&path).unwrap_err();
        assert!(matches!(&e.kind, ErrorKind::Unsupported(f) if f == format), "{e:?}");
        assert_names_file(&e, &path);
        let e = expect_err(case.process(&path));
        assert!(matches!(&e.kind, ErrorKind::Unsupported(f) if f == format), "{e:?}");
        assert_names_file(&e, &path);
        assert!(e.to_string().contains("use JPEG, PNG, WebP, GIF or SVG"), "{e}");
    }
}

#[test]
fn an_animated_gif_uses_its_first_frame_and_says_so() {
    let case = Case::new();
    let path = case.file("loop.gif", &animated_gif());
    let found = probe(&path).unwrap();
    assert_eq!((found.width, found.height, found.format), (48, 32, SourceFormat::Gif));
    assert!(found.animated);
    let p = case.process(&path).unwrap();
    assert!(p.animated);
    assert_eq!((p.width, p.height), (48, 32));
    assert_eq!(p.fallback_format(), Format::Png);
    // The first frame is red: so is the dominant colour.
    let red = u8::from_str_radix(&p.color[1..3], 16).unwrap();
    let blue = u8::from_str_radix(&p.color[5..7], 16).unwrap();
    assert!(red > 150 && blue < 80, "{}", p.color);
    // A single-frame GIF is not animated.
    let mut still = Vec::new();
    GifEncoder::new(&mut still)
        .encode_frame(Frame::new(RgbaImage::from_pixel(8, 8, Rgba([1, 2, 3, 255]))))
        .unwrap();
    let path = case.file("still.gif", &still);
    assert!(!case.process(&path).unwrap().animated);
}

#[test]
fn a_cmyk_jpeg_becomes_8_bit_rgb_renditions() {
    let case = Case::new();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cmyk.jpg");
    let path = case.file("cmyk.jpg", &std::fs::read(fixture).unwrap());
    let found = probe(&path).unwrap();
    assert_eq!((found.width, found.height, found.format), (64, 48, SourceFormat::Jpeg));
    let p = case.process(&path).unwrap();
    assert_eq!((p.width, p.height), (64, 48));
    assert!(!p.animated);
    assert_eq!(p.fallback_format(), Format::Jpeg);
    let fallback = case.cache.path(p.fallback());
    let decoded = image::open(&fallback).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (64, 48));
    assert_eq!(decoded.color(), image::ColorType::Rgb8, "an 8-bit RGB JPEG");
    // Red at the top, blue at the bottom (the fixture's gradient), not inverted CMYK.
    let rgb = decoded.to_rgb8();
    let top = rgb.get_pixel(32, 1).0;
    let bottom = rgb.get_pixel(32, 46).0;
    assert!(top[0] > 180 && top[2] < 80, "top {top:?}");
    assert!(bottom[2] > 180 && bottom[0] < 80, "bottom {bottom:?}");
}

#[test]
fn a_16_bit_png_becomes_8_bit_renditions() {
    let case = Case::new();
    let deep = ImageBuffer::from_fn(40, 30, |x, _| Rgb([x as u16 * 1600, 0, 65535]));
    let png = encode(DynamicImage::ImageRgb16(deep), ImageFormat::Png);
    let path = case.file("deep.png", &png);
    let p = case.process(&path).unwrap();
    assert_eq!((p.width, p.height), (40, 30));
    assert_eq!(p.fallback_format(), Format::Png);
    for r in &p.renditions {
        assert_eq!((r.width, r.height), (40, 30), "{r:?}");
        assert!(case.cache.path(r).is_file(), "{r:?}");
    }
    let fallback = image::open(case.cache.path(p.fallback())).unwrap();
    assert_eq!(fallback.color(), image::ColorType::Rgb8);
    assert_eq!(fallback.to_rgb8().get_pixel(0, 0).0, [0, 0, 255]);
}

#[test]
fn a_missing_file_is_an_io_error_naming_it() {
    let case = Case::new();
    let path = case.dir.path().join("nowhere.png");
    let e = probe(&path).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Io(_)), "{e:?}");
    assert_names_file(&e, &path);
    let e = expect_err(case.process(&path));
    assert!(matches!(e.kind, ErrorKind::Io(_)), "{e:?}");
}
