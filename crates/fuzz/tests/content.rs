//! Fuzz target `content`: any bytes as an article file through the loader (`load_site_partial`,
//! on a site with the demo's data), through the parser it uses (and as an information page), and
//! its Markdown body through the renderer and the sanitiser.
//! Properties: nothing panics; every error names the file and a line of it; every position an
//! article records is a line of the file; the sanitised HTML holds no script element, no event
//! handler attribute and no javascript:/vbscript:/data: URL (as html5ever's tokenizer reads it).

use std::path::Path;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use stillpoint_content::{
    Article, ContentError, INFO_PAGES, InfoPage, load_site_partial, split_front_matter,
};
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

thread_local! {
    /// A site with the demo's configuration, data (three authors) and pages and no articles, one
    /// per thread.
    static SITE: tempfile::TempDir = {
        let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo");
        let dir = tempfile::tempdir().expect("a temporary directory");
        for sub in ["data", "pages", "articles/fuzz"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("a folder");
        }
        // The first authors only: the loader reads the whole file per input, and the demo's is long.
        let authors = std::fs::read_to_string(demo.join("data/authors.toml")).expect("authors");
        let fourth = authors.match_indices("[[author]]").nth(3).map_or(authors.len(), |(i, _)| i);
        std::fs::write(dir.path().join("data/authors.toml"), &authors[..fourth]).expect("written");
        for file in ["stillpoint.toml", "data/topics.toml", "data/sponsored.json"]
            .into_iter()
            .chain(INFO_PAGES.map(|p| format!("pages/{}.md", p.name)).each_ref().map(String::as_str))
        {
            std::fs::copy(demo.join(file), dir.path().join(file)).expect("the demo site's files");
        }
        dir
    };
}

/// The loader on a site whose one article is `bytes`: every diagnostic is about that file, at a
/// line of it; an article that loads renders without active content.
fn check_loader(bytes: &[u8]) -> Result<(), TestCaseError> {
    SITE.with(|dir| {
        let rel = Path::new("articles/fuzz/input.md");
        std::fs::write(dir.path().join(rel), bytes).expect("the article is written");
        // Drafts and scheduled articles published too: every article that parses is checked.
        let everything = stillpoint_content::Publish { now: jiff::Timestamp::MAX, drafts: true };
        let (site, diagnostics) = load_site_partial(dir.path(), &everything);
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        for e in diagnostics.iter() {
            prop_assert_eq!(e.path.as_path(), rel, "{}", e);
            prop_assert!((1..=lines).contains(&e.line), "not a line of the file: {}", e);
        }
        let site = site.ok_or_else(|| TestCaseError::fail("the demo's data did not load"))?;
        for a in &site.articles {
            check_positions(a, lines)?;
        }
        Ok(())
    })
}

/// Every position an article records is a line of its file.
fn check_positions(a: &Article, lines: u32) -> Result<(), TestCaseError> {
    let located = a.links.iter().chain(&a.images_without_alt).map(|l| l.line);
    let located = located.chain(a.author.iter().map(|l| l.line));
    let located = located.chain(a.entities.iter().map(|e| e.category.line));
    for line in located.chain([a.slug_line]) {
        prop_assert!((1..=lines).contains(&line), "a position at line {}", line);
    }
    Ok(())
}

fn property(bytes: &[u8]) -> Result<(), TestCaseError> {
    check_loader(bytes)?;
    let text = String::from_utf8_lossy(bytes);
    // The loader stops at bytes that are not UTF-8: the parser also gets them replaced.
    if std::str::from_utf8(bytes).is_err() {
        let source = Path::new("articles/fuzz/input.md");
        match Article::parse(source, &text, jiff::civil::date(2024, 9, 12)) {
            Ok(a) => check_positions(&a, lines(&text))?,
            Err(errors) => check_errors(source, &text, &errors)?,
        }
    }
    let page = Path::new("pages/about-us.md");
    if let Err(errors) = InfoPage::parse(page, "about-us", &text) {
        check_errors(page, &text, &errors)?;
    }
    // The body as a build renders it (`Site::read_body`), whether or not the article loads.
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
    // The loader parses articles with rayon: run the whole target on a one-thread pool, so that
    // each load stays on this thread instead of waiting for another one to wake up.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a thread pool");
    pool.install(|| TARGET.run(inputs(), |bytes| property(bytes)));
}
