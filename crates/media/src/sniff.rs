//! Recognising a file's format from its first bytes (never from its name), and whether a
//! raster image is animated, without decoding anything.

use crate::SourceFormat;

/// What the first bytes of a file say it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Sniffed {
    Image(SourceFormat),
    /// A known image format the pipeline does not read ("TIFF", "BMP", "HEIC", …).
    Unsupported(&'static str),
    /// Not an image at all: a short description of what it starts with.
    NotAnImage(String),
}

pub(crate) fn sniff(bytes: &[u8]) -> Sniffed {
    let starts = |magic: &[u8]| bytes.starts_with(magic);
    if starts(&[0xFF, 0xD8, 0xFF]) {
        return Sniffed::Image(SourceFormat::Jpeg);
    }
    if starts(b"\x89PNG\r\n\x1a\n") {
        return Sniffed::Image(SourceFormat::Png);
    }
    if starts(b"GIF87a") || starts(b"GIF89a") {
        return Sniffed::Image(SourceFormat::Gif);
    }
    if bytes.len() >= 12 && starts(b"RIFF") && &bytes[8..12] == b"WEBP" {
        return Sniffed::Image(SourceFormat::Webp);
    }
    if starts(b"II*\0") || starts(b"MM\0*") {
        return Sniffed::Unsupported("TIFF");
    }
    if starts(b"BM") && bytes.len() >= 14 {
        return Sniffed::Unsupported("BMP");
    }
    if starts(&[0, 0, 1, 0]) {
        return Sniffed::Unsupported("ICO");
    }
    if starts(&[0xFF, 0x0A]) || starts(b"\0\0\0\x0cJXL \r\n\x87\n") {
        return Sniffed::Unsupported("JPEG XL");
    }
    if bytes.len() >= 12 && &bytes[4..8] == b"ftyp" {
        return match &bytes[8..12] {
            b"avif" | b"avis" => Sniffed::Unsupported("AVIF"),
            b"heic" | b"heix" | b"hevc" | b"heim" | b"heis" | b"mif1" | b"msf1" => {
                Sniffed::Unsupported("HEIC")
            }
            _ => Sniffed::NotAnImage("an ISO media file (video or audio?)".into()),
        };
    }
    if is_svg(bytes) {
        return Sniffed::Image(SourceFormat::Svg);
    }
    Sniffed::NotAnImage(describe(bytes))
}

fn is_svg(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    text.starts_with('<') && text.contains("<svg")
}

fn describe(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "the file is empty".into();
    }
    let head = &bytes[..bytes.len().min(16)];
    if head.iter().all(|b| b.is_ascii_graphic() || *b == b' ' || b.is_ascii_whitespace()) {
        let text: String =
            String::from_utf8_lossy(head).split_whitespace().collect::<Vec<_>>().join(" ");
        format!("it starts with the text \"{text}\"")
    } else {
        let hex: Vec<String> = head.iter().take(8).map(|b| format!("{b:02x}")).collect();
        format!("unknown content starting with bytes {}", hex.join(" "))
    }
}

/// Whether the image has more than one frame (GIF with several images, animated WebP, APNG).
/// Reads the container's structure only; a malformed structure counts as not animated (the
/// decoder reports the damage).
pub(crate) fn is_animated(format: SourceFormat, bytes: &[u8]) -> bool {
    match format {
        SourceFormat::Gif => gif_frames(bytes) > 1,
        SourceFormat::Webp => {
            // VP8X chunk: flags byte, bit 1 = animation.
            bytes.len() > 20 && &bytes[12..16] == b"VP8X" && bytes[20] & 0x02 != 0
        }
        SourceFormat::Png => png_has_actl(bytes),
        SourceFormat::Jpeg | SourceFormat::Svg => false,
    }
}

/// Counts the image descriptors of a GIF, walking its blocks (no LZW decoding).
fn gif_frames(bytes: &[u8]) -> usize {
    let mut pos = 13; // header (6) + logical screen descriptor (7)
    let Some(&flags) = bytes.get(10) else { return 0 };
    if flags & 0x80 != 0 {
        pos += 3 << ((flags & 0x07) + 1);
    }
    let skip_sub_blocks = |mut pos: usize| -> Option<usize> {
        loop {
            let len = *bytes.get(pos)? as usize;
            pos += 1;
            if len == 0 {
                return Some(pos);
            }
            pos += len;
        }
    };
    let mut frames = 0;
    loop {
        match bytes.get(pos) {
            Some(0x21) => match skip_sub_blocks(pos + 2) {
                Some(next) => pos = next,
                None => return frames,
            },
            Some(0x2C) => {
                frames += 1;
                if frames > 1 {
                    return frames;
                }
                let Some(&local) = bytes.get(pos + 9) else { return frames };
                pos += 10;
                if local & 0x80 != 0 {
                    pos += 3 << ((local & 0x07) + 1);
                }
                pos += 1; // LZW minimum code size
                match skip_sub_blocks(pos) {
                    Some(next) => pos = next,
                    None => return frames,
                }
            }
            _ => return frames,
        }
    }
}

/// An APNG has an `acTL` chunk before its first `IDAT`.
fn png_has_actl(bytes: &[u8]) -> bool {
    let mut pos = 8;
    while pos + 8 <= bytes.len() {
        let len = u32::from_be_bytes([bytes[pos], bytes[pos + 1], bytes[pos + 2], bytes[pos + 3]])
            as usize;
        let kind = &bytes[pos + 4..pos + 8];
        if kind == b"acTL" {
            return true;
        }
        if kind == b"IDAT" {
            return false;
        }
        pos = pos.saturating_add(12).saturating_add(len);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_content() {
        assert_eq!(sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Sniffed::Image(SourceFormat::Jpeg));
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n...."), Sniffed::Image(SourceFormat::Png));
        assert_eq!(sniff(b"GIF89a......"), Sniffed::Image(SourceFormat::Gif));
        assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 "), Sniffed::Image(SourceFormat::Webp));
        assert_eq!(
            sniff(b"<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
            Sniffed::Image(SourceFormat::Svg)
        );
        assert_eq!(sniff(b"II*\0abc"), Sniffed::Unsupported("TIFF"));
        assert_eq!(sniff(b"BM\0\0\0\0\0\0\0\0\0\0\0\0\0\0"), Sniffed::Unsupported("BMP"));
        assert_eq!(sniff(b"\0\0\0\x18ftypheic\0\0\0\0"), Sniffed::Unsupported("HEIC"));
    }

    #[test]
    fn describes_what_is_not_an_image() {
        assert_eq!(
            sniff(b"hello, world\n"),
            Sniffed::NotAnImage("it starts with the text \"hello, world\"".into())
        );
        assert_eq!(sniff(b""), Sniffed::NotAnImage("the file is empty".into()));
        assert_eq!(
            sniff(&[1, 2, 3, 0xff]),
            Sniffed::NotAnImage("unknown content starting with bytes 01 02 03 ff".into())
        );
    }

    #[test]
    fn truncated_gif_structure_is_not_a_panic() {
        for n in 0..20 {
            let mut gif = b"GIF89a\x01\x00\x01\x00\x80\x00\x00".to_vec();
            gif.truncate(n);
            assert!(!is_animated(SourceFormat::Gif, &gif));
        }
    }
}
