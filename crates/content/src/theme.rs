//! `[theme]` in `stillpoint.toml`: design tokens compiled into the stylesheet at build time
//! (docs/theme.md). Parsing and validation live here; the CSS is written by `stillpoint-site`.
//!
//! Every value ends up inside a `<style>` element, so each is checked against what it may be:
//! colours are `#rrggbb`, font stacks are CSS family lists, sizes are CSS lengths. The colours
//! must meet WCAG AA (4.5:1) for every pair of text and background the engine's styles use.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::color::{Rgb, contrast};
use crate::error::{ContentError, ContentErrorKind, line_col};
use crate::font_metrics::FontMetrics;

/// WCAG 2.x AA for normal text.
pub const MIN_CONTRAST: f64 = 4.5;
/// WCAG 2.x AA for large text (24px, or 18.66px bold, and up).
pub const MIN_CONTRAST_LARGE: f64 = 3.0;

/// The validated theme. `Theme::default()` (no `[theme]`) changes nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Theme {
    /// Headings and long-form text (the engine's `--font-serif`).
    pub heading_font: Option<String>,
    /// Everything else: navigation, cards, the footer (`--font-sans`).
    pub body_font: Option<String>,
    pub radius: Option<String>,
    pub content_width: Option<String>,
    /// Set when `[theme.light]` gives any colour; the others keep the engine's.
    pub light: Option<Palette>,
    pub dark: Option<Palette>,
    pub fonts: Vec<FontFile>,
}

/// The five colours an owner gives for one colour scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    pub accent: Rgb,
    pub background: Rgb,
    pub surface: Rgb,
    pub text: Rgb,
    pub muted: Rgb,
}

/// One `[[theme.fonts]]` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FontFile {
    pub family: String,
    /// Relative to `static/`: also its URL path.
    pub file: String,
    /// `400`, or a variable font's range `400 700`.
    pub weight: String,
    pub style: String,
    /// Where `file` is written in `stillpoint.toml`.
    pub line: u32,
    pub col: u32,
    /// Read from the file when the site loads (`None` until then).
    pub metrics: Option<FontMetrics>,
}

impl Palette {
    /// The engine's light colours (web/src/styles/tokens.css).
    pub const LIGHT: Palette = Palette {
        accent: Rgb(0x2c, 0x66, 0x56),
        background: Rgb(0xf7, 0xf5, 0xef),
        surface: Rgb(0xff, 0xff, 0xff),
        text: Rgb(0x1c, 0x25, 0x22),
        muted: Rgb(0x52, 0x5e, 0x59),
    };
    /// The engine's dark colours.
    pub const DARK: Palette = Palette {
        accent: Rgb(0x8f, 0xd0, 0xb9),
        background: Rgb(0x12, 0x18, 0x16),
        surface: Rgb(0x19, 0x21, 0x1e),
        text: Rgb(0xe4, 0xea, 0xe6),
        muted: Rgb(0xa7, 0xb3, 0xae),
    };

    /// Text on the accent (buttons, the current page number): whichever of surface, background
    /// and text contrasts most with the accent.
    pub fn on_accent(&self) -> Rgb {
        let mut best = self.surface;
        for c in [self.background, self.text] {
            if contrast(c, self.accent) > contrast(best, self.accent) {
                best = c;
            }
        }
        best
    }

    /// Every colour token of the engine's stylesheet, given or derived (docs/theme.md#derived).
    /// A derived background is moved back towards `background` until every text colour drawn
    /// on it still meets AA, so a palette that passes the check gives derived tokens that pass.
    pub fn tokens(&self) -> Vec<(&'static str, Rgb)> {
        let Palette { accent, background, surface, text, muted } = *self;
        let ok_on = |bg: Rgb, fg: &[Rgb], min: f64| fg.iter().all(|&f| contrast(f, bg) >= min);
        let surface_2 =
            derive(background, text, 0.05, |c| ok_on(c, &[text, muted, accent], MIN_CONTRAST));
        let accent_soft =
            derive(background, accent, 0.12, |c| ok_on(c, &[text, accent], MIN_CONTRAST));
        let accent_hover = derive(accent, text, 0.3, |c| {
            ok_on(background, &[c], MIN_CONTRAST) && ok_on(surface, &[c], MIN_CONTRAST)
        });
        let accent_muted =
            derive(accent, background, 0.35, |c| ok_on(background, &[c], MIN_CONTRAST_LARGE));
        vec![
            ("bg", background),
            ("surface", surface),
            ("surface-2", surface_2),
            ("text", text),
            ("text-muted", muted),
            ("border", background.mix(text, 0.15)),
            ("accent", accent),
            ("accent-hover", accent_hover),
            ("accent-soft", accent_soft),
            ("accent-muted", accent_muted),
            ("on-accent", self.on_accent()),
            ("focus", accent),
        ]
    }

    /// The pairs the check holds to [`MIN_CONTRAST`]: (foreground key, foreground, background
    /// key, background).
    fn pairs(&self) -> [(&'static str, Rgb, &'static str, Rgb); 7] {
        let p = self;
        [
            ("text", p.text, "background", p.background),
            ("text", p.text, "surface", p.surface),
            ("muted", p.muted, "background", p.background),
            ("muted", p.muted, "surface", p.surface),
            ("accent", p.accent, "background", p.background),
            ("accent", p.accent, "surface", p.surface),
            ("on-accent text", p.on_accent(), "accent", p.accent),
        ]
    }
}

/// `from` moved `amount` towards `to`, or less, in steps of 0.01, until `ok` holds (`from`
/// itself when nothing else does).
fn derive(from: Rgb, to: Rgb, amount: f64, ok: impl Fn(Rgb) -> bool) -> Rgb {
    let steps = (amount * 100.0).round() as i32;
    (0..=steps).rev().map(|s| from.mix(to, f64::from(s) / 100.0)).find(|&c| ok(c)).unwrap_or(from)
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTheme {
    heading_font: Option<Spanned<String>>,
    body_font: Option<Spanned<String>>,
    radius: Option<Spanned<String>>,
    content_width: Option<Spanned<String>>,
    light: Option<Spanned<RawPalette>>,
    dark: Option<Spanned<RawPalette>>,
    #[serde(default)]
    fonts: Vec<RawFont>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPalette {
    accent: Option<Spanned<String>>,
    background: Option<Spanned<String>>,
    surface: Option<Spanned<String>>,
    text: Option<Spanned<String>>,
    muted: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFont {
    family: Spanned<String>,
    file: Spanned<String>,
    weight: Option<Spanned<String>>,
    style: Option<Spanned<String>>,
}

const FONT_EXTENSIONS: [&str; 4] = ["woff2", "woff", "ttf", "otf"];

/// Validates `[theme]`; `text` is the file's text, for positions.
pub(crate) fn parse(raw: RawTheme, path: &Path, text: &str) -> Result<Theme, Vec<ContentError>> {
    let mut errors = Vec::new();
    let mut err = |span: std::ops::Range<usize>, field: &str, message: String, help: &str| {
        let (line, col) = line_col(text, span.start);
        errors.push(
            ContentError::new(
                path,
                line,
                col,
                ContentErrorKind::InvalidValue { field: format!("theme.{field}"), message },
            )
            .with_help(Some(help.to_string())),
        );
    };
    let mut checked = |value: Option<Spanned<String>>,
                       field: &str,
                       valid: fn(&str) -> Result<(), String>,
                       help: &str| {
        let value = value?;
        match valid(value.get_ref()) {
            Ok(()) => Some(value.into_inner().trim().to_string()),
            Err(message) => {
                err(value.span(), field, message, help);
                None
            }
        }
    };
    let font_help =
        "write a CSS font-family list, e.g. \"Lora\", Georgia, serif (see docs/theme.md#fonts)";
    let length_help = "write a CSS length such as 0.75rem, 12px or 74rem (see docs/theme.md#sizes)";
    let heading_font = checked(raw.heading_font, "heading_font", font_stack, font_help);
    let body_font = checked(raw.body_font, "body_font", font_stack, font_help);
    let radius = checked(raw.radius, "radius", length, length_help);
    let content_width = checked(raw.content_width, "content_width", length, length_help);
    let mut palettes = [(raw.light, "light", Palette::LIGHT), (raw.dark, "dark", Palette::DARK)]
        .map(|(raw, mode, default)| raw.map(|raw| (palette(raw, mode, default, &mut err), mode)));
    let mut fonts = Vec::new();
    for f in raw.fonts {
        fonts.push(font(f, text, &mut err));
    }
    // Contrast: checked once every colour parsed, at the first key of the pair that was given.
    for (p, mode) in palettes.iter().flatten() {
        let Some((palette, spans)) = p else { continue };
        for (fg_key, fg, bg_key, bg) in palette.pairs() {
            let ratio = contrast(fg, bg);
            if ratio >= MIN_CONTRAST {
                continue;
            }
            let key_of = |k: &'static str| if k == "on-accent text" { "accent" } else { k };
            let (key, span) = [key_of(fg_key), bg_key]
                .into_iter()
                .find_map(|k| spans.iter().find(|(n, _)| *n == k).map(|(n, s)| (*n, s.clone())))
                .unwrap_or_else(|| ("accent", spans[0].1.clone()));
            err(
                span,
                &format!("{mode}.{key}"),
                format!(
                    "{fg_key} {fg} on {bg_key} {bg} has a contrast of {:.2}:1; WCAG AA needs at least {MIN_CONTRAST}:1",
                    floor2(ratio)
                ),
                "darken or lighten one of the two colours (see docs/theme.md#contrast)",
            );
        }
    }
    let [light, dark] = palettes.each_mut().map(|p| p.take().and_then(|(p, _)| p.map(|(p, _)| p)));
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Theme {
        heading_font,
        body_font,
        radius,
        content_width,
        light,
        dark,
        fonts: fonts.into_iter().flatten().collect(),
    })
}

/// A ratio rounded down, so a failing ratio never prints as the minimum.
fn floor2(r: f64) -> f64 {
    (r * 100.0).floor() / 100.0
}

type Spans = Vec<(&'static str, std::ops::Range<usize>)>;

/// The palette with the engine's colours where none is given, and where each given one is
/// (the table's own position first, for pairs of defaults).
fn palette(
    raw: Spanned<RawPalette>,
    mode: &str,
    default: Palette,
    err: &mut impl FnMut(std::ops::Range<usize>, &str, String, &str),
) -> Option<(Palette, Spans)> {
    let table_span = raw.span();
    let raw = raw.into_inner();
    let mut spans: Spans = vec![("", table_span)];
    let mut ok = true;
    let mut colour = |v: Option<Spanned<String>>, key: &'static str, default: Rgb| match v {
        None => default,
        Some(v) => match Rgb::parse(v.get_ref().trim()) {
            Some(c) => {
                spans.push((key, v.span()));
                c
            }
            None => {
                err(
                    v.span(),
                    &format!("{mode}.{key}"),
                    format!("`{}` is not a colour", v.get_ref()),
                    "write a colour as #rrggbb, e.g. #2c6656 (see docs/theme.md#colours)",
                );
                ok = false;
                default
            }
        },
    };
    let p = Palette {
        accent: colour(raw.accent, "accent", default.accent),
        background: colour(raw.background, "background", default.background),
        surface: colour(raw.surface, "surface", default.surface),
        text: colour(raw.text, "text", default.text),
        muted: colour(raw.muted, "muted", default.muted),
    };
    ok.then_some((p, spans))
}

fn font(
    raw: RawFont,
    text: &str,
    err: &mut impl FnMut(std::ops::Range<usize>, &str, String, &str),
) -> Option<FontFile> {
    let mut ok = true;
    let family = raw.family.get_ref().trim();
    if family_name(family).is_err() || family.starts_with(['"', '\'']) {
        err(
            raw.family.span(),
            "fonts.family",
            format!("`{family}` is not a font family name"),
            "write the family name alone, without quotes, e.g. Lora",
        );
        ok = false;
    }
    let file = raw.file.get_ref().trim();
    let ext = Path::new(file).extension().and_then(|e| e.to_str()).unwrap_or_default();
    let safe = !file.is_empty()
        && !file.starts_with('/')
        && file.split('/').all(|s| !s.is_empty() && s != "." && s != "..")
        && file.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b));
    if !safe || !FONT_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()) {
        err(
            raw.file.span(),
            "fonts.file",
            format!("`{file}` is not a font file under static/"),
            "give a path relative to static/ ending in .woff2 (or .woff, .ttf, .otf), e.g. fonts/lora.woff2",
        );
        ok = false;
    }
    let weight = raw.weight.map_or_else(|| Some("400".to_string()), |w| {
        let parts: Vec<&str> = w.get_ref().split_whitespace().collect();
        let valid = (1..=2).contains(&parts.len())
            && parts.iter().all(|p| p.parse::<u16>().is_ok_and(|n| (1..=1000).contains(&n)));
        if valid {
            Some(parts.join(" "))
        } else {
            err(
                w.span(),
                "fonts.weight",
                format!("`{}` is not a font weight", w.get_ref()),
                "write a weight from 1 to 1000 such as \"400\", or a variable font's range such as \"400 700\"",
            );
            None
        }
    });
    let style = raw.style.map_or_else(
        || Some("normal".to_string()),
        |s| {
            let v = s.get_ref().trim();
            if ["normal", "italic", "oblique"].contains(&v) {
                Some(v.to_string())
            } else {
                err(
                    s.span(),
                    "fonts.style",
                    format!("`{v}` is not a font style"),
                    "use normal, italic or oblique",
                );
                None
            }
        },
    );
    let (line, col) = line_col(text, raw.file.span().start);
    (ok && weight.is_some() && style.is_some()).then(|| FontFile {
        family: family.to_string(),
        file: file.to_string(),
        weight: weight.expect("checked"),
        style: style.expect("checked"),
        line,
        col,
        metrics: None,
    })
}

/// A CSS `font-family` list: comma-separated names, each quoted (no quotes or backslashes
/// inside) or a run of identifiers.
fn font_stack(s: &str) -> Result<(), String> {
    if s.trim().is_empty() {
        return Err("the font list is empty".into());
    }
    for name in s.split(',') {
        family_name(name.trim())?;
    }
    Ok(())
}

fn family_name(name: &str) -> Result<(), String> {
    let bad = || Err(format!("`{name}` is not a font family name"));
    if let Some(inner) = name
        .strip_prefix('"')
        .and_then(|n| n.strip_suffix('"'))
        .or_else(|| name.strip_prefix('\'').and_then(|n| n.strip_suffix('\'')))
    {
        let fine = !inner.trim().is_empty()
            && inner.chars().all(|c| !c.is_control() && !"\"'\\<>{};".contains(c));
        return if fine { Ok(()) } else { bad() };
    }
    let fine = !name.is_empty()
        && name.split(' ').all(|word| {
            let mut chars = word.chars();
            chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '-')
                && word.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_')
                && !word.starts_with("--")
        });
    if fine { Ok(()) } else { bad() }
}

/// A CSS length: `0`, or a positive number with one of the units the theme accepts.
fn length(s: &str) -> Result<(), String> {
    let s = s.trim();
    if s == "0" {
        return Ok(());
    }
    let units = ["rem", "em", "px", "ch", "vw", "%"];
    let Some(unit) = units.iter().find(|u| s.ends_with(*u)) else {
        return Err(format!("`{s}` is not a length (use rem, em, px, ch, vw or %)"));
    };
    let number = &s[..s.len() - unit.len()];
    let valid = number.bytes().any(|b| b.is_ascii_digit())
        && number.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && number.parse::<f64>().is_ok_and(|n| n.is_finite() && n >= 0.0);
    if valid { Ok(()) } else { Err(format!("`{s}` is not a length")) }
}

/// Reads every font file's metrics from the site's `static/`; an error for each missing or
/// unreadable one, at its `file` key in `stillpoint.toml`.
pub(crate) fn read_fonts(theme: &mut Theme, root: &Path) -> Vec<ContentError> {
    let mut errors = Vec::new();
    for f in &mut theme.fonts {
        let (line, col) = (f.line, f.col);
        let at = |message: String, help: &str| {
            ContentError::new(
                "stillpoint.toml",
                line,
                col,
                ContentErrorKind::InvalidValue { field: "theme.fonts.file".into(), message },
            )
            .with_help(Some(help.to_string()))
        };
        let path = root.join("static").join(&f.file);
        match std::fs::read(&path) {
            Ok(bytes) => match crate::font_metrics::read_metrics(&bytes) {
                Ok(m) => f.metrics = Some(m),
                Err(e) => errors.push(at(
                    format!("static/{}: {e}", f.file),
                    "use a .woff2, .woff, .ttf or .otf font file",
                )),
            },
            Err(e) => errors.push(at(
                format!("static/{} cannot be read: {e}", f.file),
                "put the font file under static/ (e.g. static/fonts/) or correct the path",
            )),
        }
    }
    errors
}

#[cfg(test)]
mod tests;
