//! The incremental build's invariant, as a property: after any sequence of edits, each followed
//! by a build with the cache, the output equals a clean build of the same input, byte for byte.
//! The input includes the build's instant (`--now`): moving it across an article's date, or
//! toggling an article's `draft`, changes what is published.
//!
//! The edits reach every field of an article that pages other than its own may show (title,
//! description, cover and its alt and focus, date and its hour, `updated`, `expires`, author,
//! placement in the topic tree, reading minutes, recording, aliases, links), the data files
//! (authors, their photos, topics, paid links, configuration) and static files (a cover, the
//! logo, any file): a field a card or listing shows but the build cache's outline leaves out
//! makes some sequence fail.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use crate::util::{SiteTest, stderr};

#[derive(Debug, Clone)]
enum Edit {
    /// Rewrites a sentence of the body of fixed article `0..3`.
    Body(usize, u8),
    /// Retitles fixed article `0..3`.
    Title(usize, u8),
    /// Adds an article `gen-N` under one of the fixture's subcategories.
    Add(u8),
    /// Deletes the `i`th added article (when there is one).
    Delete(usize),
    /// Changes the slug of the `i`th added article.
    Rename(usize, u8),
    /// Adds an alias to the `i`th added article, or removes the one it has.
    Alias(usize, u8),
    /// Rewrites an author's biography (data/authors.toml).
    Author(u8),
    /// Rewrites a category's description (data/topics.toml).
    Topics(u8),
    /// Rewrites the site's description (stillpoint.toml).
    Config(u8),
    /// Writes a static file `extra-{0..3}.txt` (new, or with other bytes).
    Static(u8),
    /// Moves the build's instant (`--now`) to `NOWS[i]`: across the dates of added articles.
    Now(usize),
    /// Toggles `draft: true` on the `i`th added article (on the fixed untagged one when none is).
    Draft(usize),
    /// Replaces the bytes of a picture (another width) and makes fixed article `0..3` show it:
    /// as its cover (on its cards too) or in its body.
    Image(usize, u8),
    /// Sets the `description:` of fixed article `0..3` (or removes it: the first paragraph then
    /// stands in).
    Description(usize, u8),
    /// Sets the cover's `image_alt:` of fixed article `0..3` (or removes it), giving it a cover
    /// first when it has none.
    ImageAlt(usize, u8),
    /// Sets the cover's `image_focus:` of fixed article `0..3` (or removes it), giving it a cover
    /// first when it has none.
    ImageFocus(usize, u8),
    /// Makes a static picture of other bytes the cover of fixed article `0..3`.
    StaticCover(usize, u8),
    /// Sets the `date:` of fixed article `0..3` or of an added one (see [`dated`]), or removes
    /// it (the site's start date then stands in): another day, or the same day at another hour.
    Date(usize, u8),
    /// Sets the `updated:` of fixed article `0..3` (or removes it).
    Updated(usize, u8),
    /// Sets the `expires:` of an article nothing links to (see [`unlinked`]), or removes it.
    Expires(usize, u8),
    /// Sets the `author:` of fixed article `0..3` to an author of the fixture, or removes it.
    Byline(usize, u8),
    /// Files fixed article `0..3` elsewhere in the topic tree (`entities:`).
    Entities(usize, u8),
    /// Pads the body of fixed article `0..3` to another reading time (or removes the padding).
    Length(usize, u8),
    /// Gives fixed article `0..3` a recording (`audio:`) of another kind or duration, or removes
    /// it.
    Audio(usize, u8),
    /// Edits a data file: a subcategory's title, an author's page title, or the paid links.
    Data(u8),
    /// Gives an author a photo (data/photos) of other bytes.
    AuthorPhoto(u8),
    /// Replaces the bytes of the site's logo (a static file every page names).
    Logo(u8),
}

/// A real PNG `width`×2 pixels.
fn png(width: u32) -> Vec<u8> {
    crate::util::png(width, 2)
}

/// Instants the builds run at. All are after the fixed articles that link to each other, so no
/// link breaks; the added articles are dated 2025-01-10 … 2025-09-19, on either side of them.
const NOWS: [&str; 4] = [
    "2025-05-10T00:00:00Z",
    "2025-06-10T12:00:00Z",
    "2025-08-15T00:00:00Z",
    "2030-01-01T00:00:00Z",
];

/// Dates any article may take: at or before the earliest of `NOWS`, so the fixed articles that
/// link to each other stay published. Several fall on 2025-03-02 (the date of `body-scan`) at
/// other hours, one written in another zone whose day is the next (in UTC it is still the 2nd).
const EARLY_DATES: [Option<&str>; 6] = [
    None,
    Some("2025-03-02"),
    Some("2025-03-02T06:00:00Z"),
    Some("2025-03-02T21:30:00+02:00"),
    Some("2025-03-03T01:00:00+02:00"),
    Some("2025-05-09T23:59:59Z"),
];

/// Dates only an article nothing links to may take: across `NOWS`, so it is scheduled at some
/// instants and published at others (one a second after an instant, one at it).
const LATE_DATES: [&str; 4] =
    ["2025-05-10T00:00:00Z", "2025-06-10T12:00:01Z", "2025-08-14T23:59:59Z", "2025-12-31"];

/// `updated:` values: none is before a date of `EARLY_DATES`.
const UPDATED: [Option<&str>; 4] =
    [None, Some("2025-05-10"), Some("2025-07-01T08:00:00Z"), Some("2026-02-01")];

/// `expires:` values, across `NOWS` (one at an instant: taken down at it).
const EXPIRES: [Option<&str>; 4] =
    [None, Some("2025-06-10T12:00:00Z"), Some("2025-08-01"), Some("2029-01-01")];

/// The date of an article that gives none: the fixture's `start_date`.
const START_DATE: &str = "2024-09-12";

/// The authors of data/authors.toml, and no author.
const AUTHORS: [Option<&str>; 3] = [None, Some("\"Maya Lindqvist\""), Some("\"Rosa Villaseñor\"")];

/// Placements in the fixture's topic tree: one sub-subcategory or several (one an added article
/// may share), another category, the category alone (filed under its `other`), and two
/// categories, one through a subcategory it does not have (also `other`).
const PLACEMENTS: [&str; 5] = [
    "entities:\n  - category: sleepEnhancement\n    subcategories:\n      - subcategory: guidedMeditationForSleep\n        subsubcategories: [\"body scan\", \"yoga nidra\"]",
    "entities:\n  - category: sleepEnhancement\n    subcategories:\n      - subcategory: guidedMeditationForSleep\n        subsubcategories: [\"tag 1\"]",
    "entities:\n  - category: anxietyManagement\n    subcategories:\n      - subcategory: relaxationStrategies",
    "entities:\n  - category: anxietyManagement",
    "entities:\n  - category: anxietyManagement\n    subcategories:\n      - subcategory: breathingExercisesForStress\n        subsubcategories: [\"box breathing\"]\n  - category: sleepEnhancement",
];

/// Words of padding `Length` gives a body: none, and enough to cross at least one, two or four
/// reading minutes (220 words a minute) whatever the body's own length.
const PADDINGS: [usize; 4] = [0, 230, 450, 900];

/// The line that starts the padding paragraph.
const PADDING: &str = "Padding:";

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0..3usize, any::<u8>()).prop_map(|(i, n)| Edit::Body(i, n)),
        (0..3usize, any::<u8>()).prop_map(|(i, n)| Edit::Title(i, n)),
        any::<u8>().prop_map(Edit::Add),
        (0..4usize).prop_map(Edit::Delete),
        (0..4usize, any::<u8>()).prop_map(|(i, n)| Edit::Rename(i, n)),
        (0..4usize, any::<u8>()).prop_map(|(i, n)| Edit::Alias(i, n)),
        any::<u8>().prop_map(Edit::Author),
        any::<u8>().prop_map(Edit::Topics),
        any::<u8>().prop_map(Edit::Config),
        any::<u8>().prop_map(Edit::Static),
        (0..NOWS.len()).prop_map(Edit::Now),
        (0..4usize).prop_map(Edit::Draft),
        (0..3usize, any::<u8>()).prop_map(|(i, n)| Edit::Image(i, n)),
        (0..3usize, any::<u8>()).prop_map(|(i, n)| Edit::Description(i, n)),
        (0..3usize, any::<u8>()).prop_map(|(i, n)| Edit::ImageAlt(i, n)),
        (0..3usize, any::<u8>()).prop_map(|(i, n)| Edit::ImageFocus(i, n)),
        (0..3usize, any::<u8>()).prop_map(|(i, n)| Edit::StaticCover(i, n)),
        (0..6usize, any::<u8>()).prop_map(|(i, n)| Edit::Date(i, n)),
        (0..3usize, any::<u8>()).prop_map(|(i, n)| Edit::Updated(i, n)),
        (0..4usize, any::<u8>()).prop_map(|(i, n)| Edit::Expires(i, n)),
        (0..3usize, any::<u8>()).prop_map(|(i, n)| Edit::Byline(i, n)),
        (0..3usize, any::<u8>()).prop_map(|(i, n)| Edit::Entities(i, n)),
        (0..3usize, any::<u8>()).prop_map(|(i, n)| Edit::Length(i, n)),
        (0..3usize, any::<u8>()).prop_map(|(i, n)| Edit::Audio(i, n)),
        any::<u8>().prop_map(Edit::Data),
        any::<u8>().prop_map(Edit::AuthorPhoto),
        any::<u8>().prop_map(Edit::Logo),
    ]
}

const FIXED: [&str; 3] = ["body-scan.md", "breathing.md", "untagged.md"];

/// Replaces the first line starting with `prefix` in `rel`.
fn set_line(t: &SiteTest, rel: &str, prefix: &str, line: &str) {
    let path = t.site().join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    let out: Vec<String> = text
        .lines()
        .scan(false, |done, l| {
            Some(if !*done && l.starts_with(prefix) {
                *done = true;
                line.to_string()
            } else {
                l.to_string()
            })
        })
        .collect();
    std::fs::write(&path, out.join("\n") + "\n").unwrap();
}

/// An article's front matter (without its `---` lines) and its body.
fn split_article(text: &str) -> (&str, &str) {
    text[4..].split_once("\n---\n").unwrap()
}

/// The value of front matter field `key` of the article at `path`, as written.
fn field(path: &Path, key: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let prefix = format!("{key}:");
    let (front, _) = split_article(&text);
    front.lines().find_map(|l| l.strip_prefix(&prefix)).map(|v| v.trim().to_string())
}

/// Sets front matter field `key` of the article at `path` to `value`, or removes it: every line
/// of the key goes, and the new one is written before `entities:`, which every article here has.
fn set_field(path: &Path, key: &str, value: Option<&str>) {
    let text = std::fs::read_to_string(path).unwrap();
    let (front, body) = split_article(&text);
    let prefix = format!("{key}:");
    let mut lines: Vec<String> =
        front.lines().filter(|l| !l.starts_with(&prefix)).map(str::to_string).collect();
    if let Some(value) = value {
        let at = lines.iter().position(|l| l == "entities:").unwrap();
        lines.insert(at, format!("{key}: {value}"));
    }
    std::fs::write(path, format!("---\n{}\n---\n{body}", lines.join("\n"))).unwrap();
}

/// Replaces the `entities:` block of the article at `path` with `block`.
fn set_entities(path: &Path, block: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let (front, body) = split_article(&text);
    let mut lines = front.lines();
    let mut out: Vec<&str> = lines.by_ref().take_while(|l| *l != "entities:").collect();
    out.push(block);
    out.extend(lines.skip_while(|l| l.starts_with(' ')));
    std::fs::write(path, format!("---\n{}\n---\n{body}", out.join("\n"))).unwrap();
}

/// The instant a `date:`, `updated:` or `expires:` value names (a plain date: midnight UTC).
fn instant(value: &str) -> jiff::Timestamp {
    value.parse().unwrap_or_else(|_| {
        let date: jiff::civil::Date = value.parse().unwrap();
        date.to_zoned(jiff::tz::TimeZone::UTC).unwrap().timestamp()
    })
}

/// The day (in UTC) a `date:` or `updated:` value names.
fn day(value: &str) -> jiff::civil::Date {
    instant(value).to_zoned(jiff::tz::TimeZone::UTC).date()
}

/// When the article at `path` is published: its `date:`, else the site's start date.
fn published(path: &Path) -> String {
    field(path, "date").unwrap_or_else(|| START_DATE.to_string())
}

/// Removes an `updated:` before the article's day or an `expires:` not after its instant, which
/// a new date may have made invalid.
fn keep_dates_valid(path: &Path) {
    let date = published(path);
    if field(path, "updated").is_some_and(|u| day(&u) < day(&date)) {
        set_field(path, "updated", None);
    }
    if field(path, "expires").is_some_and(|e| instant(&e) <= instant(&date)) {
        set_field(path, "expires", None);
    }
}

/// An article nothing links to: the fixed untagged one for `i == 0` or when none was added,
/// else the `i`th added one.
fn unlinked(articles: &Path, added: &[String], i: usize) -> PathBuf {
    match added.len() {
        0 => articles.join(FIXED[2]),
        _ if i == 0 => articles.join(FIXED[2]),
        n => articles.join(format!("{}.md", added[i % n])),
    }
}

/// The article `Date(i, _)` moves, and whether it may leave the earliest of `NOWS` behind:
/// fixed articles `0..2` (which link to each other) may not, the others may.
fn dated(articles: &Path, added: &[String], i: usize) -> (PathBuf, bool) {
    match i {
        0 | 1 => (articles.join(FIXED[i]), false),
        _ => (unlinked(articles, added, i - 2), true),
    }
}

/// Sets the `date:` of the article `dated(i)` names to one of `EARLY_DATES` (and `LATE_DATES`
/// when it may leave `NOWS` behind), dropping an `updated:` or `expires:` it would make invalid.
fn set_date(articles: &Path, added: &[String], i: usize, n: u8) {
    let (path, late) = dated(articles, added, i);
    let k = usize::from(n) % (EARLY_DATES.len() + if late { LATE_DATES.len() } else { 0 });
    let date =
        EARLY_DATES.get(k).copied().unwrap_or_else(|| Some(LATE_DATES[k - EARLY_DATES.len()]));
    set_field(&path, "date", date);
    keep_dates_valid(&path);
}

/// Sets the `updated:` of fixed article `i` to `UPDATED[n]`, or removes it when that is before
/// the article's day (a later `Date` of the untagged article may be).
fn set_updated(articles: &Path, i: usize, n: u8) {
    let path = articles.join(FIXED[i]);
    let value = UPDATED[usize::from(n) % UPDATED.len()];
    set_field(&path, "updated", value);
    keep_dates_valid(&path);
}

/// Sets the `expires:` of an article nothing links to, or removes it when it is not after the
/// article's date.
fn set_expires(articles: &Path, added: &[String], i: usize, n: u8) {
    let path = unlinked(articles, added, i);
    set_field(&path, "expires", EXPIRES[usize::from(n) % EXPIRES.len()]);
    keep_dates_valid(&path);
}

/// Gives the article at `path` a cover when it has none: a static picture.
fn ensure_cover(t: &SiteTest, path: &Path) {
    if field(path, "image").is_none() {
        let picture = t.site().join("static/images/cover-0.png");
        if !picture.exists() {
            std::fs::create_dir_all(picture.parent().unwrap()).unwrap();
            std::fs::write(&picture, png(3)).unwrap();
        }
        set_field(path, "image", Some("/images/cover-0.png"));
    }
}

/// Writes static picture `cover-{0,1}.png` with other bytes and makes it the cover of the
/// article at `path`.
fn set_static_cover(t: &SiteTest, path: &Path, n: u8) {
    let name = format!("images/cover-{}.png", n % 2);
    let picture = t.site().join("static").join(&name);
    std::fs::create_dir_all(picture.parent().unwrap()).unwrap();
    std::fs::write(&picture, png(1 + u32::from(n))).unwrap();
    set_field(path, "image", Some(&format!("/{name}")));
}

/// Sets the padding paragraph at the end of the article at `path` to `words` words (none:
/// removes it).
fn set_padding(path: &Path, words: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with(PADDING)).collect();
    let mut text = kept.join("\n") + "\n";
    if words > 0 {
        text.push_str(&format!("\n{PADDING} {}\n", vec!["calm"; words].join(" ")));
    }
    std::fs::write(path, text).unwrap();
}

/// A recording of the repository: `crates/content/tests/audio/{name}` (seconds long) or the
/// demo site's `static/audio/{name}` (minutes long).
fn recording(name: &str) -> Vec<u8> {
    let root = crate::util::workspace();
    let short = root.join("crates/content/tests/audio").join(name);
    let path =
        if short.exists() { short } else { root.join("examples/demo/static/audio").join(name) };
    std::fs::read(path).unwrap()
}

/// Gives the article at `path` no recording, or `rec.{opus,mp3,m4a}` beside it, the `.m4a` of
/// seconds or of minutes (the same name with other bytes).
fn set_audio(path: &Path, n: u8) {
    let (file, source) = match n % 5 {
        0 => return set_field(path, "audio", None),
        1 => ("rec.opus", "speech.opus"),
        2 => ("rec.mp3", "speech.mp3"),
        3 => ("rec.m4a", "speech.m4a"),
        _ => ("rec.m4a", "mindful-breathing.m4a"),
    };
    std::fs::write(path.parent().unwrap().join(file), recording(source)).unwrap();
    set_field(path, "audio", Some(file));
}

/// Retitles a subcategory, retitles an author's page, or rewrites the paid links.
fn edit_data(t: &SiteTest, n: u8) {
    match n % 3 {
        0 => set_line(
            t,
            "data/topics.toml",
            "  title = \"🛌",
            &format!("  title = \"🛌 Sleep Meditations, take {n}\""),
        ),
        1 => set_line(
            t,
            "data/authors.toml",
            "meta_title = \"Maya",
            &format!("meta_title = \"Maya Lindqvist, Teacher {n}\""),
        ),
        _ => std::fs::write(
            t.site().join("data/sponsored.json"),
            format!(
                "{{ \"sapeLinks\": {{ \"/articles/breathing\": [\"<a href=\\\"https://partner.example\\\">Partner {n}</a>\"] }},\n  \"sapeNewUrl\": \"<a href=\\\"https://other.example\\\">Other</a>\" }}\n"
            ),
        )
        .unwrap(),
    }
}

/// Writes `data/photos/rosa-{0,1}.png` with other bytes and makes it Rosa's photo.
fn set_author_photo(t: &SiteTest, n: u8) {
    let name = format!("photos/rosa-{}.png", n % 2);
    let photo = t.site().join("data").join(&name);
    std::fs::create_dir_all(photo.parent().unwrap()).unwrap();
    std::fs::write(&photo, png(1 + u32::from(n))).unwrap();
    let authors = t.site().join("data/authors.toml");
    let text = std::fs::read_to_string(&authors).unwrap();
    let line = format!("photo = \"{name}\"");
    let text = match text.lines().find(|l| l.starts_with("photo =")) {
        Some(old) => text.replacen(old, &line, 1),
        None => text.replacen(
            "name = \"Rosa Villaseñor\"\n",
            &format!("name = \"Rosa Villaseñor\"\n{line}\n"),
            1,
        ),
    };
    std::fs::write(&authors, text).unwrap();
}

fn apply(t: &SiteTest, added: &mut Vec<String>, now: &mut &str, edit: &Edit) {
    let articles = t.site().join("articles");
    match *edit {
        Edit::Now(i) => *now = NOWS[i],
        Edit::Image(i, n) => {
            let name = format!("pic-{}.png", n % 2);
            std::fs::write(articles.join(&name), png(1 + u32::from(n))).unwrap();
            let path = articles.join(FIXED[i]);
            let mut text = std::fs::read_to_string(&path).unwrap();
            if n % 2 == 0 {
                if !text.contains("\nimage:") {
                    let cover = format!("\nimage: {name}\nimage_alt: A picture\nslug:");
                    text = text.replacen("\nslug:", &cover, 1);
                }
            } else if !text.contains(&format!("]({name})")) {
                text.push_str(&format!("\n![A picture]({name})\n"));
            }
            std::fs::write(&path, text).unwrap();
        }
        Edit::Draft(i) => {
            let path = match added.len() {
                0 => articles.join("untagged.md"),
                n => articles.join(format!("{}.md", added[i % n])),
            };
            let text = std::fs::read_to_string(&path).unwrap();
            let text = match text.strip_prefix("---\ndraft: true\n") {
                Some(rest) => format!("---\n{rest}"),
                None => format!("---\ndraft: true\n{}", &text[4..]),
            };
            std::fs::write(&path, text).unwrap();
        }
        Edit::Body(i, n) => {
            let path = articles.join(FIXED[i]);
            let text = std::fs::read_to_string(&path).unwrap();
            // Edits that reach other pages too: a new first paragraph (the description when
            // the article gives none), enough words to change the reading time, a link.
            let text = match n % 4 {
                0 => format!("{text}\nA new line, number {n}.\n"),
                1 => {
                    let (front, body) = split_article(&text);
                    format!("---\n{front}\n---\nA new opening, number {n}.\n\n{body}")
                }
                2 => format!("{text}\n{}\n", "many words ".repeat(250)),
                _ => format!("{text}\nSee [the authors](/authors) ({n}).\n"),
            };
            std::fs::write(&path, text).unwrap();
        }
        Edit::Title(i, n) => set_line(
            t,
            &format!("articles/{}", FIXED[i]),
            "title:",
            &format!("title: \"Retitled {n}\""),
        ),
        Edit::Add(n) => {
            let slug = format!("gen-{}-{n}", added.len());
            let (cat, sub) = if n % 2 == 0 {
                ("sleepEnhancement", "guidedMeditationForSleep")
            } else {
                ("anxietyManagement", "relaxationStrategies")
            };
            let author = if n % 3 == 0 { "author: \"Maya Lindqvist\"\n" } else { "" };
            std::fs::write(
                articles.join(format!("{slug}.md")),
                format!(
                    "---\ntitle: \"Generated {n}\"\nslug: {slug}\ndate: 2025-0{}-1{}\n{author}entities:\n  - category: {cat}\n    subcategories:\n      - subcategory: {sub}\n        subsubcategories: [\"tag {}\"]\n---\nBody of {slug}.\n",
                    1 + n % 9,
                    n % 10,
                    n % 4
                ),
            )
            .unwrap();
            added.push(slug);
        }
        Edit::Delete(i) if !added.is_empty() => {
            let slug = added.remove(i % added.len());
            std::fs::remove_file(articles.join(format!("{slug}.md"))).unwrap();
        }
        Edit::Rename(i, n) if !added.is_empty() => {
            let k = i % added.len();
            let new = format!("renamed-{k}-{n}");
            let file = format!("articles/{}.md", added[k]);
            set_line(t, &file, "slug:", &format!("slug: {new}"));
            std::fs::rename(t.site().join(&file), articles.join(format!("{new}.md"))).unwrap();
            added[k] = new;
        }
        Edit::Alias(i, n) if !added.is_empty() => {
            let slug = &added[i % added.len()];
            let path = articles.join(format!("{slug}.md"));
            let text = std::fs::read_to_string(&path).unwrap();
            let text = match text.lines().find(|l| l.starts_with("aliases:")) {
                Some(line) => text.replacen(&format!("{line}\n"), "", 1),
                None => text.replacen(
                    &format!("slug: {slug}\n"),
                    &format!("slug: {slug}\naliases: [/old/{slug}-{n}/]\n"),
                    1,
                ),
            };
            std::fs::write(&path, text).unwrap();
        }
        Edit::Delete(_) | Edit::Rename(..) | Edit::Alias(..) => {}
        Edit::Author(n) => set_line(
            t,
            "data/authors.toml",
            "description = \"Rosa",
            &format!("description = \"Rosa coaches sleep, take {n}.\""),
        ),
        Edit::Topics(n) => set_line(
            t,
            "data/topics.toml",
            "description = \"🌙",
            &format!("description = \"🌙 Rest, take {n}.\""),
        ),
        Edit::Config(n) => set_line(
            t,
            "stillpoint.toml",
            "description =",
            &format!("description = \"A site for tests, take {n}.\""),
        ),
        Edit::Static(n) => {
            std::fs::write(t.site().join(format!("static/extra-{}.txt", n % 3)), [n]).unwrap()
        }
        Edit::Description(i, n) => {
            let value = match n % 3 {
                0 => None,
                1 => Some(format!("\"Described, take {n}.\"")),
                _ => Some(format!("\"{}, take {n}.\"", "A longer description".repeat(5))),
            };
            set_field(&articles.join(FIXED[i]), "description", value.as_deref());
        }
        Edit::ImageAlt(i, n) => {
            let path = articles.join(FIXED[i]);
            ensure_cover(t, &path);
            let value = (n % 3 != 0).then(|| format!("\"Alt text, take {n}\""));
            set_field(&path, "image_alt", value.as_deref());
        }
        Edit::ImageFocus(i, n) => {
            let path = articles.join(FIXED[i]);
            ensure_cover(t, &path);
            let value = (n % 3 != 0).then(|| format!("\"{}% {}%\"", n % 101, 100 - n % 101));
            set_field(&path, "image_focus", value.as_deref());
        }
        Edit::StaticCover(i, n) => set_static_cover(t, &articles.join(FIXED[i]), n),
        Edit::Date(i, n) => set_date(&articles, added, i, n),
        Edit::Updated(i, n) => set_updated(&articles, i, n),
        Edit::Expires(i, n) => set_expires(&articles, added, i, n),
        Edit::Byline(i, n) => {
            set_field(&articles.join(FIXED[i]), "author", AUTHORS[usize::from(n) % AUTHORS.len()])
        }
        Edit::Entities(i, n) => {
            set_entities(&articles.join(FIXED[i]), PLACEMENTS[usize::from(n) % PLACEMENTS.len()])
        }
        Edit::Length(i, n) => {
            set_padding(&articles.join(FIXED[i]), PADDINGS[usize::from(n) % PADDINGS.len()])
        }
        Edit::Audio(i, n) => set_audio(&articles.join(FIXED[i]), n),
        Edit::Data(n) => edit_data(t, n),
        Edit::AuthorPhoto(n) => set_author_photo(t, n),
        Edit::Logo(n) => std::fs::write(
            t.site().join("static/icons/calm-logo-small.png"),
            crate::util::png(8 + u32::from(n), 8),
        )
        .unwrap(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn incremental_output_equals_a_clean_build(edits in proptest::collection::vec(edit(), 1..5)) {
        let t = SiteTest::from_fixture("minimal");
        let mut now = NOWS[NOWS.len() - 1];
        let out = t.run(&["build", "site", "--out", "dist", "--now", now]);
        prop_assert!(out.status.success(), "{}", stderr(&out));
        let mut added = Vec::new();
        for e in &edits {
            apply(&t, &mut added, &mut now, e);
            let out = t.run(&["build", "site", "--out", "dist", "--now", now, "--verify"]);
            prop_assert!(out.status.success(), "after {:?}:\n{}", e, stderr(&out));
        }
    }
}
