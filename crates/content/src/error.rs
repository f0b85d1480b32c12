//! Content diagnostics: every problem found in a site directory, with its file, line and a fix hint.

use std::fmt;
use std::path::{Path, PathBuf};

/// One problem in the content directory. `line` and `col` are 1-based; 0 means "the whole file".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}:{col}: {kind}", path.display())]
pub struct ContentError {
    pub path: PathBuf,
    pub line: u32,
    pub col: u32,
    pub kind: ContentErrorKind,
    /// A hint for this error in particular ("did you mean `title`?"), shown instead of the
    /// kind's general one.
    pub help: Option<Box<str>>,
}

/// What went wrong; tests match on this.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContentErrorKind {
    #[error("cannot read file: {0}")]
    Io(String),
    #[error("invalid TOML: {0}")]
    InvalidToml(String),
    #[error("invalid JSON: {0}")]
    InvalidJson(String),
    #[error("malformed front matter: {0}")]
    MalformedFrontMatter(String),
    #[error("unknown field `{0}`")]
    UnknownField(String),
    #[error("missing required field `{0}`")]
    MissingField(String),
    #[error("invalid value for `{field}`: {message}")]
    InvalidValue { field: String, message: String },
    #[error("unknown category `{0}`")]
    UnknownCategory(String),
    #[error("unknown author `{0}`")]
    UnknownAuthor(String),
    #[error("duplicate slug `{slug}` (first used in {first})")]
    DuplicateSlug { slug: String, first: String },
    #[error("duplicate key `{0}`")]
    DuplicateKey(String),
    #[error("link to `{0}`, which is not a page of this site")]
    BrokenLink(String),
    #[error("`{0}` is missing")]
    MissingFile(String),
    #[error("{0}")]
    Topics(String),
    /// A name the build writes itself: `name` would overwrite `path` (`/index.html`).
    #[error("`{name}` is reserved: the build writes {path}")]
    Reserved { name: String, path: String },
    /// A page's route that another page, or the build itself, already has.
    #[error("the route `{route}` is taken: {owner}")]
    RouteTaken { route: String, owner: String },
    #[error("`{0}` is not a regular file")]
    NotRegularFile(String),
    #[error("invalid image reference: {0}")]
    InvalidImage(String),
    /// An image reference to a file that is not there: as written, and the file looked for.
    #[error("image `{value}` not found")]
    MissingImage { value: String, looked_for: String },
    #[error("invalid embed: {0}")]
    InvalidEmbed(String),
    /// A file an article names (its `audio`, an embed's file) that is not there.
    #[error("`{0}` is not a file of the site")]
    MissingMedia(String),
    /// An audio file that cannot be published: not audio, corrupt, truncated.
    #[error("`{path}`: {message}")]
    InvalidAudio { path: String, message: String },
    #[error("nested more than {max} levels deep (blockquotes, lists and HTML elements)")]
    TooDeep { max: usize },
    #[error("redirect to `{0}`, which is not a page of this site")]
    RedirectTarget(String),
    #[error("redirect to `{to}`, which itself redirects: point it at `{last}`")]
    RedirectChain { to: String, last: String },
    #[error("redirect loop: {0}")]
    RedirectLoop(String),
    #[error("`{0}` is {1}: a redirect from it would hide it")]
    RedirectShadows(String, String),
    #[error("`{from}` already redirects to `{first}` ({at})")]
    DuplicateRedirect { from: String, first: String, at: String },
}

impl ContentErrorKind {
    /// A stable name for machines (`check --format json`).
    pub fn code(&self) -> &'static str {
        match self {
            Self::Io(_) => "io",
            Self::InvalidToml(_) => "invalid_toml",
            Self::InvalidJson(_) => "invalid_json",
            Self::MalformedFrontMatter(_) => "malformed_front_matter",
            Self::UnknownField(_) => "unknown_field",
            Self::MissingField(_) => "missing_field",
            Self::InvalidValue { .. } => "invalid_value",
            Self::UnknownCategory(_) => "unknown_category",
            Self::UnknownAuthor(_) => "unknown_author",
            Self::DuplicateSlug { .. } => "duplicate_slug",
            Self::DuplicateKey(_) => "duplicate_key",
            Self::BrokenLink(_) => "broken_link",
            Self::MissingFile(_) => "missing_file",
            Self::Topics(_) => "topics",
            Self::Reserved { .. } => "reserved_name",
            Self::RouteTaken { .. } => "route_taken",
            Self::NotRegularFile(_) => "not_regular_file",
            Self::InvalidImage(_) => "invalid_image",
            Self::MissingImage { .. } => "missing_image",
            Self::InvalidEmbed(_) => "invalid_embed",
            Self::MissingMedia(_) => "missing_media",
            Self::InvalidAudio { .. } => "invalid_audio",
            Self::TooDeep { .. } => "too_deep",
            Self::RedirectTarget(_) => "redirect_target",
            Self::RedirectChain { .. } => "redirect_chain",
            Self::RedirectLoop(_) => "redirect_loop",
            Self::RedirectShadows(..) => "redirect_shadows",
            Self::DuplicateRedirect { .. } => "duplicate_redirect",
        }
    }

    /// A one-line suggestion of how to fix the problem, for any error of this kind.
    pub fn hint(&self) -> &'static str {
        match self {
            Self::Io(_) => "check that the file exists and is readable",
            Self::InvalidToml(_) => "fix the TOML syntax at this position",
            Self::InvalidJson(_) => "fix the JSON syntax at this position",
            Self::MalformedFrontMatter(_) => {
                "front matter is YAML between a first line `---` and a closing `---` line"
            }
            Self::UnknownField(_) => {
                "remove the field, or correct its name (see docs/content.md#articles)"
            }
            Self::MissingField(_) => "add the field (see docs/content.md#articles)",
            Self::InvalidValue { .. } => "correct the value (see docs/content.md#articles)",
            Self::UnknownCategory(_) => "use a category `key` from data/topics.toml",
            Self::UnknownAuthor(_) => {
                "use a `name` from data/authors.toml, or add the author there"
            }
            Self::DuplicateSlug { .. } => "give one of the two a different `slug`",
            Self::DuplicateKey(_) => "keys must be unique; rename one of them",
            Self::BrokenLink(_) => {
                "point the link at an existing article, topic or page, or remove it"
            }
            Self::MissingFile(_) => "create the file (see docs/content.md#the-content-directory)",
            Self::Topics(_) => "see docs/content.md#datatopicstoml",
            Self::Reserved { .. } => {
                "choose another slug: the build writes this path itself (see docs/content.md)"
            }
            Self::RouteTaken { .. } => "give the page another `route:` (see docs/content.md#pages)",
            Self::NotRegularFile(_) => {
                "content files must be plain files: replace the pipe, socket or device with a file"
            }
            Self::InvalidImage(_) => {
                "use a path relative to the file (cover.jpg), a path under static/ (/images/cover.jpg) or an https:// URL (see docs/content.md#images)"
            }
            Self::MissingImage { .. } => {
                "add the file, or correct the path (see docs/content.md#images)"
            }
            Self::InvalidEmbed(_) => {
                "write `::youtube[Title]{id=…}`, `::vimeo[Title]{id=…}` or `::audio[Title]{src=…}` alone on its line (see docs/content.md#embeds)"
            }
            Self::MissingMedia(_) => {
                "put the file beside the article, or under static/ and write its path from there (`/audio/x.m4a`)"
            }
            Self::InvalidAudio { .. } => {
                "export the recording again as AAC in .m4a, MP3 or Opus (see docs/content.md#audio)"
            }
            Self::TooDeep { .. } => {
                "close the elements and blockquotes you open, or flatten the nesting"
            }
            Self::RedirectTarget(_) => "point the redirect at an existing page, or an https:// URL",
            Self::RedirectChain { .. } => "point the redirect at the final target",
            Self::RedirectLoop(_) => "remove one of the redirects in the loop",
            Self::RedirectShadows(..) => "remove the alias or redirect, or move the page",
            Self::DuplicateRedirect { .. } => "keep one target for each old URL",
        }
    }
}

impl ContentError {
    pub fn new(path: impl Into<PathBuf>, line: u32, col: u32, kind: ContentErrorKind) -> Self {
        Self { path: path.into(), line, col, kind, help: None }
    }

    /// With a hint specific to this error, when there is one.
    pub fn with_help(mut self, help: Option<String>) -> Self {
        self.help = help.map(String::into_boxed_str);
        self
    }

    /// The hint to show: this error's own, else its kind's.
    pub fn hint(&self) -> &str {
        self.help.as_deref().unwrap_or(self.kind.hint())
    }

    /// An error about a whole file (no position).
    pub fn file(path: impl Into<PathBuf>, kind: ContentErrorKind) -> Self {
        Self::new(path, 0, 0, kind)
    }

    /// The path relative to `root` when it is inside it, for stable, short messages.
    pub fn relative_to(mut self, root: &Path) -> Self {
        if let Ok(rel) = self.path.strip_prefix(root) {
            self.path = rel.to_path_buf();
        }
        self
    }
}

/// Every error found by a stage, in a stable order (by file, then line).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<ContentError>);

impl Diagnostics {
    pub fn push(&mut self, e: ContentError) {
        self.0.push(e);
    }
    pub fn extend(&mut self, it: impl IntoIterator<Item = ContentError>) {
        self.0.extend(it);
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn iter(&self) -> std::slice::Iter<'_, ContentError> {
        self.0.iter()
    }
    pub fn sort(&mut self) {
        self.0.sort_by(|a, b| (&a.path, a.line, a.col).cmp(&(&b.path, b.line, b.col)));
    }
    /// `Ok(())` when empty, else the sorted list.
    pub fn into_result(mut self) -> Result<(), Diagnostics> {
        if self.is_empty() {
            Ok(())
        } else {
            self.sort();
            Err(self)
        }
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.0 {
            writeln!(f, "error: {e}")?;
            writeln!(f, "  hint: {}", e.hint())?;
        }
        write!(f, "{} content error{}", self.0.len(), if self.0.len() == 1 { "" } else { "s" })
    }
}

impl std::error::Error for Diagnostics {}

/// 1-based line and column (in characters) of a byte offset in `text`.
pub fn line_col(text: &str, offset: usize) -> (u32, u32) {
    let offset = offset.min(text.len());
    let before = &text[..text.floor_char_boundary(offset)];
    let line = memchr::memchr_iter(b'\n', before.as_bytes()).count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line as u32, col as u32)
}

/// Turns a `toml` error into a diagnostic with its position.
pub(crate) fn toml_error(path: &Path, text: &str, err: &toml::de::Error) -> ContentError {
    let (line, col) = err.span().map_or((0, 0), |s| line_col(text, s.start));
    // An unknown key: the key it probably meant (`headng` → `heading`).
    let help =
        crate::article_fields::parse_unknown_field(err.message()).and_then(|(key, known)| {
            crate::suggest::did_you_mean(&key, known.iter().map(String::as_str))
                .map(|k| format!("did you mean `{k}`?"))
        });
    ContentError::new(path, line, col, toml_kind(err.message())).with_help(help)
}

fn toml_kind(message: &str) -> ContentErrorKind {
    match message.strip_prefix("missing field `").and_then(|r| r.strip_suffix('`')) {
        Some(field) => ContentErrorKind::MissingField(field.to_string()),
        None => ContentErrorKind::InvalidToml(message.trim().replace('\n', " ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_lines_and_chars() {
        let t = "ab\nc😀d\n";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 8), (2, 3)); // after the 4-byte emoji
        assert_eq!(line_col(t, 100), (3, 1));
    }

    /// GitHub's anchor for a Markdown heading: lowercase, punctuation dropped, spaces to dashes.
    fn anchor(heading: &str) -> String {
        heading
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect()
    }

    #[test]
    fn hints_point_at_docs_that_exist() {
        let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
        let s = String::new;
        let kinds = [
            ContentErrorKind::Io(s()),
            ContentErrorKind::InvalidToml(s()),
            ContentErrorKind::InvalidJson(s()),
            ContentErrorKind::MalformedFrontMatter(s()),
            ContentErrorKind::UnknownField(s()),
            ContentErrorKind::MissingField(s()),
            ContentErrorKind::InvalidValue { field: s(), message: s() },
            ContentErrorKind::UnknownCategory(s()),
            ContentErrorKind::UnknownAuthor(s()),
            ContentErrorKind::DuplicateSlug { slug: s(), first: s() },
            ContentErrorKind::DuplicateKey(s()),
            ContentErrorKind::BrokenLink(s()),
            ContentErrorKind::MissingFile(s()),
            ContentErrorKind::Topics(s()),
            ContentErrorKind::Reserved { name: s(), path: s() },
            ContentErrorKind::RouteTaken { route: s(), owner: s() },
            ContentErrorKind::NotRegularFile(s()),
            ContentErrorKind::InvalidImage(s()),
            ContentErrorKind::MissingImage { value: s(), looked_for: s() },
            ContentErrorKind::TooDeep { max: 1 },
        ];
        let mut hints: Vec<String> = kinds.iter().map(|k| k.hint().to_string()).collect();
        hints.push(crate::article_fields::unknown_field_hint("tags", &["entities"]).unwrap());
        hints.push("see docs/check.md#warnings".to_string());
        let mut links = 0;
        for hint in &hints {
            assert!(!hint.contains("CONTENT.md"), "{hint}");
            for part in hint.split("docs/").skip(1) {
                let target: String =
                    part.chars().take_while(|c| !c.is_whitespace() && *c != ')').collect();
                let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
                let text = std::fs::read_to_string(docs.join(file))
                    .unwrap_or_else(|e| panic!("{hint}: docs/{file}: {e}"));
                let anchors: Vec<String> = text
                    .lines()
                    .filter_map(|l| l.strip_prefix('#'))
                    .map(|l| anchor(l.trim_start_matches('#')))
                    .collect();
                assert!(
                    fragment.is_empty() || anchors.iter().any(|a| a == fragment),
                    "{hint}: no heading #{fragment} in docs/{file}"
                );
                links += 1;
            }
        }
        assert!(links >= 6, "the hints name their docs: {links}");
    }

    #[test]
    fn display_lists_every_error_with_a_hint() {
        let mut d = Diagnostics::default();
        d.push(ContentError::new("b.md", 3, 1, ContentErrorKind::UnknownAuthor("X".into())));
        d.push(ContentError::new("a.md", 9, 2, ContentErrorKind::UnknownCategory("y".into())));
        let err = d.into_result().unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("error: a.md:9:2: unknown category `y`"), "{text}");
        assert!(text.contains("hint: use a `name` from data/authors.toml"));
        assert!(text.ends_with("2 content errors"));
    }
}
