//! `[site.social]`: the site's networks, an open table kept in file order. A value is a URL, or
//! `{ url = "…", label = "…" }`. Known names have an icon and a default label; any other name
//! gets the generic link icon and a label made from its key (`my_blog` → `My Blog`).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::error::{ContentError, ContentErrorKind, line_col};

/// The networks with an icon of their own: (key, default label). The icon has the key's name.
pub const KNOWN_NETWORKS: [(&str, &str); 12] = [
    ("youtube", "YouTube"),
    ("instagram", "Instagram"),
    ("x", "X"),
    ("facebook", "Facebook"),
    ("tiktok", "TikTok"),
    ("spotify", "Spotify"),
    ("apple_podcasts", "Apple Podcasts"),
    ("rss", "RSS"),
    ("newsletter", "Newsletter"),
    ("video", "Video"),
    ("feed", "Social feed"),
    ("photo", "Photos"),
];

/// The icon of a network that has none of its own.
pub const GENERIC_ICON: &str = "link";

/// One network of `[site.social]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SocialLink {
    /// The key in `[site.social]`.
    pub name: String,
    pub label: String,
    pub url: String,
    /// The key of a known network, or [`GENERIC_ICON`].
    pub icon: String,
}

/// `[site.social]` as read: keys with where they are (the map's order is not the file's).
pub(crate) type RawSocial = BTreeMap<Spanned<String>, Spanned<toml::Value>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Full {
    url: String,
    label: Option<String>,
}

/// The networks in file order, or an error at each bad entry.
pub(crate) fn resolve_social(
    path: &Path,
    text: &str,
    raw: RawSocial,
) -> Result<Vec<SocialLink>, Vec<ContentError>> {
    let mut entries: Vec<(Spanned<String>, Spanned<toml::Value>)> = raw.into_iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    let mut links = Vec::new();
    let mut errors = Vec::new();
    for (key, value) in entries {
        let name = key.get_ref().clone();
        let field = format!("site.social.{name}");
        let err = |span: std::ops::Range<usize>, message: String| {
            let (line, col) = line_col(text, span.start);
            ContentError::new(
                path,
                line,
                col,
                ContentErrorKind::InvalidValue { field: field.clone(), message },
            )
            .with_help(Some("see docs/configuration.md#sitesocial-optional".into()))
        };
        let span = value.span();
        let (url, label) = match value.into_inner() {
            toml::Value::String(url) => (url, None),
            v @ toml::Value::Table(_) => match v.try_into::<Full>() {
                Ok(full) => (full.url, full.label),
                Err(e) => {
                    errors.push(err(span, e.message().trim().replace('\n', " ")));
                    continue;
                }
            },
            _ => {
                errors.push(err(
                    span,
                    "write a URL, or { url = \"https://…\", label = \"…\" }".to_string(),
                ));
                continue;
            }
        };
        let known = KNOWN_NETWORKS.iter().find(|(k, _)| *k == name);
        let mail_ok = name == "newsletter" && url.starts_with("mailto:") && url.len() > 7;
        if !(url.starts_with("https://") || url.starts_with("http://") || mail_ok) {
            let also = if name == "newsletter" { ", or mailto:" } else { "" };
            errors.push(err(span, format!("`{url}` is not a URL: start it with https://{also}")));
            continue;
        }
        if label.as_deref().is_some_and(|l| l.trim().is_empty()) {
            errors.push(err(span, "the label is empty".to_string()));
            continue;
        }
        links.push(SocialLink {
            label: label
                .or_else(|| known.map(|(_, l)| l.to_string()))
                .unwrap_or_else(|| label_of(&name)),
            icon: known.map_or(GENERIC_ICON, |(k, _)| k).to_string(),
            url,
            name,
        });
    }
    if errors.is_empty() { Ok(links) } else { Err(errors) }
}

/// A label from a key: words split at `_` and `-`, each capitalised (`my_blog` → `My Blog`).
fn label_of(key: &str) -> String {
    key.split(['_', '-'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn social(body: &str) -> Result<Vec<SocialLink>, Vec<ContentError>> {
        #[derive(Deserialize)]
        struct Doc {
            social: RawSocial,
        }
        let text = format!("[social]\n{body}");
        let doc: Doc = toml::from_str(&text).unwrap();
        resolve_social(Path::new("stillpoint.toml"), &text, doc.social)
    }

    #[test]
    fn keeps_file_order_with_known_labels_and_icons() {
        let links = social(
            "spotify = \"https://open.spotify.com/show/1\"\nphoto = \"https://p.example\"\n\
             apple_podcasts = \"https://podcasts.apple.com/x\"\nvideo = \"https://v.example\"\n",
        )
        .unwrap();
        let got: Vec<(&str, &str, &str)> =
            links.iter().map(|l| (l.name.as_str(), l.label.as_str(), l.icon.as_str())).collect();
        assert_eq!(
            got,
            [
                ("spotify", "Spotify", "spotify"),
                ("photo", "Photos", "photo"),
                ("apple_podcasts", "Apple Podcasts", "apple_podcasts"),
                ("video", "Video", "video"),
            ]
        );
    }

    #[test]
    fn unknown_networks_get_the_generic_icon_and_a_label_from_the_key() {
        let links = social(
            "my_blog = \"https://blog.example\"\nmastodon = { url = \"https://m.example/@me\", label = \"Mastodon (fediverse)\" }\n",
        )
        .unwrap();
        assert_eq!(links[0].label, "My Blog");
        assert_eq!(links[0].icon, "link");
        assert_eq!(links[1].label, "Mastodon (fediverse)");
        assert_eq!(links[1].url, "https://m.example/@me");
    }

    #[test]
    fn a_label_overrides_a_known_one() {
        let links =
            social("youtube = { url = \"https://y.example\", label = \"Our channel\" }\n").unwrap();
        assert_eq!((links[0].label.as_str(), links[0].icon.as_str()), ("Our channel", "youtube"));
    }

    #[test]
    fn an_empty_table_is_no_networks() {
        assert_eq!(social("").unwrap(), []);
    }

    #[test]
    fn urls_must_be_http_or_mailto_for_a_newsletter() {
        assert!(social("newsletter = \"mailto:list@s.example\"\n").is_ok());
        let errs =
            social("x = \"x.com/me\"\nrss = \"mailto:a@b\"\nok = \"https://o\"\n").unwrap_err();
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert_eq!((errs[0].line, errs[0].col), (2, 5), "{errs:?}");
        assert!(errs[0].to_string().contains("site.social.x"), "{errs:?}");
        assert_eq!(errs[1].line, 3);
    }

    #[test]
    fn bad_values_and_fields_are_errors() {
        let errs = social("x = 3\n").unwrap_err();
        assert!(errs[0].to_string().contains("write a URL"), "{errs:?}");
        let errs = social("x = { href = \"https://x\" }\n").unwrap_err();
        assert!(errs[0].to_string().contains("href"), "{errs:?}");
        let errs = social("x = { url = \"https://x\", label = \" \" }\n").unwrap_err();
        assert!(errs[0].to_string().contains("empty"), "{errs:?}");
    }
}
