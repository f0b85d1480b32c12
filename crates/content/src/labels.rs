//! Display labels and URL slugs derived from keys and names.

/// A camelCase key as Title Case words: `mindfulnessAtWork` → `Mindfulness At Work`.
/// The spec's normalisations apply to whole words: `defi` → `DeFi`, `nft` → `NFT`.
pub fn label_from_key(key: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut prev: Option<char> = None;
    for ch in key.chars() {
        let boundary = match prev {
            None => false,
            Some(p) => {
                ch == '_'
                    || ch == '-'
                    || ch == ' '
                    || (ch.is_uppercase() && !p.is_uppercase())
                    || (ch.is_ascii_digit() && !p.is_ascii_digit())
                    || (!ch.is_ascii_digit() && p.is_ascii_digit())
            }
        };
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        if !matches!(ch, '_' | '-' | ' ') {
            current.push(ch);
        }
        prev = Some(ch);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words.iter().map(|w| normalise_word(w)).collect::<Vec<_>>().join(" ")
}

fn normalise_word(word: &str) -> String {
    match word.to_lowercase().as_str() {
        "defi" => "DeFi".to_string(),
        "nft" => "NFT".to_string(),
        _ => {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        }
    }
}

/// Free text as Title Case, word by word, keeping punctuation: `4-7-8 breathing` → `4-7-8 Breathing`.
pub fn title_case(text: &str) -> String {
    text.split_whitespace().map(normalise_word).collect::<Vec<_>>().join(" ")
}

/// A URL slug: ASCII lowercase letters and digits separated by single dashes.
/// Non-ASCII letters are transliterated (`Villaseñor` → `villasenor`).
pub fn slugify(text: &str) -> String {
    // Letters and digits are transliterated; everything else (emoji included) separates words.
    let ascii: String = text
        .chars()
        .map(
            |c| if c.is_alphanumeric() { deunicode::deunicode_char(c).unwrap_or("-") } else { "-" },
        )
        .collect();
    let mut out = String::with_capacity(ascii.len());
    let mut dash = false;
    for ch in ascii.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
            dash = false;
        } else if !dash && !out.is_empty() {
            out.push('-');
            dash = true;
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// Whether `s` is already a valid slug (what `slugify` would produce for itself).
pub fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
        && !s.contains("--")
}

/// FNV-1a, 32 bits: the stable hash DESIGN.md names for choices made from a key.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn labels_from_keys() {
        let cases = [
            ("mindfulnessAtWork", "Mindfulness At Work"),
            ("other", "Other"),
            ("sleepEnhancement", "Sleep Enhancement"),
            ("defiBasics", "DeFi Basics"),
            ("nftArt", "NFT Art"),
            ("myNft", "My NFT"),
            ("top10Tips", "Top 10 Tips"),
            ("body scan", "Body Scan"),
            ("4-7-8 breathing", "4 7 8 Breathing"),
            ("", ""),
        ];
        for (key, want) in cases {
            assert_eq!(label_from_key(key), want, "{key}");
        }
    }

    #[test]
    fn title_case_keeps_punctuation() {
        assert_eq!(title_case("4-7-8 breathing"), "4-7-8 Breathing");
        assert_eq!(title_case("  body   scan "), "Body Scan");
        assert_eq!(title_case("nft tips"), "NFT Tips");
    }

    #[test]
    fn slugs() {
        assert_eq!(slugify("Rosa Villaseñor"), "rosa-villasenor");
        assert_eq!(slugify("  Body Scan: 10 Minutes!  "), "body-scan-10-minutes");
        assert_eq!(slugify("4-7-8 breathing"), "4-7-8-breathing");
        assert_eq!(slugify("🧘"), "");
    }

    #[test]
    fn fnv_reference_values() {
        assert_eq!(fnv1a32(b""), 0x811c_9dc5);
        assert_eq!(fnv1a32(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a32(b"foobar"), 0xbf9c_f968);
    }

    proptest! {
        #[test]
        fn slugify_output_is_a_slug_or_empty(s in "\\PC{0,40}") {
            let slug = slugify(&s);
            prop_assert!(slug.is_empty() || is_slug(&slug), "{slug:?}");
            prop_assert_eq!(slugify(&slug), slug.clone());
        }

        #[test]
        fn labels_have_no_empty_words(key in "[a-zA-Z0-9]{0,30}") {
            let label = label_from_key(&key);
            prop_assert!(!label.contains("  "));
            prop_assert_eq!(label.trim(), label.as_str());
        }
    }
}
