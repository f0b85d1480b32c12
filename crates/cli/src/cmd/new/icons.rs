//! The starter's logo, and the icon set derived from any square SVG logo: the favicons a browser
//! asks for (`/favicon.ico` with 16, 32 and 48 px PNGs inside, the SVG itself), the Apple touch
//! icon, the web app manifest's 192 and 512 px icons and the header's 64 px logo.
//!
//! The logo is drawn with shapes only (no text, so no font is needed) and rasterised with resvg.

use anyhow::{Context, anyhow};
use resvg::tiny_skia::{Color, Pixmap, Transform};
use resvg::usvg;

/// The accent of the starter's mark: the engine's default theme accent.
pub const ACCENT: &str = "#2c6656";
/// The pale tone of the mark: the default theme's light background.
const PALE: &str = "#f7f5ef";

/// The starter's logo: a still sun over two lines of calm water, on a disc of the accent colour.
pub fn starter_logo() -> String {
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">
  <circle cx="32" cy="32" r="32" fill="{ACCENT}"/>
  <circle cx="32" cy="26" r="9" fill="{PALE}"/>
  <path d="M15 42h34M22 49h20" fill="none" stroke="{PALE}" stroke-width="3.2" stroke-linecap="round" opacity="0.8"/>
</svg>
"##
    )
}

/// The files of the icon set made from `svg`, as (path under `static/`, bytes). `background`
/// (`#rrggbb`) fills the Apple touch icon, which iOS shows on black where it is transparent.
pub fn icon_set(svg: &str, id: &str, background: &str) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let tree = parse(svg)?;
    let bg = parse_hex(background).ok_or_else(|| anyhow!("`{background}` is not #rrggbb"))?;
    let sizes = [16, 32, 48];
    let pngs = sizes.iter().map(|&s| render(&tree, s, None)).collect::<anyhow::Result<Vec<_>>>()?;
    let ico_entries: Vec<(u32, &[u8])> =
        sizes.iter().zip(&pngs).map(|(&s, p)| (s, p.as_slice())).collect();
    Ok(vec![
        ("favicon.svg".into(), svg.as_bytes().to_vec()),
        ("favicon.ico".into(), ico(&ico_entries)),
        ("icons/apple-touch-icon.png".into(), render(&tree, 180, Some(bg))?),
        ("icons/icon-192.png".into(), render(&tree, 192, None)?),
        ("icons/icon-512.png".into(), render(&tree, 512, None)?),
        (format!("icons/{id}-logo-small.png"), render(&tree, 64, None)?),
    ])
}

/// The web app manifest that lists the icon set (`static/manifest.webmanifest`).
pub fn manifest(title: &str, description: &str, theme_color: &str) -> String {
    let doc = serde_json::json!({
        "name": title,
        "short_name": title,
        "description": description,
        "start_url": "/",
        "scope": "/",
        "display": "browser",
        "background_color": PALE,
        "theme_color": theme_color,
        "icons": [
            { "src": "/icons/icon-192.png", "sizes": "192x192", "type": "image/png" },
            { "src": "/icons/icon-512.png", "sizes": "512x512", "type": "image/png" },
            { "src": "/favicon.svg", "sizes": "any", "type": "image/svg+xml" }
        ]
    });
    serde_json::to_string_pretty(&doc).expect("JSON serialises") + "\n"
}

fn parse(svg: &str) -> anyhow::Result<usvg::Tree> {
    usvg::Tree::from_str(svg, &usvg::Options::default()).context("reading the logo SVG")
}

/// `tree` drawn centred in a `size`×`size` PNG, over `background` when given.
pub fn render(tree: &usvg::Tree, size: u32, background: Option<Color>) -> anyhow::Result<Vec<u8>> {
    let mut pixmap = Pixmap::new(size, size).ok_or_else(|| anyhow!("no {size}px image"))?;
    if let Some(bg) = background {
        pixmap.fill(bg);
    }
    let (w, h) = (tree.size().width(), tree.size().height());
    let scale = size as f32 / w.max(h);
    let (dx, dy) = ((size as f32 - w * scale) / 2.0, (size as f32 - h * scale) / 2.0);
    let transform = Transform::from_scale(scale, scale).post_translate(dx, dy);
    resvg::render(tree, transform, &mut pixmap.as_mut());
    pixmap.encode_png().context("encoding a PNG")
}

/// An ICO file holding PNG images (Windows Vista and every browser read these): a 6-byte
/// header, one 16-byte entry per image, then the images. `(size, png)`, sizes up to 256.
pub fn ico(images: &[(u32, &[u8])]) -> Vec<u8> {
    let count = u16::try_from(images.len()).expect("a few images");
    let mut out = Vec::new();
    out.extend_from_slice(&[0, 0, 1, 0]); // reserved, type 1: icon
    out.extend_from_slice(&count.to_le_bytes());
    let mut offset = 6 + 16 * images.len();
    for (size, png) in images {
        assert!((1..=256).contains(size), "ICO sizes are 1 to 256 px");
        let side = (*size % 256) as u8; // 0 means 256
        out.extend_from_slice(&[side, side, 0, 0]); // width, height, no palette, reserved
        out.extend_from_slice(&1u16.to_le_bytes()); // colour planes
        out.extend_from_slice(&32u16.to_le_bytes()); // bits per pixel
        out.extend_from_slice(&u32::try_from(png.len()).expect("small").to_le_bytes());
        out.extend_from_slice(&u32::try_from(offset).expect("small").to_le_bytes());
        offset += png.len();
    }
    for (_, png) in images {
        out.extend_from_slice(png);
    }
    out
}

/// `#rrggbb` as an opaque colour.
fn parse_hex(hex: &str) -> Option<Color> {
    let h = hex.strip_prefix('#').filter(|h| h.len() == 6 && h.is_ascii())?;
    let c = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some(Color::from_rgba8(c(0)?, c(2)?, c(4)?, 255))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (width, height, RGBA pixels) of a PNG, read with the `png` crate.
    fn decode(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png_bytes)).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgba);
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    /// The images of an ICO file, read back by its directory: (declared size, PNG bytes).
    fn read_ico(ico: &[u8]) -> Vec<(u32, Vec<u8>)> {
        let u16_at = |i: usize| u16::from_le_bytes([ico[i], ico[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(ico[i..i + 4].try_into().unwrap());
        assert_eq!((u16_at(0), u16_at(2)), (0, 1), "reserved 0, type 1 (icon)");
        (0..usize::from(u16_at(4)))
            .map(|n| {
                let e = 6 + 16 * n;
                assert_eq!(ico[e], ico[e + 1], "square");
                assert_eq!((u16_at(e + 4), u16_at(e + 6)), (1, 32), "1 plane, 32 bits");
                let (len, at) = (u32_at(e + 8) as usize, u32_at(e + 12) as usize);
                let size = if ico[e] == 0 { 256 } else { u32::from(ico[e]) };
                (size, ico[at..at + len].to_vec())
            })
            .collect()
    }

    fn pixel(img: &(u32, u32, Vec<u8>), x: u32, y: u32) -> [u8; 4] {
        let i = ((y * img.0 + x) * 4) as usize;
        img.2[i..i + 4].try_into().unwrap()
    }

    #[test]
    fn the_favicon_ico_holds_three_pngs_of_the_logo() {
        let set = icon_set(&starter_logo(), "calm", ACCENT).unwrap();
        let ico = &set.iter().find(|(p, _)| p == "favicon.ico").unwrap().1;
        let images = read_ico(ico);
        assert_eq!(images.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [16, 32, 48]);
        for (size, png) in &images {
            let img = decode(png);
            assert_eq!((img.0, img.1), (*size, *size));
            // The disc's accent at the left middle, transparent outside it in the corner.
            assert_eq!(pixel(&img, 1, size / 2)[..3], [0x2c, 0x66, 0x56], "{size}px");
            assert_eq!(pixel(&img, 0, 0)[3], 0, "{size}px corner");
        }
        let big = decode(&images[2].1);
        assert!(pixel(&big, 24, 19)[0] > 0xe0, "the pale sun is drawn: {:?}", pixel(&big, 24, 19));
    }

    #[test]
    fn every_file_of_the_set_has_its_size_and_the_touch_icon_is_opaque() {
        let set = icon_set(&starter_logo(), "calm", "#102030").unwrap();
        let paths: Vec<&str> = set.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "favicon.svg",
                "favicon.ico",
                "icons/apple-touch-icon.png",
                "icons/icon-192.png",
                "icons/icon-512.png",
                "icons/calm-logo-small.png"
            ]
        );
        for (path, bytes) in &set[2..] {
            let size: u32 = match path.as_str() {
                "icons/apple-touch-icon.png" => 180,
                "icons/icon-192.png" => 192,
                "icons/icon-512.png" => 512,
                _ => 64,
            };
            let img = decode(bytes);
            assert_eq!((img.0, img.1), (size, size), "{path}");
        }
        let touch = decode(&set[2].1);
        assert_eq!(pixel(&touch, 0, 0), [0x10, 0x20, 0x30, 255], "filled where the disc is not");
        assert!(touch.2.chunks(4).all(|p| p[3] == 255), "no transparent pixel");
        assert_eq!(pixel(&decode(&set[3].1), 0, 0)[3], 0, "the manifest icons keep the disc shape");
    }

    #[test]
    fn a_wide_logo_is_centred_and_a_bad_one_is_an_error() {
        let wide = r##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10" fill="#ff0000"/></svg>"##;
        let img = decode(&render(&parse(wide).unwrap(), 20, None).unwrap());
        assert_eq!(pixel(&img, 10, 2)[3], 0, "above the band");
        assert_eq!(pixel(&img, 10, 10), [255, 0, 0, 255], "the band, centred");
        assert!(icon_set("<svg", "x", ACCENT).is_err());
        assert!(icon_set(&starter_logo(), "x", "teal").is_err());
    }

    #[test]
    fn the_manifest_names_the_site_and_its_icons() {
        let m: serde_json::Value =
            serde_json::from_str(&manifest("Quiet \"Mind\"", "d", ACCENT)).unwrap();
        assert_eq!(m["name"], "Quiet \"Mind\"");
        assert_eq!(m["theme_color"], ACCENT);
        assert_eq!(m["icons"][1]["src"], "/icons/icon-512.png");
    }

    /// The demo's favicon.ico and Apple touch icon are made from its favicon.svg by this code;
    /// `STILLPOINT_UPDATE_FIXTURES=1` writes them again after the SVG changes.
    #[test]
    fn the_demo_icons_are_made_from_its_svg() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo/static");
        let svg = std::fs::read_to_string(dir.join("favicon.svg")).unwrap();
        let set = icon_set(&svg, "stillpoint", "#2c6661").unwrap();
        let update = std::env::var_os("STILLPOINT_UPDATE_FIXTURES").is_some();
        for (path, bytes) in set {
            if path != "favicon.ico" && path != "icons/apple-touch-icon.png" {
                continue;
            }
            if update {
                std::fs::write(dir.join(&path), &bytes).unwrap();
            }
            let committed = std::fs::read(dir.join(&path)).unwrap();
            assert!(
                committed == bytes,
                "examples/demo/static/{path} is not made from favicon.svg: run with STILLPOINT_UPDATE_FIXTURES=1"
            );
        }
    }
}
