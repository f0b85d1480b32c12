//! Content errors and warnings as a person reads them (location, message, the source line, a
//! hint) and as machines read them (`check --format json`, and `--format github`: GitHub
//! Actions workflow commands that annotate the lines of a pull request).

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use serde_json::{Value, json};
use stillpoint_content::{ContentError, ContentWarning, Diagnostics};

/// One problem, whatever its severity.
struct Item<'a> {
    path: &'a Path,
    line: u32,
    col: u32,
    kind: &'static str,
    message: String,
    hint: &'a str,
}

impl<'a> From<&'a ContentError> for Item<'a> {
    fn from(e: &'a ContentError) -> Self {
        Self {
            path: &e.path,
            line: e.line,
            col: e.col,
            kind: e.kind.code(),
            message: e.kind.to_string(),
            hint: e.hint(),
        }
    }
}

impl<'a> From<&'a ContentWarning> for Item<'a> {
    fn from(w: &'a ContentWarning) -> Self {
        Self {
            path: &w.path,
            line: w.line,
            col: w.col,
            kind: w.kind.code(),
            message: w.kind.to_string(),
            hint: w.kind.hint(),
        }
    }
}

/// Renders every error with a snippet of its source line (read from `root`).
pub fn render(root: &Path, diagnostics: &Diagnostics) -> String {
    let mut out = String::new();
    for e in diagnostics.iter() {
        render_one(&mut out, root, "error", &e.into());
    }
    let n = diagnostics.len();
    let _ = writeln!(out, "{n} content error{} found; nothing was written", plural(n));
    out
}

/// Renders every warning like an error, then a count.
pub fn render_warnings(root: &Path, warnings: &[ContentWarning]) -> String {
    let mut out = String::new();
    for w in warnings {
        render_one(&mut out, root, "warning", &w.into());
    }
    let n = warnings.len();
    let _ = writeln!(out, "{n} content warning{}", plural(n));
    out
}

/// `{"ok", "errors": [..], "warnings": [..], "accepted": N}`, each item with file, line, column
/// (null for a whole file), kind, message and hint; `accepted` counts the warnings the site
/// accepts on purpose, which are not listed.
pub fn json(ok: bool, errors: &Diagnostics, warnings: &[ContentWarning], accepted: usize) -> Value {
    json!({
        "ok": ok,
        "errors": errors.iter().map(|e| item_json(&e.into())).collect::<Vec<_>>(),
        "warnings": warnings.iter().map(|w| item_json(&w.into())).collect::<Vec<_>>(),
        "accepted": accepted,
    })
}

/// `3 accepted warnings` (not shown: the site accepts them on purpose).
pub fn accepted_line(n: usize) -> String {
    format!(
        "{n} accepted warning{} (not shown: accepted in stillpoint.toml or front matter)",
        plural(n)
    )
}

fn item_json(i: &Item) -> Value {
    let pos = |n: u32| if i.line > 0 { json!(n) } else { Value::Null };
    json!({
        "file": i.path.to_string_lossy().replace('\\', "/"),
        "line": pos(i.line),
        "column": pos(i.col),
        "kind": i.kind,
        "message": i.message,
        "hint": i.hint,
    })
}

/// One `::error …::` or `::warning …::` workflow command per problem, each on its file and line,
/// with paths as the repository sees them: below `site` (the directory as given to `check`).
pub fn github(site: &Path, errors: &Diagnostics, warnings: &[ContentWarning]) -> String {
    let mut out = String::new();
    let items = errors.iter().map(|e| ("error", Item::from(e)));
    for (level, i) in items.chain(warnings.iter().map(|w| ("warning", Item::from(w)))) {
        let file: PathBuf =
            site.join(i.path).components().filter(|c| *c != Component::CurDir).collect();
        let mut props =
            format!("file={}", escape_property(&file.to_string_lossy().replace('\\', "/")));
        if i.line > 0 {
            let _ = write!(props, ",line={},col={}", i.line, i.col);
        }
        let _ = write!(props, ",title={}", escape_property(i.kind));
        let text = format!("{}\n{}", i.message, i.hint);
        let _ = writeln!(out, "::{level} {props}::{}", escape_data(&text));
    }
    out
}

/// A workflow command's message: `%`, CR and LF are escaped, or GitHub cuts the text short.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value: as its message, and `:` and `,`, which end the value.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn render_one(out: &mut String, root: &Path, level: &str, e: &Item) {
    let _ = writeln!(out, "{level}: {}", e.message);
    let _ = writeln!(
        out,
        "  --> {}{}",
        e.path.display(),
        if e.line > 0 { format!(":{}:{}", e.line, e.col) } else { String::new() }
    );
    if e.line > 0
        && let Ok(text) = std::fs::read_to_string(root.join(e.path))
        && let Some(src) = text.lines().nth(e.line as usize - 1)
    {
        let num = e.line.to_string();
        let pad = " ".repeat(num.len());
        let (src, col) = around(src, e.col.saturating_sub(1) as usize);
        let caret = " ".repeat(col);
        let _ = writeln!(out, "{pad} |\n{num} | {src}\n{pad} | {caret}^");
    }
    let _ = writeln!(out, "  = hint: {}\n", e.hint);
}

/// Characters of a source line shown around the column; a longer line is cut to this window.
const SHOWN: usize = 100;

/// `line` as shown (at most [`SHOWN`] characters around character `col`, `…` marking what is
/// cut), and where `col` is in it.
fn around(line: &str, col: usize) -> (String, usize) {
    let len = line.chars().count();
    if len <= SHOWN {
        return (line.to_string(), col);
    }
    let start = col.saturating_sub(SHOWN / 2).min(len - SHOWN);
    let mut shown: String = line.chars().skip(start).take(SHOWN).collect();
    if start + SHOWN < len {
        shown.push('…');
    }
    if start > 0 { (format!("…{shown}"), col - start + 1) } else { (shown, col) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_source_line_is_shown_around_the_column() {
        assert_eq!(around("short", 2), ("short".to_string(), 2));
        let line = "> ".repeat(1000);
        let (shown, col) = around(&line, 200);
        assert_eq!(shown.chars().count(), SHOWN + 2, "{shown}");
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert_eq!(col, 51);
        let (shown, col) = around(&format!("{}x", "a".repeat(300)), 300);
        assert!(shown.ends_with('x') && !shown.ends_with('…'), "{shown}");
        assert_eq!(shown.chars().nth(col), Some('x'));
    }

    #[test]
    fn workflow_commands_escape_what_github_reads_as_syntax() {
        assert_eq!(escape_data("50% off\r\nnext"), "50%25 off%0D%0Anext");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
