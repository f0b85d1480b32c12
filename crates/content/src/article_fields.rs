//! The fields of an article's front matter as a first pass sees them: every top-level key with
//! its line, so every unknown field of a file is reported at once, each with a hint (a likely
//! typo, or what Stillpoint calls a field another site generator uses).

use std::fmt;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_saphyr::Spanned;

use crate::suggest::did_you_mean;

/// What other generators (Hugo, Jekyll, Eleventy, Gatsby) call a field, and Stillpoint's name for
/// it. A name whose Stillpoint field this version does not have gives no hint.
const OTHER_GENERATORS: &[(&str, &str)] = &[
    ("tags", "entities"),
    ("categories", "entities"),
    ("category", "entities"),
    ("keywords", "entities"),
    ("topics", "entities"),
    ("series", "entities"),
    ("summary", "description"),
    ("excerpt", "description"),
    ("abstract", "description"),
    ("lastmod", "updated"),
    ("last_modified_at", "updated"),
    ("modified", "updated"),
    ("updated_at", "updated"),
    ("cover", "image"),
    ("featured_image", "image"),
    ("featuredImage", "image"),
    ("thumbnail", "image"),
    ("banner", "image"),
    ("hero", "image"),
    ("authors", "author"),
    ("permalink", "slug"),
    ("url", "slug"),
    ("publishDate", "date"),
    ("pubDate", "date"),
    ("published", "date"),
    ("expiryDate", "expires"),
    ("unpublishDate", "expires"),
    ("redirect_from", "aliases"),
];

/// The hint for an unknown field `name`, given the fields the parser knows.
pub(crate) fn unknown_field_hint(name: &str, known: &[&str]) -> Option<String> {
    if let Some((_, ours)) = OTHER_GENERATORS.iter().find(|(theirs, _)| *theirs == name)
        && known.contains(ours)
    {
        return Some(format!(
            "Stillpoint calls this field `{ours}` (see docs/content.md#articles)"
        ));
    }
    did_you_mean(name, known.iter().copied()).map(|f| format!("did you mean `{f}`?"))
}

/// The top-level keys of a YAML mapping, with where each is written.
pub(crate) struct TopKeys(pub Vec<Spanned<String>>);

impl<'de> Deserialize<'de> for TopKeys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = TopKeys;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("fields, one `name: value` per line")
            }
            fn visit_unit<E>(self) -> Result<TopKeys, E> {
                Ok(TopKeys(Vec::new()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopKeys, A::Error> {
                let mut keys = Vec::new();
                while let Some(key) = map.next_key::<Spanned<String>>()? {
                    map.next_value::<IgnoredAny>()?;
                    keys.push(key);
                }
                Ok(TopKeys(keys))
            }
        }
        d.deserialize_map(Keys)
    }
}

/// The field and the expected names of an unknown-field message: serde's
/// (``unknown field `x`, expected `a` or `b` ``) or serde_saphyr's
/// (``unknown field `x`, expected one of a, b``). Only the first line is read.
pub(crate) fn parse_unknown_field(message: &str) -> Option<(String, Vec<String>)> {
    let first = message.lines().next()?;
    let rest = first.split("unknown field `").nth(1)?;
    let (field, rest) = rest.split_once('`')?;
    let list = rest.split_once("expected").map_or("", |(_, l)| l);
    let list = list.trim().strip_prefix("one of").unwrap_or(list);
    let expected = list
        .split(',')
        .flat_map(|p| p.split(" or "))
        .map(|p| p.trim().trim_matches('`').to_string())
        .filter(|p| !p.is_empty())
        .collect();
    Some((field.to_string(), expected))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[&str] = &["title", "slug", "date", "author", "description", "image", "entities"];

    #[test]
    fn hints_for_other_generators_and_typos() {
        let hint = |n| unknown_field_hint(n, KNOWN);
        assert_eq!(
            hint("tags").unwrap(),
            "Stillpoint calls this field `entities` (see docs/content.md#articles)"
        );
        assert!(hint("summary").unwrap().contains("`description`"));
        assert!(hint("featured_image").unwrap().contains("`image`"));
        assert_eq!(hint("titel").unwrap(), "did you mean `title`?");
        assert_eq!(hint("lastmod"), None, "no `updated` field among KNOWN");
        assert!(unknown_field_hint("lastmod", &["updated"]).unwrap().contains("`updated`"));
        assert_eq!(hint("weight"), None);
    }

    #[test]
    fn every_top_level_key_with_its_line() {
        let keys: TopKeys = serde_saphyr::from_str("a: 1\nb:\n  c: [1, 2]\nd: x\n").unwrap();
        let found: Vec<_> = keys.0.iter().map(|k| (k.value.as_str(), k.defined.line())).collect();
        assert_eq!(found, [("a", 1), ("b", 2), ("d", 4)]);
        let empty: TopKeys = serde_saphyr::from_str("").unwrap();
        assert!(empty.0.is_empty());
    }

    #[test]
    fn serde_unknown_field_message() {
        let (f, exp) = parse_unknown_field(
            "unknown field `subcategory`, expected `category` or `subcategories`",
        )
        .unwrap();
        assert_eq!(f, "subcategory");
        assert_eq!(exp, ["category", "subcategories"]);
        let (f, exp) =
            parse_unknown_field("line 3 column 5: unknown field `x`, expected one of a, b\n --> y")
                .unwrap();
        assert_eq!((f.as_str(), exp), ("x", vec!["a".to_string(), "b".to_string()]));
        assert_eq!(parse_unknown_field("invalid type"), None);
    }
}
