//! Colours as the theme writes them (`#rrggbb`) and the WCAG 2.x maths on them: relative
//! luminance, contrast ratio, and the mixes the theme derives its extra tokens with.

use std::fmt;

/// An opaque sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// Parses `#rrggbb` (either case); anything else is `None`.
    pub fn parse(s: &str) -> Option<Self> {
        let hex = s.strip_prefix('#')?;
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(Self(byte(0)?, byte(2)?, byte(4)?))
    }

    /// WCAG 2.x relative luminance, 0 (black) to 1 (white).
    pub fn luminance(self) -> f64 {
        let channel = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
        };
        0.2126 * channel(self.0) + 0.7152 * channel(self.1) + 0.0722 * channel(self.2)
    }

    /// `self` moved `amount` (0 to 1) of the way towards `other`, channel by channel in sRGB.
    pub fn mix(self, other: Rgb, amount: f64) -> Rgb {
        let m = |a: u8, b: u8| {
            (f64::from(a) + (f64::from(b) - f64::from(a)) * amount).round().clamp(0.0, 255.0) as u8
        };
        Rgb(m(self.0, other.0), m(self.1, other.1), m(self.2, other.2))
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// The WCAG contrast ratio of two colours, 1 to 21.
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (a.luminance(), b.luminance());
    let (hi, lo) = if la >= lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_only_six_digit_hex() {
        assert_eq!(Rgb::parse("#2C6656"), Some(Rgb(0x2c, 0x66, 0x56)));
        for bad in ["2c6656", "#2c665", "#2c66561", "#2c665g", "#fff", "", "#"] {
            assert_eq!(Rgb::parse(bad), None, "{bad}");
        }
        assert_eq!(Rgb(0x2c, 0x66, 0x56).to_string(), "#2c6656");
    }

    #[test]
    fn contrast_matches_known_wcag_values() {
        let (black, white) = (Rgb(0, 0, 0), Rgb(255, 255, 255));
        assert!((contrast(black, white) - 21.0).abs() < 1e-9);
        assert!((contrast(white, white) - 1.0).abs() < 1e-9);
        // WebAIM's contrast checker: #767676 on white is 4.54:1, #777777 is 4.48:1.
        let grey = contrast(Rgb::parse("#767676").unwrap(), white);
        assert!((grey - 4.54).abs() < 0.005, "{grey}");
        let lighter = contrast(Rgb::parse("#777777").unwrap(), white);
        assert!((lighter - 4.48).abs() < 0.005, "{lighter}");
        // #0000ff on white: 8.59:1; the order of the two does not matter.
        let blue = Rgb::parse("#0000ff").unwrap();
        assert!((contrast(blue, white) - 8.59).abs() < 0.005);
        assert_eq!(contrast(blue, white), contrast(white, blue));
    }

    #[test]
    fn mixing_moves_towards_the_other_colour() {
        let (a, b) = (Rgb(0, 100, 200), Rgb(100, 200, 0));
        assert_eq!(a.mix(b, 0.0), a);
        assert_eq!(a.mix(b, 1.0), b);
        assert_eq!(a.mix(b, 0.5), Rgb(50, 150, 100));
    }
}
