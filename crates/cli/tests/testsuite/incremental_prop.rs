//! The incremental build's invariant, as a property: after any sequence of edits, each followed
//! by a build with the cache, the output equals a clean build of the same input, byte for byte.
//! The input includes the build's instant (`--now`): moving it across an article's date, or
//! toggling an article's `draft`, changes what is published.

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
    Author(u8),
    Topics(u8),
    Config(u8),
    Static(u8),
    /// Moves the build's instant (`--now`) to `NOWS[i]`: across the dates of added articles.
    Now(usize),
    /// Toggles `draft: true` on the `i`th added article (on the fixed untagged one when none is).
    Draft(usize),
    /// Replaces the bytes of a picture (another width) and makes fixed article `0..3` show it:
    /// as its cover (on its cards too) or in its body.
    Image(usize, u8),
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
                    let (front, body) = text[4..].split_once("\n---\n").unwrap();
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
