//! `import-hugo.toml`: where each Hugo tag and category goes in the topic tree. The import
//! writes every term it sees with an empty target for the owner to fill in, keeps the targets
//! already written, and applies them when run again.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, bail};
use serde::Deserialize;
use toml::Spanned;

use super::front_matter::EntityOut;

pub const FILE: &str = "import-hugo.toml";

/// A term's target: `category`, `category/subcategory` or `category/subcategory/label`; `-`
/// leaves the term out; empty is "not decided yet".
#[derive(Debug, Default, Clone)]
pub struct Mapping {
    pub fallback: String,
    pub categories: BTreeMap<String, String>,
    pub tags: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    fallback: Option<Spanned<String>>,
    #[serde(default)]
    categories: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    tags: BTreeMap<String, Spanned<String>>,
}

/// The category and subcategory keys of data/topics.toml, in file order.
#[derive(Debug, Default)]
pub struct TopicKeys(pub Vec<(String, Vec<String>)>);

impl TopicKeys {
    pub fn read(site: &Path) -> anyhow::Result<Self> {
        let path = site.join("data/topics.toml");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let value: toml::Table = toml::from_str(&text)
            .with_context(|| format!("{} is not valid TOML", path.display()))?;
        Ok(Self(
            entries(value.get("category"))
                .into_iter()
                .map(|(k, children)| (k, entries(children).into_iter().map(|c| c.0).collect()))
                .collect(),
        ))
    }

    /// Why `target` names no topic, if it does not.
    fn problem(&self, target: &str) -> Option<String> {
        let mut parts = target.splitn(3, '/');
        let cat = parts.next().unwrap_or("");
        let Some((_, children)) = self.0.iter().find(|(k, _)| k == cat) else {
            return Some(format!("`{cat}` is not a category key of data/topics.toml"));
        };
        match parts.next() {
            Some(sub) if !children.iter().any(|c| c == sub) => {
                Some(format!("`{sub}` is not a subcategory key of `{cat}` in data/topics.toml"))
            }
            _ => None,
        }
    }
}

/// The `key`s of an array of tables, each with its `children`.
fn entries(v: Option<&toml::Value>) -> Vec<(String, Option<&toml::Value>)> {
    v.and_then(toml::Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|c| Some((c.get("key")?.as_str()?.to_string(), c.get("children"))))
                .collect()
        })
        .unwrap_or_default()
}

/// Reads the mapping, checking every target against the topic tree; errors name the line.
pub fn read(path: &Path, topics: &TopicKeys) -> anyhow::Result<Option<Mapping>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let line =
        |span: std::ops::Range<usize>| text[..span.start.min(text.len())].matches('\n').count() + 1;
    let raw: Raw = toml::from_str(&text).map_err(|e| {
        anyhow::anyhow!("{}:{}: {}", path.display(), e.span().map_or(1, line), e.message())
    })?;
    let mut problems = Vec::new();
    let mut check = |v: &Spanned<String>| {
        let t = v.get_ref().trim();
        if let Some(p) = (!t.is_empty() && t != "-").then(|| topics.problem(t)).flatten() {
            problems.push(format!("{}:{}: {p}", path.display(), line(v.span())));
        }
        t.to_string()
    };
    let fallback = raw.fallback.as_ref().map(&mut check).unwrap_or_default();
    let categories = raw.categories.iter().map(|(k, v)| (k.clone(), check(v))).collect();
    let tags = raw.tags.iter().map(|(k, v)| (k.clone(), check(v))).collect();
    if !problems.is_empty() {
        bail!("{}", problems.join("\n"));
    }
    Ok(Some(Mapping { fallback, categories, tags }))
}

/// Writes the mapping with every term seen (new ones with an empty target).
pub fn write(path: &Path, m: &Mapping) -> anyhow::Result<()> {
    let q = |s: &str| serde_json::to_string(s).expect("a string serialises");
    let mut out = String::from(
        "# Where the Hugo site's categories and tags go in data/topics.toml, written by\n\
         # `stillpoint import hugo`. Give each term a target and run the import again:\n\
         #   \"category\"                     a category key\n\
         #   \"category/subcategory\"         one of its children's keys\n\
         #   \"category/subcategory/label\"   and a sub-subcategory label\n\
         #   \"-\"                            leave the term out\n\
         # An article none of whose terms has a target is filed under `fallback`.\n\
         # The import rewrites this file (keeping the targets): keep notes elsewhere.\n\n",
    );
    out += &format!("fallback = {}\n", q(&m.fallback));
    for (table, terms) in [("categories", &m.categories), ("tags", &m.tags)] {
        out += &format!("\n[{table}]\n");
        for (term, target) in terms {
            out += &format!("{} = {}\n", q(term), q(target));
        }
    }
    std::fs::write(path, out).with_context(|| format!("writing {}", path.display()))
}

impl Mapping {
    /// Adds the terms not yet listed, with an empty target.
    pub fn add_terms(&mut self, categories: &BTreeSet<String>, tags: &BTreeSet<String>) {
        for c in categories {
            self.categories.entry(c.clone()).or_default();
        }
        for t in tags {
            self.tags.entry(t.clone()).or_default();
        }
    }

    /// Terms with no target yet.
    pub fn undecided(&self) -> usize {
        self.categories.values().chain(self.tags.values()).filter(|t| t.is_empty()).count()
    }

    /// The entities of an article with these terms, and whether the fallback was used.
    pub fn entities(&self, categories: &[String], tags: &[String]) -> (Vec<EntityOut>, bool) {
        let targets = categories
            .iter()
            .filter_map(|c| self.categories.get(c))
            .chain(tags.iter().filter_map(|t| self.tags.get(t)))
            .filter(|t| !t.is_empty() && *t != "-");
        let mut out: Vec<EntityOut> = Vec::new();
        for target in targets {
            add(&mut out, target);
        }
        if out.is_empty() && !self.fallback.is_empty() {
            add(&mut out, &self.fallback);
            return (out, true);
        }
        (out, false)
    }
}

fn add(out: &mut Vec<EntityOut>, target: &str) {
    let mut parts = target.splitn(3, '/');
    let cat = parts.next().unwrap_or("").to_string();
    let i = match out.iter().position(|e| e.category == cat) {
        Some(i) => i,
        None => {
            out.push(EntityOut { category: cat, subcategories: Vec::new() });
            out.len() - 1
        }
    };
    let Some(sub) = parts.next() else { return };
    let subs = &mut out[i].subcategories;
    let j = match subs.iter().position(|(s, _)| s == sub) {
        Some(j) => j,
        None => {
            subs.push((sub.to_string(), Vec::new()));
            subs.len() - 1
        }
    };
    if let Some(label) = parts.next().filter(|l| !subs[j].1.iter().any(|x| x == l)) {
        subs[j].1.push(label.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topics() -> TopicKeys {
        TopicKeys(vec![
            ("calm".into(), vec!["breath".into(), "other".into()]),
            ("sleep".into(), vec!["other".into()]),
        ])
    }

    #[test]
    fn round_trip_and_apply() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(FILE);
        assert!(read(&path, &topics()).unwrap().is_none());
        let mut m = Mapping { fallback: "sleep".into(), ..Default::default() };
        m.add_terms(&["Dev".to_string()].into(), &["go".to_string(), "a \"q\"".to_string()].into());
        assert_eq!(m.undecided(), 3);
        write(&path, &m).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let text = text
            .replace("\"Dev\" = \"\"", "\"Dev\" = \"calm/breath/box breathing\"")
            .replace("\"go\" = \"\"", "\"go\" = \"calm\"");
        std::fs::write(&path, text).unwrap();
        let m = read(&path, &topics()).unwrap().unwrap();
        assert_eq!(m.undecided(), 1);
        let (e, fallback) = m.entities(&["Dev".into()], &["go".into(), "a \"q\"".into()]);
        assert!(!fallback);
        assert_eq!(
            e,
            [EntityOut {
                category: "calm".into(),
                subcategories: vec![("breath".into(), vec!["box breathing".into()])]
            }]
        );
        let (e, fallback) = m.entities(&[], &["unknown".into()]);
        assert!(fallback);
        assert_eq!(e[0].category, "sleep");
    }

    #[test]
    fn unknown_targets_are_errors_at_their_line() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(FILE);
        std::fs::write(
            &path,
            "fallback = \"calm\"\n[tags]\ngo = \"calm/nope\"\nrust = \"nada\"\nok = \"-\"\n",
        )
        .unwrap();
        let err = read(&path, &topics()).unwrap_err().to_string();
        assert!(
            err.contains("import-hugo.toml:3: `nope` is not a subcategory key of `calm`"),
            "{err}"
        );
        assert!(err.contains("import-hugo.toml:4: `nada` is not a category key"), "{err}");
        std::fs::write(&path, "fallback = \"calm\"\n[tags]\ngo = 3\n").unwrap();
        let err = read(&path, &topics()).unwrap_err().to_string();
        assert!(err.contains("import-hugo.toml:3:"), "{err}");
    }
}
