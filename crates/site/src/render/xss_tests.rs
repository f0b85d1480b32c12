//! The raw-HTML policy against the classic XSS vectors, and what it must keep.

use proptest::prelude::*;

use super::html_policy::url_allowed;
use super::{Markdown, render_markdown};

fn safe(md: &str) -> String {
    render_markdown(md).html
}

fn trusted(md: &str) -> String {
    render_markdown(Markdown::new(md, true)).html
}

/// Nothing in the markup of `html` can run script: no script element, no event handler attribute, no
/// javascript:/vbscript:/data: URL, no frame, no style.
fn assert_inert(html: &str) {
    let lower = tags(html).to_ascii_lowercase();
    for bad in [
        "<script",
        "<iframe",
        "<object",
        "<embed",
        "<svg",
        "<style",
        " style=",
        "javascript:",
        "vbscript:",
        "data:",
        " onerror=",
        " onload=",
        " onclick=",
        " onmouseover=",
        "<form",
        " srcdoc=",
    ] {
        assert!(!lower.contains(bad), "`{bad}` survived in {html}");
    }
}

/// Every tag of `html` (text is escaped, so each `<` opens one).
fn tags(html: &str) -> String {
    html.split('<')
        .skip(1)
        .filter_map(|t| t.split_once('>').map(|(tag, _)| tag))
        .collect::<Vec<_>>()
        .join(" <")
}

#[test]
fn script_blocks_and_inline_scripts_are_removed() {
    let out = safe("Hello\n\n<script>alert(1)</script>\n\nworld <script>alert(2)</script>");
    assert_inert(&out);
    assert!(!out.contains("alert"), "script content is dropped, not shown: {out}");
    assert!(out.contains("<p>Hello</p>") && out.contains("world"), "{out}");
}

#[test]
fn uppercase_and_mixed_case_tags() {
    let out = safe(
        "<SCRIPT>alert(1)</SCRIPT>\n\n<ScRiPt src=//evil.example/x.js></sCrIpT>\n\n<IMG SRC=x ONERROR=alert(1)>",
    );
    assert_inert(&out);
}

#[test]
fn event_handlers_are_removed_and_the_element_kept() {
    let out = safe(
        r#"<img src="/images/a.png" alt="a" onerror="alert(1)"> and <b onclick="x()">bold</b>"#,
    );
    assert_inert(&out);
    assert!(out.contains(r#"<img src="/images/a.png" alt="a">"#), "{out}");
    assert!(out.contains("<b>bold</b>"), "{out}");
}

#[test]
fn svg_iframe_object_style_and_forms() {
    let out = safe(concat!(
        "<svg onload=alert(1)><circle r=1 /></svg>\n\n",
        "<iframe src=\"https://evil.example\"></iframe>\n\n",
        "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>\n\n",
        "<object data=\"x.swf\"></object><embed src=\"x.swf\">\n\n",
        "<style>body{display:none}</style>\n\n",
        "<p style=\"background:url(javascript:alert(1))\">styled</p>\n\n",
        "<form action=\"https://evil.example\"><button>go</button></form>\n",
    ));
    assert_inert(&out);
    assert!(out.contains("<p>styled</p>"), "{out}");
}

#[test]
fn javascript_and_data_urls_in_raw_html() {
    let out = safe(concat!(
        "<a href=\"javascript:alert(1)\">a</a> ",
        "<a href=\"JaVaScRiPt:alert(1)\">b</a> ",
        "<a href=\"&#106;avascript:alert(1)\">c</a> ",
        "<a href=\"&#x6A;&#x61;vascript&colon;alert(1)\">d</a> ",
        "<a href=\"java&#9;script:alert(1)\">e</a> ",
        "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">f</a> ",
        "<img src=\"data:image/svg+xml,<svg onload=alert(1)>\" alt=\"g\"> ",
        "<a href=\"vbscript:msgbox(1)\">h</a>",
    ));
    assert_inert(&out);
    for text in ["a", "b", "c", "d", "e", "f", "h"] {
        assert!(out.contains(&format!(">{text}</a>")), "link text `{text}` stays: {out}");
    }
}

#[test]
fn javascript_and_data_urls_in_markdown_links_and_images() {
    let out = safe(concat!(
        "[a](javascript:alert(1)) [b](JAVASCRIPT:alert(1)) [c](&#106;avascript:alert(1)) ",
        "[d](java&#9;script:alert(1)) <javascript:alert(1)> [e](data:text/html,x) ",
        "![cover](data:image/svg+xml;base64,PHN2Zz4=) ![icon](javascript:alert(1))",
    ));
    assert_inert(&out);
    assert!(out.contains("<a>a</a>"), "the link keeps its text, loses its URL: {out}");
    assert!(out.contains("cover") && !out.contains("<img"), "{out}");
}

#[test]
fn heading_attributes_cannot_add_handlers() {
    let out = safe("## Title {#t .note onclick=alert(1) style=color:red}\n");
    assert_inert(&out);
    assert!(out.contains(r#"<h2 id="c-t" class="note">Title</h2>"#), "{out}");
}

#[test]
fn safe_formatting_survives_sanitising() {
    let md = concat!(
        "<div class=\"note\"><strong>Note</strong> <em>gently</em></div>\n\n",
        "## Breathe\n\n",
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n",
        "Footnote[^1] and <kbd>Ctrl</kbd>.\n\n[^1]: The note.\n\n",
        "- [x] done\n- [ ] todo\n\n",
        "[int](/articles/a) [ext](https://x.example) [mail](mailto:a@x.example) [frag](#breathe)\n\n",
        "![A calm lake](/images/lake.jpg)\n\n<details><summary>More</summary>Hidden</details>\n",
    );
    let out = safe(md);
    assert_inert(&out);
    for kept in [
        r#"<div class="note"><strong>Note</strong> <em>gently</em></div>"#,
        r#"<h2 id="c-breathe">Breathe</h2>"#,
        "<table>",
        "<td>2</td>",
        r#"class="footnote-reference""#,
        r#"class="footnote-definition""#,
        "<kbd>Ctrl</kbd>",
        r#"type="checkbox""#,
        "checked",
        r#"<a href="/articles/a">int</a>"#,
        r#"<a href="https://x.example" rel="noopener">ext</a>"#,
        r#"<a href="mailto:a@x.example">mail</a>"#,
        r##"<a href="#c-breathe">frag</a>"##,
        r#"<img src="/images/lake.jpg" alt="A calm lake" loading="lazy" decoding="async">"#,
        "<details><summary>More</summary>Hidden</details>",
    ] {
        assert!(out.contains(kept), "`{kept}` is kept in {out}");
    }
}

/// Every `<input …>` tag of `html`.
fn inputs(html: &str) -> Vec<&str> {
    html.split("<input").skip(1).filter_map(|t| t.split_once('>').map(|(tag, _)| tag)).collect()
}

#[test]
fn form_controls_are_dropped_and_inputs_are_disabled_checkboxes() {
    let out = safe(concat!(
        "Log in: <input type=\"password\" name=\"p\" placeholder=\"Password\"> <input value=\"x\">\n\n",
        "<button>Go</button> <select><option>a</option></select> <textarea>t</textarea>\n\n",
        "<form action=\"/x\"><input type=\"submit\"></form>\n\n",
        "- [x] done\n- [ ] todo\n",
    ));
    for gone in
        ["<button", "<select", "<option", "<textarea", "<form", "password", "name=", "value="]
    {
        assert!(!out.contains(gone), "`{gone}` survived in {out}");
    }
    let inputs = inputs(&out);
    assert_eq!(inputs.len(), 5, "{out}");
    for tag in inputs {
        let attrs: Vec<&str> = tag.split_whitespace().collect();
        assert!(
            attrs.contains(&r#"type="checkbox""#) && attrs.contains(&r#"disabled="""#),
            "{out}"
        );
        assert!(
            attrs.iter().all(|a| a.starts_with("type=")
                || a.starts_with("disabled=")
                || *a == r#"checked="""#),
            "{out}"
        );
    }
    assert_eq!(out.matches("checked").count(), 1, "the done item stays checked: {out}");
}

#[test]
fn content_ids_cannot_take_the_ids_of_the_page_or_browser_globals() {
    let out = safe(concat!(
        "<div id=\"sp-footer\">f</div>\n\n<p id=\"requestIdleCallback\">r</p>\n\n",
        "## Main\n\n[up](#main) <a href=\"#sp-footer\">f</a> <a href=\"#c-main\">m</a>\n\n",
        "Note[^n].\n\n[^n]: The note.\n",
    ));
    for kept in [
        r#"<div id="c-sp-footer">f</div>"#,
        r#"<p id="c-requestIdleCallback">r</p>"#,
        r#"<h2 id="c-main">Main</h2>"#,
        r##"<a href="#c-main">up</a>"##,
        r##"<a href="#c-sp-footer">f</a>"##,
        r##"<a href="#c-main">m</a>"##,
        r##"<a href="#c-n">"##,
        r#"class="footnote-definition" id="c-n""#,
    ] {
        assert!(out.contains(kept), "`{kept}` in {out}");
    }
    for gone in [r#"id="sp-footer""#, r#"id="requestIdleCallback""#, r#"id="main""#] {
        assert!(!out.contains(gone), "`{gone}` survived in {out}");
    }
    // Without raw HTML, the renderer gives the same ids and links, and so does a trusted text.
    let md = "## Main\n\n[up](#main) and a note[^n].\n\n[^n]: N.\n";
    for out in [safe(md), trusted(md)] {
        assert!(
            out.contains(r#"<h2 id="c-main">"#) && out.contains(r##"href="#c-main""##),
            "{out}"
        );
        assert!(out.contains(r##"href="#c-n""##) && out.contains(r#"id="c-n""#), "{out}");
    }
    assert_eq!(render_markdown(md).toc[0].id, "c-main");
}

#[test]
fn html_comments_are_dropped() {
    assert_eq!(safe("a <!-- secret --> b").trim(), "<p>a  b</p>");
}

#[test]
fn markdown_without_raw_html_is_rendered_unchanged() {
    let md = "## Hi\n\nSome *text* with a [link](/articles/a) and \"quotes\".\n\n```js\nlet a = \"<b>\";\n```\n";
    assert_eq!(safe(md), trusted(md), "the sanitiser only runs where raw HTML was written");
}

#[test]
fn trusted_html_is_kept_as_written() {
    let out = trusted("<div onclick=\"track()\"><script>ok()</script></div>\n\n## T {data-x=1}\n");
    assert!(out.contains(r#"<div onclick="track()"><script>ok()</script></div>"#), "{out}");
    assert!(out.contains(r#"data-x="1""#), "{out}");
}

#[test]
fn url_schemes() {
    for ok in [
        "/a",
        "a/b",
        "#x",
        "?q=1",
        "https://x",
        "HTTP://x",
        "mailto:a@b",
        "a/b:c",
        "//cdn.example/x",
    ] {
        assert!(url_allowed(ok, false), "{ok}");
    }
    for bad in [
        "javascript:x",
        " JavaScript:x",
        "java\tscript:x",
        "\u{1}javascript:x",
        "data:x",
        "vbscript:x",
        "file:///etc/passwd",
    ] {
        assert!(!url_allowed(bad, false), "{bad:?}");
    }
    assert!(!url_allowed("mailto:a@b", true), "an image is not a mail address");
}

proptest! {
    #[test]
    fn no_vector_survives_in_any_context(
        before in "[a-z *_#>\\[\\]()\n-]{0,40}",
        vector in prop::sample::select(vec![
            "<script>alert(1)</script>",
            "<SCRIPT SRC=//x.example/a.js></SCRIPT>",
            "<img src=x onerror=alert(1)>",
            "<svg/onload=alert(1)>",
            "<iframe src=javascript:alert(1)>",
            "<a href=\"&#106;avascript:alert(1)\">x</a>",
            "[x](javascript:alert(1))",
            "<style>*{}</style>",
            "<b style=\"x:y\" onmouseover=\"a()\">b</b>",
            "<a href=\"data:text/html,<script>alert(1)</script>\">d</a>",
        ]),
        after in "[a-z *_`>\n-]{0,40}",
    ) {
        let out = safe(&format!("{before}{vector}{after}"));
        // Only markup matters: a vector that ended up in a code block is harmless text.
        let lower = tags(&out).to_ascii_lowercase();
        for bad in ["<script", "<svg", "<iframe", "<style", " style=", " onerror=", " onload=", " onmouseover=", "javascript:", "data:"] {
            prop_assert!(!lower.contains(bad), "`{}` survived in {}", bad, out);
        }
    }
}

#[test]
fn the_sites_own_audio_and_video_are_kept_nothing_else() {
    let html = safe(concat!(
        "<audio controls preload=\"none\" src=\"/media/a.m4a\" autoplay onplay=\"alert(1)\"></audio>\n\n",
        "<video controls playsinline muted loop width=\"640\" height=\"360\" poster=\"/images/p.jpg\" autoplay>",
        "<source src=\"clip.mp4\" type=\"video/mp4\"><source src=\"https://evil.example/x.mp4\"></video>\n\n",
        "<audio src=\"//evil.example/x.mp3\" controls></audio>\n\n",
        "<audio src=\"/\\evil.example/x.mp3\" controls></audio>\n\n",
        "<audio src=\"javascript:alert(1)\" controls></audio>\n\n",
        "<video poster=\"data:image/png;base64,AAAA\" src=\" https://evil.example/v.mp4\"></video>\n",
    ));
    assert_inert(&html);
    insta::assert_snapshot!(html);
    for (url, own) in [
        ("/media/a.m4a", true),
        ("clip.mp4", true),
        ("a/b:c.mp3", true),
        ("//h/x", false),
        (" //h/x", false),
        ("/\\h/x", false),
        ("https://h/x", false),
        ("java\tscript:x", false),
        ("", false),
    ] {
        assert_eq!(super::html_policy::site_own_url(url), own, "{url:?}");
    }
}

#[test]
fn embeds_are_players_and_raw_html_cannot_forge_one() {
    use crate::render::EmbedFiles;
    let mut files = EmbedFiles::default();
    files
        .audio
        .insert("a.m4a".into(), ("/media/0123456789abcdef-a.m4a".into(), "audio/mp4".into()));
    let md = "Intro <b onclick=x>bold</b>\n\n::youtube[Rain]{id=dQw4w9WgXcQ}\n\n::audio[Calm]{src=a.m4a}\n\n<button data-embed-src=\"https://evil.example\">x</button>\n\n```\n::vimeo[in code]{id=1}\n```\n\nText\n::vimeo[not alone]{id=1}\n";
    let html = render_markdown(Markdown::new(md, false).with_embeds(files.clone())).html;
    assert!(html.contains("<figure class=\"embed embed-video\" data-embed=\"youtube\"><button type=\"button\" class=\"embed-play\" data-embed-src=\"https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1\""), "{html}");
    assert!(html.contains("<figure class=\"embed embed-audio\"><audio controls preload=\"none\" src=\"/media/0123456789abcdef-a.m4a\"></audio><figcaption>Calm</figcaption></figure>"), "{html}");
    assert_eq!(html.matches("data-embed-src").count(), 1, "{html}");
    assert!(html.contains("::vimeo[in code]"), "{html}");
    assert!(!html.contains('\u{E000}'));
    insta::assert_snapshot!(html);
    // Without the article's files (an info page), an embed line stays text.
    let plain = render_markdown("::youtube[Rain]{id=dQw4w9WgXcQ}").html;
    assert_eq!(plain, "<p>::youtube[Rain]{id=dQw4w9WgXcQ}</p>\n");
}
