//! Which files under a Hugo site's `content/` are pages: every Markdown file, except section
//! pages (`_index.md`), translations (`index.fr.md` when the default language is `en`) and the
//! Markdown resources of a leaf bundle (files in a folder below an `index.md`).

use std::path::{Path, PathBuf};

use anyhow::Context;

/// A Markdown file of the content folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// A page: a single file, or the `index.md` of a leaf bundle.
    Page(Page),
    /// A file the import leaves out, and why.
    Skipped { rel: PathBuf, why: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// Relative to `content/`.
    pub rel: PathBuf,
    /// The bundle folder, for `index.md`.
    pub bundle: Option<PathBuf>,
    /// Folders above the page (the bundle folder excluded): `["post"]`.
    pub dirs: Vec<String>,
    /// The file name without extension and language, or the bundle folder's name.
    pub name: String,
}

fn is_markdown(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "md" || e == "markdown")
}

/// `index.ja` → (`index`, Some(`ja`)); a suffix counts as a language when it looks like one.
fn language(stem: &str) -> (&str, Option<&str>) {
    match stem.rsplit_once('.') {
        Some((base, lang))
            if (2..=7).contains(&lang.len())
                && lang.starts_with(|c: char| c.is_ascii_lowercase())
                && lang.chars().all(|c| c.is_ascii_alphabetic() || c == '-') =>
        {
            (base, Some(lang))
        }
        _ => (stem, None),
    }
}

/// Every Markdown file under `content`, in path order.
pub fn find(content: &Path, default_language: &str) -> anyhow::Result<Vec<Found>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(content).sort_by_file_name() {
        let entry = entry.with_context(|| format!("reading {}", content.display()))?;
        if entry.file_type().is_file() && is_markdown(entry.path()) {
            files.push(entry.path().strip_prefix(content).expect("below content").to_path_buf());
        }
    }
    let leaf = |dir: &Path| {
        std::fs::read_dir(content.join(dir)).into_iter().flatten().flatten().any(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            let stem = n.rsplit_once('.').map_or(n.as_str(), |s| s.0);
            is_markdown(&e.path()) && language(stem).0 == "index"
        })
    };
    let mut out = Vec::new();
    for rel in files {
        let stem = rel.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let (base, lang) = language(&stem);
        let parent = rel.parent().unwrap_or(Path::new("")).to_path_buf();
        let skip = |why: String| Found::Skipped { rel: rel.clone(), why };
        if let Some(lang) = lang.filter(|l| *l != default_language) {
            out.push(skip(format!("a translation ({lang}): a Stillpoint site has one language")));
            continue;
        }
        if base == "_index" {
            out.push(skip(
                "a section page (_index): Stillpoint's listings come from data/topics.toml".into(),
            ));
            continue;
        }
        // A Markdown file in or below a leaf bundle's folder is one of its resources.
        let in_bundle =
            |from: &Path| from.ancestors().filter(|a| !a.as_os_str().is_empty()).any(leaf);
        if base == "index" && !parent.as_os_str().is_empty() {
            if parent.parent().is_some_and(in_bundle) {
                continue;
            }
            let mut dirs: Vec<String> = components(&parent);
            let name = dirs.pop().unwrap_or_default();
            out.push(Found::Page(Page { rel: rel.clone(), bundle: Some(parent), dirs, name }));
            continue;
        }
        if in_bundle(&parent) {
            continue;
        }
        out.push(Found::Page(Page {
            rel: rel.clone(),
            bundle: None,
            dirs: components(&parent),
            name: base.to_string(),
        }));
    }
    Ok(out)
}

fn components(p: &Path) -> Vec<String> {
    p.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_bundles_sections_and_translations() {
        let tmp = tempfile::tempdir().unwrap();
        let c = tmp.path();
        for f in [
            "_index.md",
            "about.md",
            "post/_index.md",
            "post/first.md",
            "post/v1.2-notes.md",
            "docs/install/index.md",
            "docs/install/index.ja.md",
            "docs/install/extra.md",
            "docs/install/sub/deep.md",
            "docs/install/a.jpg",
        ] {
            std::fs::create_dir_all(c.join(f).parent().unwrap()).unwrap();
            std::fs::write(c.join(f), "").unwrap();
        }
        let found = find(c, "en").unwrap();
        let pages: Vec<(String, Vec<String>, String)> = found
            .iter()
            .filter_map(|f| match f {
                Found::Page(p) => {
                    Some((p.rel.display().to_string(), p.dirs.clone(), p.name.clone()))
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            pages,
            [
                ("about.md".into(), vec![], "about".into()),
                ("docs/install/index.md".into(), vec!["docs".into()], "install".into()),
                ("post/first.md".into(), vec!["post".into()], "first".into()),
                ("post/v1.2-notes.md".into(), vec!["post".into()], "v1.2-notes".into()),
            ]
        );
        let skipped: Vec<String> = found
            .iter()
            .filter_map(|f| match f {
                Found::Skipped { rel, why } => Some(format!("{} {why}", rel.display())),
                _ => None,
            })
            .collect();
        assert_eq!(skipped.len(), 3, "{skipped:?}");
        assert!(skipped[1].starts_with("docs/install/index.ja.md a translation (ja)"));
    }
}
