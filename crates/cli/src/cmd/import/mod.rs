//! `stillpoint import hugo HUGO_SITE SITE`: a Hugo site's content as Stillpoint articles.
//!
//! SITE is created like `stillpoint new` does (with the Hugo site's title and address) when it
//! does not exist, or is an existing site the articles are added to, in `articles/hugo/`.
//! Tags and categories go through `import-hugo.toml`, written for the owner to complete; the
//! import then checks SITE and prints what converted cleanly, with notes, or not at all.

mod bundles;
mod convert;
mod front_matter;
mod hugo_config;
mod mapping;
mod pages;
mod report;
mod shortcodes;
mod urls;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use stillpoint_content::{is_slug, slugify, split_front_matter};

use self::front_matter::HugoFile;
use self::pages::{Found, Page};
use self::report::{FileReport, Report};

#[derive(Debug, Args)]
pub struct ImportArgs {
    #[command(subcommand)]
    pub from: ImportFrom,
}

#[derive(Debug, Subcommand)]
pub enum ImportFrom {
    /// Convert a Hugo site's content (front matter, page bundles, built-in shortcodes, old
    /// addresses as aliases) into a Stillpoint site, then check it.
    Hugo(HugoArgs),
}

#[derive(Debug, Args)]
pub struct HugoArgs {
    /// The Hugo site: the folder with `content/` and its configuration (hugo.toml, config.toml,
    /// config.yaml or config/_default/).
    pub hugo_site: PathBuf,
    /// The Stillpoint site: created when it does not exist (or is empty), else the articles are
    /// added to it, in articles/hugo/.
    pub site: PathBuf,
}

/// Where the imported articles are written, below the site.
const ARTICLES: &str = "articles/hugo";

pub fn run(args: &ImportArgs) -> anyhow::Result<ExitCode> {
    match &args.from {
        ImportFrom::Hugo(a) => hugo(&a.hugo_site, &a.site),
    }
}

/// A page read, with its slug chosen.
struct Prepared {
    page: Page,
    src: HugoFile,
    slug: String,
    notes: Vec<(usize, String)>,
}

fn hugo(hugo: &Path, site: &Path) -> anyhow::Result<ExitCode> {
    let content = hugo.join("content");
    if !content.is_dir() {
        bail!("{} has no content/ folder: is it a Hugo site?", hugo.display());
    }
    let config = hugo_config::read(hugo)?;
    let created = create_site_if_new(site, &config)?;

    let topics = mapping::TopicKeys::read(site)?;
    let map_path = site.join(mapping::FILE);
    let mut map = match mapping::read(&map_path, &topics)? {
        Some(m) => m,
        None => mapping::Mapping {
            // The first category's last child (`other`): filed there on purpose, no warning.
            fallback: topics
                .0
                .first()
                .map(|(cat, children)| match children.last() {
                    Some(other) => format!("{cat}/{other}"),
                    None => cat.clone(),
                })
                .unwrap_or_default(),
            ..Default::default()
        },
    };
    let mut taken = existing_slugs(site)?;

    let mut report = Report::default();
    let mut prepared = Vec::new();
    for found in pages::find(&content, &config.default_language)? {
        let page = match found {
            Found::Page(p) => p,
            Found::Skipped { rel, why } => {
                report.skipped.push((shown(&rel), 1, why));
                continue;
            }
        };
        let path = content.join(&page.rel);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                report.skipped.push((shown(&page.rel), 1, format!("cannot be read: {e}")));
                continue;
            }
        };
        let src = match front_matter::parse(&text) {
            Ok(s) => s,
            Err((line, why)) => {
                report.skipped.push((shown(&page.rel), line, why));
                continue;
            }
        };
        if let Some(why) = unrendered(&src.fields) {
            report.skipped.push((shown(&page.rel), 1, why.into()));
            continue;
        }
        let mut notes = Vec::new();
        let wanted = front_matter::string(&src.fields, "slug")
            .map(|s| slugify(&s))
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| match slugify(&page.name) {
                s if s.is_empty() => "page".to_string(),
                s => s,
            });
        let slug = unique(&wanted, &taken);
        if slug != wanted {
            notes.push((1, format!("the slug `{wanted}` is taken: `{slug}`")));
        }
        taken.insert(slug.clone());
        prepared.push(Prepared { page, src, slug, notes });
    }

    if created {
        let names: BTreeSet<String> = prepared
            .iter()
            .filter_map(|p| {
                front_matter::string(&p.src.fields, "author")
                    .or_else(|| front_matter::strings(&p.src.fields, "authors").into_iter().next())
            })
            .collect();
        write_authors(site, &names)?;
    }
    let authors = author_names(site)?;
    let refs = ref_index(&prepared);
    let resolve = |target: &str| resolve_ref(&refs, target);
    let mut terms = (BTreeSet::new(), BTreeSet::new());
    for p in &prepared {
        terms.0.extend(front_matter::strings(&p.src.fields, "categories"));
        terms.1.extend(front_matter::strings(&p.src.fields, "tags"));
    }
    map.add_terms(&terms.0, &terms.1);
    mapping::write(&map_path, &map)?;

    let ctx = convert::Site {
        permalinks: &config.permalinks,
        mapping: &map,
        authors: &authors,
        resolve: &resolve,
    };
    for p in prepared {
        let resources = match &p.page.bundle {
            Some(b) => bundles::resources(&content.join(b))?,
            None => Vec::new(),
        };
        let mut out = convert::convert(&p.page, &p.src, &p.slug, &resources, &ctx);
        if let Some(b) = &p.page.bundle {
            bundles::copy(&content.join(b), &resources, site, &p.slug)?;
        }
        let file = site.join(ARTICLES).join(format!("{}.md", p.slug));
        std::fs::create_dir_all(file.parent().expect("in a folder"))?;
        std::fs::write(&file, out.fields.to_yaml() + &out.body)
            .with_context(|| format!("writing {}", file.display()))?;
        let mut notes = p.notes;
        notes.append(&mut out.notes);
        report.files.push(FileReport {
            source: shown(&p.page.rel),
            notes,
            failed: out.failed,
            fallback: out.fallback,
            left_out: out.left_out,
        });
    }
    report.static_files = copy_static(&hugo.join("static"), &site.join("static"))?;
    report.undecided_terms = map.undecided();
    report.fallback = map.fallback.clone();

    let check = report::check(site);
    print!("{}", report.render(site, created, &check));
    Ok(ExitCode::SUCCESS)
}

/// Why Hugo renders no page for these fields, if it does not: `headless: true`, or
/// `build.render: never` (`_build`, and `false`, in older sites).
fn unrendered(fields: &serde_json::Map<String, serde_json::Value>) -> Option<&'static str> {
    use serde_json::Value;
    if fields.get("headless") == Some(&Value::Bool(true)) {
        return Some("a headless page: Hugo renders no page for it");
    }
    let render = ["build", "_build"].iter().find_map(|k| fields.get(*k)?.get("render"))?;
    match render {
        Value::Bool(false) => Some("`build.render` is off: Hugo renders no page for it"),
        Value::String(s) if s == "never" || s == "false" => {
            Some("`build.render` is off: Hugo renders no page for it")
        }
        _ => None,
    }
}

/// `content/post/x.md`, as the report shows a source file.
fn shown(rel: &Path) -> String {
    format!("content/{}", rel.to_string_lossy().replace('\\', "/"))
}

/// `wanted`, or `wanted-2`, `wanted-3`… when it is taken.
fn unique(wanted: &str, taken: &BTreeSet<String>) -> String {
    (1..)
        .map(|n| if n == 1 { wanted.to_string() } else { format!("{wanted}-{n}") })
        .find(|s| !taken.contains(s))
        .expect("an unused slug")
}

/// Writes a new site for the Hugo one when `site` does not exist or is empty; `Ok(false)`
/// when it is an existing Stillpoint site.
fn create_site_if_new(site: &Path, config: &hugo_config::HugoConfig) -> anyhow::Result<bool> {
    if site.join("stillpoint.toml").is_file() {
        return Ok(false);
    }
    if site.exists() && (!site.is_dir() || site.read_dir()?.next().is_some()) {
        bail!(
            "{} is neither an empty folder nor a Stillpoint site (no stillpoint.toml)",
            site.display()
        );
    }
    let title = config.title.clone().unwrap_or_else(|| super::new::default_title(site));
    let id = match slugify(&title) {
        s if s.is_empty() => "site".to_string(),
        s => s,
    };
    super::new::write_site(site, &title, &id, false)?;
    let toml_path = site.join("stillpoint.toml");
    let mut text = std::fs::read_to_string(&toml_path)?;
    let url = config.base_url.as_deref().map(|u| u.trim_end_matches('/'));
    if let Some(url) = url.filter(|u| u.starts_with("https://") || u.starts_with("http://")) {
        text = text.replace(
            &format!("url = \"https://{id}.example\""),
            &format!("url = {}", super::new::quoted(url)),
        );
    }
    if let Some(d) = &config.description {
        text = text.replace(
            "description = \"Guided meditations and mindfulness articles.\"",
            &format!("description = {}", super::new::quoted(d)),
        );
    }
    std::fs::write(&toml_path, text)?;
    Ok(true)
}

/// data/authors.toml for a new site: the Hugo pages' authors, with biographies to write (the
/// placeholder author of `stillpoint new` when there are none).
fn write_authors(site: &Path, names: &BTreeSet<String>) -> anyhow::Result<()> {
    if names.is_empty() {
        return Ok(());
    }
    let q = super::new::quoted;
    let mut text = String::from(
        "# The authors, from the Hugo site's pages. Write each one's biography and page titles.\n",
    );
    for name in names {
        text += &format!(
            "\n[[author]]\nname = {}\ndescription = {}\nmeta_title = {}\nmeta_description = {}\n",
            q(name),
            q(&format!("A few sentences about {name}.")),
            q(name),
            q(&format!("Articles by {name}.")),
        );
    }
    let path = site.join("data/authors.toml");
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}

/// The names in data/authors.toml.
fn author_names(site: &Path) -> anyhow::Result<BTreeSet<String>> {
    let path = site.join("data/authors.toml");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let table: toml::Table =
        toml::from_str(&text).with_context(|| format!("{} is not valid TOML", path.display()))?;
    Ok(table
        .get("author")
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|a| a.get("name")?.as_str().map(String::from))
        .collect())
}

/// The slugs of the site's articles outside articles/hugo/ (those the import does not own).
fn existing_slugs(site: &Path) -> anyhow::Result<BTreeSet<String>> {
    #[derive(serde::Deserialize)]
    struct Slug {
        slug: Option<String>,
    }
    let mut out = BTreeSet::new();
    let own = site.join(ARTICLES);
    for entry in
        walkdir::WalkDir::new(site.join("articles")).into_iter().filter_entry(|e| e.path() != own)
    {
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_file() || entry.path().extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        if let Ok(split) = split_front_matter(&text)
            && let Ok(Slug { slug: Some(s) }) = serde_saphyr::from_str::<Slug>(split.yaml)
        {
            out.insert(s);
        }
    }
    Ok(out)
}

/// `ref` targets → slugs: by content path (`post/x`, `docs/y` for a bundle) and by name.
fn ref_index(prepared: &[Prepared]) -> BTreeMap<String, String> {
    let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for p in prepared {
        let mut path: Vec<&str> = p.page.dirs.iter().map(String::as_str).collect();
        path.push(&p.page.name);
        out.insert(path.join("/"), p.slug.clone());
        by_name.entry(p.page.name.clone()).or_default().push(p.slug.clone());
    }
    for (name, slugs) in by_name {
        if let [one] = slugs.as_slice() {
            out.entry(name).or_insert_with(|| one.clone());
        }
    }
    out
}

/// `post/x.md#part` → `/articles/x#c-part`.
fn resolve_ref(refs: &BTreeMap<String, String>, target: &str) -> Option<String> {
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    if path.is_empty() {
        // A heading of the same page: the body's own links keep working as written.
        return Some(format!("#{anchor}")).filter(|_| !anchor.is_empty());
    }
    let anchor = if anchor.is_empty() { String::new() } else { format!("#c-{anchor}") };
    let mut p = path.trim_start_matches("./").trim_matches('/');
    for suffix in [".md", ".markdown", "/index", "/_index"] {
        p = p.strip_suffix(suffix).unwrap_or(p);
    }
    let last = p.rsplit('/').next().unwrap_or(p);
    let slug = refs.get(p).or_else(|| refs.get(last))?;
    debug_assert!(is_slug(slug));
    Some(format!("/articles/{slug}{anchor}"))
}

/// Copies the Hugo site's `static/` into the site's, keeping files already there; the count.
fn copy_static(from: &Path, to: &Path) -> anyhow::Result<usize> {
    let mut n = 0;
    if !from.is_dir() {
        return Ok(0);
    }
    for entry in walkdir::WalkDir::new(from).min_depth(1) {
        let entry = entry.with_context(|| format!("reading {}", from.display()))?;
        let rel = entry.path().strip_prefix(from).expect("below static");
        let hidden = rel.components().any(|c| c.as_os_str().to_string_lossy().starts_with('.'));
        let target = to.join(rel);
        if entry.file_type().is_file() && !hidden && !target.exists() {
            std::fs::create_dir_all(target.parent().expect("in a folder"))?;
            std::fs::copy(entry.path(), &target)
                .with_context(|| format!("copying {}", entry.path().display()))?;
            n += 1;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_and_refs() {
        let taken: BTreeSet<String> = ["a".to_string(), "a-2".to_string()].into();
        assert_eq!(unique("a", &taken), "a-3");
        assert_eq!(unique("b", &taken), "b");
        let mut refs = BTreeMap::new();
        refs.insert("post/first".to_string(), "first".to_string());
        refs.insert("first".to_string(), "first".to_string());
        refs.insert("docs/install".to_string(), "install".to_string());
        assert_eq!(resolve_ref(&refs, "post/first.md").as_deref(), Some("/articles/first"));
        assert_eq!(
            resolve_ref(&refs, "/docs/install/index.md#why").as_deref(),
            Some("/articles/install#c-why")
        );
        assert_eq!(resolve_ref(&refs, "../first").as_deref(), Some("/articles/first"));
        assert_eq!(resolve_ref(&refs, "#here").as_deref(), Some("#here"));
        assert_eq!(resolve_ref(&refs, "nope"), None);
    }

    #[test]
    fn pages_hugo_does_not_render() {
        let fields = |json: &str| serde_json::from_str::<serde_json::Map<_, _>>(json).unwrap();
        assert!(unrendered(&fields(r#"{"headless": true}"#)).unwrap().contains("headless"));
        assert!(unrendered(&fields(r#"{"_build": {"render": "never"}}"#)).is_some());
        assert!(unrendered(&fields(r#"{"build": {"render": false}}"#)).is_some());
        assert!(
            unrendered(&fields(r#"{"build": {"render": "always", "list": "never"}}"#)).is_none()
        );
        assert!(unrendered(&fields(r#"{"headless": false}"#)).is_none());
    }
}
