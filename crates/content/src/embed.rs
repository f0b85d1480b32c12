//! Embeds in Markdown: leaf directives alone on their line (remark-directive syntax),
//!
//! ```text
//! ::youtube[Title]{id=VIDEO_ID poster=poster.jpg}
//! ::vimeo[Title]{id=123456 poster=/images/p.jpg}
//! ::audio[Title]{src=evening.m4a}
//! ```
//!
//! One parser for the loader (which records and checks them) and the renderer (which writes the
//! click-to-load facade).

use serde::{Deserialize, Serialize};

use crate::suggest::did_you_mean_text;

/// Who serves an embed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Provider {
    Youtube,
    Vimeo,
    /// An audio file of the site.
    Audio,
}

/// The directive names, in the order of [`Provider`].
pub const PROVIDERS: &[&str] = &["youtube", "vimeo", "audio"];

impl Provider {
    pub fn name(self) -> &'static str {
        match self {
            Self::Youtube => "youtube",
            Self::Vimeo => "vimeo",
            Self::Audio => "audio",
        }
    }

    /// The host the player's frame loads from (None: the site's own file).
    pub fn frame_host(self) -> Option<&'static str> {
        match self {
            Self::Youtube => Some("https://www.youtube-nocookie.com"),
            Self::Vimeo => Some("https://player.vimeo.com"),
            Self::Audio => None,
        }
    }

    /// The player's URL, loaded on the click (privacy-enhanced host, no tracking).
    pub fn player_url(self, id: &str) -> Option<String> {
        match self {
            Self::Youtube => {
                Some(format!("https://www.youtube-nocookie.com/embed/{id}?autoplay=1"))
            }
            Self::Vimeo => Some(format!("https://player.vimeo.com/video/{id}?autoplay=1&dnt=1")),
            Self::Audio => None,
        }
    }

    /// The video's own page, linked from the caption (works without JavaScript).
    pub fn watch_url(self, id: &str) -> Option<(String, &'static str)> {
        match self {
            Self::Youtube => {
                Some((format!("https://www.youtube.com/watch?v={id}"), "Watch on YouTube"))
            }
            Self::Vimeo => Some((format!("https://vimeo.com/{id}"), "Watch on Vimeo")),
            Self::Audio => None,
        }
    }
}

/// An embed of an article, as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Embed {
    pub provider: Provider,
    /// The video's id, or the audio file's `src` as written.
    pub id: String,
    pub title: String,
    /// `poster=`: a site image, as written.
    pub poster: Option<String>,
    /// Where the directive is in the file (1-based).
    pub line: u32,
    pub col: u32,
}

/// A directive line as written, before its name and fields are checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive<'a> {
    pub name: &'a str,
    pub label: &'a str,
    pub attrs: Vec<(&'a str, String)>,
}

/// Whether `line` is meant as a leaf directive: `::` then a letter.
pub fn looks_like_directive(line: &str) -> bool {
    let t = line.trim();
    t.strip_prefix("::").and_then(|r| r.chars().next()).is_some_and(|c| c.is_ascii_alphabetic())
}

/// Parses `::name[label]{key=value key="value"}`, the whole of `line` but its spaces.
pub fn parse_directive(line: &str) -> Result<Directive<'_>, String> {
    let t = line.trim();
    let rest = t.strip_prefix("::").ok_or("a directive starts with `::`")?;
    let name_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(rest.len());
    let (name, mut rest) = rest.split_at(name_end);
    let mut label = "";
    if let Some(r) = rest.strip_prefix('[') {
        // The label ends at the matching `]` (brackets inside it nest).
        let mut depth = 0usize;
        let end = r
            .char_indices()
            .find(|&(_, c)| match c {
                '[' => {
                    depth += 1;
                    false
                }
                ']' if depth == 0 => true,
                ']' => {
                    depth -= 1;
                    false
                }
                _ => false,
            })
            .map(|(i, _)| i)
            .ok_or("the title's `[` is never closed with `]`")?;
        label = &r[..end];
        rest = &r[end + 1..];
    }
    let mut attrs = Vec::new();
    if let Some(r) = rest.strip_prefix('{') {
        let body = r
            .strip_suffix('}')
            .ok_or("the fields' `{` is not closed with `}` at the end of the line")?;
        attrs = parse_attrs(body)?;
    } else if !rest.is_empty() {
        return Err(format!("unexpected `{rest}` after the directive: write `{{key=value}}`"));
    }
    Ok(Directive { name, label, attrs })
}

fn parse_attrs(body: &str) -> Result<Vec<(&str, String)>, String> {
    let mut attrs = Vec::new();
    let mut rest = body.trim_start();
    while !rest.is_empty() {
        let key_end = rest.find(|c: char| c == '=' || c.is_whitespace()).unwrap_or(rest.len());
        let key = &rest[..key_end];
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || "-_".contains(c)) {
            return Err(format!(
                "`{}` is not a field: write `key=value`",
                rest.split_whitespace().next().unwrap_or(rest)
            ));
        }
        rest = rest[key_end..].trim_start();
        let Some(r) = rest.strip_prefix('=') else {
            return Err(format!("the field `{key}` has no value: write `{key}=…`"));
        };
        let r = r.trim_start();
        let (value, after) = match r.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let end =
                    r[1..].find(q).ok_or(format!("the value of `{key}` has no closing {q}"))?;
                (r[1..1 + end].to_string(), &r[end + 2..])
            }
            _ => {
                let end = r.find(char::is_whitespace).unwrap_or(r.len());
                (r[..end].to_string(), &r[end..])
            }
        };
        if attrs.iter().any(|(k, _)| *k == key) {
            return Err(format!("the field `{key}` is given twice"));
        }
        attrs.push((key, value));
        rest = after.trim_start();
    }
    Ok(attrs)
}

/// The embed a directive line names, or what is wrong with it (with a hint when one helps).
pub fn embed_of(line: &str, at: (u32, u32)) -> Result<Embed, (String, Option<String>)> {
    let d = parse_directive(line).map_err(|e| (e, None))?;
    let provider = match d.name {
        "youtube" => Provider::Youtube,
        "vimeo" => Provider::Vimeo,
        "audio" => Provider::Audio,
        other => {
            let hint = did_you_mean_text(other, PROVIDERS.iter().copied())
                .unwrap_or_else(|| format!("embeds are `::{}`", PROVIDERS.join("`, `::")));
            return Err((format!("unknown embed `::{other}`"), Some(hint)));
        }
    };
    let title = d.label.trim();
    if title.is_empty() {
        return Err((
            format!("`::{}` needs a title between brackets", d.name),
            Some(format!(
                "write `::{}[What it is]{{…}}`: it names the player for screen readers",
                d.name
            )),
        ));
    }
    let (key, allowed): (&str, &[&str]) = match provider {
        Provider::Audio => ("src", &["src"]),
        _ => ("id", &["id", "poster"]),
    };
    for (k, _) in &d.attrs {
        if !allowed.contains(k) {
            let hint = did_you_mean_text(k, allowed.iter().copied())
                .unwrap_or_else(|| format!("`::{}` takes {}", d.name, allowed.join(", ")));
            return Err((format!("unknown field `{k}` in `::{}`", d.name), Some(hint)));
        }
    }
    let get = |k: &str| d.attrs.iter().find(|(a, _)| *a == k).map(|(_, v)| v.trim().to_string());
    let id = get(key).filter(|v| !v.is_empty()).ok_or_else(|| {
        (
            format!("`::{}` needs `{key}=`", d.name),
            Some(format!("write `::{}[{title}]{{{key}=…}}`", d.name)),
        )
    })?;
    let valid = match provider {
        Provider::Youtube => {
            id.len() == 11 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        }
        Provider::Vimeo => id.len() <= 20 && id.chars().all(|c| c.is_ascii_digit()),
        Provider::Audio => !id.contains(['"', '<', '>', '\\']),
    };
    if !valid {
        let what = match provider {
            Provider::Youtube => {
                "a YouTube id is the 11 letters, digits, `-` and `_` after `v=` in the video's URL"
            }
            Provider::Vimeo => "a Vimeo id is the number in the video's URL (vimeo.com/123456)",
            Provider::Audio => "a file name has no quotes, angle brackets or backslashes",
        };
        return Err((
            format!("`{id}` is not a valid `{key}` for `::{}`", d.name),
            Some(what.into()),
        ));
    }
    Ok(Embed {
        provider,
        id,
        title: title.to_string(),
        poster: get("poster").filter(|p| !p.is_empty()),
        line: at.0,
        col: at.1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Embed {
        embed_of(line, (3, 1)).unwrap()
    }
    fn err(line: &str) -> String {
        let (e, hint) = embed_of(line, (3, 1)).unwrap_err();
        format!("{e} | {}", hint.unwrap_or_default())
    }

    #[test]
    fn parses_the_three_embeds() {
        let y = ok("::youtube[Morning [calm] breath]{id=dQw4w9WgXcQ poster=\"my poster.jpg\"}");
        assert_eq!(y.provider, Provider::Youtube);
        assert_eq!((y.id.as_str(), y.title.as_str()), ("dQw4w9WgXcQ", "Morning [calm] breath"));
        assert_eq!(y.poster.as_deref(), Some("my poster.jpg"));
        let v = ok("  ::vimeo[Rain]{ id = 76979871 }  ");
        assert_eq!((v.provider, v.id.as_str(), v.poster), (Provider::Vimeo, "76979871", None));
        let a = ok("::audio[Evening practice]{src='../shared/evening.m4a'}");
        assert_eq!((a.provider, a.id.as_str()), (Provider::Audio, "../shared/evening.m4a"));
        assert_eq!(
            Provider::Youtube.player_url("dQw4w9WgXcQ").unwrap(),
            "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1"
        );
        assert!(Provider::Vimeo.player_url("1").unwrap().contains("dnt=1"));
    }

    #[test]
    fn clear_errors() {
        insta::assert_snapshot!(
            [
                err("::youtub[T]{id=dQw4w9WgXcQ}"),
                err("::tiktok[T]{id=1}"),
                err("::youtube{id=dQw4w9WgXcQ}"),
                err("::youtube[ ]{id=dQw4w9WgXcQ}"),
                err("::youtube[T]"),
                err("::youtube[T]{id=short}"),
                err("::youtube[T]{id=https://youtu.be/dQw4w9WgXcQ}"),
                err("::vimeo[T]{id=abc}"),
                err("::audio[T]{file=x.m4a}"),
                err("::youtube[T]{id=dQw4w9WgXcQ poster=a.jpg autoplay=1}"),
                err("::youtube[T{id=x}"),
                err("::youtube[T]{id=x"),
                err("::youtube[T]{id=\"x}"),
                err("::youtube[T]{id=a id=b}"),
                err("::youtube[T] trailing"),
                err("::youtube[T]{id}"),
            ]
            .join("\n")
        );
    }

    #[test]
    fn what_looks_like_a_directive() {
        assert!(looks_like_directive("::youtube[x]"));
        assert!(looks_like_directive("  ::x"));
        assert!(!looks_like_directive(":: not"));
        assert!(!looks_like_directive("a ::youtube"));
        assert!(!looks_like_directive("::"));
    }
}
