//! What a browser would find in rendered Markdown, read with html5ever's tokenizer (the HTML
//! standard's, entities decoded in attribute values): the elements and attributes that could run
//! script. The markup is read as the content of a `<div>` in the body, so raw-text elements
//! (`<textarea>`, `<title>`, `<style>`, ...) switch the tokenizer the way the tree builder would.

use std::cell::RefCell;

use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
    states::RawKind,
};

/// Elements that run script or load active content.
const ACTIVE_ELEMENTS: [&str; 12] = [
    "script", "iframe", "frame", "object", "embed", "base", "meta", "link", "form", "style", "svg",
    "math",
];
/// Attributes holding a URL.
const URL_ATTRIBUTES: [&str; 10] = [
    "href",
    "src",
    "action",
    "formaction",
    "poster",
    "background",
    "cite",
    "data",
    "srcset",
    "xlink:href",
];
/// URL schemes that run script or smuggle a document in.
const ACTIVE_SCHEMES: [&str; 3] = ["javascript", "vbscript", "data"];

/// Everything in `html` that could run script, as readable findings (empty: inert).
pub fn active_content(html: &str) -> Vec<String> {
    let sink = Sink::default();
    let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(html.into());
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    tokenizer.sink.found.take()
}

#[derive(Default)]
struct Sink {
    found: RefCell<Vec<String>>,
}

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let Token::TagToken(tag) = token else { return TokenSinkResult::Continue };
        if tag.kind == TagKind::EndTag {
            return TokenSinkResult::Continue;
        }
        self.check(&tag);
        match &*tag.name {
            "textarea" | "title" => TokenSinkResult::RawData(RawKind::Rcdata),
            "style" | "xmp" | "iframe" | "noembed" | "noframes" => {
                TokenSinkResult::RawData(RawKind::Rawtext)
            }
            "script" => TokenSinkResult::RawData(RawKind::ScriptData),
            "plaintext" => TokenSinkResult::Plaintext,
            _ => TokenSinkResult::Continue,
        }
    }
}

impl Sink {
    fn check(&self, tag: &Tag) {
        let mut found = self.found.borrow_mut();
        let name = &*tag.name;
        if ACTIVE_ELEMENTS.contains(&name) {
            found.push(format!("a <{name}> element"));
        }
        for attr in &tag.attrs {
            let attr_name = &*attr.name.local;
            if attr_name.starts_with("on") {
                found.push(format!("an event handler `{attr_name}` on <{name}>"));
            }
            if URL_ATTRIBUTES.contains(&attr_name)
                && let Some(scheme) = scheme(&attr.value)
                && ACTIVE_SCHEMES.contains(&scheme.as_str())
            {
                found.push(format!("a {scheme}: URL in `{attr_name}` of <{name}>"));
            }
        }
    }
}

/// The scheme of `url` as the URL standard's parser finds it, lowercased: C0 controls and spaces
/// around it dropped, tabs and newlines anywhere; `None` for a relative URL (no scheme, or one
/// with a character a scheme cannot hold, which makes the whole a path).
fn scheme(url: &str) -> Option<String> {
    let url: String = url
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let (scheme, _) = url.split_once(':')?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    let valid = first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then(|| scheme.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::{active_content, scheme};

    #[test]
    fn schemes_as_browsers_read_them() {
        assert_eq!(scheme(" \u{1}JavaScript:x").as_deref(), Some("javascript"));
        assert_eq!(scheme("java\tscr\nipt:x").as_deref(), Some("javascript"));
        assert_eq!(scheme("jav\u{1}ascript:x"), None, "a control inside makes it a path");
        assert_eq!(scheme("/a:b"), None);
        assert_eq!(scheme("1http:x"), None);
        assert_eq!(scheme("mailto:x").as_deref(), Some("mailto"));
    }

    #[test]
    fn finds_scripts_handlers_and_script_urls() {
        assert_eq!(active_content("<p>hi <b>there</b></p>"), Vec::<String>::new());
        assert_eq!(active_content("<SCRIPT>x</SCRIPT>"), ["a <script> element"]);
        assert_eq!(
            active_content("<img src=x OnError=alert(1)>"),
            ["an event handler `onerror` on <img>"]
        );
        assert_eq!(
            active_content("<a href=\" jav&#x09;ascript&colon;x\">a</a>"),
            ["a javascript: URL in `href` of <a>"]
        );
    }

    #[test]
    fn text_and_quoted_values_are_not_markup() {
        let inert = [
            "&lt;script&gt;alert(1)&lt;/script&gt; javascript:x onload=y",
            "<a title=\"<script>\" href=\"/x?javascript:1\">t</a>",
            "<textarea><script>alert(1)</script></textarea>",
            "<!-- <script>x</script> -->",
        ];
        for html in inert {
            assert_eq!(active_content(html), Vec::<String>::new(), "{html}");
        }
    }
}
