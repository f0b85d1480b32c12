//! Files an article names (`audio:`, an `::audio` embed's `src`, a poster): where each is in the
//! site, and checking that it is there.
//!
//! A path is relative to the Markdown file (`evening.m4a` beside `articles/x/index.md`, so page
//! bundles work; `../shared/x.m4a`), or rooted at `static/` (`/audio/x.m4a` is
//! `static/audio/x.m4a`). It never leaves the site directory.

use std::path::{Component, Path, PathBuf};

use crate::suggest::did_you_mean;

/// The site-relative path of the file `written` in the article `source` (site-relative), or why
/// it cannot name one. `https://` URLs are refused here: the caller allows them where they may be.
pub fn resolve_site_file(source: &Path, written: &str) -> Result<PathBuf, String> {
    let w = written.trim();
    let lower = w.to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") || w.starts_with("//") {
        return Err(format!(
            "`{w}` is a URL: the file must be part of the site (beside the article, or under static/)"
        ));
    }
    if w.is_empty() {
        return Err("the path is empty".into());
    }
    if w.contains(['\\', '?', '#']) || w.chars().any(char::is_control) {
        return Err(format!("`{w}` is not a file path: no backslashes, `?` or `#`"));
    }
    let (base, rel) = match w.strip_prefix('/') {
        Some(rooted) => (PathBuf::from("static"), rooted),
        None => (source.parent().map(Path::to_path_buf).unwrap_or_default(), w),
    };
    let floor = if w.starts_with('/') { 1 } else { 0 };
    let mut out: Vec<Component> = base.components().collect();
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(_) => out.push(c),
            Component::CurDir => {}
            Component::ParentDir if out.len() > floor => {
                out.pop();
            }
            _ => return Err(format!("`{w}` leads out of the site's folder")),
        }
    }
    let path: PathBuf = out.iter().collect();
    if path.as_os_str().is_empty() || path.starts_with(".stillpoint") {
        return Err(format!("`{w}` names no file of the site"));
    }
    Ok(path)
}

/// The hint for a missing file: where it was looked for, and the nearest name that exists.
pub fn missing_file_hint(root: &Path, path: &Path) -> String {
    let looked = format!("looked for {}", path.display());
    let dir = path.parent().unwrap_or(Path::new(""));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let names: Vec<String> = std::fs::read_dir(root.join(dir))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| !n.starts_with('.'))
        .collect();
    match did_you_mean(name, names.iter().map(String::as_str)) {
        Some(near) => format!("{looked}; did you mean `{}`?", dir.join(near).display()),
        None => format!(
            "{looked}: a relative path starts at the Markdown file's folder, a path starting with `/` at static/"
        ),
    }
}

/// The name the file gets in the output, under `media/`: `{digest}-{name}`, with the name made
/// safe in a URL (lowercase letters, digits and dashes, and its extension).
pub fn media_name(digest: &str, path: &Path) -> String {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("file");
    let ext = path.extension().and_then(|s| s.to_str()).unwrap_or("").to_ascii_lowercase();
    let stem = crate::labels::slugify(stem);
    let stem = if stem.is_empty() { "file".to_string() } else { stem };
    if ext.is_empty() { format!("{digest}-{stem}") } else { format!("{digest}-{stem}.{ext}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(source: &str, w: &str) -> Result<String, String> {
        resolve_site_file(Path::new(source), w).map(|p| p.display().to_string())
    }

    #[test]
    fn relative_rooted_and_refused() {
        assert_eq!(r("articles/x/index.md", "evening.m4a").unwrap(), "articles/x/evening.m4a");
        assert_eq!(r("articles/x/index.md", "./a/../b.mp3").unwrap(), "articles/x/b.mp3");
        assert_eq!(r("articles/x/index.md", "../shared/y.m4a").unwrap(), "articles/shared/y.m4a");
        assert_eq!(r("articles/x.md", "/audio/z.opus").unwrap(), "static/audio/z.opus");
        assert!(r("articles/x.md", "https://cdn.example/a.mp3").unwrap_err().contains("is a URL"));
        assert!(r("articles/x.md", "../../../etc/passwd").unwrap_err().contains("out of the site"));
        assert!(r("articles/x.md", "/../data/authors.toml").unwrap_err().contains("out of"));
        assert!(r("articles/x.md", "a\\b.mp3").is_err());
        assert!(r("articles/x.md", " ").is_err());
    }

    #[test]
    fn hint_names_the_nearest_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("articles/x")).unwrap();
        std::fs::write(dir.path().join("articles/x/evening.m4a"), b"").unwrap();
        let hint = missing_file_hint(dir.path(), Path::new("articles/x/evenin.m4a"));
        assert_eq!(
            hint,
            "looked for articles/x/evenin.m4a; did you mean `articles/x/evening.m4a`?"
        );
        let hint = missing_file_hint(dir.path(), Path::new("static/none.mp3"));
        assert!(hint.starts_with("looked for static/none.mp3: a relative path"), "{hint}");
    }

    #[test]
    fn media_names() {
        assert_eq!(
            media_name("0123456789abcdef", Path::new("a/Evening Calm.M4A")),
            "0123456789abcdef-evening-calm.m4a"
        );
    }
}
