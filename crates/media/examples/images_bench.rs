//! Throughput of the image pipeline on a folder of JPEG photographs, on one thread: for each
//! source, decode (with its EXIF orientation), the cascade of rendition widths, then AVIF and
//! WebP of every width exactly as `ImageCache::process` makes them. Writes the renditions as
//! `OUT_DIR/{name}-{width}.{avif,webp}` and prints JSON: wall seconds, images per second, where
//! the time went and the bytes per format. Run by `bash bench/images.sh`.
//!
//! ```text
//! images_bench SOURCE_DIR OUT_DIR [--avif-speed N] [--avif-quality Q] [--formats avif,webp]
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use stillpoint_media::bench::{SETTINGS, Settings, cascade, decode, encode};
use stillpoint_media::{Format, SourceFormat, Timings};

struct Options {
    source: PathBuf,
    out: PathBuf,
    settings: Settings,
    formats: Vec<Format>,
}

fn options() -> Result<Options, String> {
    let mut settings = SETTINGS;
    let mut formats = vec![Format::Avif, Format::Webp];
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--avif-speed" => {
                settings.avif_speed = value(&arg)?
                    .parse()
                    .ok()
                    .filter(|s| (1..=10).contains(s))
                    .ok_or("--avif-speed takes 1 to 10")?;
            }
            "--avif-quality" => {
                settings.avif_quality = value(&arg)?
                    .parse()
                    .ok()
                    .filter(|q| (1.0..=100.0).contains(q))
                    .ok_or("--avif-quality takes 1 to 100")?;
            }
            "--formats" => {
                formats = value(&arg)?
                    .split(',')
                    .map(|f| match f {
                        "avif" => Ok(Format::Avif),
                        "webp" => Ok(Format::Webp),
                        other => Err(format!("--formats: {other}? (avif, webp)")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            _ => paths.push(PathBuf::from(arg)),
        }
    }
    let [source, out] = <[PathBuf; 2]>::try_from(paths)
        .map_err(|_| "usage: images_bench SOURCE_DIR OUT_DIR [--avif-speed N] [--avif-quality Q] [--formats avif,webp]")?;
    Ok(Options { source, out, settings, formats })
}

fn sources(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("jpg") || e.eq_ignore_ascii_case("jpeg"))
        })
        .collect();
    files.sort();
    Ok(files)
}

fn run(o: &Options) -> Result<Value, String> {
    std::fs::create_dir_all(&o.out).map_err(|e| format!("{}: {e}", o.out.display()))?;
    let files = sources(&o.source)?;
    let mut total = Timings::default();
    let (mut avif_bytes, mut webp_bytes, mut renditions) = (0usize, 0usize, 0usize);
    let mut per_image = Vec::new();
    let start = Instant::now();
    for path in &files {
        let image_start = Instant::now();
        let mut t = Timings::default();
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("image");

        let step = Instant::now();
        let source = decode(&bytes, SourceFormat::Jpeg).map_err(|e| format!("{name}: {e}"))?;
        t.decode = step.elapsed();
        let step = Instant::now();
        let sized = cascade(&source)?;
        t.resize = step.elapsed();

        let mut out = Vec::new();
        for pixels in &sized {
            for &format in &o.formats {
                let step = Instant::now();
                let encoded =
                    encode(pixels, format, &o.settings).map_err(|e| format!("{name}: {e}"))?;
                let elapsed = step.elapsed();
                match format {
                    Format::Avif => (t.avif += elapsed, avif_bytes += encoded.len()),
                    _ => (t.webp += elapsed, webp_bytes += encoded.len()),
                };
                let file = o.out.join(format!("{name}-{}.{}", pixels.width, format.ext()));
                std::fs::write(&file, &encoded).map_err(|e| format!("{}: {e}", file.display()))?;
                renditions += 1;
                out.push(json!({
                    "width": pixels.width, "height": pixels.height,
                    "format": format.ext(), "bytes": encoded.len(),
                }));
            }
        }
        per_image.push(json!({
            "file": path.file_name().and_then(|s| s.to_str()),
            "seconds": image_start.elapsed().as_secs_f64(),
            "decode": t.decode.as_secs_f64(), "resize": t.resize.as_secs_f64(),
            "avif": t.avif.as_secs_f64(), "webp": t.webp.as_secs_f64(),
            "renditions": out,
        }));
        total += t;
    }
    let wall = start.elapsed();
    let accounted = total.decode + total.resize + total.avif + total.webp;
    let secs = Duration::as_secs_f64;
    Ok(json!({
        "tool": "stillpoint",
        "threads": 1,
        "settings": {
            "avif_quality": o.settings.avif_quality, "avif_speed": o.settings.avif_speed,
            "webp_quality": o.settings.webp_quality, "webp_method": o.settings.webp_method,
            "formats": o.formats.iter().map(|f| f.ext()).collect::<Vec<_>>(),
        },
        "wall_seconds": secs(&wall),
        "images": files.len(),
        "renditions": renditions,
        "images_per_second": files.len() as f64 / secs(&wall),
        "timings": {
            "decode": secs(&total.decode), "resize": secs(&total.resize),
            "avif": secs(&total.avif), "webp": secs(&total.webp),
            "other": secs(&wall.saturating_sub(accounted)),
        },
        "bytes": { "avif": avif_bytes, "webp": webp_bytes },
        "per_image": per_image,
    }))
}

fn main() -> ExitCode {
    match options().and_then(|o| run(&o)) {
        Ok(report) => {
            println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("images_bench: {e}");
            ExitCode::FAILURE
        }
    }
}
