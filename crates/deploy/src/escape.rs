//! File and object names as the plan and the messages print them: a name comes from DIST or
//! from the bucket, so a newline, an ANSI escape or a bidi override in it must not forge a plan
//! line or repaint the terminal. Control characters and other non-printables (Rust's
//! `escape_debug` table) are written `\u{…}` (`\n`, `\r`, `\t` for those), and a backslash as
//! `\\`, so that the escaped text is unambiguous; everything printable, accents and all, is
//! left as it is.

use std::borrow::Cow;

/// `name` safe to print on one line.
pub fn escape(name: &str) -> Cow<'_, str> {
    if name.chars().all(|c| c != '\\' && printable(c)) {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        if c == '\\' {
            out.push_str("\\\\");
        } else if printable(c) {
            out.push(c);
        } else {
            out.extend(c.escape_debug());
        }
    }
    Cow::Owned(out)
}

/// `false` for what `escape_debug` would escape other than quotes and backslashes. A combining
/// mark is printable here (it is escaped only at the start of a string).
fn printable(c: char) -> bool {
    if matches!(c, '"' | '\'' | '\\') {
        return true;
    }
    let pair: String = ['a', c].iter().collect();
    let mut after = pair.escape_debug().skip(1);
    after.next() == Some(c) && after.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_non_printables_are_escaped() {
        assert!(matches!(escape("articles/ü-ñ.html"), Cow::Borrowed(_)));
        assert_eq!(escape("a\"b'c e\u{301}"), "a\"b'c e\u{301}");
        assert_eq!(escape("x\n  delete  index.html"), "x\\n  delete  index.html");
        assert_eq!(escape("\u{1b}[2Kx\r"), "\\u{1b}[2Kx\\r");
        assert_eq!(escape("a\u{202e}lmth.exe\u{85}\u{2028}"), "a\\u{202e}lmth.exe\\u{85}\\u{2028}");
        assert_eq!(escape("a\\u{1b}"), "a\\\\u{1b}", "a literal backslash stays distinguishable");
        assert_eq!(escape("tab\there"), "tab\\there");
    }
}
