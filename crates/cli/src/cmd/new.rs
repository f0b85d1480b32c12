//! `stillpoint new DIR [--title TITLE] [--id ID]`: a minimal, valid site to start from.
//! (`stillpoint new article …` writes a draft article into a site: `new_article.rs`.)
//!
//! The site checks and builds as written: its configuration, the 7×5 topic tree with
//! placeholder descriptions, one author, one article, the three information pages, a logo with
//! the favicon set made from it (`new/icons.rs`), a web app manifest and a `.gitignore` for the
//! build output. The text files are templates beside this module. What the owner must replace
//! is recognised by `check`, which warns about each one left (`placeholder`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use stillpoint_content::{is_slug, slugify, title_case};

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct NewArgs {
    #[command(subcommand)]
    pub what: Option<NewWhat>,
    /// The directory to create; it must not exist yet, or be empty. (A directory named
    /// `article`: write `./article`.)
    #[arg(required = true)]
    pub dir: Option<PathBuf>,
    /// The site's name, shown in every page title (default: from DIR's name).
    #[arg(long)]
    pub title: Option<String>,
    /// The site identifier: lowercase letters, digits and dashes; names the logo file and the
    /// deploy buckets (default: the slug of the title).
    #[arg(long)]
    pub id: Option<String>,
}

/// Path in the site, and its template.
const FILES: [(&str, &str); 8] = [
    ("stillpoint.toml", include_str!("new/stillpoint.toml")),
    ("data/topics.toml", include_str!("new/topics.toml")),
    ("data/authors.toml", include_str!("new/authors.toml")),
    ("articles/three-minute-breathing-space.md", include_str!("new/article.md")),
    ("pages/about-us.md", include_str!("new/about-us.md")),
    ("pages/privacy-policy.md", include_str!("new/privacy-policy.md")),
    ("pages/terms.md", include_str!("new/terms.md")),
    (".gitignore", include_str!("new/gitignore")),
];

mod icons;

/// The site's description as the starter writes it in stillpoint.toml.
const DESCRIPTION: &str = "Guided meditations and mindfulness articles.";

#[derive(Debug, Subcommand)]
pub enum NewWhat {
    /// Write a draft article into a site: `articles/{slug}.md`, filed under the given topic.
    Article(crate::cmd::new_article::NewArticleArgs),
}

pub fn run(args: &NewArgs) -> anyhow::Result<ExitCode> {
    let dir = match (&args.what, &args.dir) {
        (Some(NewWhat::Article(a)), _) => return crate::cmd::new_article::run(a),
        (None, Some(dir)) => dir,
        (None, None) => unreachable!("clap requires DIR without a subcommand"),
    };
    if dir.exists() && (!dir.is_dir() || dir.read_dir()?.next().is_some()) {
        bail!(
            "{} is not empty; `stillpoint new` only writes into a new or empty directory",
            dir.display()
        );
    }
    let title = args.title.clone().unwrap_or_else(|| default_title(dir));
    let id = args.id.clone().unwrap_or_else(|| match slugify(&title) {
        s if s.is_empty() => "site".to_string(),
        s => s,
    });
    if !is_slug(&id) {
        bail!("--id `{id}`: use lowercase letters, digits and single dashes, like `quiet-mind`");
    }
    if title.trim().is_empty() {
        bail!("--title: give the site a name");
    }
    write_site(dir, &title, &id, true)?;
    println!("{}", next_steps(&title, &dir.display().to_string()));
    Ok(ExitCode::SUCCESS)
}

/// What `new` prints: where the site is, and what to do next, `dev` first.
fn next_steps(title: &str, dir: &str) -> String {
    format!(
        "Created the site `{title}` in {dir}.\n\
         Next:\n  \
         stillpoint dev {dir}        # a live preview, rebuilt as you edit\n  \
         stillpoint check {dir}      # lists every placeholder left to replace\n  \
         stillpoint build {dir} --out dist\n\
         Replace the placeholders (the .example addresses, \"Your Name\", the topic descriptions,\n\
         the starter's texts) before you publish; `check` warns about each one left."
    )
}

/// Writes the site's files into `dir`; the sample article only with `sample_article`.
pub fn write_site(dir: &Path, title: &str, id: &str, sample_article: bool) -> anyhow::Result<()> {
    let today = jiff::Zoned::now().date().to_string();
    let vars = [
        ("{{id}}", quoted(id)),
        ("{{id_bare}}", id.to_string()),
        ("{{title}}", quoted(title)),
        ("{{title_md}}", title.to_string()),
        ("{{today}}", today),
    ];
    for (rel, template) in FILES {
        if !sample_article && rel.starts_with("articles/") {
            continue;
        }
        let text = vars.iter().fold(template.to_string(), |t, (k, v)| t.replace(k, v));
        write(dir, rel, text.as_bytes())?;
    }
    // The logo, and the icon set made from it: favicons, the Apple touch icon, the manifest's.
    let logo = icons::starter_logo();
    write(dir, &format!("static/icons/{id}-logo.svg"), logo.as_bytes())?;
    for (rel, bytes) in icons::icon_set(&logo, id, icons::ACCENT)? {
        write(dir, &format!("static/{rel}"), &bytes)?;
    }
    let manifest = icons::manifest(title, DESCRIPTION, icons::ACCENT);
    write(dir, "static/manifest.webmanifest", manifest.as_bytes())
}

/// `quiet-mind` → `Quiet Mind`.
pub fn default_title(dir: &Path) -> String {
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    match title_case(&name.replace(['-', '_'], " ")) {
        t if t.is_empty() => "My Meditation Site".to_string(),
        t => t,
    }
}

/// A TOML basic string (JSON's escapes are a subset of TOML's).
pub fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

fn write(dir: &Path, rel: &str, bytes: &[u8]) -> anyhow::Result<()> {
    let path = dir.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_and_ids() {
        assert_eq!(default_title(Path::new("/tmp/quiet-mind")), "Quiet Mind");
        assert_eq!(quoted("Say \"om\"\\"), r#""Say \"om\"\\""#);
    }

    #[test]
    fn the_description_is_the_one_in_the_template() {
        let config = FILES[0].1;
        assert!(config.contains(&format!("description = \"{DESCRIPTION}\"")), "{config}");
    }
}
