//! Page bundles: `content/post/x/index.md` and the files beside it. The files are copied to
//! `static/images/{slug}/`, and relative references to them in the body (Markdown links and
//! images, HTML `src`/`href`) are rewritten to their new address.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Context;

/// The files of a bundle (not its Markdown), relative to the bundle folder, `/`-separated.
pub fn resources(bundle: &Path) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(bundle).min_depth(1).sort_by_file_name() {
        let entry = entry.with_context(|| format!("reading {}", bundle.display()))?;
        let is_md = entry.path().extension().is_some_and(|e| e == "md" || e == "markdown");
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if entry.file_type().is_file() && !is_md && !hidden {
            let rel = entry.path().strip_prefix(bundle).expect("below the bundle");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(out)
}

/// Copies `resources` of `bundle` to `site/static/images/{slug}/`.
pub fn copy(bundle: &Path, resources: &[String], site: &Path, slug: &str) -> anyhow::Result<()> {
    for rel in resources {
        let to = site.join("static/images").join(slug).join(rel);
        std::fs::create_dir_all(to.parent().expect("a file in a folder"))?;
        std::fs::copy(bundle.join(rel), &to).with_context(|| {
            format!("copying {} to {}", bundle.join(rel).display(), to.display())
        })?;
    }
    Ok(())
}

/// The site address of a bundle file: `/images/{slug}/{rel}`.
pub fn address(slug: &str, rel: &str) -> String {
    format!("/images/{slug}/{rel}")
}

/// The resource a relative reference names (`x.jpg`, `./x.jpg`), if any.
pub fn resource<'a>(reference: &str, resources: &'a BTreeSet<String>) -> Option<&'a String> {
    let r = reference.trim().trim_start_matches("./");
    resources.get(r)
}

/// The body with every relative reference to a resource replaced by its address.
pub fn rewrite(body: &str, resources: &BTreeSet<String>, slug: &str) -> String {
    if resources.is_empty() {
        return body.to_string();
    }
    let mut out = String::with_capacity(body.len());
    let mut pos = 0;
    while let Some((at, len)) = next_target(body, pos) {
        out += &body[pos..at];
        let target = &body[at..at + len];
        match resource(target, resources) {
            Some(rel) => out += &address(slug, rel),
            None => out += target,
        }
        pos = at + len;
    }
    out + &body[pos..]
}

/// The next link target after `from`: after `](`, or inside `src="…"`/`href="…"`.
fn next_target(body: &str, from: usize) -> Option<(usize, usize)> {
    let rest = &body[from..];
    let candidates = [
        ("](", None),
        ("src=\"", Some('"')),
        ("href=\"", Some('"')),
        ("src='", Some('\'')),
        ("href='", Some('\'')),
    ];
    let (i, open, close) = candidates
        .iter()
        .filter_map(|(open, close)| rest.find(open).map(|i| (i, *open, *close)))
        .min_by_key(|c| c.0)?;
    let start = from + i + open.len();
    let tail = &body[start..];
    let len = match close {
        Some(c) => tail.find(c).unwrap_or(0),
        None => tail.find(|c: char| c == ')' || c.is_whitespace()).unwrap_or(0),
    };
    Some((start, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_relative_references_only() {
        let res: BTreeSet<String> = ["a.jpg".to_string(), "img/b c.png".to_string()].into();
        let body = "![A](a.jpg) ![A](./a.jpg \"t\") [x](https://e.example/a.jpg) ![o](other.jpg)\n<img src=\"a.jpg\"> <a href='img/b c.png'>b</a> [](a.jpg)";
        assert_eq!(
            rewrite(body, &res, "s"),
            "![A](/images/s/a.jpg) ![A](/images/s/a.jpg \"t\") [x](https://e.example/a.jpg) ![o](other.jpg)\n<img src=\"/images/s/a.jpg\"> <a href='/images/s/img/b c.png'>b</a> [](/images/s/a.jpg)"
        );
    }

    #[test]
    fn lists_and_copies_resources() {
        let tmp = tempfile::tempdir().unwrap();
        let b = tmp.path().join("bundle");
        std::fs::create_dir_all(b.join("img")).unwrap();
        for f in ["index.md", "index.ja.md", "a.jpg", "img/b.svg", ".DS_Store"] {
            std::fs::write(b.join(f), f).unwrap();
        }
        let r = resources(&b).unwrap();
        assert_eq!(r, ["a.jpg", "img/b.svg"]);
        let site = tmp.path().join("site");
        copy(&b, &r, &site, "slug").unwrap();
        assert_eq!(
            std::fs::read_to_string(site.join("static/images/slug/img/b.svg")).unwrap(),
            "img/b.svg"
        );
    }
}
