//! What is published at a given instant: drafts are left out (unless previewed), an article dated
//! in the future waits for its date, and one past its `expires` is taken down. The instant is
//! explicit ([`Publish::now`]), so a build is reproducible and tests never read the clock.

use std::path::Path;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::article::Article;

/// The build's notion of now, and whether drafts are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Publish {
    pub now: Timestamp,
    /// Drafts are published too (`build --drafts`, `dev`): a preview.
    pub drafts: bool,
}

impl Publish {
    /// The published site as of the clock.
    pub fn at_clock() -> Self {
        Self { now: Timestamp::now(), drafts: false }
    }

    /// Whether `a` is on the site at this instant.
    pub fn shows(&self, a: &Article) -> bool {
        (self.drafts || !a.draft)
            && a.published <= self.now
            && a.expires.is_none_or(|end| self.now < end)
    }
}

/// What the publication rules left out of a site, and when it next changes on its own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Schedule {
    /// Drafts were published (a preview: not for the public).
    pub preview: bool,
    /// Drafts left out.
    pub drafts: usize,
    /// Articles dated after now.
    pub scheduled: usize,
    /// Articles past their `expires`.
    pub expired: usize,
    /// The scheduled article that goes live first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<Upcoming>,
    /// The published article that expires first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_expiry: Option<Upcoming>,
}

/// An article and the instant it appears or goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upcoming {
    pub title: String,
    pub slug: String,
    pub at: Timestamp,
}

impl Schedule {
    /// The schedule of `articles` (every article loaded) at `p`.
    pub fn of<'a>(articles: impl IntoIterator<Item = &'a Article>, p: &Publish) -> Self {
        let mut s = Self { preview: p.drafts, ..Self::default() };
        let earliest = |slot: &mut Option<Upcoming>, a: &Article, at: Timestamp| {
            if slot.as_ref().is_none_or(|u| at < u.at) {
                *slot = Some(Upcoming { title: a.title.clone(), slug: a.slug.clone(), at });
            }
        };
        for a in articles {
            if a.draft && !p.drafts {
                s.drafts += 1;
            } else if a.published > p.now {
                s.scheduled += 1;
                earliest(&mut s.next, a, a.published);
            } else if a.expires.is_some_and(|end| end <= p.now) {
                s.expired += 1;
            } else if let Some(end) = a.expires {
                earliest(&mut s.next_expiry, a, end);
            }
        }
        s
    }
}

/// Whether front matter says `draft: true`, read line by line without a YAML parser: a draft
/// whose YAML does not parse is still known to be one. Looks at the lines after a first `---`
/// line up to the closing one (or the end of the file when it is missing).
pub fn declares_draft(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some("---") {
        return false;
    }
    for line in lines {
        let l = line.trim_end();
        if l == "---" || l == "..." {
            break;
        }
        if let Some(value) = l.strip_prefix("draft:") {
            let value = value.split(" #").next().unwrap_or("").trim();
            let value = value.trim_matches(['"', '\'']);
            return ["true", "yes", "on"].iter().any(|t| value.eq_ignore_ascii_case(t));
        }
    }
    false
}

/// Whether a name under `articles/` is content: not hidden (`.drafts/`, `.#x.md`, `.x.md.swp`)
/// and not an editor's backup (`x.md~`). Files must also end in `.md` to be read.
pub fn is_content_name(name: &Path) -> bool {
    let name = name.to_string_lossy();
    !name.starts_with('.') && !name.ends_with('~')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_draft_scan() {
        assert!(declares_draft("---\ntitle: x\ndraft: true\n---\nbody"));
        assert!(declares_draft("---\ntitle: [unclosed\ndraft: yes # wip\n"));
        assert!(declares_draft("---\ndraft: \"true\"\n---\n"));
        assert!(!declares_draft("---\ndraft: false\n---\n"));
        assert!(!declares_draft("---\ntitle: x\n---\ndraft: true\n"), "body is not front matter");
        assert!(!declares_draft("draft: true\n"), "no front matter");
        assert!(!declares_draft("---\n  draft: true\n---\n"), "nested keys are not the field");
    }

    #[test]
    fn content_names() {
        for name in [".drafts", ".#x.md", ".x.md.swp", "x.md~"] {
            assert!(!is_content_name(Path::new(name)), "{name}");
        }
        assert!(is_content_name(Path::new("x.md")));
    }
}
