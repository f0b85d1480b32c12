//! One article file: YAML front matter + Markdown body.

use std::path::{Path, PathBuf};

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;
use stillpoint_fingerprint::Digest;

use crate::article_fields::{TopKeys, parse_unknown_field, unknown_field_hint};
use crate::embed::{Embed, embed_of};
use crate::error::{ContentError, ContentErrorKind, line_col};
use crate::front_matter::{SplitError, split};
use crate::labels::is_slug;
use crate::located::Located;
use crate::nesting::{MAX_NESTING, Nesting};
use crate::redirects::normalize_path;
use crate::site_file::resolve_site_file;
use crate::suggest::did_you_mean_text;
use crate::warning::WARNING_CODES;

/// An article as parsed. It serialises without its body, which is kept by
/// [`ParsedArticles`](crate::ParsedArticles) as the file it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Article {
    /// Path of the source file, relative to the site directory.
    pub source: PathBuf,
    pub title: String,
    /// `/articles/{slug}`.
    pub slug: String,
    pub date: jiff::civil::Date,
    /// The instant `date` names: when the article goes live (midnight UTC for a plain date).
    pub published: jiff::Timestamp,
    /// `expires`: when the article is taken down.
    pub expires: Option<jiff::Timestamp>,
    /// `updated`: when it was last revised (never before `date`).
    pub updated: Option<jiff::civil::Date>,
    /// `draft: true`: left out of the published site.
    pub draft: bool,
    /// An author's `name`; checked against data/authors.toml by `load_site`.
    pub author: Option<Located<String>>,
    /// As written, or taken from the first paragraph.
    pub description: String,
    /// `image:` as written, with where: a file relative to the article, a path under `static/`
    /// or an `https://` URL (`crate::media_refs`); checked by `load_site`.
    pub image: Option<Located<String>>,
    /// What `image` names, resolved once when the article is read (None when it names nothing:
    /// an error then).
    pub image_target: Option<crate::MediaRef>,
    /// `image_alt:` the cover's alt text.
    #[serde(default)]
    pub image_alt: Option<String>,
    /// `image_focus:` the cover's focal point, `"x% y%"` (CSS `object-position`).
    #[serde(default)]
    pub image_focus: Option<String>,
    pub entities: Vec<Entity>,
    /// Internal links (`/…` targets) in the body, with their file line.
    pub links: Vec<Located<String>>,
    /// Images in the body written with no alt text (`![](…)`): their URL and file line.
    pub images_without_alt: Vec<Located<String>>,
    /// Every image in the body (`![alt](…)`): its URL as written and where.
    #[serde(default)]
    pub images: Vec<Located<String>>,
    pub words: u32,
    /// Lines of the front matter fields that later checks point at.
    pub slug_line: u32,
    /// Old URLs of the article (`aliases:`), normalised (`crate::normalize_path`), with their
    /// lines: each redirects permanently to `/articles/{slug}`.
    #[serde(default)]
    pub aliases: Vec<Located<String>>,
    /// Digest of the file's bytes.
    pub digest: Digest,
    /// Warning codes this article accepts on purpose (`accept:`), all known ones.
    #[serde(default)]
    pub accept: Vec<String>,
    /// Text in the body that looks like another generator's shortcode (`{{< youtube x >}}`).
    #[serde(default)]
    pub shortcodes: Vec<Located<String>>,
    /// `audio:`: the recording, as a site-relative path ([`resolve_site_file`]), where it is
    /// written. Its kind and duration are read by the load (`Site::audio`).
    #[serde(default)]
    pub audio: Option<Located<PathBuf>>,
    /// The embeds of the body (`::youtube[…]{…}`, `::vimeo`, `::audio`), in order.
    #[serde(default)]
    pub embeds: Vec<Embed>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entity {
    pub category: Located<String>,
    pub subcategories: Vec<EntitySubcategory>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntitySubcategory {
    pub subcategory: String,
    /// Where `subcategory` is written.
    #[serde(default)]
    pub line: u32,
    #[serde(default)]
    pub col: u32,
    pub subsubcategories: Vec<String>,
}

/// Declares the front matter fields once, as three things: [`Raw`], which reads them and skips
/// any other key (unknown fields are found by a pass over the keys against [`FIELDS`], so that
/// all of them are reported at once); [`KnownOnly`], which reads the same fields and denies any
/// other, so that a file whose fields are all known (nearly every file) is read in one pass; and
/// [`FIELDS`], their names (a test checks them against serde's).
macro_rules! front_matter_fields {
    ($($(#[$attr:meta])* $name:ident: $ty:ty,)*) => {
        #[derive(Deserialize)]
        #[cfg_attr(test, derive(Debug))]
        struct Raw {
            $($(#[$attr])* $name: $ty,)*
        }

        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct KnownOnly {
            $($(#[$attr])* $name: $ty,)*
        }

        impl From<KnownOnly> for Raw {
            fn from(known: KnownOnly) -> Self {
                Self { $($name: known.$name,)* }
            }
        }

        /// Every field of [`Raw`]: the one list of known front matter fields.
        pub(crate) const FIELDS: &[&str] = &[$(stringify!($name),)*];
    };
}

front_matter_fields! {
    title: Option<Spanned<String>>,
    slug: Option<Spanned<String>>,
    date: Option<Spanned<String>>,
    #[serde(default)]
    draft: bool,
    expires: Option<Spanned<String>>,
    updated: Option<Spanned<String>>,
    author: Option<Spanned<String>>,
    description: Option<String>,
    image: Option<Spanned<String>>,
    image_alt: Option<String>,
    image_focus: Option<Spanned<String>>,
    audio: Option<Spanned<String>>,
    entities: Option<Vec<RawEntity>>,
    aliases: Option<Vec<Spanned<String>>>,
    accept: Option<Vec<Spanned<String>>>,
}

/// The error for a required field the front matter lacks.
fn missing_field(source: &Path, field: &str) -> ContentError {
    ContentError::new(source, 1, 1, ContentErrorKind::MissingField(field.into()))
}

/// Required fields: absent, each is one `missing_field` error.
const REQUIRED: &[&str] = &["title", "slug", "entities"];

#[derive(Deserialize)]
#[cfg_attr(test, derive(Debug))]
#[serde(deny_unknown_fields)]
struct RawEntity {
    category: Spanned<String>,
    #[serde(default)]
    subcategories: Option<Vec<RawSub>>,
}

#[derive(Deserialize)]
#[cfg_attr(test, derive(Debug))]
#[serde(deny_unknown_fields)]
struct RawSub {
    subcategory: Spanned<String>,
    #[serde(default)]
    subsubcategories: Option<Vec<String>>,
}

impl Article {
    /// Parses an article file. `source` names the file in errors; `default_date` is the site's start date.
    pub fn parse(
        source: &Path,
        text: &str,
        default_date: jiff::civil::Date,
    ) -> Result<Self, Vec<ContentError>> {
        match Self::parse_partial(source, text, default_date) {
            (Some(article), errors) if errors.is_empty() => Ok(article),
            (_, errors) => Err(errors),
        }
    }

    /// The front matter of a file that is not all known fields of the right shape, read so that
    /// every problem is reported: first its keys alone, so that every unknown field is reported
    /// and a syntax error once, alone; then its fields. `Err` when the fields cannot be read (a
    /// syntax error, or a value of the wrong shape), with all there is to say; `off` is the line
    /// before the YAML's first.
    fn read_each_problem(
        source: &Path,
        yaml: &str,
        off: u32,
    ) -> Result<(Raw, Vec<ContentError>), Vec<ContentError>> {
        let yaml_error = |e: serde_saphyr::Error| {
            let (line, col) = e.location().map_or((0, 0), |l| (l.line() as u32, l.column() as u32));
            let line = if line == 0 { 1 } else { line + off };
            yaml_error(source, line, col, &e)
        };
        let keys: TopKeys = match serde_saphyr::from_str(yaml) {
            Ok(keys) => keys,
            Err(e) => {
                // The typed pass may stop earlier, where a value first goes wrong (`[unclosed`
                // read as a list): the first problem in the file is the one to fix.
                let line = |e: &serde_saphyr::Error| e.location().map_or(0, |l| l.line());
                let first = match serde_saphyr::from_str::<Raw>(yaml) {
                    Err(typed) if line(&typed) > 0 && line(&typed) < line(&e) => typed,
                    _ => e,
                };
                return Err(vec![yaml_error(first)]);
            }
        };
        let mut errors = Vec::new();
        for key in &keys.0 {
            if !FIELDS.contains(&key.value.as_str()) {
                let (line, col) = (key.defined.line() as u32 + off, key.defined.column() as u32);
                errors.push(
                    ContentError::new(
                        source,
                        line,
                        col,
                        ContentErrorKind::UnknownField(key.value.clone()),
                    )
                    .with_help(unknown_field_hint(&key.value, FIELDS)),
                );
            }
        }
        match serde_saphyr::from_str::<Raw>(yaml) {
            Ok(raw) => Ok((raw, errors)),
            Err(e) => {
                // A value of the wrong shape: report it with what the first pass found.
                errors.push(yaml_error(e));
                for field in REQUIRED {
                    if !keys.0.iter().any(|k| k.value == *field) {
                        errors.push(missing_field(source, field));
                    }
                }
                Err(errors)
            }
        }
    }

    /// Every error of the file, and the article as far as it parsed when its front matter is
    /// well-formed YAML of the right shape (its other fields can then still be checked against
    /// the rest of the site: author, categories, links).
    pub fn parse_partial(
        source: &Path,
        text: &str,
        default_date: jiff::civil::Date,
    ) -> (Option<Self>, Vec<ContentError>) {
        let fm_err = |line, msg: &str| {
            vec![ContentError::new(
                source,
                line,
                1,
                ContentErrorKind::MalformedFrontMatter(msg.into()),
            )]
        };
        let split = match split(text) {
            Ok(s) => s,
            Err(SplitError::NoOpeningFence) => {
                return (None, fm_err(1, "the file must start with a `---` line"));
            }
            Err(SplitError::Unclosed) => return (None, fm_err(1, "no closing `---` line")),
        };
        let off = split.yaml_line - 1;
        // Nearly every file names known fields only, with values of the right shape: one pass.
        // Any other file is read again (`read_each_problem`) to report each of its problems.
        let (raw, mut errors) = match serde_saphyr::from_str::<KnownOnly>(split.yaml) {
            Ok(known) => (Raw::from(known), Vec::new()),
            Err(_) => match Self::read_each_problem(source, split.yaml, off) {
                Ok(read) => read,
                Err(errors) => return (None, errors),
            },
        };
        let missing = |field: &str| missing_field(source, field);
        let at = |s: &Spanned<String>| (s.defined.line() as u32 + off, s.defined.column() as u32);

        let title = raw.title.as_ref().map(|t| t.value.trim().to_string()).unwrap_or_default();
        if title.is_empty() {
            errors.push(missing("title"));
        }
        let (slug, slug_line) = match &raw.slug {
            Some(s) => {
                let (line, col) = at(s);
                if !is_slug(&s.value) {
                    errors.push(ContentError::new(
                        source,
                        line,
                        col,
                        ContentErrorKind::InvalidValue {
                            field: "slug".into(),
                            message: format!(
                                "`{}` is not lowercase letters, digits and single dashes",
                                s.value
                            ),
                        },
                    ));
                }
                (s.value.clone(), line)
            }
            None => {
                errors.push(missing("slug"));
                (String::new(), 1)
            }
        };
        let mut instant = |field: &str, value: &Spanned<String>| {
            let parsed = parse_instant(&value.value);
            if parsed.is_none() {
                let (line, col) = at(value);
                errors.push(ContentError::new(
                    source,
                    line,
                    col,
                    ContentErrorKind::InvalidValue {
                        field: field.into(),
                        message: format!(
                            "`{}` is not a date like 2025-03-02 or a date-time like 2025-03-02T09:00:00Z",
                            value.value
                        ),
                    },
                ));
            }
            parsed
        };
        let (date, published) = match &raw.date {
            None => (default_date, midnight_utc(default_date)),
            Some(d) => instant("date", d).unwrap_or((default_date, midnight_utc(default_date))),
        };
        let expires = raw.expires.as_ref().and_then(|e| instant("expires", e).map(|(_, t)| t));
        let updated = raw.updated.as_ref().and_then(|u| instant("updated", u).map(|(d, _)| d));
        let order = |field: &str, value: &Spanned<String>, message: String| {
            let (line, col) = at(value);
            let kind = ContentErrorKind::InvalidValue { field: field.into(), message };
            ContentError::new(source, line, col, kind)
        };
        if let (Some(u), Some(raw_u)) = (updated, &raw.updated)
            && u < date
        {
            errors.push(order(
                "updated",
                raw_u,
                format!("{u} is before the article's date {date}"),
            ));
        }
        if let (Some(e), Some(raw_e)) = (expires, &raw.expires)
            && e <= published
        {
            errors.push(order("expires", raw_e, format!("{e} is not after the article's date")));
        }
        let entities_given = raw.entities.is_some();
        let image = raw.image.as_ref().and_then(|i| {
            let value = i.value.trim();
            let (line, col) = at(i);
            (!value.is_empty()).then(|| Located { value: value.to_string(), line, col })
        });
        let image_target = image.as_ref().and_then(|image| {
            crate::media_refs::resolve(source, &image.value)
                .map_err(|reason| {
                    let kind = format!("`{}` in `image`: {reason}", image.value);
                    let kind = ContentErrorKind::InvalidImage(kind);
                    errors.push(ContentError::new(source, image.line, image.col, kind));
                })
                .ok()
        });
        let image_alt = raw.image_alt.map(|a| a.trim().to_string()).filter(|a| !a.is_empty());
        let image_focus = raw.image_focus.as_ref().and_then(|f| match parse_focus(&f.value) {
            Ok(focus) => Some(focus),
            Err(message) => {
                let (line, col) = at(f);
                let kind = ContentErrorKind::InvalidValue { field: "image_focus".into(), message };
                errors.push(ContentError::new(source, line, col, kind));
                None
            }
        });
        let entities: Vec<Entity> = match raw.entities {
            None => {
                errors.push(missing("entities"));
                Vec::new()
            }
            Some(list) => list
                .into_iter()
                .map(|e| {
                    let (line, col) = at(&e.category);
                    Entity {
                        category: Located { value: e.category.value, line, col },
                        subcategories: e
                            .subcategories
                            .unwrap_or_default()
                            .into_iter()
                            .map(|s| EntitySubcategory {
                                line: at(&s.subcategory).0,
                                col: at(&s.subcategory).1,
                                subcategory: s.subcategory.value,
                                subsubcategories: s
                                    .subsubcategories
                                    .unwrap_or_default()
                                    .into_iter()
                                    .map(|x| x.trim().to_string())
                                    .filter(|x| !x.is_empty())
                                    .collect(),
                            })
                            .collect(),
                    }
                })
                .collect(),
        };
        if entities_given && entities.is_empty() {
            errors.push(ContentError::new(
                source,
                1,
                1,
                ContentErrorKind::InvalidValue {
                    field: "entities".into(),
                    message: "list at least one category".into(),
                },
            ));
        }
        let mut aliases = Vec::new();
        for alias in raw.aliases.iter().flatten() {
            let (line, col) = at(alias);
            match normalize_path(alias.value.trim()) {
                Ok(value) => aliases.push(Located { value, line, col }),
                Err(message) => errors.push(ContentError::new(
                    source,
                    line,
                    col,
                    ContentErrorKind::InvalidValue { field: "aliases".into(), message },
                )),
            }
        }
        let mut accept = Vec::new();
        for code in raw.accept.unwrap_or_default() {
            let name = code.value.trim();
            if WARNING_CODES.contains(&name) {
                accept.push(name.to_string());
            } else {
                let (line, col) = at(&code);
                errors.push(
                    ContentError::new(
                        source,
                        line,
                        col,
                        ContentErrorKind::InvalidValue {
                            field: "accept".into(),
                            message: format!("`{name}` is not a warning code"),
                        },
                    )
                    .with_help(Some(
                        did_you_mean_text(name, WARNING_CODES.iter().copied()).unwrap_or_else(
                            || {
                                format!(
                                    "use one of {} (see docs/check.md#warnings)",
                                    WARNING_CODES.join(", ")
                                )
                            },
                        ),
                    )),
                );
            }
        }
        let author = raw.author.map(|a| {
            let (line, col) = at(&a);
            Located { value: a.value.trim().to_string(), line, col }
        });
        let audio = raw.audio.as_ref().and_then(|a| {
            let (line, col) = at(a);
            match resolve_site_file(source, &a.value) {
                Ok(value) => Some(Located { value, line, col }),
                Err(message) => {
                    let kind = ContentErrorKind::InvalidValue { field: "audio".into(), message };
                    errors.push(ContentError::new(source, line, col, kind).with_help(Some(
                        "name an audio file of the site: beside the article (`evening.m4a`) or under static/ (`/audio/evening.m4a`)".into(),
                    )));
                    None
                }
            }
        });
        let scan = scan_body(split.body, split.body_line);
        errors.extend(scan.too_deep_error(source));
        let embeds = embeds_of(source, &scan.directives, &mut errors);
        let description = raw
            .description
            .map(|d| d.trim().to_string())
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| scan.first_paragraph.clone());
        let article = Self {
            source: source.to_path_buf(),
            title,
            slug,
            date,
            published,
            expires,
            updated,
            draft: raw.draft,
            author,
            description,
            image,
            image_target,
            image_alt,
            image_focus,
            entities,
            links: scan.links,
            images_without_alt: scan.images_without_alt,
            images: scan.images,
            words: scan.words,
            slug_line,
            aliases,
            digest: Digest::of(text.as_bytes()),
            accept,
            shortcodes: scan.shortcodes,
            audio,
            embeds,
        };
        (Some(article.shrunk()), errors)
    }

    /// The article with every list and text holding no spare capacity. A site keeps every
    /// article it loads for the whole build, and the lists come from serde and from scanning
    /// the body with room to grow: a list of one entity kept four entities' room (and the
    /// in-place conversion from the YAML's larger entries kept theirs), about 800 bytes an
    /// article at 1,000,000 articles' scale (docs/scale.md).
    fn shrunk(mut self) -> Self {
        for entity in &mut self.entities {
            for sub in &mut entity.subcategories {
                sub.subsubcategories.shrink_to_fit();
            }
            entity.subcategories.shrink_to_fit();
        }
        self.entities.shrink_to_fit();
        for text in [&mut self.title, &mut self.slug, &mut self.description] {
            text.shrink_to_fit();
        }
        let located = [
            &mut self.links,
            &mut self.images_without_alt,
            &mut self.images,
            &mut self.aliases,
            &mut self.shortcodes,
        ];
        for list in located {
            list.shrink_to_fit();
        }
        self.accept.shrink_to_fit();
        self.embeds.shrink_to_fit();
        self
    }
}

/// `image_focus` as `"x% y%"` (each 0–100, decimals allowed), normalised (`"30% 60%"`).
fn parse_focus(value: &str) -> Result<String, String> {
    let bad = || format!("`{value}` is not a focal point like \"30% 60%\" (x% y%, each 0 to 100)");
    let parts: Vec<&str> = value.split_whitespace().collect();
    let [x, y] = parts.as_slice() else { return Err(bad()) };
    let percent = |p: &str| -> Option<f64> {
        let n: f64 = p.strip_suffix('%')?.parse().ok()?;
        (n.is_finite() && (0.0..=100.0).contains(&n)).then_some(n)
    };
    match (percent(x), percent(y)) {
        (Some(x), Some(y)) => Ok(format!("{x}% {y}%")),
        _ => Err(bad()),
    }
}

/// A YAML error as a diagnostic: an unknown field (in `entities`) with its likely meaning, a
/// missing field, or a syntax error, with a hint to quote a value when a colon broke it.
fn yaml_error(source: &Path, line: u32, col: u32, e: &serde_saphyr::Error) -> ContentError {
    let kind = yaml_kind(e);
    let help = match &kind {
        ContentErrorKind::UnknownField(_) => {
            let message = e.to_string();
            parse_unknown_field(&message).and_then(|(field, expected)| {
                let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
                unknown_field_hint(&field, &expected)
            })
        }
        ContentErrorKind::MalformedFrontMatter(m) if is_colon_in_plain_value(m) => Some(
            "quote the value: a `: ` inside it starts a new field, so write `title: \"Breathe: a guide\"`"
                .into(),
        ),
        _ => None,
    };
    ContentError::new(source, line, col, kind).with_help(help)
}

/// serde_saphyr's message for a `key: value: more` line: a mapping value where none may start.
fn is_colon_in_plain_value(message: &str) -> bool {
    message.contains("mapping values are not allowed")
}

/// A date (midnight UTC) or an RFC 3339 date-time: its UTC date and its instant.
fn parse_instant(s: &str) -> Option<(jiff::civil::Date, jiff::Timestamp)> {
    let s = s.trim();
    // A date-time first: jiff reads the date part of one as a date.
    if let Ok(t) = s.parse::<jiff::Timestamp>() {
        return Some((t.to_zoned(jiff::tz::TimeZone::UTC).date(), t));
    }
    let d = s.parse::<jiff::civil::Date>().ok()?;
    Some((d, midnight_utc(d)))
}

fn midnight_utc(d: jiff::civil::Date) -> jiff::Timestamp {
    d.to_zoned(jiff::tz::TimeZone::UTC).expect("a civil date is in range").timestamp()
}

fn yaml_kind(e: &serde_saphyr::Error) -> ContentErrorKind {
    let text = e.to_string();
    // The library renders a snippet after the message; the first line is the message.
    let first = text.lines().next().unwrap_or("").trim();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    // The position is reported separately; drop the library's own "line N column M: ".
    let first = match first.strip_prefix("line ").and_then(|r| r.split_once(": ")) {
        Some((pos, rest)) if pos.contains("column") => rest,
        _ => first,
    };
    if let Some(field) = first.split("missing field `").nth(1).and_then(|r| r.split('`').next()) {
        return ContentErrorKind::MissingField(field.to_string());
    }
    if let Some((field, _)) = parse_unknown_field(first) {
        return ContentErrorKind::UnknownField(field);
    }
    ContentErrorKind::MalformedFrontMatter(first.to_string())
}

/// What one pass over the Markdown tells the loader.
pub(crate) struct BodyScan {
    pub links: Vec<Located<String>>,
    pub images_without_alt: Vec<Located<String>>,
    /// Every image, with where it starts.
    pub images: Vec<Located<String>>,
    pub words: u32,
    pub first_paragraph: String,
    pub shortcodes: Vec<Located<String>>,
    /// Where the text first nests deeper than [`MAX_NESTING`] (line, column).
    pub too_deep: Option<(u32, u32)>,
    /// Lines that look like an embed (`::name…`): the line, where, and whether it is alone in
    /// its paragraph (as it must be).
    pub directives: Vec<(Located<String>, bool)>,
}

impl BodyScan {
    /// The error of a text that nests too deep, in the file `source`.
    pub(crate) fn too_deep_error(&self, source: &Path) -> Option<ContentError> {
        self.too_deep.map(|(line, col)| {
            ContentError::new(source, line, col, ContentErrorKind::TooDeep { max: MAX_NESTING })
        })
    }
}

/// The words of `text` as `text.split_whitespace().count()` counts them. An ASCII text (almost
/// every body) is counted a byte at a time without decoding characters: the count was nine
/// tenths of reading a body's Markdown for its facts, and a tenth of `check` at 100,000 articles.
pub(crate) fn count_words(text: &str) -> u32 {
    if !text.is_ascii() {
        return text.split_whitespace().count() as u32;
    }
    let mut words = 0;
    let mut after_space = true;
    for &b in text.as_bytes() {
        // The ASCII characters `char::is_whitespace` accepts: tab to carriage return, and space.
        let space = matches!(b, b'\t'..=b'\r' | b' ');
        words += u32::from(after_space && !space);
        after_space = space;
    }
    words
}

/// Collects internal link targets (with lines), images without alt text, the word count and
/// the first paragraph's text.
pub(crate) fn scan_body(body: &str, body_line: u32) -> BodyScan {
    let mut links = Vec::new();
    let mut images_without_alt = Vec::new();
    let mut images = Vec::new();
    // The image being read: its URL, where it starts, and its alt text so far.
    let mut image: Option<(String, usize, String)> = None;
    let mut words = 0u32;
    let mut first = String::new();
    let mut in_first: Option<bool> = None; // None: not seen yet; Some(true): inside it
    let mut nesting = Nesting::default();
    let mut in_code_block = false;
    // Consecutive text outside code, and where it starts: a shortcode may span several events.
    let mut run: Option<(usize, String)> = None;
    let mut shortcodes = Vec::new();
    let mut flush = |run: &mut Option<(usize, String)>| {
        if let Some((start, text)) = run.take() {
            for found in find_shortcodes(&text) {
                let (line, col) = line_col(body, start);
                shortcodes.push(Located { value: found, line: line + body_line - 1, col });
            }
        }
    };
    let parser = Parser::new_ext(body, Options::all()).into_offset_iter();
    for (event, range) in parser {
        match &event {
            Event::Start(Tag::HtmlBlock) | Event::End(TagEnd::HtmlBlock) => {}
            Event::Start(_) => nesting.open(range.start),
            Event::End(_) => nesting.close(),
            Event::Html(html) | Event::InlineHtml(html) => nesting.html(html, range.start),
            _ => {}
        }
        match &event {
            Event::Text(t) if !in_code_block => {
                run.get_or_insert_with(|| (range.start, String::new())).1.push_str(t)
            }
            _ => flush(&mut run),
        }
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code_block = true,
            Event::End(TagEnd::CodeBlock) => in_code_block = false,
            Event::Start(Tag::Link { dest_url, .. }) => {
                if let Some(path) = internal_path(&dest_url) {
                    let (line, col) = line_col(body, range.start);
                    links.push(Located { value: path, line: line + body_line - 1, col });
                }
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                let (line, col) = line_col(body, range.start);
                let line = line + body_line - 1;
                images.push(Located { value: dest_url.to_string(), line, col });
                image = Some((dest_url.to_string(), range.start, String::new()));
            }
            Event::End(TagEnd::Image) => {
                if let Some((url, start, alt)) = image.take()
                    && alt.trim().is_empty()
                {
                    let (line, col) = line_col(body, start);
                    images_without_alt.push(Located {
                        value: url,
                        line: line + body_line - 1,
                        col,
                    });
                }
            }
            Event::Start(Tag::Paragraph) if in_first.is_none() => in_first = Some(true),
            Event::End(TagEnd::Paragraph) if in_first == Some(true) => in_first = Some(false),
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, _, alt)) = &mut image {
                    alt.push_str(&t);
                }
                words += count_words(&t);
                if in_first == Some(true) {
                    first.push_str(&t);
                }
            }
            Event::SoftBreak | Event::HardBreak if in_first == Some(true) => first.push(' '),
            _ => {}
        }
    }
    flush(&mut run);
    let too_deep = nesting.too_deep().map(|offset| {
        let (line, col) = line_col(body, offset);
        (line + body_line - 1, col)
    });
    BodyScan {
        links,
        images_without_alt,
        images,
        words,
        first_paragraph: truncate_words(first.trim(), 160),
        shortcodes,
        too_deep,
        directives: directive_lines(body, body_line),
    }
}

/// The lines of `body` that look like an embed (`::name…`), each with whether it is alone in its
/// paragraph. Read with the renderer's Markdown options (no definition lists, where a line
/// starting with `:` would be a definition), so both find the same embeds.
fn directive_lines(body: &str, body_line: u32) -> Vec<(Located<String>, bool)> {
    let mut found = Vec::new();
    if !(body.starts_with("::") || body.contains("\n::") || body.contains("\n ::")) {
        return found;
    }
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES;
    for (event, range) in Parser::new_ext(body, options).into_offset_iter() {
        if let Event::Start(Tag::Paragraph) = event {
            let text = &body[range.clone()];
            let alone = text.trim().lines().count() == 1;
            let mut offset = range.start;
            for l in text.split_inclusive('\n') {
                if crate::embed::looks_like_directive(l) {
                    let (line, col) = line_col(body, offset + (l.len() - l.trim_start().len()));
                    let value = l.trim().to_string();
                    found.push((Located { value, line: line + body_line - 1, col }, alone));
                }
                offset += l.len();
            }
        }
    }
    found
}

/// The embeds of the directive lines of a body, each checked (its file resolved for `::audio`
/// and a poster); what is wrong goes to `errors` with the line.
fn embeds_of(
    source: &Path,
    directives: &[(Located<String>, bool)],
    errors: &mut Vec<ContentError>,
) -> Vec<Embed> {
    let mut embeds = Vec::new();
    for (d, alone) in directives {
        let error = |message: String, help: Option<String>| {
            let kind = ContentErrorKind::InvalidEmbed(message);
            ContentError::new(source, d.line, d.col, kind).with_help(help)
        };
        if !alone {
            errors.push(error(
                format!("`{}` must be alone in its paragraph", d.value),
                Some("leave a blank line before and after the embed".into()),
            ));
            continue;
        }
        match embed_of(&d.value, (d.line, d.col)) {
            Ok(mut e) => {
                let files = [
                    (e.provider == crate::embed::Provider::Audio).then(|| ("src", e.id.clone())),
                    e.poster.clone().map(|p| ("poster", p)),
                ];
                let mut ok = true;
                for (field, written) in files.into_iter().flatten() {
                    if let Err(m) = resolve_site_file(source, &written) {
                        errors.push(error(format!("`{field}`: {m}"), None));
                        ok = false;
                    }
                }
                if ok {
                    e.line = d.line;
                    embeds.push(e);
                }
            }
            Err((message, help)) => errors.push(error(message, help)),
        }
    }
    embeds
}

/// Hugo (`{{< x >}}`, `{{% x %}}`) and Jekyll/Liquid (`{% x %}`) shortcodes in `text`, as written.
fn find_shortcodes(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('{') {
        let tail = &rest[at..];
        let close = [("{{<", ">}}"), ("{{%", "%}}"), ("{%", "%}")]
            .iter()
            .find(|(open, _)| tail.starts_with(open))
            .and_then(|(open, close)| {
                tail[open.len()..].find(close).map(|i| open.len() + i + close.len())
            });
        match close {
            Some(end) => {
                found.push(tail[..end].to_string());
                rest = &tail[end..];
            }
            None => rest = &tail[1..],
        }
    }
    found
}

/// Internal links in any Markdown text whose first line is `body_line` of its file.
pub fn scan_links(body: &str, body_line: u32) -> Vec<Located<String>> {
    scan_body(body, body_line).links
}

/// The slug an article's `slug:` line gives, read line by line without parsing the front matter
/// (for a file whose front matter does not parse): the first `slug:` line of the block that
/// opens the file, when its value is a slug.
pub(crate) fn written_slug(text: &str) -> Option<String> {
    let mut lines = text.lines();
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    let value = lines
        .take_while(|l| l.trim_end() != "---")
        .find_map(|l| l.strip_prefix("slug:"))?
        .trim()
        .trim_matches(|c| c == '"' || c == '\'');
    is_slug(value).then(|| value.to_string())
}

/// The site path of a link target when it is internal (`/x`, not `//host` or `https://`).
pub fn internal_path(dest: &str) -> Option<String> {
    if !dest.starts_with('/') || dest.starts_with("//") {
        return None;
    }
    let end = dest.find(['?', '#']).unwrap_or(dest.len());
    let path = &dest[..end];
    let path = if path.len() > 1 { path.trim_end_matches('/') } else { path };
    Some(path.to_string())
}

/// At most `max` characters, cut at a word boundary with an ellipsis.
pub fn truncate_words(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(a, _)| a);
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.']))
}

/// The digest of an article file's text: [`Article::digest`], and what the parse store
/// (`parsed.rs`) keys a file's text by.
pub fn text_digest(text: &str) -> String {
    Digest::of(text.as_bytes()).to_string()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Words are counted as `split_whitespace` splits them, ASCII or not.
        #[test]
        fn words_are_counted_as_split_whitespace_splits_them(
            text in r"[ a-z\t\n\r\x0B\x0C\x1C\x1F.é\u{85}\u{A0}\u{2003}\u{3000}😀]{0,40}"
        ) {
            prop_assert_eq!(count_words(&text) as usize, text.split_whitespace().count());
        }
    }

    #[test]
    fn an_ascii_text_is_counted_without_decoding_it() {
        assert_eq!(count_words(""), 0);
        assert_eq!(count_words("  breathe in,\tbreathe\x0Bout \r\n"), 4);
        assert_eq!(count_words("one\x1Ctwo"), 1, "a file separator is not white space");
        assert_eq!(count_words("calm\u{A0}mind"), 2, "a no-break space is");
    }

    #[test]
    fn a_slug_is_read_from_a_front_matter_that_does_not_parse() {
        let broken = "---\ntitle: [unclosed\nslug: body-scan\n---\nText.\n";
        assert!(Article::parse(Path::new("a.md"), broken, jiff::civil::date(2024, 1, 1)).is_err());
        assert_eq!(written_slug(broken).as_deref(), Some("body-scan"));
        assert_eq!(written_slug("---\nslug: \"quoted-slug\"\n").as_deref(), Some("quoted-slug"));
        assert_eq!(written_slug("---\nslug: Not A Slug\n---\n"), None);
        assert_eq!(written_slug("---\ntitle: x\n---\nslug: body-scan\n"), None, "in the body");
        assert_eq!(written_slug("slug: body-scan\n"), None, "no front matter");
    }

    fn date() -> jiff::civil::Date {
        jiff::civil::date(2024, 9, 12)
    }

    const GOOD: &str = "---
title: \"A 10-Minute Body Scan\"
slug: body-scan
date: 2025-03-02
author: \"Maya Lindqvist\"
entities:
  - category: sleepEnhancement
    subcategories:
      - subcategory: guidedMeditationForSleep
        subsubcategories: [\"body scan\", \"yoga nidra\"]
  - category: anxietyManagement
---
Lie down and *rest*. See [the other](/articles/other-one#x) and [web](https://x.example).

## Next

More [topic](/anxiety-management/).
";

    #[test]
    fn parses_everything() {
        let a = Article::parse(Path::new("articles/a.md"), GOOD, date()).unwrap();
        assert_eq!(a.title, "A 10-Minute Body Scan");
        assert_eq!(a.slug, "body-scan");
        assert_eq!(a.slug_line, 3);
        assert_eq!(a.date.to_string(), "2025-03-02");
        assert_eq!(a.author.as_ref().unwrap().value, "Maya Lindqvist");
        assert_eq!(a.author.as_ref().unwrap().line, 5);
        assert_eq!(a.entities.len(), 2);
        assert_eq!(a.entities[0].category.line, 7);
        assert_eq!(a.entities[0].subcategories[0].subsubcategories, ["body scan", "yoga nidra"]);
        assert!(a.entities[1].subcategories.is_empty());
        assert_eq!(a.description, "Lie down and rest. See the other and web.");
        let links: Vec<_> = a.links.iter().map(|l| (l.value.as_str(), l.line)).collect();
        assert_eq!(links, [("/articles/other-one", 13), ("/anxiety-management", 17)]);
    }

    #[test]
    fn a_parsed_article_keeps_no_spare_room() {
        // A site holds every article for the whole build: its lists are exactly their length.
        let a = Article::parse(Path::new("articles/a.md"), GOOD, date()).unwrap();
        assert_eq!(a.entities.capacity(), a.entities.len());
        let subs = &a.entities[0].subcategories;
        assert_eq!((subs.capacity(), subs[0].subsubcategories.capacity()), (1, 2));
        assert_eq!(a.entities[1].subcategories.capacity(), 0);
        assert_eq!(a.links.capacity(), a.links.len());
        assert_eq!(a.description.capacity(), a.description.len());
    }

    #[test]
    fn default_date_and_no_author() {
        let text =
            GOOD.replace("date: 2025-03-02\n", "").replace("author: \"Maya Lindqvist\"\n", "");
        let a = Article::parse(Path::new("a.md"), &text, date()).unwrap();
        assert_eq!(a.date, date());
        assert!(a.author.is_none());
    }

    #[test]
    fn malformed_yaml_points_into_the_file() {
        let text = GOOD.replace("slug: body-scan", "slug: [unclosed");
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        assert!(matches!(errs[0].kind, ContentErrorKind::MalformedFrontMatter(_)), "{errs:?}");
        assert!(errs[0].line >= 3, "{errs:?}");
    }

    #[test]
    fn a_syntax_error_is_reported_where_the_value_first_goes_wrong() {
        let text = GOOD.replace("title: \"A 10-Minute Body Scan\"", "title: [unclosed");
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].line, 2, "{errs:?}");
    }

    #[test]
    fn missing_fences() {
        let errs = Article::parse(Path::new("a.md"), "title: x\n", date()).unwrap_err();
        assert!(matches!(errs[0].kind, ContentErrorKind::MalformedFrontMatter(_)));
        let errs = Article::parse(Path::new("a.md"), "---\ntitle: x\n", date()).unwrap_err();
        assert!(matches!(errs[0].kind, ContentErrorKind::MalformedFrontMatter(_)));
    }

    #[test]
    fn missing_and_invalid_fields_are_all_reported() {
        let text =
            GOOD.replace("title: \"A 10-Minute Body Scan\"\n", "").replace("2025-03-02", "someday");
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(errs.iter().any(|e| e.kind == ContentErrorKind::MissingField("title".into())));
        assert!(errs.iter().any(
            |e| matches!(&e.kind, ContentErrorKind::InvalidValue { field, .. } if field == "date")
                && e.line == 3
        ));
    }

    #[test]
    fn every_unknown_field_is_reported_with_the_other_errors() {
        let text = GOOD
            .replace("title: \"A 10-Minute Body Scan\"\n", "lastmod: 2025-03-04\ntags: [sleep]\n")
            .replace("slug: body-scan", "slug: body-scan\ntitel: typo\nsummary: x")
            .replace("2025-03-02", "someday");
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        let found: Vec<_> = errs
            .iter()
            .map(|e| format!("{}:{} {} | {}", e.line, e.col, e.kind, e.hint()))
            .collect();
        assert_eq!(
            found,
            [
                "2:1 unknown field `lastmod` | Stillpoint calls this field `updated` (see docs/content.md#articles)",
                "3:1 unknown field `tags` | Stillpoint calls this field `entities` (see docs/content.md#articles)",
                "5:1 unknown field `titel` | did you mean `title`?",
                "6:1 unknown field `summary` | Stillpoint calls this field `description` (see docs/content.md#articles)",
                "1:1 missing required field `title` | add the field (see docs/content.md#articles)",
                "7:7 invalid value for `date`: `someday` is not a date like 2025-03-02 or a date-time like 2025-03-02T09:00:00Z | correct the value (see docs/content.md#articles)",
            ]
        );
    }

    #[test]
    fn a_wrong_shape_is_reported_with_unknown_and_missing_fields() {
        let text = GOOD
            .replace("title: \"A 10-Minute Body Scan\"\n", "")
            .replace("slug: body-scan", "slug: [a, b]\ncover: x.jpg");
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        let kinds: Vec<_> = errs.iter().map(|e| (e.kind.code(), e.line)).collect();
        assert_eq!(
            kinds,
            [("unknown_field", 3), ("malformed_front_matter", 2), ("missing_field", 1)],
            "{errs:?}"
        );
        assert!(errs[0].hint().contains("`image`"));
    }

    #[test]
    fn empty_front_matter_lists_each_missing_field_once() {
        let errs = Article::parse(Path::new("a.md"), "---\n---\nBody.\n", date()).unwrap_err();
        let kinds: Vec<_> = errs.iter().map(|e| e.kind.to_string()).collect();
        assert_eq!(
            kinds,
            [
                "missing required field `title`",
                "missing required field `slug`",
                "missing required field `entities`"
            ]
        );
        let errs = Article::parse(Path::new("a.md"), "---\n- a\n---\n", date()).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].kind.code(), "malformed_front_matter");
    }

    #[test]
    fn missing_entities_is_one_error() {
        let text = GOOD.split("entities:").next().unwrap().to_string() + "---\nBody.\n";
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].kind, ContentErrorKind::MissingField("entities".into()));
        let empty = GOOD.split("entities:").next().unwrap().to_string() + "entities: []\n---\n";
        let errs = Article::parse(Path::new("a.md"), &empty, date()).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].kind.code(), "invalid_value");
    }

    #[test]
    fn unknown_field_in_entities_suggests_the_known_one() {
        let text =
            GOOD.replace("  - category: anxietyManagement", "  - categroy: anxietyManagement");
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        assert_eq!(errs[0].kind, ContentErrorKind::UnknownField("categroy".into()), "{errs:?}");
        assert_eq!(errs[0].hint(), "did you mean `category`?");
        assert_eq!(errs[0].line, 11);
    }

    #[test]
    fn a_colon_in_an_unquoted_title_says_quote_the_value() {
        let text = GOOD.replace(
            "title: \"A 10-Minute Body Scan\"",
            "title: A 10-Minute Body Scan: Deeper Sleep",
        );
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].kind.code(), "malformed_front_matter");
        assert_eq!(errs[0].line, 2, "{errs:?}");
        assert!(errs[0].hint().starts_with("quote the value"), "{errs:?}");
    }

    #[test]
    fn accept_lists_known_warning_codes() {
        let text = GOOD.replace("slug: body-scan", "slug: body-scan\naccept: [filed_under_other]");
        let a = Article::parse(Path::new("a.md"), &text, date()).unwrap();
        assert_eq!(a.accept, ["filed_under_other"]);
        let text = GOOD.replace("slug: body-scan", "slug: body-scan\naccept: [filed_under_others]");
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        assert_eq!(errs[0].line, 4);
        assert_eq!(errs[0].hint(), "did you mean `filed_under_other`?");
    }

    #[test]
    fn shortcodes_outside_code_are_found() {
        let body = "Intro.\n\n{{< youtube abc >}}\n\nSee {% include x.html %} and {{% note %}}.\n\n\
                    ```\n{{< in code >}}\n```\n\n`{% inline code %}` and {{ not one }}.\n";
        let scan = scan_body(body, 10);
        let found: Vec<_> = scan.shortcodes.iter().map(|l| (l.value.as_str(), l.line)).collect();
        assert_eq!(
            found,
            [("{{< youtube abc >}}", 12), ("{% include x.html %}", 14), ("{{% note %}}", 14)]
        );
    }

    /// The field names serde reads for `Raw`, asked of serde itself.
    fn serde_fields() -> &'static [&'static str] {
        struct Fields(Option<&'static [&'static str]>);
        impl<'de> serde::Deserializer<'de> for &mut Fields {
            type Error = serde::de::value::Error;
            fn deserialize_any<V: serde::de::Visitor<'de>>(
                self,
                _: V,
            ) -> Result<V::Value, Self::Error> {
                Err(serde::de::Error::custom("only structs"))
            }
            fn deserialize_struct<V: serde::de::Visitor<'de>>(
                self,
                _: &'static str,
                fields: &'static [&'static str],
                _: V,
            ) -> Result<V::Value, Self::Error> {
                self.0 = Some(fields);
                Err(serde::de::Error::custom("seen"))
            }
            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
                byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
                identifier ignored_any
            }
        }
        let mut d = Fields(None);
        let _ = Raw::deserialize(&mut d);
        d.0.unwrap()
    }

    /// A front matter of known fields only is read in one pass (`KnownOnly`); what it reads is
    /// what the reading that reports each problem reads, with no problem; and a file with an
    /// unknown field is not read in one pass.
    #[test]
    fn one_pass_reads_what_the_reporting_reading_reads() {
        let every_field = GOOD.replace(
            "author:",
            "draft: true\nexpires: 2030-01-01\nupdated: 2025-04-01\ndescription: \"Calm.\"\n\
             image: cover.jpg\nimage_alt: \"A lake\"\nimage_focus: 30% 60%\naudio: a.ogg\n\
             aliases: [/old]\naccept: [thin]\nauthor:",
        );
        for text in [GOOD, every_field.as_str()] {
            let yaml = split(text).unwrap().yaml;
            let one_pass = Raw::from(serde_saphyr::from_str::<KnownOnly>(yaml).unwrap());
            let (reported, problems) =
                Article::read_each_problem(Path::new("a.md"), yaml, 1).unwrap();
            assert!(problems.is_empty(), "{problems:?}");
            assert_eq!(format!("{one_pass:?}"), format!("{reported:?}"));
        }
        let unknown = GOOD.replace("author:", "tags: [calm]\nauthor:");
        assert!(serde_saphyr::from_str::<KnownOnly>(split(&unknown).unwrap().yaml).is_err());
        let errs = Article::parse(Path::new("a.md"), &unknown, date()).unwrap_err();
        assert!(
            matches!(&errs[..], [e] if matches!(&e.kind, ContentErrorKind::UnknownField(f) if f == "tags"))
        );
    }

    #[test]
    fn the_known_field_list_is_the_parsers() {
        let mut ours = FIELDS.to_vec();
        let mut serdes = serde_fields().to_vec();
        ours.sort_unstable();
        serdes.sort_unstable();
        assert_eq!(ours, serdes, "FIELDS must list exactly the fields of `Raw`");
    }

    #[test]
    fn draft_schedule_and_updated_fields() {
        let a = Article::parse(Path::new("a.md"), GOOD, date()).unwrap();
        assert!(!a.draft);
        assert_eq!(a.published.to_string(), "2025-03-02T00:00:00Z", "a date is midnight UTC");
        assert_eq!((a.expires, a.updated), (None, None));
        let text = GOOD.replace(
            "date: 2025-03-02\n",
            "date: 2025-03-02T09:30:00+02:00\ndraft: true\nupdated: 2025-04-01\nexpires: 2026-01-01T12:00:00Z\n",
        );
        let a = Article::parse(Path::new("a.md"), &text, date()).unwrap();
        assert!(a.draft);
        assert_eq!(a.date.to_string(), "2025-03-02");
        assert_eq!(a.published.to_string(), "2025-03-02T07:30:00Z");
        assert_eq!(a.updated.unwrap().to_string(), "2025-04-01");
        assert_eq!(a.expires.unwrap().to_string(), "2026-01-01T12:00:00Z");
    }

    #[test]
    fn updated_before_date_and_expiry_before_publication_are_errors_at_their_line() {
        let text = GOOD.replace(
            "date: 2025-03-02\n",
            "date: 2025-03-02\nupdated: 2025-03-01\nexpires: 2025-03-02\n",
        );
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        let fields: Vec<_> = errs
            .iter()
            .map(|e| match &e.kind {
                ContentErrorKind::InvalidValue { field, message } => {
                    (field.as_str(), e.line, message.clone())
                }
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(fields[0].0, "updated");
        assert_eq!(fields[0].1, 5);
        assert!(fields[0].2.contains("before the article's date 2025-03-02"), "{fields:?}");
        assert_eq!((fields[1].0, fields[1].1), ("expires", 6));
        let text = GOOD.replace("date: 2025-03-02\n", "date: 2025-03-02\nupdated: soon\n");
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        assert!(errs[0].to_string().contains("a.md:5:"), "{errs:?}");
    }

    #[test]
    fn internal_paths() {
        assert_eq!(internal_path("/a/b/?q=1"), Some("/a/b".into()));
        assert_eq!(internal_path("/"), Some("/".into()));
        assert_eq!(internal_path("//cdn.example/x"), None);
        assert_eq!(internal_path("https://x.example"), None);
        assert_eq!(internal_path("#top"), None);
    }

    #[test]
    fn image_fields() {
        let text = GOOD.replace("author:", "image: \"javascript:alert(1)\"\nauthor:");
        let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!((errs[0].line, errs[0].col), (5, 8), "{errs:?}");
        assert!(
            matches!(&errs[0].kind, ContentErrorKind::InvalidImage(m) if m.contains("javascript:"))
        );
        let text = GOOD.replace(
            "author:",
            "image: cover.jpg\nimage_alt: \" Dawn over a lake \"\nimage_focus: 30% 60.5%\nauthor:",
        );
        let a = Article::parse(Path::new("articles/x/index.md"), &text, date()).unwrap();
        let image = a.image.unwrap();
        assert_eq!((image.value.as_str(), image.line, image.col), ("cover.jpg", 5, 8));
        assert_eq!(a.image_alt.as_deref(), Some("Dawn over a lake"));
        assert_eq!(a.image_focus.as_deref(), Some("30% 60.5%"));
        for bad in ["30%", "30 60", "30% 160%", "left top", "30% 60% 1%", "-1% 0%"] {
            let text = GOOD.replace("author:", &format!("image_focus: \"{bad}\"\nauthor:"));
            let errs = Article::parse(Path::new("a.md"), &text, date()).unwrap_err();
            assert_eq!(errs.len(), 1, "{bad}: {errs:?}");
            assert_eq!(errs[0].line, 5);
            assert!(errs[0].to_string().contains("invalid value for `image_focus`"), "{}", errs[0]);
        }
    }

    #[test]
    fn every_body_image_is_located() {
        let body = "Intro.\n\n![A candle](images/candle.jpg)\n\nText ![](/x.png) more.\n";
        let scan = scan_body(body, 10);
        let found: Vec<_> = scan.images.iter().map(|l| (l.value.as_str(), l.line, l.col)).collect();
        assert_eq!(found, [("images/candle.jpg", 12, 1), ("/x.png", 14, 6)]);
        assert_eq!(scan.images_without_alt.len(), 1);
    }

    #[test]
    fn text_nested_too_deep_is_refused_where_it_passes_the_limit() {
        let deep = |body: &str| {
            let text = format!("{GOOD}{body}\n");
            Article::parse(Path::new("a.md"), &text, date()).map(|_| ()).map_err(|e| e[0].clone())
        };
        let quotes = format!("Fine.\n\n{}deep", "> ".repeat(200));
        let err = deep(&quotes).unwrap_err();
        assert_eq!((err.line, err.col), (20, 201), "{err}");
        assert_eq!(err.kind, ContentErrorKind::TooDeep { max: MAX_NESTING }, "{err}");
        let divs = format!("<div>\n{}", "<div>".repeat(100_000));
        let err = deep(&divs).unwrap_err();
        assert_eq!(err.line, 19, "{err}");
        assert_eq!((err.col, &err.kind), (496, &ContentErrorKind::TooDeep { max: MAX_NESTING }));
        assert!(deep(&"<div>x</div>\n".repeat(1000)).is_ok());
        assert!(deep(&format!("{}x", "> ".repeat(40))).is_ok());
    }

    #[test]
    fn truncation() {
        assert_eq!(truncate_words("short", 10), "short");
        assert_eq!(truncate_words("one two three four", 12), "one two…");
    }

    #[test]
    fn audio_and_embeds() {
        let text = GOOD.replacen("---\n", "---\naudio: ../shared/evening.m4a\n", 1)
            + "\n::vimeo[Rain on leaves]{id=76979871}\n\n```\n::youtube[in code]{id=x}\n```\n";
        let a = Article::parse(Path::new("articles/a/index.md"), &text, date()).unwrap();
        let audio = a.audio.unwrap();
        assert_eq!(audio.value, Path::new("articles/shared/evening.m4a"));
        assert_eq!(audio.line, 2);
        assert_eq!(a.embeds.len(), 1, "{:?}", a.embeds);
        assert_eq!(a.embeds[0].id, "76979871");
        let bad = GOOD.replacen("---\n", "---\naudio: https://cdn.example/a.mp3\n", 1)
            + "\nText before\n::youtube[T]{id=dQw4w9WgXcQ}\n\n::youtube[T]{id=nope}\n";
        let errors = Article::parse(Path::new("articles/a.md"), &bad, date()).unwrap_err();
        let shown: Vec<String> = errors.iter().map(|e| format!("{e} | {}", e.hint())).collect();
        insta::assert_snapshot!(shown.join("\n"));
    }
}
