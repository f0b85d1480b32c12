//! The import's summary: files converted cleanly, with notes, or not at all (each with its
//! file and line), the state of the topic mapping, and what `stillpoint check` says of the site.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use stillpoint_content::{
    Diagnostics, ParsedArticles, build_catalog, content_warnings, load_site_partial_with,
};
use stillpoint_site::BuildError;

use super::mapping;

/// One converted page.
#[derive(Debug, Default)]
pub struct FileReport {
    /// `content/post/x.md`.
    pub source: String,
    pub notes: Vec<(usize, String)>,
    /// Parts left as written.
    pub failed: Vec<(usize, String)>,
    pub fallback: bool,
    pub left_out: Vec<String>,
}

impl FileReport {
    pub fn clean(&self) -> bool {
        self.notes.is_empty() && self.failed.is_empty()
    }
}

#[derive(Debug, Default)]
pub struct Report {
    pub files: Vec<FileReport>,
    /// Files not converted: source, line, why.
    pub skipped: Vec<(String, usize, String)>,
    pub static_files: usize,
    pub undecided_terms: usize,
    pub fallback: String,
}

/// What `stillpoint check` finds: errors (or why it could not run) and the warning count.
#[derive(Debug)]
pub struct Check {
    pub errors: Result<Diagnostics, String>,
    pub warnings: usize,
}

pub fn check(site: &Path) -> Check {
    let publish = stillpoint_content::Publish::at_clock();
    let mut parsed = ParsedArticles::default();
    let errors =
        match stillpoint_site::check(site, stillpoint_content::PRODUCTION, &mut parsed, &publish) {
            Ok(_) => Ok(Diagnostics::default()),
            Err(BuildError::Content(d)) => Ok(d),
            Err(e) => Err(e.to_string()),
        };
    let warnings = match load_site_partial_with(site, &mut parsed, &publish) {
        (Some(s), _) => content_warnings(&s, &build_catalog(&s)).len(),
        (None, _) => 0,
    };
    Check { errors, warnings }
}

/// How [`pages`](super::pages) says a file is a translation.
const TRANSLATION: &str = "a translation";

/// At most this many check errors are listed.
const SHOWN_ERRORS: usize = 20;

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl Report {
    pub fn clean(&self) -> usize {
        self.files.iter().filter(|f| f.clean()).count()
    }

    pub fn render(&self, site: &Path, created: bool, check: &Check) -> String {
        let mut o = String::new();
        let d = site.display();
        if created {
            let _ = writeln!(o, "Created the site in {d}.");
        }
        let _ = writeln!(
            o,
            "Imported {} into {d}/{}/: {} converted cleanly, {} with notes, {} not converted.",
            plural(self.files.len(), "page", "pages"),
            super::ARTICLES,
            self.clean(),
            self.files.len() - self.clean(),
            self.skipped.len(),
        );
        if self.static_files > 0 {
            let _ = writeln!(
                o,
                "Copied {} of the Hugo site's static/.",
                plural(self.static_files, "file", "files")
            );
        }
        let notes: Vec<String> = self
            .files
            .iter()
            .flat_map(|f| f.notes.iter().map(move |(l, n)| format!("  {}:{l}: {n}", f.source)))
            .collect();
        if !notes.is_empty() {
            let _ = writeln!(o, "\nNotes:\n{}", notes.join("\n"));
        }
        let failed: Vec<String> = self
            .files
            .iter()
            .flat_map(|f| {
                f.failed
                    .iter()
                    .map(move |(l, n)| format!("  {}:{l}: {n} (left as written)", f.source))
            })
            .chain(
                self.skipped
                    .iter()
                    .filter(|s| !s.2.starts_with(TRANSLATION))
                    .map(|(s, l, why)| format!("  {s}:{l}: not imported: {why}")),
            )
            .collect();
        if !failed.is_empty() {
            let _ = writeln!(o, "\nCould not convert:\n{}", failed.join("\n"));
        }
        let translations: Vec<&str> = self
            .skipped
            .iter()
            .filter(|s| s.2.starts_with(TRANSLATION))
            .map(|s| s.0.as_str())
            .collect();
        if let [first, ..] = translations.as_slice() {
            let _ = writeln!(
                o,
                "\n{} not imported ({first}, …): a Stillpoint site has one language.",
                plural(translations.len(), "translation", "translations")
            );
        }
        let mut left_out: BTreeMap<&str, usize> = BTreeMap::new();
        for f in &self.files {
            for field in &f.left_out {
                *left_out.entry(field).or_default() += 1;
            }
        }
        if !left_out.is_empty() {
            let list: Vec<String> = left_out
                .iter()
                .map(|(k, n)| format!("{k} ({})", plural(*n, "page", "pages")))
                .collect();
            let _ = writeln!(o, "\nFront matter left out: {}.", list.join(", "));
        }
        let fallback = self.files.iter().filter(|f| f.fallback).count();
        let _ = write!(o, "\nTopics: {}/{}: ", d, mapping::FILE);
        if self.undecided_terms == 0 {
            let _ = write!(o, "every tag and category has a target");
        } else {
            let _ = write!(o, "{} without a target", plural(self.undecided_terms, "term", "terms"));
        }
        if fallback > 0 {
            let _ = write!(
                o,
                "; {} filed under the fallback `{}`",
                plural(fallback, "article", "articles"),
                self.fallback
            );
        }
        let _ = writeln!(
            o,
            ".{}",
            if self.undecided_terms > 0 { " Fill it in and run the import again." } else { "" }
        );
        match &check.errors {
            Err(why) => {
                let _ = writeln!(o, "\nCheck: could not run: {why}");
            }
            Ok(errors) if errors.is_empty() => {
                let _ = writeln!(
                    o,
                    "\nCheck: no errors, {}.",
                    plural(check.warnings, "warning", "warnings")
                );
            }
            Ok(errors) => {
                let _ = writeln!(o, "\nCheck: {}:", plural(errors.len(), "error", "errors"));
                for e in errors.iter().take(SHOWN_ERRORS) {
                    let _ = writeln!(o, "  {}", e.clone().relative_to(site));
                }
                if errors.len() > SHOWN_ERRORS {
                    let _ = writeln!(
                        o,
                        "  … and {} more: stillpoint check {d}",
                        errors.len() - SHOWN_ERRORS
                    );
                }
            }
        }
        o
    }
}
