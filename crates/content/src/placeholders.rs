//! Placeholders left to replace: an address on a domain reserved for examples (`.example`,
//! `example.com`) in stillpoint.toml, and the texts `stillpoint new` writes for the owner to
//! replace ("Your Name", "Describe what readers find under …", the starter's page texts). Each
//! one left is a `placeholder` warning at its position, so `check --deny-warnings` fails until
//! the owner has made the site theirs. Recognised by the starter's own texts: nothing marks them
//! on the page.

use memchr::memmem::Finder;
use rayon::prelude::*;

use crate::error::line_col;
use crate::load::Site;
use crate::warning::{ContentWarning, WarningKind};

/// Texts of the starter's Markdown files, each with what to write instead.
const STARTER_TEXTS: &[(&str, &str)] = &[
    (
        "This is your first article.",
        "write your own article in place of the starter's, or delete this file",
    ),
    ("Describe who you are,", "say who you are, what you publish and who writes for you"),
    (
        "Describe what data this site collects",
        "say what data the site collects (analytics, forms) and how readers can reach you about it",
    ),
    ("Replace this text with your own terms.", "write your own terms of use"),
];

/// The starter's author, and the start of its biography.
const YOUR_NAME: &str = "Your Name";
const STARTER_BIO: &str = "A few sentences about you";
/// The start of every starter topic description.
const STARTER_TOPIC: &str = "Describe what readers find under ";

/// Every placeholder of the site, appended to `out`.
pub(crate) fn placeholder_warnings(site: &Site, out: &mut Vec<ContentWarning>) {
    let mut push = |path: &str, text: &str, at: usize, value: &str, hint: &'static str| {
        out.push(placeholder(path, text, at, value, hint));
    };
    let read = |rel: &str| std::fs::read_to_string(site.root.join(rel)).unwrap_or_default();

    let config = read("stillpoint.toml");
    let guesses = starter_social(&site.config.id);
    for s in toml_strings(&config) {
        let hint = example_address(&s.value, s.key).or_else(|| {
            guesses.contains(&s.value).then_some(
                "link to your own profile on this network (the starter guessed it from the site id), or remove the link",
            )
        });
        if let Some(hint) = hint {
            push("stillpoint.toml", &config, s.at, &s.value, hint);
        }
    }
    let authors = read("data/authors.toml");
    for s in toml_strings(&authors) {
        let hint = match s.key {
            "name" if s.value == YOUR_NAME => {
                "write the author's real name, here and in the `author` of their articles"
            }
            "description" if s.value.starts_with(STARTER_BIO) => {
                "write a few sentences about the author: their training, their path to meditation, what they write about"
            }
            _ if s.value.contains(YOUR_NAME) => "write it with the author's real name",
            _ => continue,
        };
        push("data/authors.toml", &authors, s.at, &s.value, hint);
    }
    let topics = read("data/topics.toml");
    for s in toml_strings(&topics) {
        if s.key == "description" && s.value.starts_with(STARTER_TOPIC) {
            let hint = "describe in a sentence or two what readers find under this topic: its page and search engines show it";
            push("data/topics.toml", &topics, s.at, &s.value, hint);
        }
    }
    let pages = site.pages.iter().map(|p| format!("pages/{}.md", p.name));
    let articles = site.articles.iter().map(|a| a.source.to_string_lossy().into_owned());
    let files: Vec<String> = pages.chain(articles).collect();
    // Every file is read again and searched (in parallel, the warnings kept in the files' order):
    // at 100,000 articles `str::find` took a second of the check.
    let finders: Vec<_> = STARTER_TEXTS.iter().map(|(p, h)| (Finder::new(p), *p, *h)).collect();
    let found: Vec<Vec<ContentWarning>> = files
        .par_iter()
        .map(|rel| {
            let text = read(rel);
            (finders.iter())
                .filter_map(|(finder, phrase, hint)| {
                    let at = finder.find(text.as_bytes())?;
                    Some(placeholder(rel, &text, at, phrase, hint))
                })
                .collect()
        })
        .collect();
    out.extend(found.into_iter().flatten());
}

/// The warning for the placeholder `value` at byte `at` of the file `path`, whose text is `text`.
fn placeholder(
    path: &str,
    text: &str,
    at: usize,
    value: &str,
    hint: &'static str,
) -> ContentWarning {
    let (line, col) = line_col(text, at);
    let kind = WarningKind::Placeholder { text: value.to_string(), hint };
    ContentWarning { path: path.into(), line, col, kind }
}

/// The social links `stillpoint new` writes, guessed from the site id: they may well be someone
/// else's profile.
fn starter_social(id: &str) -> [String; 3] {
    [
        format!("https://www.youtube.com/@{id}"),
        format!("https://x.com/{id}"),
        format!("https://www.instagram.com/{id}"),
    ]
}

/// What to write instead of `value` when it is an address on a domain reserved for examples
/// (RFC 2606): a URL, or a mail address.
fn example_address(value: &str, key: &str) -> Option<&'static str> {
    let host = if let Some(rest) = value.strip_prefix("https://").or(value.strip_prefix("http://"))
    {
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let host = authority.rsplit('@').next().unwrap_or_default();
        host.split(':').next().unwrap_or_default()
    } else {
        let (user, host) = value.strip_prefix("mailto:").unwrap_or(value).split_once('@')?;
        if user.is_empty() || host.contains(char::is_whitespace) {
            return None;
        }
        host
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let reserved = host == "example"
        || host.ends_with(".example")
        || ["example.com", "example.net", "example.org"]
            .iter()
            .any(|d| host == *d || host.ends_with(&format!(".{d}")));
    if !reserved {
        return None;
    }
    Some(match key {
        "url" if value.contains("://") && !value.contains('@') => {
            "write the real address: the site's own domain (url in [site]), or the page the link is for"
        }
        _ if !value.contains("://") => "write a mail address readers can reach you at",
        _ => "link to the real page, or remove the link",
    })
}

/// A string value of a TOML file: its key (the last part of the dotted key before `=` on its
/// line, or of an inline table), its text and the byte offset of its opening quote.
struct TomlString<'a> {
    key: &'a str,
    value: String,
    at: usize,
}

/// The one-line strings of a TOML text, outside comments: enough to find placeholders, whatever
/// keys a section has. Escapes are kept as written (placeholders have none).
fn toml_strings(text: &str) -> Vec<TomlString<'_>> {
    let mut out = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let mut key_start = 0;
        let mut chars = line.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '#' => break,
                '{' | ',' => key_start = i + 1,
                '"' | '\'' => {
                    let mut escaped = false;
                    let end = chars.by_ref().find(|&(_, d)| {
                        let close = d == c && !escaped;
                        escaped = c == '"' && d == '\\' && !escaped;
                        close
                    });
                    let Some((end, _)) = end else { break };
                    let key = line[key_start..i].split('=').next().unwrap_or_default();
                    let key = key.trim().rsplit('.').next().unwrap_or_default().trim();
                    let key = key.trim_matches(['"', '\'', '[', ' ']);
                    out.push(TomlString {
                        key,
                        value: line[i + 1..end].to_string(),
                        at: line_start + i,
                    });
                }
                _ => {}
            }
        }
        line_start += line.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_on_example_domains_are_placeholders() {
        for v in [
            "https://calm.example",
            "http://www.calm.example/x",
            "https://example.com",
            "https://news.example.org/a?b#c",
            "hello@calm.example",
            "mailto:hi@example.net",
            "https://calm.example:8443/",
        ] {
            assert!(example_address(v, "x").is_some(), "{v}");
        }
        for v in [
            "https://calm.com",
            "https://example.community",
            "https://www.youtube.com/@calm.example",
            "https://notexample.com",
            "hello@calm.com",
            "Your Name",
            "a @ b.example",
            "@calm.example",
        ] {
            assert!(example_address(v, "x").is_none(), "{v}");
        }
        assert!(example_address("https://s.example", "url").unwrap().contains("domain"));
        assert!(example_address("a@s.example", "contact_email").unwrap().contains("mail"));
        assert!(example_address("https://v.example", "video").unwrap().contains("link"));
    }

    #[test]
    fn strings_are_found_with_their_keys_outside_comments() {
        let text = "# url = \"https://a.example\"\n[site]\nurl = \"https://b.example\" # \"c\"\n\
                    site.x = 'lit#eral'\nlinks = [ { label = \"A \\\"q\\\"\", href = \"/a\" } ]\n";
        let strings = toml_strings(text);
        let found: Vec<(&str, &str, (u32, u32))> =
            strings.iter().map(|s| (s.key, s.value.as_str(), line_col(text, s.at))).collect();
        // The strings' values as written (escapes kept), each at its opening quote.
        let q = "A \\\"q\\\"";
        assert_eq!(
            found,
            [
                ("url", "https://b.example", (3, 7)),
                ("x", "lit#eral", (4, 10)),
                ("label", q, (5, 21)),
                ("href", "/a", (5, 39)),
            ]
        );
    }
}
