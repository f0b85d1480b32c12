//! SSIMULACRA2 of encoded renditions against a lossless reference: the source decoded,
//! oriented and resized straight to the rendition's size by the pipeline's own resizer
//! (Lanczos3). The renditions are read as PNGs decoded from them beforehand
//! (`bench/images/decode.mjs`: `{name}-{width}.{avif,webp}.png`), so one decoder serves every
//! tool. Prints JSON: for each directory, the score of every rendition and the mean per format
//! and per format × width. Run by `bash bench/images.sh`.
//!
//! ```text
//! images_metric SOURCE_DIR DIR...
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rayon::prelude::*;
use serde_json::{Value, json};
use ssimulacra2::{ColorPrimaries, Rgb, TransferCharacteristic, compute_frame_ssimulacra2};
use stillpoint_media::SourceFormat;
use stillpoint_media::bench::{Pixels, decode, resize};

/// One decoded rendition: `{name}-{width}.{format}.png`.
struct Rendition {
    path: PathBuf,
    name: String,
    width: u32,
    format: String,
}

fn renditions(dir: &Path) -> Result<Vec<Rendition>, String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let Some(file) = path.file_name().and_then(|f| f.to_str()) else { continue };
        let Some(stem) = file.strip_suffix(".png") else { continue };
        let Some((base, format)) = stem.rsplit_once('.') else { continue };
        let Some((name, width)) = base.rsplit_once('-') else { continue };
        let Ok(width) = width.parse() else { continue };
        out.push(Rendition {
            name: name.to_string(),
            width,
            format: format.to_string(),
            path: path.clone(),
        });
    }
    out.sort_by(|a, b| (&a.name, a.width, &a.format).cmp(&(&b.name, b.width, &b.format)));
    Ok(out)
}

fn frame(width: u32, height: u32, rgb: &[u8]) -> Result<Rgb, String> {
    let data =
        rgb.chunks_exact(3).map(|p| [p[0], p[1], p[2]].map(|c| f32::from(c) / 255.0)).collect();
    Rgb::new(
        data,
        width as usize,
        height as usize,
        TransferCharacteristic::SRGB,
        ColorPrimaries::BT709,
    )
    .map_err(|e| e.to_string())
}

/// The source of `name`, decoded and oriented, opaque.
fn source(dir: &Path, name: &str) -> Result<Pixels, String> {
    let path = ["jpg", "jpeg", "JPG", "JPEG"]
        .iter()
        .map(|ext| dir.join(format!("{name}.{ext}")))
        .find(|p| p.exists())
        .ok_or(format!("no source for {name} in {}", dir.display()))?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let pixels = decode(&bytes, SourceFormat::Jpeg).map_err(|e| format!("{name}: {e}"))?;
    if pixels.alpha {
        return Err(format!("{name}: a JPEG with alpha?"));
    }
    Ok(pixels)
}

fn score(source: &Pixels, r: &Rendition) -> Result<f64, String> {
    let decoded =
        image::open(&r.path).map_err(|e| format!("{}: {e}", r.path.display()))?.into_rgb8();
    let (w, h) = decoded.dimensions();
    let reference = resize(source, w, h)?;
    compute_frame_ssimulacra2(frame(w, h, &reference.data)?, frame(w, h, decoded.as_raw())?)
        .map_err(|e| format!("{}: {e}", r.path.display()))
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() { f64::NAN } else { xs.iter().sum::<f64>() / xs.len() as f64 }
}

fn measure(sources: &Path, dir: &Path) -> Result<Value, String> {
    let all = renditions(dir)?;
    let mut by_name: BTreeMap<&str, Vec<&Rendition>> = BTreeMap::new();
    for r in &all {
        by_name.entry(&r.name).or_default().push(r);
    }
    let scored: Vec<(&Rendition, f64)> = by_name
        .par_iter()
        .map(|(name, rs)| {
            let src = source(sources, name)?;
            rs.iter().map(|r| Ok((*r, score(&src, r)?))).collect::<Result<Vec<_>, String>>()
        })
        .collect::<Result<Vec<_>, String>>()?
        .into_iter()
        .flatten()
        .collect();

    let mut by_format: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let mut by_width: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut files = Vec::new();
    for (r, s) in &scored {
        by_format.entry(&r.format).or_default().push(*s);
        by_width.entry(format!("{}-{}", r.format, r.width)).or_default().push(*s);
        files.push(json!({ "name": r.name, "width": r.width, "format": r.format, "score": s }));
    }
    fn means<K: ToString>(m: BTreeMap<K, Vec<f64>>) -> BTreeMap<String, Value> {
        m.into_iter()
            .map(|(k, v)| {
                let min = v.iter().copied().fold(f64::INFINITY, f64::min);
                (k.to_string(), json!({ "mean": mean(&v), "min": min, "n": v.len() }))
            })
            .collect()
    }
    Ok(json!({
        "dir": dir.display().to_string(),
        "metric": "SSIMULACRA2 (ssimulacra2 crate 0.5)",
        "formats": means(by_format),
        "formats_by_width": means(by_width),
        "files": files,
    }))
}

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let Some((sources, dirs)) = args.split_first().filter(|(_, d)| !d.is_empty()) else {
        eprintln!("usage: images_metric SOURCE_DIR DIR...");
        return ExitCode::from(2);
    };
    match dirs.iter().map(|d| measure(sources, d)).collect::<Result<Vec<_>, _>>() {
        Ok(reports) => {
            println!("{}", serde_json::to_string_pretty(&reports).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("images_metric: {e}");
            ExitCode::FAILURE
        }
    }
}
