use stillpoint_content::{FontMetrics, Rgb};

use super::*;

fn font(family: &str, file: &str, weight: &str, style: &str) -> FontFile {
    FontFile {
        family: family.into(),
        file: file.into(),
        weight: weight.into(),
        style: style.into(),
        line: 1,
        col: 1,
        metrics: Some(FontMetrics {
            units_per_em: 1000,
            ascent: 1000,
            descent: -250,
            line_gap: 0,
            avg_width: 545,
        }),
    }
}

#[test]
fn no_theme_no_css() {
    assert_eq!(theme_css(&Theme::default()), ThemeCss::default());
}

#[test]
fn the_engine_colours_are_todays_tokens() {
    let tokens = include_str!("../../../../web/src/styles/tokens.css");
    let (light, dark) = tokens.split_once("@media (prefers-color-scheme: dark)").unwrap();
    for (part, engine) in [(light, &ENGINE_LIGHT), (dark, &ENGINE_DARK)] {
        for (k, v) in engine {
            assert!(part.contains(&format!("--color-{k}: {v};")), "--color-{k}: {v}");
        }
        let declared = part.lines().filter(|l| l.trim_start().starts_with("--color-")).count();
        assert_eq!(declared, engine.len(), "every colour token is restated");
    }
}

#[test]
fn a_light_palette_restates_the_engines_dark_one() {
    let theme = Theme {
        light: Some(Palette { accent: Rgb(0x7a, 0x3e, 0x9d), ..Palette::LIGHT }),
        ..Theme::default()
    };
    let css = theme_css(&theme).css;
    let (root, dark) = css.split_once("@media (prefers-color-scheme:dark)").unwrap();
    assert!(root.starts_with(":root{--color-bg:#f7f5ef;"), "{css}");
    assert!(
        root.contains("--color-accent:#7a3e9d;") && root.contains("--color-on-accent:#ffffff;")
    );
    assert!(dark.contains("--color-accent:#8fd0b9;--color-accent-hover:#b5e4d3;"), "{css}");
    assert_eq!(css.matches("--color-").count(), 24);
}

#[test]
fn sizes_become_the_radius_and_width_tokens() {
    let theme = Theme {
        radius: Some("0.5rem".into()),
        content_width: Some("64rem".into()),
        ..Theme::default()
    };
    assert_eq!(
        theme_css(&theme).css,
        ":root{--radius-s:calc(0.5rem * 0.5);--radius-m:0.5rem;--radius-l:calc(0.5rem * 5 / 3);--page-max:64rem}\n"
    );
}

#[test]
fn fonts_get_faces_a_size_adjusted_fallback_and_the_heading_one_a_preload() {
    let theme = Theme {
        heading_font: Some("\"Lobster\", Georgia, serif".into()),
        body_font: Some("Inter, system-ui, sans-serif".into()),
        fonts: vec![
            font("Lobster", "fonts/lobster-italic.woff2", "400", "italic"),
            font("Lobster", "fonts/lobster.ttf", "400", "normal"),
            font("Lobster", "fonts/lobster-var.woff2", "300 700", "normal"),
            font("Inter", "fonts/inter.woff2", "400", "normal"),
        ],
        ..Theme::default()
    };
    let out = theme_css(&theme);
    assert!(out.css.contains(
        "@font-face{font-family:\"Lobster\";src:url(\"/fonts/lobster.ttf\") format(\"truetype\");font-weight:400;font-style:normal;font-display:swap}\n"
    ), "{}", out.css);
    // 545/1000 em against Times New Roman's 821/2048: 135.95%; ascent 100% / 1.3595.
    assert!(out.css.contains(
        "@font-face{font-family:\"Lobster Fallback\";src:local(\"Times New Roman\"),local(\"Liberation Serif\"),local(\"Tinos\");size-adjust:135.95%;ascent-override:73.56%;descent-override:18.39%;line-gap-override:0.00%}\n"
    ), "{}", out.css);
    assert_eq!(out.css.matches("Lobster Fallback\";src").count(), 1, "one fallback per family");
    assert!(out.css.contains("local(\"Arial\")"), "a sans stack falls back on Arial");
    assert!(
        out.css.contains("--font-serif:\"Lobster\",\"Lobster Fallback\", Georgia, serif;"),
        "{}",
        out.css
    );
    assert!(
        out.css.contains("--font-sans:Inter,\"Inter Fallback\", system-ui, sans-serif"),
        "{}",
        out.css
    );
    assert_eq!(
        out.preload,
        Some(FontPreload { href: "/fonts/lobster-var.woff2".into(), mime: "font/woff2" }),
        "the upright file covering the headings' weight 600"
    );
}

#[test]
fn no_preload_without_a_self_hosted_heading_font() {
    let theme = Theme {
        heading_font: Some("Georgia, serif".into()),
        fonts: vec![font("Inter", "fonts/inter.woff2", "400", "normal")],
        ..Theme::default()
    };
    assert_eq!(theme_css(&theme).preload, None);
}
