//! The site's theme as CSS: `[theme]` (stillpoint-content's `Theme`) compiled into one small
//! stylesheet at build time, linked after the web bundle's so its custom properties win over
//! web/src/styles/tokens.css. No npm, no bundle rebuild (docs/theme.md).
//!
//! It holds: an `@font-face` per `[[theme.fonts]]` file (`font-display: swap`), a size-adjusted
//! local fallback face per self-hosted family (so the swap moves nothing), and the token
//! overrides: fonts, radius and width on `:root`, the colours on `:root` for light and in
//! `prefers-color-scheme: dark` for dark, as tokens.css switches them.

use std::fmt::Write as _;

use stillpoint_content::{ARIAL, Fallback, FontFile, Palette, TIMES_NEW_ROMAN, Theme, overrides};

/// The engine's colour tokens (web/src/styles/tokens.css), written when an owner themes only
/// the other scheme: the theme's stylesheet comes after the bundle's, so it restates both.
const ENGINE_LIGHT: [(&str, &str); 12] = [
    ("bg", "#f7f5ef"),
    ("surface", "#ffffff"),
    ("surface-2", "#efece3"),
    ("text", "#1c2522"),
    ("text-muted", "#525e59"),
    ("border", "#dbd6c9"),
    ("accent", "#2c6656"),
    ("accent-hover", "#1f4d41"),
    ("accent-soft", "#e0ece6"),
    ("accent-muted", "#5f8f80"),
    ("on-accent", "#ffffff"),
    ("focus", "#2c6656"),
];
const ENGINE_DARK: [(&str, &str); 12] = [
    ("bg", "#121816"),
    ("surface", "#19211e"),
    ("surface-2", "#222c28"),
    ("text", "#e4eae6"),
    ("text-muted", "#a7b3ae"),
    ("border", "#33403b"),
    ("accent", "#8fd0b9"),
    ("accent-hover", "#b5e4d3"),
    ("accent-soft", "#1e3530"),
    ("accent-muted", "#4d7f72"),
    ("on-accent", "#0d1513"),
    ("focus", "#8fd0b9"),
];

/// The weight of the page headings (web/src/styles/global.css `h1`…`h4`): the font file the
/// LCP text uses is the heading family's that covers it.
const HEADING_WEIGHT: u16 = 600;

/// The owner's own stylesheet under `static/`, linked after everything else.
pub const SITE_CSS: &str = "site.css";

/// Where the theme's stylesheet is written: named by its content, so it is cached for good.
pub fn theme_file(css: &str) -> String {
    let hash = crate::emit::digest([css.as_bytes()]);
    format!("{}/theme-{}.css", crate::layout::ASSETS_DIR, &hash[..12])
}

/// A `<link rel="preload" as="font">` for the one font file the largest text uses.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FontPreload {
    pub href: String,
    pub mime: &'static str,
}

/// The compiled theme: empty `css` for a site without `[theme]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThemeCss {
    pub css: String,
    pub preload: Option<FontPreload>,
}

pub fn theme_css(theme: &Theme) -> ThemeCss {
    let mut css = String::new();
    for f in &theme.fonts {
        let _ = writeln!(
            css,
            "@font-face{{font-family:\"{}\";src:url(\"/{}\") format(\"{}\");font-weight:{};font-style:{};font-display:swap}}",
            f.family,
            f.file,
            format_of(&f.file).0,
            f.weight,
            f.style
        );
    }
    let stacks = [theme.heading_font.as_deref(), theme.body_font.as_deref()];
    let mut fallbacks: Vec<&str> = Vec::new();
    for f in &theme.fonts {
        let (Some(metrics), false) = (f.metrics, fallbacks.contains(&f.family.as_str())) else {
            continue;
        };
        let Some(stack) = stacks.into_iter().flatten().find(|s| position(s, &f.family).is_some())
        else {
            continue;
        };
        let fallback = fallback_for(stack);
        let o = overrides(&metrics, fallback);
        let local: Vec<String> = fallback.local.iter().map(|n| format!("local(\"{n}\")")).collect();
        let _ = writeln!(
            css,
            "@font-face{{font-family:\"{} Fallback\";src:{};size-adjust:{:.2}%;ascent-override:{:.2}%;descent-override:{:.2}%;line-gap-override:{:.2}%}}",
            f.family,
            local.join(","),
            o.size_adjust,
            o.ascent,
            o.descent,
            o.line_gap
        );
        fallbacks.push(&f.family);
    }
    let mut root = Vec::new();
    let with_fallbacks = |stack: &str| {
        fallbacks.iter().fold(stack.to_string(), |s, family| match position(&s, family) {
            Some(end) => format!("{},\"{family} Fallback\"{}", &s[..end], &s[end..]),
            None => s,
        })
    };
    if let Some(s) = &theme.heading_font {
        root.push(format!("--font-serif:{}", with_fallbacks(s)));
    }
    if let Some(s) = &theme.body_font {
        root.push(format!("--font-sans:{}", with_fallbacks(s)));
    }
    if let Some(r) = &theme.radius {
        root.push(format!("--radius-s:calc({r} * 0.5)"));
        root.push(format!("--radius-m:{r}"));
        root.push(format!("--radius-l:calc({r} * 5 / 3)"));
    }
    if let Some(w) = &theme.content_width {
        root.push(format!("--page-max:{w}"));
    }
    let themed = theme.light.is_some() || theme.dark.is_some();
    if themed {
        root.extend(colours(theme.light.as_ref(), &ENGINE_LIGHT));
    }
    if !root.is_empty() {
        let _ = writeln!(css, ":root{{{}}}", root.join(";"));
    }
    if themed {
        let dark = colours(theme.dark.as_ref(), &ENGINE_DARK);
        let _ = writeln!(css, "@media (prefers-color-scheme:dark){{:root{{{}}}}}", dark.join(";"));
    }
    ThemeCss { css, preload: preload(theme) }
}

fn colours(palette: Option<&Palette>, engine: &[(&str, &str)]) -> Vec<String> {
    match palette {
        Some(p) => p.tokens().into_iter().map(|(k, c)| format!("--color-{k}:{c}")).collect(),
        None => engine.iter().map(|(k, c)| format!("--color-{k}:{c}")).collect(),
    }
}

/// The end (byte offset) of `family` in a font stack, as a whole entry, quoted or not.
fn position(stack: &str, family: &str) -> Option<usize> {
    let mut start = 0;
    for entry in stack.split(',') {
        let end = start + entry.len();
        let name = entry.trim().trim_matches(['"', '\'']);
        if name.eq_ignore_ascii_case(family) {
            return Some(end);
        }
        start = end + 1;
    }
    None
}

/// Times New Roman for a serif stack (one naming the generic `serif`), Arial otherwise.
fn fallback_for(stack: &str) -> &'static Fallback {
    if stack.split(',').any(|e| e.trim().eq_ignore_ascii_case("serif")) {
        &TIMES_NEW_ROMAN
    } else {
        &ARIAL
    }
}

/// The CSS `format()` and the MIME type of a font file.
fn format_of(file: &str) -> (&'static str, &'static str) {
    let ext = file.rsplit('.').next().unwrap_or_default().to_ascii_lowercase();
    match ext.as_str() {
        "woff" => ("woff", "font/woff"),
        "ttf" => ("truetype", "font/ttf"),
        "otf" => ("opentype", "font/otf"),
        _ => ("woff2", "font/woff2"),
    }
}

/// The heading stack's first family's upright file covering the heading weight (else its first
/// upright file): the font of the page's h1, the largest text.
fn preload(theme: &Theme) -> Option<FontPreload> {
    let first = theme.heading_font.as_deref()?.split(',').next()?.trim().trim_matches(['"', '\'']);
    let upright: Vec<&FontFile> = theme
        .fonts
        .iter()
        .filter(|f| f.family.eq_ignore_ascii_case(first) && f.style == "normal")
        .collect();
    let covers = |f: &&&FontFile| {
        let w: Vec<u16> = f.weight.split(' ').filter_map(|w| w.parse().ok()).collect();
        match w.as_slice() {
            [one] => *one == HEADING_WEIGHT,
            [lo, hi] => (*lo..=*hi).contains(&HEADING_WEIGHT),
            _ => false,
        }
    };
    let f = upright.iter().find(covers).or(upright.first())?;
    Some(FontPreload { href: format!("/{}", f.file), mime: format_of(&f.file).1 })
}

#[cfg(test)]
mod tests;
