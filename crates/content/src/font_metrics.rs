//! The vertical metrics and average width of a font file (TrueType/OpenType, WOFF or WOFF2), and
//! the `@font-face` overrides that make a local fallback font take the same space, so the page
//! does not move when the web font arrives.
//!
//! Only three tables are read (`head`, `hhea`, `OS/2`), at the fixed offsets the OpenType
//! specification gives. WOFF tables are zlib streams (flate2); WOFF2 is one Brotli stream
//! (brotli) in which these three tables are never transformed, so no glyph reconstruction is
//! needed.

use std::io::Read;

/// What the fallback overrides are computed from, in font units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FontMetrics {
    pub units_per_em: u16,
    /// Above the baseline: positive.
    pub ascent: i16,
    /// Below the baseline: negative, as fonts store it.
    pub descent: i16,
    pub line_gap: i16,
    /// `OS/2.xAvgCharWidth`.
    pub avg_width: i16,
}

/// A local font the browser falls back on while the web font loads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fallback {
    /// `local()` names, in order: the font and its metric-compatible free clones.
    pub local: &'static [&'static str],
    pub metrics: FontMetrics,
}

/// Arial (Liberation Sans and Arimo share its metrics): for sans-serif stacks.
pub const ARIAL: Fallback = Fallback {
    local: &["Arial", "Liberation Sans", "Arimo"],
    metrics: FontMetrics {
        units_per_em: 2048,
        ascent: 1854,
        descent: -434,
        line_gap: 67,
        avg_width: 904,
    },
};

/// Times New Roman (Liberation Serif and Tinos share its metrics): for serif stacks.
pub const TIMES_NEW_ROMAN: Fallback = Fallback {
    local: &["Times New Roman", "Liberation Serif", "Tinos"],
    metrics: FontMetrics {
        units_per_em: 2048,
        ascent: 1825,
        descent: -443,
        line_gap: 87,
        avg_width: 821,
    },
};

/// The `@font-face` descriptors of a fallback, in percent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overrides {
    pub size_adjust: f64,
    pub ascent: f64,
    pub descent: f64,
    pub line_gap: f64,
}

/// Scales `fallback` to the average width of `font` and gives it `font`'s vertical metrics.
pub fn overrides(font: &FontMetrics, fallback: &Fallback) -> Overrides {
    let em = |v: i16, m: &FontMetrics| f64::from(v) / f64::from(m.units_per_em.max(1));
    let fb = &fallback.metrics;
    let size =
        if font.avg_width > 0 { em(font.avg_width, font) / em(fb.avg_width, fb) } else { 1.0 };
    Overrides {
        size_adjust: size * 100.0,
        ascent: em(font.ascent, font) / size * 100.0,
        descent: em(font.descent, font).abs() / size * 100.0,
        line_gap: em(font.line_gap, font).max(0.0) / size * 100.0,
    }
}

const MAX_FONT: u64 = 64 << 20;

/// Reads the metrics of a font file's bytes.
pub fn read_metrics(bytes: &[u8]) -> Result<FontMetrics, String> {
    let tables = match bytes.get(..4) {
        Some(b"wOF2") => woff2_tables(bytes)?,
        Some(b"wOFF") => woff_tables(bytes)?,
        Some([0, 1, 0, 0] | b"OTTO" | b"true") => sfnt_tables(bytes)?,
        Some(b"ttcf") => return Err("font collections (.ttc) are not supported".into()),
        _ => return Err("not a TrueType, OpenType, WOFF or WOFF2 font".into()),
    };
    let get = |tag: &[u8; 4]| {
        tables.iter().find(|(t, _)| t == tag).map(|(_, d)| d.as_slice()).ok_or_else(|| {
            format!("the font has no `{}` table", String::from_utf8_lossy(tag).trim_end())
        })
    };
    let (head, hhea, os2) = (get(b"head")?, get(b"hhea")?, get(b"OS/2")?);
    let units_per_em = u16_at(head, 18)?;
    if units_per_em == 0 {
        return Err("the font's unitsPerEm is 0".into());
    }
    let use_typo = u16_at(os2, 62)? & (1 << 7) != 0 && os2.len() >= 74;
    let (ascent, descent, line_gap) = if use_typo {
        (i16_at(os2, 68)?, i16_at(os2, 70)?, i16_at(os2, 72)?)
    } else {
        (i16_at(hhea, 4)?, i16_at(hhea, 6)?, i16_at(hhea, 8)?)
    };
    Ok(FontMetrics { units_per_em, ascent, descent, line_gap, avg_width: i16_at(os2, 2)? })
}

type Tables = Vec<([u8; 4], Vec<u8>)>;
const WANTED: [&[u8; 4]; 3] = [b"head", b"hhea", b"OS/2"];

fn u16_at(b: &[u8], at: usize) -> Result<u16, String> {
    b.get(at..at + 2).map(|s| u16::from_be_bytes([s[0], s[1]])).ok_or_else(truncated)
}

fn i16_at(b: &[u8], at: usize) -> Result<i16, String> {
    u16_at(b, at).map(|v| v as i16)
}

fn u32_at(b: &[u8], at: usize) -> Result<u32, String> {
    b.get(at..at + 4).map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]])).ok_or_else(truncated)
}

fn tag_at(b: &[u8], at: usize) -> Result<[u8; 4], String> {
    b.get(at..at + 4).map(|s| [s[0], s[1], s[2], s[3]]).ok_or_else(truncated)
}

fn truncated() -> String {
    "the font file is truncated".into()
}

fn slice(b: &[u8], offset: u32, len: u32) -> Result<&[u8], String> {
    let start = offset as usize;
    b.get(start..start.checked_add(len as usize).ok_or_else(truncated)?).ok_or_else(truncated)
}

fn sfnt_tables(b: &[u8]) -> Result<Tables, String> {
    let mut tables = Vec::new();
    for i in 0..usize::from(u16_at(b, 4)?) {
        let rec = 12 + 16 * i;
        let tag = tag_at(b, rec)?;
        if WANTED.contains(&&tag) {
            tables.push((tag, slice(b, u32_at(b, rec + 8)?, u32_at(b, rec + 12)?)?.to_vec()));
        }
    }
    Ok(tables)
}

fn woff_tables(b: &[u8]) -> Result<Tables, String> {
    let mut tables = Vec::new();
    for i in 0..usize::from(u16_at(b, 12)?) {
        let rec = 44 + 20 * i;
        let tag = tag_at(b, rec)?;
        if !WANTED.contains(&&tag) {
            continue;
        }
        let (offset, comp, orig) = (u32_at(b, rec + 4)?, u32_at(b, rec + 8)?, u32_at(b, rec + 12)?);
        let data = slice(b, offset, comp)?;
        let data = if comp < orig {
            let mut out = Vec::new();
            flate2::read::ZlibDecoder::new(data)
                .take(u64::from(orig))
                .read_to_end(&mut out)
                .map_err(|e| format!("a WOFF table does not decompress: {e}"))?;
            out
        } else {
            data.to_vec()
        };
        tables.push((tag, data));
    }
    Ok(tables)
}

/// The tags WOFF2 refers to by index (WOFF2 §5.1, "Known Table Tags").
const KNOWN: [&[u8; 4]; 12] = [
    b"cmap", b"head", b"hhea", b"hmtx", b"maxp", b"name", b"OS/2", b"post", b"cvt ", b"fpgm",
    b"glyf", b"loca",
];

fn base128(b: &[u8], at: &mut usize) -> Result<u32, String> {
    let mut value: u32 = 0;
    for i in 0..5 {
        let byte = *b.get(*at).ok_or_else(truncated)?;
        *at += 1;
        if i == 0 && byte == 0x80 {
            return Err("the WOFF2 table directory is malformed".into());
        }
        value = value.checked_mul(128).ok_or("the WOFF2 table directory is malformed")?
            | u32::from(byte & 0x7f);
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("the WOFF2 table directory is malformed".into())
}

fn woff2_tables(b: &[u8]) -> Result<Tables, String> {
    if tag_at(b, 4)? == *b"ttcf" {
        return Err("font collections are not supported".into());
    }
    let count = usize::from(u16_at(b, 12)?);
    let compressed_len = u32_at(b, 20)?;
    let mut at = 48;
    // (tag, offset in the decompressed stream, length there)
    let mut entries = Vec::new();
    let mut offset: u64 = 0;
    for _ in 0..count {
        let flags = *b.get(at).ok_or_else(truncated)?;
        at += 1;
        let tag = match flags & 0x3f {
            63 => {
                let t = tag_at(b, at)?;
                at += 4;
                t
            }
            i => KNOWN.get(usize::from(i)).map_or([0; 4], |t| **t),
        };
        let version = flags >> 6;
        let orig = base128(b, &mut at)?;
        // glyf and loca are transformed at version 0, every other table at a version other than 0.
        let transformed =
            if tag == *b"glyf" || tag == *b"loca" { version == 0 } else { version != 0 };
        let len = if transformed { base128(b, &mut at)? } else { orig };
        entries.push((tag, offset, len, transformed));
        offset += u64::from(len);
    }
    let stream = slice(b, at as u32, compressed_len)?;
    let mut data = Vec::new();
    brotli::Decompressor::new(stream, 4096)
        .take(offset.min(MAX_FONT))
        .read_to_end(&mut data)
        .map_err(|e| format!("the WOFF2 data does not decompress: {e}"))?;
    let mut tables = Vec::new();
    for (tag, start, len, transformed) in entries {
        if WANTED.contains(&&tag) && !transformed {
            let start = usize::try_from(start).map_err(|_| truncated())?;
            let part = data.get(start..start + len as usize).ok_or_else(truncated)?;
            tables.push((tag, part.to_vec()));
        }
    }
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lobster as WOFF2 (SIL OFL 1.1, see tests/fonts/README.md).
    const LOBSTER: &[u8] = include_bytes!("../tests/fonts/lobster.woff2");

    #[test]
    fn reads_a_woff2_files_metrics() {
        // The values of the OpenType original (tests/fonts/README.md).
        let m = read_metrics(LOBSTER).unwrap();
        let want = FontMetrics {
            units_per_em: 1000,
            ascent: 1000,
            descent: -250,
            line_gap: 0,
            avg_width: 545,
        };
        assert_eq!(m, want);
    }

    /// A minimal sfnt with only the three tables read.
    fn sfnt(units_per_em: u16, hhea: (i16, i16, i16), avg: i16) -> Vec<u8> {
        let mut head = vec![0u8; 54];
        head[18..20].copy_from_slice(&units_per_em.to_be_bytes());
        let mut hh = vec![0u8; 36];
        for (i, v) in [hhea.0, hhea.1, hhea.2].into_iter().enumerate() {
            hh[4 + 2 * i..6 + 2 * i].copy_from_slice(&v.to_be_bytes());
        }
        let mut os2 = vec![0u8; 96];
        os2[2..4].copy_from_slice(&avg.to_be_bytes());
        let tables: [(&[u8; 4], Vec<u8>); 3] = [(b"OS/2", os2), (b"head", head), (b"hhea", hh)];
        let mut out = vec![0, 1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0];
        let mut offset = 12 + 16 * tables.len();
        for (tag, data) in &tables {
            out.extend_from_slice(*tag);
            out.extend_from_slice(&[0; 4]);
            out.extend_from_slice(&(offset as u32).to_be_bytes());
            out.extend_from_slice(&(data.len() as u32).to_be_bytes());
            offset += data.len();
        }
        for (_, data) in tables {
            out.extend_from_slice(&data);
        }
        out
    }

    #[test]
    fn reads_a_truetype_files_metrics_and_refuses_other_files() {
        let m = read_metrics(&sfnt(1000, (900, -250, 50), 500)).unwrap();
        assert_eq!(
            m,
            FontMetrics {
                units_per_em: 1000,
                ascent: 900,
                descent: -250,
                line_gap: 50,
                avg_width: 500
            }
        );
        assert!(read_metrics(b"<html>").unwrap_err().contains("not a TrueType"));
        let cut = sfnt(1000, (900, -250, 50), 500);
        assert!(read_metrics(&cut[..60]).unwrap_err().contains("truncated"));
        assert!(read_metrics(&LOBSTER[..200]).is_err());
    }

    #[test]
    fn a_metric_compatible_font_needs_no_adjustment() {
        let o = overrides(&TIMES_NEW_ROMAN.metrics, &TIMES_NEW_ROMAN);
        assert!((o.size_adjust - 100.0).abs() < 1e-9);
        assert!((o.ascent - 1825.0 / 2048.0 * 100.0).abs() < 1e-9);
        assert!((o.descent - 443.0 / 2048.0 * 100.0).abs() < 1e-9);
    }

    #[test]
    fn a_wider_font_scales_the_fallback_up_and_its_metrics_down() {
        // Average width 0.5 em against Arial's 904/2048 = 0.4414 em: 113.27%.
        let font = FontMetrics {
            units_per_em: 1000,
            ascent: 900,
            descent: -250,
            line_gap: 0,
            avg_width: 500,
        };
        let o = overrides(&font, &ARIAL);
        assert!((o.size_adjust - 113.27).abs() < 0.01, "{o:?}");
        assert!((o.ascent - 90.0 / 1.1327).abs() < 0.01, "{o:?}");
        assert!((o.descent - 25.0 / 1.1327).abs() < 0.01, "{o:?}");
        assert_eq!(o.line_gap, 0.0);
    }
}
