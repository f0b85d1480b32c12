//! A [`Picture`] as HTML: the markup `markdown.rs` writes for a body image, the same that the
//! web `Picture` component renders for the other slots.

use crate::props::{Picture, Renditions};

/// The `sizes` of an image in an article body: the text column, 540 px from 577 px wide and the
/// page's content box (`calc(96vw - 19px)`, rounded up to 96vw) below (web/src/components/Picture/sizes.ts).
pub const BODY_SIZES: &str = "(min-width:577px) 540px,96vw";

/// `<picture>` with a `<source>` per modern format and the fallback `<img>`, its intrinsic size,
/// lazy loading and the placeholder colour behind it. `escape` escapes an attribute value.
pub fn picture_html(p: &Picture, sizes: &str, escape: impl Fn(&str) -> String) -> String {
    let mut out = String::from("<picture>");
    for (mime, ext) in p.renditions.as_ref().map_or(&[][..], |_| &Renditions::FORMATS[..]) {
        let srcset = p.renditions.as_ref().map(|r| r.srcset(ext)).unwrap_or_default();
        out.push_str(&format!(
            "<source type=\"{mime}\" srcset=\"{}\" sizes=\"{}\">",
            escape(&srcset),
            escape(sizes)
        ));
    }
    let style = p
        .color
        .as_deref()
        .filter(|c| is_colour(c))
        .map_or(String::new(), |c| format!(" style=\"background:{c}\""));
    out.push_str(&format!(
        "<img src=\"{}\" width=\"{}\" height=\"{}\" alt=\"{}\" loading=\"lazy\" decoding=\"async\"{style}></picture>",
        escape(&p.src),
        p.width,
        p.height,
        escape(&p.alt),
    ));
    out
}

/// `#rrggbb`: the only inline style a body image carries.
pub fn is_colour(value: &str) -> bool {
    value.len() == 7 && value.starts_with('#') && value[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup() {
        let p = Picture {
            src: "/media/k-1280.jpg".into(),
            width: 2400,
            height: 1600,
            alt: "A \"calm\" lake".into(),
            renditions: Some(Renditions { stem: "/media/k".into(), widths: vec![320, 640] }),
            color: Some("#a1b2c3".into()),
            preview: None,
            position: None,
        };
        let esc = |s: &str| s.replace('"', "&quot;");
        insta::assert_snapshot!(picture_html(&p, BODY_SIZES, esc), @r#"<picture><source type="image/avif" srcset="/media/k-320.avif 320w,/media/k-640.avif 640w" sizes="(min-width:577px) 540px,96vw"><source type="image/webp" srcset="/media/k-320.webp 320w,/media/k-640.webp 640w" sizes="(min-width:577px) 540px,96vw"><img src="/media/k-1280.jpg" width="2400" height="1600" alt="A &quot;calm&quot; lake" loading="lazy" decoding="async" style="background:#a1b2c3"></picture>"#);
        let plain = Picture { renditions: None, color: None, ..p };
        assert_eq!(
            picture_html(&plain, BODY_SIZES, esc),
            r#"<picture><img src="/media/k-1280.jpg" width="2400" height="1600" alt="A &quot;calm&quot; lake" loading="lazy" decoding="async"></picture>"#
        );
        assert!(!is_colour("#fff;x:y"));
    }
}
