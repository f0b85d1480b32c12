//! Markdown → HTML (CommonMark + GitHub tables, footnotes, strikethrough, task lists),
//! with heading ids for anchors and a table of contents. Raw HTML follows the site's policy
//! (`html_policy`): sanitised by default, kept as written when the site trusts it.

use std::collections::HashMap;

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};
use stillpoint_content::{embed_of, looks_like_directive, slugify};

use super::embed::{EmbedFiles, embed_html};
use super::html_policy::{Markdown, RawHtml, content_id, sanitize_markdown_html, url_allowed};
use crate::props::TocEntry;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rendered {
    pub html: String,
    /// h2 and h3 headings, in order.
    pub toc: Vec<TocEntry>,
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_SMART_PUNCTUATION
        | Options::ENABLE_HEADING_ATTRIBUTES
}

/// Renders `markdown` (a `&str` is sanitised; see `Markdown` for the policy). Headings get unique
/// ids (`{#custom}` wins), every id and `#fragment` link of the text with the content prefix
/// (`c-`, see `content_id`); external links open safely; images load lazily. Sanitised, links and
/// images whose URL is not http(s), mailto or relative lose it, headings keep no custom
/// attributes, and raw HTML goes through the sanitiser.
pub fn render_markdown<'a>(markdown: impl Into<Markdown<'a>>) -> Rendered {
    let Markdown { text: markdown, raw_html, images, embeds } = markdown.into();
    let sanitise = raw_html == RawHtml::Sanitise;
    let mut has_raw_html = false;
    let (events, ranges): (Vec<Event>, Vec<std::ops::Range<usize>>) =
        Parser::new_ext(&markdown, options()).into_offset_iter().unzip();
    // The embeds' HTML, spliced in after sanitising (a marker holds each one's place).
    let mut facades: Vec<String> = Vec::new();
    let mut used: HashMap<String, usize> = HashMap::new();
    let mut toc = Vec::new();
    let mut out: Vec<Event> = Vec::with_capacity(events.len());
    let mut i = 0;
    while i < events.len() {
        if let (Event::Start(Tag::Paragraph), Some(files)) = (&events[i], &embeds)
            && let Some((html, end)) = embed_paragraph(&markdown, &events, &ranges, i, files)
        {
            out.push(Event::Html(CowStr::from(format!(
                "{EMBED_MARK}{}{EMBED_MARK}\n",
                facades.len()
            ))));
            facades.push(html);
            i = end + 1;
            continue;
        }
        match &events[i] {
            Event::Start(Tag::Heading { level, id, classes, attrs }) => {
                // The heading's plain text, up to its end tag.
                let end = events[i..]
                    .iter()
                    .position(|e| matches!(e, Event::End(TagEnd::Heading(_))))
                    .map_or(events.len(), |p| i + p);
                let text: String = events[i + 1..end]
                    .iter()
                    .filter_map(|e| match e {
                        Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                        _ => None,
                    })
                    .collect();
                let base = content_id(&id.as_ref().map(|s| s.to_string()).unwrap_or_else(|| {
                    let s = slugify(&text);
                    if s.is_empty() { "section".to_string() } else { s }
                }));
                let n = used.entry(base.clone()).or_insert(0);
                *n += 1;
                let unique = if *n == 1 { base } else { format!("{base}-{n}") };
                let lvl = match level {
                    HeadingLevel::H2 => Some(2),
                    HeadingLevel::H3 => Some(3),
                    _ => None,
                };
                if let Some(level) = lvl {
                    toc.push(TocEntry { id: unique.clone(), text: text.trim().to_string(), level });
                }
                out.push(Event::Start(Tag::Heading {
                    level: *level,
                    id: Some(CowStr::from(unique)),
                    classes: classes.clone(),
                    attrs: if sanitise { Vec::new() } else { attrs.clone() },
                }));
                // The heading's content goes through this loop like any other (links, raw HTML).
            }
            Event::Html(_) | Event::InlineHtml(_) => {
                has_raw_html = true;
                out.push(events[i].clone());
            }
            Event::Start(Tag::Link { dest_url, title, .. }) => {
                let href = if sanitise && !url_allowed(dest_url, false) {
                    String::new()
                } else if let Some(fragment) = dest_url.strip_prefix('#') {
                    // A heading (or another id) of this text, which has the content prefix.
                    format!(" href=\"#{}\"", escape_attr(&content_id(fragment)))
                } else {
                    format!(" href=\"{}\"", escape_attr(dest_url))
                };
                out.push(Event::Html(CowStr::from(format!(
                    "<a{href}{}{}>",
                    if title.is_empty() {
                        String::new()
                    } else {
                        format!(" title=\"{}\"", escape_attr(title))
                    },
                    if is_external(dest_url) { " rel=\"noopener\"" } else { "" }
                ))));
            }
            Event::End(TagEnd::Link) => out.push(Event::Html(CowStr::Borrowed("</a>"))),
            Event::Start(Tag::Image { dest_url, title, .. }) => {
                // Alt text is the image's inline text, up to its end tag.
                let end = events[i..]
                    .iter()
                    .position(|e| matches!(e, Event::End(TagEnd::Image)))
                    .map_or(events.len(), |p| i + p);
                let alt: String = events[i + 1..end]
                    .iter()
                    .filter_map(|e| match e {
                        Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                        _ => None,
                    })
                    .collect();
                if sanitise && !url_allowed(dest_url, true) {
                    out.push(Event::Text(CowStr::from(alt))); // the words, not the payload
                    i = end + 1;
                    continue;
                }
                if let Some((_, picture)) = images.iter().find(|(url, _)| url == dest_url.as_ref())
                {
                    let picture = crate::props::Picture { alt, ..picture.clone() };
                    let html =
                        super::picture::picture_html(&picture, super::BODY_SIZES, escape_attr);
                    out.push(Event::Html(CowStr::from(html)));
                    i = end + 1;
                    continue;
                }
                out.push(Event::Html(CowStr::from(format!(
                    "<img src=\"{}\" alt=\"{}\"{} loading=\"lazy\" decoding=\"async\">",
                    escape_attr(dest_url),
                    escape_attr(&alt),
                    if title.is_empty() {
                        String::new()
                    } else {
                        format!(" title=\"{}\"", escape_attr(title))
                    }
                ))));
                i = end + 1;
                continue;
            }
            Event::FootnoteReference(name) => {
                out.push(Event::FootnoteReference(CowStr::from(content_id(name))));
            }
            Event::Start(Tag::FootnoteDefinition(name)) => {
                out.push(Event::Start(Tag::FootnoteDefinition(CowStr::from(content_id(name)))));
            }
            e => out.push(e.clone()),
        }
        i += 1;
    }
    let mut html_out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut html_out, out.into_iter());
    if sanitise && has_raw_html {
        html_out = sanitize_markdown_html(&html_out);
    }
    for (n, html) in facades.iter().enumerate() {
        html_out = html_out.replace(&format!("{EMBED_MARK}{n}{EMBED_MARK}"), html);
    }
    Rendered { html: html_out, toc }
}

/// Around the number of an embed in the HTML until it is spliced in: a private-use character,
/// which the sanitiser keeps as text. (Text that forges a marker only repeats an embed of the
/// same article: every facade is the renderer's own HTML.)
const EMBED_MARK: char = '\u{E000}';

/// When the paragraph starting at event `i` is an embed line alone: its facade, and the index
/// of the paragraph's end event.
fn embed_paragraph(
    markdown: &str,
    events: &[Event],
    ranges: &[std::ops::Range<usize>],
    i: usize,
    files: &EmbedFiles,
) -> Option<(String, usize)> {
    let source = markdown[ranges[i].clone()].trim();
    if !looks_like_directive(source) || source.lines().count() != 1 {
        return None;
    }
    let end = i + events[i..].iter().position(|e| matches!(e, Event::End(TagEnd::Paragraph)))?;
    let embed = embed_of(source, (0, 0)).ok()?;
    Some((embed_html(&embed, files)?, end))
}

fn is_external(url: &str) -> bool {
    url.starts_with("http://") || url.starts_with("https://") || url.starts_with("//")
}

fn escape_attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    pulldown_cmark_escape::escape_html(&mut out, s).expect("writing to a String cannot fail");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_get_unique_ids_and_toc() {
        let r = render_markdown(
            "Intro\n\n## Why It Works\n\ntext\n\n### Step `one`\n\n## Why It Works\n\n#### Deep\n",
        );
        assert!(r.html.contains(r#"<h2 id="c-why-it-works">Why It Works</h2>"#), "{}", r.html);
        assert!(r.html.contains(r#"<h2 id="c-why-it-works-2">"#));
        assert!(r.html.contains(r#"<h3 id="c-step-one">Step <code>one</code></h3>"#), "{}", r.html);
        let toc: Vec<_> = r.toc.iter().map(|t| (t.id.as_str(), t.level)).collect();
        assert_eq!(toc, [("c-why-it-works", 2), ("c-step-one", 3), ("c-why-it-works-2", 2)]);
    }

    #[test]
    fn gfm_features() {
        let r = render_markdown(
            "| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~ new[^1]\n\n[^1]: note\n\n- [x] done\n",
        );
        assert!(r.html.contains("<table>"));
        assert!(r.html.contains("<del>old</del>"));
        assert!(r.html.contains("footnote-definition"));
        assert!(r.html.contains(r#"type="checkbox""#));
    }

    #[test]
    fn links_and_images() {
        let r = render_markdown(
            "[ext](https://x.example \"T\") [int](/articles/a) ![A calm lake](/images/lake.jpg)",
        );
        assert!(
            r.html.contains(r#"<a href="https://x.example" title="T" rel="noopener">ext</a>"#),
            "{}",
            r.html
        );
        assert!(r.html.contains(r#"<a href="/articles/a">int</a>"#));
        assert!(
            r.html.contains(
                r#"<img src="/images/lake.jpg" alt="A calm lake" loading="lazy" decoding="async">"#
            ),
            "{}",
            r.html
        );
    }

    #[test]
    fn body_images_the_image_stage_made_are_pictures() {
        let picture = crate::props::Picture {
            src: "/media/0123456789abcdef.jpg".into(),
            width: 640,
            height: 480,
            alt: String::new(),
            renditions: None,
            color: Some("#102030".into()),
            preview: None,
            position: None,
        };
        for with_html in ["", "<span>raw</span>"] {
            let text = format!("![A candle](candle.jpg) ![Other](/x.png){with_html}");
            let md = Markdown::new(text, false)
                .with_images(vec![("candle.jpg".into(), picture.clone())]);
            let r = render_markdown(md);
            assert!(
                r.html.contains(r#"<picture><img src="/media/0123456789abcdef.jpg" width="640" height="480" alt="A candle" loading="lazy" decoding="async" style="background:#102030"></picture>"#),
                "{}",
                r.html
            );
            assert!(r.html.contains(r#"<img src="/x.png" alt="Other""#), "{}", r.html);
        }
    }

    #[test]
    fn custom_heading_id() {
        let r = render_markdown("## Title {#custom}\n");
        assert!(r.html.contains(r#"<h2 id="c-custom">Title</h2>"#), "{}", r.html);
    }
}
