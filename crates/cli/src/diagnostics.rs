//! Content errors and warnings as a person reads them (location, message, the source line, a
//! hint) and as a machine reads them (`check --format json`).

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};
use stillpoint_content::{ContentError, ContentWarning, Diagnostics};

/// One problem, whatever its severity.
struct Item<'a> {
    path: &'a Path,
    line: u32,
    col: u32,
    kind: &'static str,
    message: String,
    hint: &'static str,
}

impl<'a> From<&'a ContentError> for Item<'a> {
    fn from(e: &'a ContentError) -> Self {
        Self {
            path: &e.path,
            line: e.line,
            col: e.col,
            kind: e.kind.code(),
            message: e.kind.to_string(),
            hint: e.kind.hint(),
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

/// `{"ok", "errors": [..], "warnings": [..]}`, each item with file, line, column (null for a
/// whole file), kind, message and hint.
pub fn json(ok: bool, errors: &Diagnostics, warnings: &[ContentWarning]) -> Value {
    json!({
        "ok": ok,
        "errors": errors.iter().map(|e| item_json(&e.into())).collect::<Vec<_>>(),
        "warnings": warnings.iter().map(|w| item_json(&w.into())).collect::<Vec<_>>(),
    })
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
        let caret = " ".repeat(e.col.saturating_sub(1) as usize);
        let _ = writeln!(out, "{pad} |\n{num} | {src}\n{pad} | {caret}^");
    }
    let _ = writeln!(out, "  = hint: {}\n", e.hint);
}
