//! Content errors as a person reads them: location, message, the source line, and a hint.

use std::fmt::Write as _;
use std::path::Path;

use stillpoint_content::{ContentError, Diagnostics};

/// Renders every error with a snippet of its source line (read from `root`).
pub fn render(root: &Path, diagnostics: &Diagnostics) -> String {
    let mut out = String::new();
    for e in diagnostics.iter() {
        render_one(&mut out, root, e);
    }
    let n = diagnostics.len();
    let _ = writeln!(
        out,
        "{n} content error{} found; nothing was written",
        if n == 1 { "" } else { "s" }
    );
    out
}

fn render_one(out: &mut String, root: &Path, e: &ContentError) {
    let _ = writeln!(out, "error: {}", e.kind);
    let _ = writeln!(
        out,
        "  --> {}{}",
        e.path.display(),
        if e.line > 0 { format!(":{}:{}", e.line, e.col) } else { String::new() }
    );
    if e.line > 0
        && let Ok(text) = std::fs::read_to_string(root.join(&e.path))
        && let Some(src) = text.lines().nth(e.line as usize - 1)
    {
        let num = e.line.to_string();
        let pad = " ".repeat(num.len());
        let caret = " ".repeat(e.col.saturating_sub(1) as usize);
        let _ = writeln!(out, "{pad} |\n{num} | {src}\n{pad} | {caret}^");
    }
    let _ = writeln!(out, "  = hint: {}\n", e.kind.hint());
}
