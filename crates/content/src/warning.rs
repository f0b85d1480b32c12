//! A content warning: something that builds fine but is probably not what the site owner
//! meant, located like a `ContentError`. `warnings.rs` finds them.

use std::fmt;
use std::path::PathBuf;

use crate::topics::OTHER;

/// One warning, located like a `ContentError` (`line` 0: the whole file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentWarning {
    pub path: PathBuf,
    pub line: u32,
    pub col: u32,
    pub kind: WarningKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WarningKind {
    /// An author of data/authors.toml whom no article names.
    AuthorWithoutArticles(String),
    /// `![](url)` in an article: an image a screen reader cannot describe.
    ImageWithoutAlt(String),
    /// An article's `image` with no `image_alt`: the cover's alt text is a generic fallback.
    CoverWithoutAlt(String),
    /// An `entities` entry with no subcategories: the article is filed under the category's
    /// `other` subcategory.
    FiledUnderOther { category: String },
    /// A subcategory key the category does not have: the article is filed under `other`.
    UnknownSubcategory { category: String, subcategory: String, suggestion: Option<String> },
    /// Text in an article body that looks like another generator's shortcode, printed as is.
    Shortcode(String),
    /// An error in a draft, which is not published: it blocks nothing until the draft is
    /// published or previewed (`build --drafts`).
    InDraft { code: &'static str, message: String, hint: &'static str },
    /// A symbolic link under `articles/` or `static/`: not followed, so not published.
    SymlinkNotFollowed,
    /// An internal link to an old URL (an alias or an exact redirect): it works, through a
    /// redirect.
    RedirectedLink { link: String, to: String },
    /// A placeholder left to replace: an address on an example domain, or a starter text.
    Placeholder { text: String, hint: &'static str },
    /// Topics with no articles (one warning for the whole site): `count` of them, the first few
    /// `names`; `in_menu`: `[menu] empty_topics` keeps them in the menu.
    EmptyTopics { count: usize, names: Vec<String>, in_menu: bool },
    /// Something the pages load that the site's Content-Security-Policy does not allow (a raw
    /// `<iframe>` from a host no embed declares, a script whose origin cannot be named): the
    /// browser blocks it. Found by the site crate, which derives the policy.
    BlockedByPolicy { what: String, hint: &'static str },
    /// An image with more than one frame (animated GIF, WebP or PNG), named as the site has it:
    /// the pipeline uses its first frame only. Found by the site crate's image stage.
    AnimatedImage(String),
}

/// Every warning code, as `accept` lists them (in front matter and in `[check]`).
pub const WARNING_CODES: &[&str] = &[
    "author_without_articles",
    "image_without_alt",
    "cover_without_alt",
    "filed_under_other",
    "unknown_subcategory",
    "shortcode",
    "symlink_not_followed",
    "error_in_draft",
    "redirected_link",
    "placeholder",
    "empty_topics",
    "blocked_by_policy",
    "animated_image",
];

impl WarningKind {
    /// A stable name for machines (`check --format json`).
    pub fn code(&self) -> &'static str {
        match self {
            Self::AuthorWithoutArticles(_) => "author_without_articles",
            Self::ImageWithoutAlt(_) => "image_without_alt",
            Self::CoverWithoutAlt(_) => "cover_without_alt",
            Self::FiledUnderOther { .. } => "filed_under_other",
            Self::UnknownSubcategory { .. } => "unknown_subcategory",
            Self::Shortcode(_) => "shortcode",
            Self::InDraft { .. } => "error_in_draft",
            Self::SymlinkNotFollowed => "symlink_not_followed",
            Self::RedirectedLink { .. } => "redirected_link",
            Self::Placeholder { .. } => "placeholder",
            Self::EmptyTopics { .. } => "empty_topics",
            Self::BlockedByPolicy { .. } => "blocked_by_policy",
            Self::AnimatedImage(_) => "animated_image",
        }
    }

    /// A one-line suggestion of how to fix it.
    pub fn hint(&self) -> &'static str {
        match self {
            Self::AuthorWithoutArticles(_) => {
                "name the author in an article's `author`, or remove the entry (the author page lists no articles)"
            }
            Self::ImageWithoutAlt(_) => {
                "describe the image between the brackets: ![A calm lake at dawn](/images/lake.jpg)"
            }
            Self::CoverWithoutAlt(_) => {
                "describe the cover for screen readers: `image_alt: \"Morning light over a still lake\"`"
            }
            Self::FiledUnderOther { .. } => {
                "list the article's `subcategories` under this category, or accept it: `accept: [filed_under_other]`"
            }
            Self::UnknownSubcategory { .. } => {
                "use a child `key` of the category from data/topics.toml, or accept it: `accept: [unknown_subcategory]`"
            }
            Self::Shortcode(_) => {
                "Stillpoint has no shortcodes and prints this as text: write Markdown (a link, an image) instead"
            }
            Self::InDraft { hint, .. } => hint,
            Self::SymlinkNotFollowed => "copy the file (or folder) in where the link is",
            Self::RedirectedLink { .. } => "link to the final URL: one request instead of two",
            Self::Placeholder { hint, .. } => hint,
            Self::BlockedByPolicy { hint, .. } => hint,
            Self::AnimatedImage(_) => {
                "for motion, embed a video (::youtube, ::vimeo); else use a still image, or accept it: `accept: [animated_image]`"
            }
            Self::EmptyTopics { .. } => {
                "file articles under them, remove them from data/topics.toml, or accept it: `[check] accept = [\"empty_topics\"]`"
            }
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AuthorWithoutArticles(name) => write!(f, "author `{name}` has no articles"),
            Self::ImageWithoutAlt(url) => write!(f, "image `{url}` has no alt text"),
            Self::CoverWithoutAlt(url) => write!(f, "cover `{url}` has no `image_alt`"),
            Self::FiledUnderOther { category } => write!(
                f,
                "no subcategories under `{category}`: the article is filed under `{OTHER}`"
            ),
            Self::UnknownSubcategory { category, subcategory, suggestion } => {
                write!(
                    f,
                    "`{category}` has no subcategory `{subcategory}`: the article is filed under `{OTHER}`"
                )?;
                match suggestion {
                    Some(s) => write!(f, " (did you mean `{s}`?)"),
                    None => Ok(()),
                }
            }
            Self::Shortcode(text) => {
                write!(f, "`{text}` looks like a shortcode of another site generator")
            }
            Self::InDraft { code, message, .. } => {
                write!(f, "in a draft ({code}, an error once published): {message}")
            }
            Self::SymlinkNotFollowed => {
                write!(f, "a symbolic link: symlinks are not followed, so it is left out")
            }
            Self::RedirectedLink { link, to } => {
                write!(f, "link to `{link}`, which redirects to `{to}`")
            }
            Self::Placeholder { text, .. } => {
                let short: String = text.chars().take(60).collect();
                let more = if short.len() < text.len() { "…" } else { "" };
                write!(f, "placeholder left to replace: `{short}{more}`")
            }
            Self::BlockedByPolicy { what, .. } => {
                write!(f, "{what}, which the site's security policy blocks")
            }
            Self::AnimatedImage(file) => {
                write!(f, "`{file}` is animated: only the first frame is shown")
            }
            Self::EmptyTopics { count, names, in_menu } => {
                let (topics, have, pages) = if *count == 1 {
                    ("topic", "has", "its page is")
                } else {
                    ("topics", "have", "their pages are")
                };
                write!(f, "{count} {topics} {have} no articles yet: {}", names.join(", "))?;
                if *count > names.len() {
                    write!(f, " and {} more", count - names.len())?;
                }
                let menu = if *in_menu { "" } else { " and the menu" };
                write!(f, "; {pages} left out of sitemap.xml{menu} and not indexed")
            }
        }
    }
}
