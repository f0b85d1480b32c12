//! Content codings: which one a request accepts (`Accept-Encoding`), and compressing a file
//! into gzip and brotli once, deterministically, when it is first cached.

use std::io::Write;

/// A representation of a file's bytes, as sent in `Content-Encoding`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Coding {
    Identity,
    Gzip,
    Br,
}

/// Files smaller than this are sent as they are: the codings' framing eats the gain.
const MIN_COMPRESS: usize = 256;
/// Above this size brotli's best quality costs too long for a first request.
const BR_BEST_MAX: usize = 1 << 20;

/// The q-values a request gives gzip and brotli (0 when refused or not named), from its
/// `Accept-Encoding`. `*` stands for any coding not named. Parsed without allocating.
pub(crate) fn accepted(header: Option<&[u8]>) -> (f32, f32) {
    let Some(header) = header else { return (0.0, 0.0) };
    let (mut gzip, mut br, mut star) = (None, None, None);
    for item in header.split(|&b| b == b',') {
        let mut parts = item.split(|&b| b == b';');
        let name = trim(parts.next().unwrap_or_default());
        let q = parts
            .find_map(|p| {
                let p = trim(p);
                (p.len() > 2 && p[..2].eq_ignore_ascii_case(b"q="))
                    .then(|| std::str::from_utf8(&p[2..]).ok()?.parse::<f32>().ok())
                    .flatten()
            })
            .unwrap_or(1.0);
        if name.eq_ignore_ascii_case(b"gzip") || name.eq_ignore_ascii_case(b"x-gzip") {
            gzip = Some(q);
        } else if name.eq_ignore_ascii_case(b"br") {
            br = Some(q);
        } else if name == b"*" {
            star = Some(q);
        }
    }
    (gzip.or(star).unwrap_or(0.0), br.or(star).unwrap_or(0.0))
}

/// The coding to send given the accepted q-values and which compressed variants exist:
/// the highest q wins, brotli on a tie (it is the smaller one).
pub(crate) fn choose((gzip_q, br_q): (f32, f32), has_gzip: bool, has_br: bool) -> Coding {
    let br = if has_br { br_q } else { 0.0 };
    let gzip = if has_gzip { gzip_q } else { 0.0 };
    if br > 0.0 && br >= gzip {
        Coding::Br
    } else if gzip > 0.0 {
        Coding::Gzip
    } else {
        Coding::Identity
    }
}

fn trim(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}

/// Whether a file of this Content-Type is worth compressing (text, scripts, JSON, SVG).
pub(crate) fn compressible(content_type: &str) -> bool {
    content_type.starts_with("text/")
        || content_type.starts_with("application/json")
        || content_type.starts_with("application/manifest+json")
        || content_type.starts_with("application/javascript")
        || content_type.contains("xml")
        || content_type == "image/x-icon"
}

/// gzip at its best level; `None` when it would not be smaller.
pub(crate) fn gzip(data: &[u8]) -> Option<Vec<u8>> {
    if data.len() < MIN_COMPRESS {
        return None;
    }
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(data.len() / 3),
        flate2::Compression::best(),
    );
    encoder.write_all(data).ok()?;
    let out = encoder.finish().ok()?;
    (out.len() < data.len()).then_some(out)
}

/// brotli at its best quality (a little lower for large files); `None` when not smaller.
pub(crate) fn brotli(data: &[u8]) -> Option<Vec<u8>> {
    if data.len() < MIN_COMPRESS {
        return None;
    }
    let params = brotli::enc::BrotliEncoderParams {
        quality: if data.len() <= BR_BEST_MAX { 11 } else { 9 },
        lgwin: 22,
        size_hint: data.len(),
        ..Default::default()
    };
    let mut out = Vec::with_capacity(data.len() / 3);
    brotli::BrotliCompress(&mut &data[..], &mut out, &params).ok()?;
    (out.len() < data.len()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::{Coding, accepted, brotli, choose, gzip};

    #[test]
    fn accept_encoding() {
        let cases: &[(&str, (f32, f32))] = &[
            ("", (0.0, 0.0)),
            ("br, gzip", (1.0, 1.0)),
            ("gzip, deflate", (1.0, 0.0)),
            ("GZIP;q=0.5, br;q=0", (0.5, 0.0)),
            ("*", (1.0, 1.0)),
            ("*;q=0.2, br", (0.2, 1.0)),
            ("identity", (0.0, 0.0)),
            ("gzip ; q=0.8 , br ; q=0.9", (0.8, 0.9)),
            ("gzip;q=bad", (1.0, 0.0)),
        ];
        for (header, expected) in cases {
            assert_eq!(accepted(Some(header.as_bytes())), *expected, "{header}");
        }
        assert_eq!(accepted(None), (0.0, 0.0));
    }

    #[test]
    fn choice() {
        assert_eq!(choose((1.0, 1.0), true, true), Coding::Br);
        assert_eq!(choose((1.0, 0.5), true, true), Coding::Gzip);
        assert_eq!(choose((1.0, 1.0), true, false), Coding::Gzip);
        assert_eq!(choose((0.0, 1.0), true, false), Coding::Identity);
        assert_eq!(choose((0.0, 0.0), true, true), Coding::Identity);
    }

    #[test]
    fn compression_is_deterministic_and_round_trips() {
        let text = "<p>breathe in, breathe out</p>\n".repeat(100);
        let (g1, g2) = (gzip(text.as_bytes()).unwrap(), gzip(text.as_bytes()).unwrap());
        assert_eq!(g1, g2);
        let (b1, b2) = (brotli(text.as_bytes()).unwrap(), brotli(text.as_bytes()).unwrap());
        assert_eq!(b1, b2);
        let mut back = Vec::new();
        brotli::BrotliDecompress(&mut &b1[..], &mut back).unwrap();
        assert_eq!(back, text.as_bytes());
        assert_eq!(gzip(b"tiny"), None);
    }
}
