//! The sponsored-links block: label choice and the sanitiser for third-party HTML.

use std::collections::HashSet;
use std::sync::LazyLock;

use stillpoint_content::fnv1a32;

/// The English label set, in the spec's order.
pub const LABELS: [&str; 4] =
    ["Sponsored Links", "Partner Links", "Recommended Sites", "Related Resources"];

/// DESIGN.md: the label is `LABELS[fnv1a32(site.id) % 4]`.
pub fn sponsored_label(site_id: &str) -> &'static str {
    LABELS[(fnv1a32(site_id.as_bytes()) % 4) as usize]
}

static CLEANER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let mut b = ammonia::Builder::empty();
    b.tags(HashSet::from(["a", "b", "strong", "em", "i", "span", "br", "small"]))
        .tag_attributes(std::collections::HashMap::from([("a", HashSet::from(["href", "title"]))]))
        .url_schemes(HashSet::from(["http", "https"]))
        .url_relative(ammonia::UrlRelative::Deny)
        .link_rel(Some("sponsored noopener"))
        .clean_content_tags(HashSet::from(["script", "style"]));
    b
});

/// Links and inline text only: no scripts, handlers, styles or non-http(s) URLs;
/// every link gets `rel="sponsored noopener"`.
pub fn sanitize_fragment(html: &str) -> String {
    drop_rel_without_href(&CLEANER.clean(html).to_string())
}

/// The `rel` ammonia writes last on every `<a>`, closing its start tag.
const REL_END: &str = r#" rel="sponsored noopener">"#;

/// ammonia gives every `<a>` the `rel`, even one whose `href` it removed (a `javascript:` URL). A
/// link without `href` is no link (invalid with `rel`, and not crawlable): it becomes a `<span>`
/// with its text. Attribute values never hold a raw `"`, so `REL_END` and `href="` only ever
/// match real attributes, and links do not nest, so the next `</a>` closes it.
fn drop_rel_without_href(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<a ") {
        let Some(end) = rest[start..].find(REL_END).map(|at| start + at) else { break };
        let tag = &rest[start..end];
        out.push_str(&rest[..start]);
        rest = &rest[end + REL_END.len()..];
        if tag.contains(" href=\"") {
            out.push_str(tag);
            out.push_str(REL_END);
            continue;
        }
        out.push_str("<span");
        out.push_str(&tag["<a".len()..]);
        out.push('>');
        if let Some(close) = rest.find("</a>") {
            out.push_str(&rest[..close]);
            out.push_str("</span>");
            rest = &rest[close + "</a>".len()..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn label_is_chosen_by_site_id() {
        assert_eq!(sponsored_label("stillpoint"), LABELS[(fnv1a32(b"stillpoint") % 4) as usize]);
        let all: HashSet<_> =
            ["a", "b", "c", "d", "e", "f", "g", "h"].iter().map(|s| sponsored_label(s)).collect();
        assert!(all.len() > 1, "different ids reach different labels");
    }

    #[test]
    fn keeps_links_and_adds_rel() {
        let out =
            sanitize_fragment(r#"<a href="https://p.example/x" onclick="steal()">Partner</a>"#);
        assert_eq!(out, r#"<a href="https://p.example/x" rel="sponsored noopener">Partner</a>"#);
    }

    #[test]
    fn removes_scripts_and_bad_urls() {
        assert_eq!(sanitize_fragment("<script>alert(1)</script>"), "");
        let out = sanitize_fragment(r#"<a href="javascript:alert(1)">x</a>"#);
        assert!(!out.contains("javascript"), "{out}");
        // A link left without its `href` is plain text.
        assert_eq!(out, "<span>x</span>");
        let out = sanitize_fragment(
            r#"<a title="t" href="javascript:x">x</a> <a href="https://p.example/">y</a>"#,
        );
        assert_eq!(
            out,
            r#"<span title="t">x</span> <a href="https://p.example/" rel="sponsored noopener">y</a>"#
        );
        let out = sanitize_fragment(
            r#"<img src=x onerror=alert(1)><iframe src="https://e.example"></iframe>ok"#,
        );
        assert_eq!(out, "ok");
    }

    proptest! {
        #[test]
        fn output_never_contains_script_or_handlers(s in "[<>a-z =\"'/:()]{0,80}", t in "(<script>|<a href=\"javascript:x\">|<b onclick=\"x\">|<svg onload=x>)") {
            let out = sanitize_fragment(&format!("{s}{t}{s}")).to_lowercase();
            prop_assert!(!out.contains("<script"));
            prop_assert!(!out.contains("javascript:"));
            prop_assert!(!out.contains("onclick"));
            prop_assert!(!out.contains("onload"));
        }
    }
}
