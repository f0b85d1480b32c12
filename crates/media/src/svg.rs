//! The size of an SVG file, from the `width`/`height`/`viewBox` of its root element.

use quick_xml::Reader;
use quick_xml::events::Event;

/// `(width, height)` in CSS pixels, rounded, each at least 1.
pub(crate) fn svg_size(bytes: &[u8]) -> Result<(u32, u32), String> {
    let mut reader = Reader::from_reader(bytes);
    loop {
        match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) => {
                if e.local_name().as_ref() != b"svg" {
                    return Err("the root element is not <svg>".into());
                }
                let (mut width, mut height, mut view_box) = (None, None, None);
                for attr in e.attributes().with_checks(false).flatten() {
                    let value = String::from_utf8_lossy(&attr.value).into_owned();
                    match attr.key.local_name().as_ref() {
                        b"width" => width = length(&value),
                        b"height" => height = length(&value),
                        b"viewBox" => view_box = parse_view_box(&value),
                        _ => {}
                    }
                }
                return match (width, height, view_box) {
                    (Some(w), Some(h), _) => Ok((px(w), px(h))),
                    (Some(w), None, Some((vw, vh))) => Ok((px(w), px(w * vh / vw))),
                    (None, Some(h), Some((vw, vh))) => Ok((px(h * vw / vh), px(h))),
                    (_, _, Some((vw, vh))) => Ok((px(vw), px(vh))),
                    _ => Err("no width and height in pixels and no viewBox on <svg>".into()),
                };
            }
            Ok(Event::Eof) => return Err("no <svg> element".into()),
            Ok(_) => {}
            Err(e) => {
                return Err(format!("malformed XML at byte {}: {e}", reader.error_position()));
            }
        }
    }
}

/// A length in pixels: a bare number or `px`; other units (%, em) are not a size.
fn length(value: &str) -> Option<f64> {
    let value = value.trim();
    let number = value.strip_suffix("px").unwrap_or(value).trim();
    number.parse::<f64>().ok().filter(|n| n.is_finite() && *n > 0.0)
}

fn parse_view_box(value: &str) -> Option<(f64, f64)> {
    let parts: Vec<f64> = value
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|p| !p.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    match parts[..] {
        [_, _, w, h] if w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0 => Some((w, h)),
        _ => None,
    }
}

fn px(value: f64) -> u32 {
    value.round().clamp(1.0, u32::MAX as f64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_and_height() {
        let svg = br#"<?xml version="1.0"?><!-- logo --><svg xmlns="http://www.w3.org/2000/svg" width="120px" height="40"></svg>"#;
        assert_eq!(svg_size(svg), Ok((120, 40)));
    }

    #[test]
    fn view_box_alone_or_with_one_length() {
        let svg = br#"<svg viewBox="0 0 300 150"/>"#;
        assert_eq!(svg_size(svg), Ok((300, 150)));
        let svg = br#"<svg width="600" viewBox="0,0,300,150"/>"#;
        assert_eq!(svg_size(svg), Ok((600, 300)));
        let svg = br#"<svg width="100%" height="100%" viewBox="0 0 24 24"/>"#;
        assert_eq!(svg_size(svg), Ok((24, 24)));
    }

    #[test]
    fn no_size_is_an_error() {
        assert!(svg_size(br#"<svg width="100%"/>"#).is_err());
        assert!(svg_size(br#"<html/>"#).is_err());
        assert!(svg_size(b"<svg width=").is_err());
    }
}
