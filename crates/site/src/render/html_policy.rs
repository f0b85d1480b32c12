//! What HTML may come out of a site owner's Markdown: the raw-HTML policy and its sanitiser.
//!
//! By default raw HTML written in Markdown is sanitised with ammonia: safe formatting, headings
//! with ids, tables, footnotes, task-list checkboxes, images, links and the site's own
//! `<audio>`/`<video>` (a relative or root path, never `autoplay`) are kept; scripts, event
//! handlers, iframes, forms and their controls, `style` and URLs other than http(s), mailto and
//! relative ones are dropped. Every id gets the content prefix (`c-`), and `#fragment` links
//! with it. Nesting deeper than the content limit never gets here: `check` refuses it.
//! `[markdown] unsafe_html = true` in `stillpoint.toml` trusts it and keeps it as written.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use crate::props::Picture;

/// How raw HTML in Markdown is treated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RawHtml {
    /// Sanitised (the default).
    #[default]
    Sanitise,
    /// Kept as written: the site owner trusts every author (`[markdown] unsafe_html = true`).
    Trust,
}

/// Markdown text with the policy for the raw HTML in it: text of the site, or an article's body
/// read for the one page that shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Markdown<'a> {
    pub text: Cow<'a, str>,
    pub raw_html: RawHtml,
    /// The text's images as the image stage made them, by their URL as written: each is
    /// rendered as a `<picture>` (its alt from the text).
    pub images: Vec<(String, Picture)>,
    /// An article's embeds' files: when given, embed lines (`::youtube[…]{…}`) become players.
    pub embeds: Option<std::sync::Arc<super::embed::EmbedFiles>>,
}

impl<'a> Markdown<'a> {
    /// `text` under the site's policy (`SiteConfig::unsafe_html`).
    pub fn new(text: impl Into<Cow<'a, str>>, unsafe_html: bool) -> Self {
        let raw_html = if unsafe_html { RawHtml::Trust } else { RawHtml::Sanitise };
        Self { text: text.into(), raw_html, images: Vec::new(), embeds: None }
    }

    /// With the pictures of its images, by URL as written.
    pub fn with_images(mut self, images: Vec<(String, Picture)>) -> Self {
        self.images = images;
        self
    }

    /// With the article's embeds rendered as players.
    pub fn with_embeds(mut self, files: super::embed::EmbedFiles) -> Self {
        self.embeds = Some(std::sync::Arc::new(files));
        self
    }

    /// The same Markdown, borrowed.
    pub fn borrowed(&self) -> Markdown<'_> {
        Markdown {
            text: Cow::Borrowed(&self.text),
            raw_html: self.raw_html,
            images: self.images.clone(),
            embeds: self.embeds.clone(),
        }
    }
}

/// Plain text is sanitised.
impl<'a> From<&'a str> for Markdown<'a> {
    fn from(text: &'a str) -> Self {
        Self {
            text: Cow::Borrowed(text),
            raw_html: RawHtml::Sanitise,
            images: Vec::new(),
            embeds: None,
        }
    }
}

/// Schemes a link may use; anything else (javascript:, vbscript:, data:, file:) is dropped.
const LINK_SCHEMES: [&str; 3] = ["http", "https", "mailto"];
/// Schemes an image may load from.
const IMAGE_SCHEMES: [&str; 2] = ["http", "https"];

/// Whether a URL written in Markdown may become a link (`image`: an image source). Relative
/// URLs are allowed; a scheme is read the way browsers do, ignoring ASCII whitespace and
/// control characters and case, after entities were decoded by the Markdown parser.
pub fn url_allowed(url: &str, image: bool) -> bool {
    let squeezed: String =
        url.chars().filter(|c| !c.is_ascii_whitespace() && !c.is_ascii_control()).collect();
    let Some(colon) = squeezed.find(':') else { return true };
    if squeezed[..colon].contains(['/', '?', '#']) {
        return true; // a relative path whose later part holds a colon
    }
    let scheme = squeezed[..colon].to_ascii_lowercase();
    let allowed: &[&str] = if image { &IMAGE_SCHEMES } else { &LINK_SCHEMES };
    allowed.contains(&scheme.as_str())
}

/// What every id in content starts with, so content cannot take an id of the page around it
/// (`sp-footer`, the root of the footer's React tree; `main`) or shadow a global of the browser
/// runtime (`<p id="requestIdleCallback">` makes `window.requestIdleCallback` that element).
pub const ID_PREFIX: &str = "c-";

/// `id` in the content namespace: with [`ID_PREFIX`], added unless it is there already (the
/// sanitiser's rule, so raw HTML and Markdown agree).
pub fn content_id(id: &str) -> String {
    if id.starts_with(ID_PREFIX) { id.to_string() } else { format!("{ID_PREFIX}{id}") }
}

/// What a raw `<video>` may say.
const MEDIA_ATTRS: [&str; 9] =
    ["src", "controls", "preload", "poster", "width", "height", "muted", "loop", "playsinline"];

/// Whether `url` is a file of the site itself: a relative path or one from the root, with no
/// scheme and no host (`//host/…`, or `/\host/…`, which browsers read the same way).
pub fn site_own_url(url: &str) -> bool {
    let squeezed: String =
        url.chars().filter(|c| !c.is_ascii_whitespace() && !c.is_ascii_control()).collect();
    if squeezed.is_empty() || squeezed.contains('\\') || squeezed.starts_with("//") {
        return false;
    }
    match squeezed.find(':') {
        None => true,
        // A colon after a path, query or fragment character is not a scheme's.
        Some(colon) => squeezed[..colon].contains(['/', '?', '#']),
    }
}

static CLEANER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let tags = [
        "p",
        "br",
        "hr",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "em",
        "strong",
        "b",
        "i",
        "u",
        "s",
        "del",
        "ins",
        "mark",
        "small",
        "sub",
        "sup",
        "abbr",
        "cite",
        "q",
        "kbd",
        "samp",
        "var",
        "code",
        "pre",
        "blockquote",
        "ul",
        "ol",
        "li",
        "dl",
        "dt",
        "dd",
        "a",
        "img",
        "picture",
        "source",
        "figure",
        "figcaption",
        "table",
        "thead",
        "tbody",
        "tfoot",
        "tr",
        "th",
        "td",
        "caption",
        "div",
        "span",
        "input",
        "details",
        "summary",
        "audio",
        "video",
        "source",
    ];
    let heading_attrs = HashSet::from(["id"]);
    let mut attrs: HashMap<&str, HashSet<&str>> = HashMap::from([
        ("a", HashSet::from(["href", "title", "rel"])),
        (
            "img",
            HashSet::from([
                "src", "alt", "title", "width", "height", "loading", "decoding", "srcset", "sizes",
                "style",
            ]),
        ),
        ("source", HashSet::from(["type", "srcset", "sizes"])),
        ("ol", HashSet::from(["start"])),
        ("th", HashSet::from(["colspan", "rowspan"])),
        ("td", HashSet::from(["colspan", "rowspan"])),
        ("input", HashSet::from(["checked"])),
        ("abbr", HashSet::from(["title"])),
        ("details", HashSet::from(["open"])),
        // The site's own recordings and videos; never `autoplay`, never event handlers.
        ("audio", HashSet::from(["src", "controls", "preload", "muted", "loop"])),
        ("video", HashSet::from(MEDIA_ATTRS)),
        ("source", HashSet::from(["src", "type"])),
    ]);
    for h in ["h1", "h2", "h3", "h4", "h5", "h6"] {
        attrs.insert(h, heading_attrs.clone());
    }
    let mut b = ammonia::Builder::empty();
    b.tags(HashSet::from(tags))
        .tag_attributes(attrs)
        // Footnotes (`footnote-reference`, `footnote-definition`), code languages, anchors.
        .generic_attributes(HashSet::from(["class", "id", "lang", "dir"]))
        .url_schemes(HashSet::from(LINK_SCHEMES))
        .url_relative(ammonia::UrlRelative::PassThrough)
        // Task-list boxes only: whatever `<input>` was written is a disabled checkbox (no text
        // or password fields, buttons or file pickers; form elements are not kept at all).
        .set_tag_attribute_value("input", "type", "checkbox")
        .set_tag_attribute_value("input", "disabled", "")
        .id_prefix(Some(ID_PREFIX))
        .link_rel(None)
        .strip_comments(true)
        .clean_content_tags(HashSet::from(["script", "style"]))
        .attribute_filter(|element, attribute, value| match (element, attribute) {
            ("img", "src") if !url_allowed(value, true) => None,
            // Every candidate of a srcset must be an image URL allowed as a `src`.
            ("img" | "source", "srcset")
                if !value
                    .split(',')
                    .all(|c| url_allowed(c.split_whitespace().next().unwrap_or(""), true)) =>
            {
                None
            }
            // The placeholder colour is the only style kept.
            ("img", "style") => value
                .strip_prefix("background:")
                .filter(|c| super::picture::is_colour(c))
                .map(|_| value.into()),
            ("audio" | "video" | "source", "src") | ("video", "poster") if !site_own_url(value) => {
                None
            }
            // A link to an id of the text: ids have the content prefix.
            ("a", "href") if value.starts_with('#') => {
                Some(format!("#{}", content_id(&value[1..])).into())
            }
            _ => Some(value.into()),
        });
    b
});

/// Sanitises HTML rendered from Markdown that contained raw HTML.
pub fn sanitize_markdown_html(html: &str) -> String {
    CLEANER.clean(html).to_string()
}
