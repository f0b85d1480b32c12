//! `stillpoint new article "Title" --category KEY [--subcategory KEY] [--author NAME] [--dir SITE]`:
//! a draft article, filed under the site's own taxonomy, ready to write.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;
use stillpoint_content::{Authors, Topics, slugify};

#[derive(Debug, Args)]
pub struct NewArticleArgs {
    /// The article's title; its file and slug are made from it.
    pub title: String,
    /// The category `key` (data/topics.toml) to file it under.
    #[arg(long, value_name = "KEY")]
    pub category: String,
    /// A subcategory `key` of that category.
    #[arg(long, value_name = "KEY")]
    pub subcategory: Option<String>,
    /// An author's `name` (data/authors.toml).
    #[arg(long, value_name = "NAME")]
    pub author: Option<String>,
    /// The site directory.
    #[arg(long, value_name = "SITE", default_value = ".")]
    pub dir: PathBuf,
}

pub fn run(args: &NewArticleArgs) -> anyhow::Result<ExitCode> {
    let site = &args.dir;
    let read = |rel: &str| {
        let path = site.join(rel);
        std::fs::read_to_string(&path).with_context(|| {
            format!("{}: cannot read (is {} a site directory?)", path.display(), site.display())
        })
    };
    let first_error = |errs: Vec<stillpoint_content::ContentError>| {
        anyhow::anyhow!("{}", errs.first().map(ToString::to_string).unwrap_or_default())
    };
    let topics = Topics::parse(Path::new("data/topics.toml"), &read("data/topics.toml")?)
        .map_err(first_error)?;
    let category = topics.category(&args.category).ok_or_else(|| {
        let keys: Vec<&str> = topics.categories.iter().map(|c| c.topic.key.as_str()).collect();
        unknown("category", &args.category, &keys)
    })?;
    if let Some(sub) = &args.subcategory
        && category.child(sub).is_none()
    {
        let keys: Vec<&str> = category.children.iter().map(|c| c.key.as_str()).collect();
        return Err(unknown(&format!("subcategory of `{}`", args.category), sub, &keys));
    }
    if let Some(name) = &args.author {
        let authors = Authors::parse(Path::new("data/authors.toml"), &read("data/authors.toml")?)
            .map_err(first_error)?;
        if authors.by_name(name).is_none() {
            let names: Vec<&str> = authors.names().collect();
            return Err(unknown("author", name, &names));
        }
    }
    let slug = slugify(&args.title);
    if slug.is_empty() {
        bail!("the title `{}` has no letters or digits to make a slug from", args.title);
    }
    let rel = PathBuf::from("articles").join(format!("{slug}.md"));
    let path = site.join(&rel);
    if path.exists() {
        bail!(
            "{} exists already; nothing was written (choose another title, or edit it)",
            path.display()
        );
    }
    let text = article_text(args, &slug, &jiff::Zoned::now().date().to_string());
    std::fs::create_dir_all(site.join("articles"))?;
    // `create_new`: a file made meanwhile is not overwritten either.
    let mut file = std::fs::File::options()
        .write(true)
        .create_new(true)
        .open(&path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    std::io::Write::write_all(&mut file, text.as_bytes())?;
    println!(
        "Created {} (a draft: `draft: true` keeps it off the published site).\nPreview it: stillpoint dev {}",
        path.display(),
        site.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn article_text(args: &NewArticleArgs, slug: &str, today: &str) -> String {
    let q = |s: &str| serde_json::to_string(s).expect("a string serialises");
    let mut t =
        format!("---\ntitle: {}\nslug: {slug}\ndate: {today}\ndraft: true\n", q(&args.title));
    if let Some(author) = &args.author {
        t += &format!("author: {}\n", q(author));
    }
    t += &format!("entities:\n  - category: {}\n", args.category);
    if let Some(sub) = &args.subcategory {
        t += &format!("    subcategories:\n      - subcategory: {sub}\n");
    }
    t += "---\nWrite the article here, in Markdown. Its first paragraph is its description unless the\nfront matter gives a `description`.\n\nDelete the `draft: true` line to publish it with the next build.\n";
    t
}

/// "unknown category `x`; did you mean `y`?" or the list of valid keys.
fn unknown(what: &str, value: &str, known: &[&str]) -> anyhow::Error {
    let near = known
        .iter()
        .map(|k| (distance(&value.to_lowercase(), &k.to_lowercase()), *k))
        .min()
        .filter(|(d, k)| *d <= 2.max(k.len() / 4));
    match near {
        Some((_, k)) => anyhow::anyhow!("unknown {what} `{value}`; did you mean `{k}`?"),
        None => anyhow::anyhow!("unknown {what} `{value}`; one of: {}", known.join(", ")),
    }
}

/// Levenshtein distance, by characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_are_suggested() {
        assert_eq!(distance("kitten", "sitting"), 3);
        let e = unknown("category", "sleepEnhancment", &["sleepEnhancement", "anxietyManagement"]);
        assert_eq!(
            e.to_string(),
            "unknown category `sleepEnhancment`; did you mean `sleepEnhancement`?"
        );
        let e = unknown("category", "zzz", &["a", "b"]);
        assert_eq!(e.to_string(), "unknown category `zzz`; one of: a, b");
    }
}
