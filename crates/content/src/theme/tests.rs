use std::path::Path;

use super::*;
use crate::config::SiteConfig;

const SITE: &str = r#"[site]
id = "s"
title = "S"
url = "https://s.example"
description = "Calm."
start_date = "2024-09-12"
contact_email = "a@s.example"

[site.social]
video = "https://v.example"
feed = "https://f.example"
photo = "https://p.example"
"#;

fn parse(theme: &str) -> Result<Theme, Vec<ContentError>> {
    SiteConfig::parse(Path::new("stillpoint.toml"), &format!("{SITE}{theme}")).map(|c| c.theme)
}

/// The line of `needle` in the whole file.
fn line_of(theme: &str, needle: &str) -> u32 {
    format!("{SITE}{theme}").lines().position(|l| l.contains(needle)).unwrap() as u32 + 1
}

#[test]
fn no_theme_changes_nothing() {
    assert_eq!(parse("").unwrap(), Theme::default());
    assert_eq!(parse("[theme]\n").unwrap(), Theme::default());
}

#[test]
fn a_full_theme_parses() {
    let t = parse(
        r##"
[theme]
heading_font = '"Lora", Georgia, serif'
body_font = "Inter, system-ui, sans-serif"
radius = "0.25rem"
content_width = "68rem"
[theme.light]
accent = "#7A3E9D"
[theme.dark]
accent = "#d7b8ef"
background = "#141018"
[[theme.fonts]]
family = "Lora"
file = "fonts/lora.woff2"
weight = "400  700"
"##,
    )
    .unwrap();
    assert_eq!(t.heading_font.as_deref(), Some("\"Lora\", Georgia, serif"));
    assert_eq!(t.radius.as_deref(), Some("0.25rem"));
    let light = t.light.unwrap();
    assert_eq!(light.accent, Rgb(0x7a, 0x3e, 0x9d));
    assert_eq!(light.background, Palette::LIGHT.background, "unset colours keep the engine's");
    assert_eq!(t.dark.unwrap().background, Rgb(0x14, 0x10, 0x18));
    let f = &t.fonts[0];
    assert_eq!(
        (f.family.as_str(), f.weight.as_str(), f.style.as_str()),
        ("Lora", "400 700", "normal")
    );
    assert_eq!((f.line, f.col), (26, 8));
}

#[test]
fn a_bad_colour_names_its_key_and_position() {
    let theme = "[theme.light]\naccent = \"#2c665\"\n";
    let errs = parse(theme).unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!((errs[0].line, errs[0].col), (line_of(theme, "accent"), 10));
    assert_eq!(
        errs[0].kind,
        ContentErrorKind::InvalidValue {
            field: "theme.light.accent".into(),
            message: "`#2c665` is not a colour".into()
        }
    );
    assert!(errs[0].hint().contains("#rrggbb"), "{}", errs[0].hint());
}

#[test]
fn what_could_break_out_of_the_style_element_is_refused() {
    for stack in [
        "Lora; } body { display: none",
        "Lora</style><script>",
        "\"Lo\\\"ra\"",
        "Lora,,serif",
        "",
        "var(--x)",
        "\"Lora\" Georgia",
    ] {
        let theme = format!("[theme]\nbody_font = '{stack}'\n");
        let errs = parse(&theme).expect_err(stack);
        assert!(
            matches!(&errs[0].kind, ContentErrorKind::InvalidValue { field, .. } if field == "theme.body_font"),
            "{stack}: {errs:?}"
        );
    }
    for ok in ["system-ui", "'Iowan Old Style', Palatino, serif", "Noto Sans JP, sans-serif"] {
        parse(&format!("[theme]\nbody_font = \"{ok}\"\n")).expect(ok);
    }
    for bad in ["12", "1rem;}", "-1rem", "calc(1rem)", "1 rem", "rem", "1.2.3px"] {
        let errs = parse(&format!("[theme]\nradius = \"{bad}\"\n")).expect_err(bad);
        assert!(errs[0].hint().contains("CSS length"), "{bad}");
    }
    for ok in ["0", "0.75rem", "12px", "74rem", "100%", ".5em"] {
        parse(&format!("[theme]\ncontent_width = \"{ok}\"\n")).expect(ok);
    }
}

#[test]
fn fonts_are_checked_entry_by_entry() {
    let theme = r#"
[[theme.fonts]]
family = "Lora"
file = "../secret.woff2"
[[theme.fonts]]
family = "Lora"
file = "fonts/lora.woff2"
weight = "bold"
[[theme.fonts]]
family = "Lora"
file = "fonts/lora.svg"
style = "slanted"
"#;
    let errs = parse(theme).unwrap_err();
    let fields: Vec<String> = errs
        .iter()
        .map(|e| match &e.kind {
            ContentErrorKind::InvalidValue { field, .. } => field.clone(),
            k => panic!("{k:?}"),
        })
        .collect();
    assert_eq!(
        fields,
        ["theme.fonts.file", "theme.fonts.weight", "theme.fonts.file", "theme.fonts.style"]
    );
}

#[test]
fn unknown_keys_are_errors_listing_the_known_ones() {
    let errs = parse("[theme]\nradus = \"1rem\"\n").unwrap_err();
    // TOML's own message lists the keys [theme] has.
    let text = errs[0].to_string();
    assert!(text.contains("unknown field `radus`") && text.contains("`radius`"), "{text}");
}

#[test]
fn low_contrast_fails_naming_the_key_both_colours_the_ratio_and_the_minimum() {
    // #777777 on white is 4.478:1 (WebAIM rounds it to 4.48): printed rounded down.
    let theme = "[theme.light]\nbackground = \"#ffffff\"\nmuted = \"#777777\"\n";
    let errs = parse(theme).unwrap_err();
    assert_eq!(errs.len(), 2, "on background and on surface: {errs:?}");
    assert_eq!(errs[0].line, line_of(theme, "muted"));
    assert_eq!(
        errs[0].kind,
        ContentErrorKind::InvalidValue {
            field: "theme.light.muted".into(),
            message: "muted #777777 on background #ffffff has a contrast of 4.47:1; WCAG AA needs at least 4.5:1".into()
        }
    );
    // The engine's own dark colours on an owner's light background.
    let errs = parse("[theme.dark]\nbackground = \"#8899aa\"\n").unwrap_err();
    assert!(errs.iter().all(|e| e.to_string().contains("theme.dark.background")), "{errs:?}");
    assert!(errs.iter().any(|e| e.to_string().contains("text #e4eae6 on background #8899aa")));
}

#[test]
fn an_accent_nothing_can_be_read_on_fails_as_the_accent() {
    // Mid grey: neither white nor near-black text reaches 4.5:1 on it, nor it on them.
    let errs = parse("[theme.light]\naccent = \"#808080\"\n").unwrap_err();
    let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
    assert!(text.iter().all(|t| t.contains("theme.light.accent")), "{text:?}");
    assert!(
        text.iter().any(|t| t.contains("on-accent text #1c2522 on accent #808080")),
        "{text:?}"
    );
}

#[test]
fn the_engines_palettes_pass_and_give_todays_on_accent() {
    for p in [Palette::LIGHT, Palette::DARK] {
        for (fg_key, fg, bg_key, bg) in p.pairs() {
            assert!(contrast(fg, bg) >= MIN_CONTRAST, "{fg_key} on {bg_key}");
        }
    }
    assert_eq!(Palette::LIGHT.on_accent(), Rgb(255, 255, 255));
}

#[test]
fn derived_backgrounds_keep_every_text_colour_readable() {
    // A palette at the edge: every pair just passes; the derived tokens must too.
    let edge = Palette {
        accent: Rgb::parse("#767676").unwrap(),
        background: Rgb(255, 255, 255),
        surface: Rgb(255, 255, 255),
        text: Rgb(0, 0, 0),
        muted: Rgb::parse("#767676").unwrap(),
    };
    for p in [edge, Palette::LIGHT, Palette::DARK] {
        let t: std::collections::HashMap<_, _> = p.tokens().into_iter().collect();
        for bg in ["surface-2", "accent-soft"] {
            for fg in ["text", "accent"] {
                assert!(contrast(t[fg], t[bg]) >= MIN_CONTRAST, "{fg} on {bg} for {p:?}");
            }
        }
        assert!(contrast(t["text-muted"], t["surface-2"]) >= MIN_CONTRAST, "{p:?}");
        assert!(contrast(t["accent-hover"], t["bg"]) >= MIN_CONTRAST);
        assert!(contrast(t["accent-muted"], t["bg"]) >= 3.0);
        assert_eq!(t.len(), 12);
    }
    // The engine's light palette keeps today's surface-2 family: a little darker than bg.
    let t: std::collections::HashMap<_, _> = Palette::LIGHT.tokens().into_iter().collect();
    assert!(t["surface-2"].luminance() < t["bg"].luminance());
}
