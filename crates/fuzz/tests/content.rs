//! Fuzz target `content`: any bytes as an article file (and as an information page) through the
//! parser the loader uses, and its Markdown body through the renderer and the sanitiser.
//! Properties: nothing panics; every error names the file and a line of it; every position an
//! article records is a line of the file; the sanitised HTML holds no script element, no event
//! handler attribute and no javascript:/vbscript:/data: URL (as html5ever's tokenizer reads it).

use std::path::Path;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use stillpoint_content::{Article, ContentError, InfoPage, split_front_matter};
use stillpoint_fuzz::driver::{Raw, Target};
use stillpoint_fuzz::html::active_content;
use stillpoint_fuzz::mutate::mutants;
use stillpoint_site::{Markdown, render_markdown};

const TARGET: Target<Raw> = Target { name: "content", codec: Raw };

/// Pieces of front matter, Markdown and HTML the mutations insert.
const DICTIONARY: &[&[u8]] = &[
    b"---\n",
    b"...\n",
    b"\r\n",
    b"\n\n",
    b"title: ",
    b"slug: ",
    b"date: ",
    b"author: ",
    b"entities:\n  - category: a\n",
    b"    subcategories:\n      - subcategory: b\n",
    b"description: ",
    b"image: ",
    b"&a ",
    b"*a",
    b"!!binary ",
    b"!!int ",
    b"? ",
    b": ",
    b"- ",
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b"'",
    b"|\n",
    b">-\n",
    b"# ",
    b"## ",
    b"### x {#id .c}",
    b"{#javascript:x}",
    b"<script>",
    b"</script>",
    b"<img src=x onerror=alert(1)>",
    b"<a href=\"javascript:x\">",
    b"</a>",
    b"](javascript:alert(1))",
    b"[x](",
    b"![y](",
    b")",
    b"<",
    b">",
    b"&#x6A;",
    b"&#106;",
    b"&colon;",
    b"&Tab;",
    b"java\tscript:",
    b"<svg onload=1>",
    b"<style>",
    b"<!--",
    b"-->",
    b"<![CDATA[",
    b"]]>",
    b"<div>",
    b"</div>",
    b"<details ontoggle=1>",
    b"<input type=text>",
    b"| a | b |\n|---|---|\n",
    b"[^1]",
    b"[^1]: ",
    b"- [x] ",
    b"```",
    b"    ",
    b"> ",
    b"* ",
    b"1. ",
    b"\\",
    b"`",
    b"**",
    b"~~",
    b"<textarea>",
    b"<title>",
    b"<noscript>",
    b"<math>",
    b"<table>",
    b"<p title=\"",
    b"\xef\xbb\xbf",
    b"\0",
    b"\xe2\x80\x8b",
    b"\xc3\xa9",
    b"\x80",
    b"<a href=/x onmouseover=1>",
    b"<img src=\"data:image/svg+xml,<svg onload=1>\">",
    b"[r]: javascript:x\n",
    b"[r]",
];

fn inputs() -> impl Strategy<Value = Vec<u8>> {
    let seeds: Vec<Vec<u8>> = TARGET.seeds();
    let pieces = prop::collection::vec(prop::sample::select(DICTIONARY), 0..40).prop_map(|p| {
        [b"---\ntitle: t\nslug: s\nentities: [{category: a}]\n---\n".as_slice()]
            .into_iter()
            .chain(p)
            .flatten()
            .copied()
            .collect()
    });
    prop_oneof![
        6 => mutants(seeds, DICTIONARY),
        2 => pieces,
        1 => prop::collection::vec(any::<u8>(), 0..256),
    ]
}

/// The 1-based lines of `text` (a final line break starts one more, empty line).
fn lines(text: &str) -> u32 {
    text.split('\n').count() as u32
}

fn check_errors(source: &Path, text: &str, errors: &[ContentError]) -> Result<(), TestCaseError> {
    prop_assert!(!errors.is_empty(), "an Err with no error");
    for e in errors {
        prop_assert_eq!(e.path.as_path(), source, "{}", e);
        prop_assert!((1..=lines(text)).contains(&e.line), "not a line of the file: {}", e);
    }
    Ok(())
}

fn property(bytes: &[u8]) -> Result<(), TestCaseError> {
    let text = String::from_utf8_lossy(bytes);
    let source = Path::new("articles/fuzz/input.md");
    let date = jiff::civil::date(2024, 9, 12);
    match Article::parse(source, &text, date) {
        Ok(a) => {
            let located = a.links.iter().chain(&a.images_without_alt).map(|l| l.line);
            let located = located.chain(a.author.iter().map(|l| l.line));
            let located = located.chain(a.entities.iter().map(|e| e.category.line));
            for line in located.chain([a.slug_line]) {
                prop_assert!((1..=lines(&text)).contains(&line), "position at line {}", line);
            }
        }
        Err(errors) => check_errors(source, &text, &errors)?,
    }
    let page = Path::new("pages/about-us.md");
    if let Err(errors) = InfoPage::parse(page, "about-us", &text) {
        check_errors(page, &text, &errors)?;
    }
    let body = split_front_matter(&text).map_or(&*text, |s| s.body);
    let html = render_markdown(body).html;
    let found = active_content(&html);
    prop_assert!(found.is_empty(), "sanitised HTML with {:?}:\n{}", found, html);
    // Trusted HTML is kept as written; it must still render without panicking.
    render_markdown(Markdown::new(body, true));
    Ok(())
}

#[test]
fn fuzz_content() {
    TARGET.run(inputs(), |bytes| property(bytes));
}
