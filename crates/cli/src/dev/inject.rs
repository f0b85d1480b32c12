//! The dev client's `<script>` tag, put into every HTML page the dev server sends (never into
//! the built files). It goes before `</head>`: the site's CSP allows same-origin scripts only,
//! and `defer` runs it after the document is parsed, before the page's `load` event.

/// The tag added to each page.
pub const SCRIPT_TAG: &str = "<script src=\"/__stillpoint/dev.js\" defer></script>";

/// `html` with [`SCRIPT_TAG`] before its first `</head>` (in any case), else before `</body>`,
/// else at the end. A page that already has it is returned unchanged.
pub fn inject(html: &str) -> String {
    if html.contains(SCRIPT_TAG) {
        return html.to_string();
    }
    let lower = html.to_ascii_lowercase();
    let at = lower.find("</head>").or_else(|| lower.find("</body>")).unwrap_or(html.len());
    let mut out = String::with_capacity(html.len() + SCRIPT_TAG.len() + 1);
    out.push_str(&html[..at]);
    out.push_str(SCRIPT_TAG);
    out.push('\n');
    out.push_str(&html[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goes_before_the_end_of_head() {
        let html =
            "<!doctype html><html><head><title>T</title>\n</head><body><p>x</p></body></html>";
        assert_eq!(
            inject(html),
            "<!doctype html><html><head><title>T</title>\n<script src=\"/__stillpoint/dev.js\" defer></script>\n</head><body><p>x</p></body></html>"
        );
    }

    #[test]
    fn any_case_and_fallbacks() {
        assert!(inject("<HEAD></HEAD>").starts_with("<HEAD><script src="));
        assert!(inject("<body>x</BODY>").starts_with("<body>x<script src="));
        assert_eq!(inject("plain"), format!("plain{SCRIPT_TAG}\n"));
    }

    #[test]
    fn only_the_first_head_end_and_only_once() {
        let html = "<head></head><body><pre>&lt;/head&gt; </head></pre></body>";
        let once = inject(html);
        assert_eq!(once.matches(SCRIPT_TAG).count(), 1);
        assert!(once.starts_with(&format!("<head>{SCRIPT_TAG}")));
        assert_eq!(inject(&once), once);
    }

    #[test]
    fn non_ascii_text_is_kept() {
        let html = "<head><title>Ruhe — ß ☯</title></head><body>é</body>";
        let out = inject(html);
        assert_eq!(out.replace(&format!("{SCRIPT_TAG}\n"), ""), html);
    }
}
