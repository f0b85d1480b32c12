//! Media references: what an `image:`, a body `![](…)` or an author's `photo` names, and whether
//! it is there. A reference is a path relative to the file that writes it (`cover.jpg`,
//! `../shared/x.jpg`: page bundles), a site path rooted at `static/` (`/images/x.jpg`), or an
//! `https://` URL. Resolving is pure ([`resolve`]); checking looks at the files ([`check`]).

use std::fs;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{ContentError, ContentErrorKind};
use crate::located::Located;
use crate::suggest::did_you_mean;

/// What a reference names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MediaRef {
    /// A file of the site, relative to the site directory (`static/images/x.jpg`,
    /// `articles/morning-light/cover.jpg`), with no `..` or `.` left in it.
    File(PathBuf),
    /// An `https://` URL, as written.
    Remote(String),
}

impl MediaRef {
    /// The file, when the reference names one of the site.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Self::File(p) => Some(p),
            Self::Remote(_) => None,
        }
    }

    /// The path under `static/` when the file is there: its URL on the site is `/{that}`.
    pub fn static_path(&self) -> Option<String> {
        let rel = self.file()?.strip_prefix("static").ok()?;
        Some(rel.to_str()?.replace('\\', "/"))
    }

    /// Whether the file is an SVG (by its name: SVG passes through untouched).
    pub fn is_svg(&self) -> bool {
        self.file().is_some_and(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("svg")))
    }
}

/// What `value`, written in the site file `from` (relative to the site directory), names; or why
/// it cannot name anything. A `?query` or `#fragment` on a path is refused: a file has neither.
pub fn resolve(from: &Path, value: &str) -> Result<MediaRef, String> {
    let odd = |c: char| c.is_whitespace() || c.is_control() || "\"'<>\\`".contains(c);
    if value.is_empty() {
        return Err("the value is empty".into());
    }
    if value.chars().any(odd) {
        return Err("a path or URL has no spaces, quotes, angle brackets or backslashes".into());
    }
    if value.starts_with("//") {
        return Err("`//host/…` leaves out the scheme: write `https://host/…`".into());
    }
    let lower = value.get(..8).unwrap_or(value).to_ascii_lowercase();
    if lower.starts_with("https://") {
        let rest = &value[8..];
        if rest.is_empty() || rest.starts_with('/') {
            return Err("the URL names no host".into());
        }
        return Ok(MediaRef::Remote(value.to_string()));
    }
    if lower.starts_with("http://") {
        return Err("`http://` images are blocked on an https page: use the `https://` URL".into());
    }
    if let Some((scheme, _)) = value.split_once(':')
        && !scheme.is_empty()
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        return Err(format!(
            "`{scheme}:` is not allowed: use a file of the site or an `https://` URL"
        ));
    }
    if value.contains(['?', '#']) {
        return Err("a file path has no `?` or `#` part".into());
    }
    // A site path stays under static/; a relative one, in the site directory.
    let (base, rest, within) = match value.strip_prefix('/') {
        Some(rest) => (PathBuf::from("static"), rest, "static/"),
        None => (from.parent().unwrap_or(Path::new("")).to_path_buf(), value, "the site directory"),
    };
    let floor = if value.starts_with('/') { 1 } else { 0 };
    let mut out = base;
    for part in Path::new(rest).components() {
        match part {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            Component::ParentDir => {
                if out.components().count() <= floor || !out.pop() {
                    return Err(format!("the path leads out of {within}"));
                }
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err("the path leads out of the site directory".into());
            }
        }
    }
    if value.ends_with('/') || out.as_os_str().is_empty() {
        return Err("the path names a folder, not a file".into());
    }
    Ok(MediaRef::File(out))
}

/// Resolves the reference `value` (written in `from` at its line and column) and checks that a
/// file it names exists under `root` and is a plain file. The error says what it looked for and
/// the nearest names that exist.
pub fn check(
    root: &Path,
    from: &Path,
    field: &str,
    value: &Located<String>,
) -> Result<MediaRef, ContentError> {
    let found = resolve_located(from, field, value)?;
    match found.file() {
        Some(file) => file_error(root, from, value, file, FileKind::of(&root.join(file))),
        None => Ok(()),
    }
    .map(|()| found)
}

/// What a referenced path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileKind {
    File,
    Other,
    Missing,
}

impl FileKind {
    pub(crate) fn of(full: &Path) -> Self {
        match fs::symlink_metadata(full) {
            Ok(m) if m.is_file() => Self::File,
            Ok(m) if m.file_type().is_symlink() && full.is_file() => Self::File,
            Ok(_) => Self::Other,
            Err(_) => Self::Missing,
        }
    }
}

pub(crate) fn resolve_located(
    from: &Path,
    field: &str,
    value: &Located<String>,
) -> Result<MediaRef, ContentError> {
    resolve(from, &value.value).map_err(|message| {
        let kind =
            ContentErrorKind::InvalidImage(format!("`{}` in `{field}`: {message}", value.value));
        ContentError::new(from, value.line, value.col, kind)
    })
}

/// The error of a reference (`value`, in `from`) to `file`, of the `kind` found.
pub(crate) fn file_error(
    root: &Path,
    from: &Path,
    value: &Located<String>,
    file: &Path,
    kind: FileKind,
) -> Result<(), ContentError> {
    let at = |kind| ContentError::new(from, value.line, value.col, kind);
    match kind {
        FileKind::File => Ok(()),
        FileKind::Other => Err(at(ContentErrorKind::NotRegularFile(file.display().to_string()))),
        FileKind::Missing => Err(at(ContentErrorKind::MissingImage {
            value: value.value.clone(),
            looked_for: file.display().to_string(),
        })
        .with_help(Some(missing_hint(root, file)))),
    }
}

/// "looked for static/images/x.jpg; did you mean `static/images/y.jpg`?", or the folders'
/// contents when nothing is near.
fn missing_hint(root: &Path, file: &Path) -> String {
    let looked = format!("looked for {}", file.display());
    // The deepest folder of the path that exists, and the part of the name that is under it.
    let mut dir = file.parent().unwrap_or(Path::new(""));
    while !dir.as_os_str().is_empty() && !root.join(dir).is_dir() {
        dir = dir.parent().unwrap_or(Path::new(""));
    }
    let wanted = file.strip_prefix(dir).unwrap_or(file);
    let first = wanted.components().next().map(|c| c.as_os_str().to_string_lossy().into_owned());
    let mut names: Vec<String> = fs::read_dir(root.join(dir))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| !n.starts_with('.') && !n.ends_with(".md"))
        .collect();
    names.sort();
    let shown = |n: &str| dir.join(n).display().to_string();
    if let Some(first) = first
        && let Some(near) = did_you_mean(&first, names.iter().map(String::as_str))
    {
        return format!("{looked}; did you mean `{}`?", shown(near));
    }
    if names.is_empty() {
        let where_ = if dir.as_os_str().is_empty() { "the site" } else { "it" };
        return format!("{looked}, but {} has no files ({where_})", dir.display());
    }
    let list: Vec<String> = names.iter().take(5).map(|n| format!("`{}`", shown(n))).collect();
    let more = if names.len() > 5 { ", …" } else { "" };
    format!(
        "{looked}; nearby: {}{more} (paths are relative to the Markdown file, or start with `/` for static/)",
        list.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(p: &str) -> MediaRef {
        MediaRef::File(PathBuf::from(p))
    }

    #[test]
    fn resolves_relative_static_and_remote() {
        let from = Path::new("articles/sleep/morning-light/index.md");
        assert_eq!(resolve(from, "cover.jpg"), Ok(file("articles/sleep/morning-light/cover.jpg")));
        assert_eq!(
            resolve(from, "./img/a.png"),
            Ok(file("articles/sleep/morning-light/img/a.png"))
        );
        assert_eq!(resolve(from, "../../shared/x.jpg"), Ok(file("articles/shared/x.jpg")));
        assert_eq!(resolve(from, "/images/x.jpg"), Ok(file("static/images/x.jpg")));
        assert_eq!(
            resolve(from, "https://cdn.example/a.png?w=2"),
            Ok(MediaRef::Remote("https://cdn.example/a.png?w=2".into()))
        );
        let data = Path::new("data/authors.toml");
        assert_eq!(resolve(data, "photos/maya.jpg"), Ok(file("data/photos/maya.jpg")));
        assert_eq!(resolve(data, "/authors/maya.jpg"), Ok(file("static/authors/maya.jpg")));
    }

    #[test]
    fn refuses_what_cannot_be_an_image() {
        let from = Path::new("articles/a.md");
        for bad in [
            "",
            "javascript:alert(1)",
            "data:image/png;base64,AAAA",
            "//evil.example/x.png",
            "http://cdn.example/a.png",
            "x\" onerror=\"alert(1)",
            "a b.png",
            "https://",
            "https:///a.png",
            "../../x.jpg",
            "/../x.jpg",
            "cover.jpg?v=2",
            "images/",
        ] {
            assert!(resolve(from, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn svg_and_static_paths() {
        assert!(file("static/a/b.SVG").is_svg());
        assert!(!file("static/a/b.jpg").is_svg());
        assert_eq!(file("static/a/b.jpg").static_path().as_deref(), Some("a/b.jpg"));
        assert_eq!(file("articles/x/b.jpg").static_path(), None);
    }

    #[test]
    fn a_missing_file_says_what_it_looked_for_and_what_is_near() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("articles/morning-light")).unwrap();
        fs::create_dir_all(root.join("static/images")).unwrap();
        fs::write(root.join("articles/morning-light/cover.jpeg"), b"x").unwrap();
        fs::write(root.join("static/images/candle.jpg"), b"x").unwrap();
        let from = Path::new("articles/morning-light/index.md");
        let at = |v: &str| Located { value: v.to_string(), line: 4, col: 8 };
        let err = check(root, from, "image", &at("cover.jpg")).unwrap_err();
        assert_eq!((err.line, err.col), (4, 8));
        assert_eq!(err.kind.code(), "missing_image");
        assert_eq!(
            err.hint(),
            "looked for articles/morning-light/cover.jpg; did you mean `articles/morning-light/cover.jpeg`?"
        );
        let err = check(root, from, "image", &at("/images/candel.jpg")).unwrap_err();
        assert!(err.hint().contains("did you mean `static/images/candle.jpg`"), "{}", err.hint());
        let err = check(root, from, "image", &at("/imgs/candle.jpg")).unwrap_err();
        assert!(
            err.hint()
                .starts_with("looked for static/imgs/candle.jpg; did you mean `static/images`"),
            "{}",
            err.hint()
        );
        assert!(err.to_string().starts_with("articles/morning-light/index.md:4:8: "), "{err}");
        assert_eq!(
            check(root, from, "image", &at("/images/candle.jpg")).unwrap(),
            file("static/images/candle.jpg")
        );
        let err = check(root, from, "image", &at("/images")).unwrap_err();
        assert_eq!(err.kind.code(), "not_regular_file");
        assert!(check(root, from, "image", &at("https://x.example/a.jpg")).is_ok());
    }
}
