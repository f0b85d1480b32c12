//! What the import reads from a Hugo site's configuration: its title, base URL, default
//! language and `[permalinks]`. The first of `hugo.toml`, `config.toml`, `hugo.yaml`,
//! `config.yaml` (and `.yml`, `.json`) at the top, or in `config/_default/`, is read; a missing
//! configuration is no error (the defaults are Hugo's).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use serde_json::{Map, Value};

#[derive(Debug, Default, Clone)]
pub struct HugoConfig {
    pub title: Option<String>,
    pub base_url: Option<String>,
    pub description: Option<String>,
    /// `en` unless `defaultContentLanguage` says otherwise.
    pub default_language: String,
    /// Section → pattern, from `[permalinks]` (or `[permalinks.page]`).
    pub permalinks: BTreeMap<String, String>,
}

const NAMES: [&str; 8] = [
    "hugo.toml",
    "config.toml",
    "hugo.yaml",
    "config.yaml",
    "hugo.yml",
    "config.yml",
    "hugo.json",
    "config.json",
];

pub fn read(hugo: &Path) -> anyhow::Result<HugoConfig> {
    let found = [hugo.to_path_buf(), hugo.join("config/_default")]
        .iter()
        .flat_map(|d| NAMES.iter().map(move |n| d.join(n)))
        .find(|p| p.is_file());
    let Some(file) = found else {
        return Ok(HugoConfig { default_language: "en".into(), ..Default::default() });
    };
    let text =
        std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    let mut fields = parse(&file, &text)?;
    // With config/_default/, the permalinks may sit in a file of their own.
    let dir = file.parent().unwrap_or(hugo);
    let side = dir.join("permalinks.toml");
    if !fields.contains_key("permalinks") && side.is_file() {
        let text = std::fs::read_to_string(&side)?;
        fields.insert("permalinks".into(), Value::Object(parse(&side, &text)?));
    }
    let get = |k: &str| {
        fields
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(k))
            .and_then(|(_, v)| v.as_str())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let mut permalinks = BTreeMap::new();
    if let Some(Value::Object(p)) = fields.get("permalinks") {
        let page = p.get("page").and_then(Value::as_object).unwrap_or(p);
        for (section, pattern) in page {
            if let Some(s) = pattern.as_str() {
                permalinks.insert(section.clone(), s.to_string());
            }
        }
    }
    let default_language = get("defaultContentLanguage").unwrap_or_else(|| "en".into());
    // A multilingual site may name itself in `languages.{lang}.toml` only.
    let mut title = get("title");
    let lang_file = dir.join(format!("languages.{default_language}.toml"));
    if title.is_none() && lang_file.is_file() {
        let text = std::fs::read_to_string(&lang_file)?;
        title = parse(&lang_file, &text)?.get("title").and_then(Value::as_str).map(String::from);
    }
    let description = fields
        .get("params")
        .and_then(|p| p.get("description"))
        .and_then(Value::as_str)
        .map(String::from);
    Ok(HugoConfig { title, base_url: get("baseURL"), description, default_language, permalinks })
}

fn parse(file: &Path, text: &str) -> anyhow::Result<Map<String, Value>> {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    let value: Value = match ext {
        "toml" => {
            let head = format!("+++\n{text}\n+++\n");
            let parsed = super::front_matter::parse(&head)
                .map_err(|(line, msg)| anyhow::anyhow!("{}:{}: {msg}", file.display(), line - 1))?;
            Value::Object(parsed.fields)
        }
        "json" => serde_json::from_str(text)
            .with_context(|| format!("{}: invalid JSON", file.display()))?,
        _ => serde_saphyr::from_str(text).map_err(|e| {
            let line = e.location().map_or(1, |l| l.line());
            anyhow::anyhow!("{}:{line}: invalid YAML: {e}", file.display())
        })?,
    };
    match value {
        Value::Object(m) => Ok(m),
        _ => anyhow::bail!("{}: the configuration is not a table of settings", file.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_toml_and_yaml_and_the_default_dir() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        assert_eq!(read(d).unwrap().default_language, "en");
        std::fs::write(
            d.join("config.toml"),
            "baseURL = \"https://x.example/\"\ntitle = \"X\"\n[permalinks]\npost = \"/:year/:slug/\"\n",
        )
        .unwrap();
        let c = read(d).unwrap();
        assert_eq!(c.title.as_deref(), Some("X"));
        assert_eq!(c.base_url.as_deref(), Some("https://x.example/"));
        assert_eq!(c.permalinks["post"], "/:year/:slug/");

        std::fs::remove_file(d.join("config.toml")).unwrap();
        std::fs::create_dir_all(d.join("config/_default")).unwrap();
        std::fs::write(
            d.join("config/_default/hugo.yaml"),
            "title: Why\ndefaultContentLanguage: fr\npermalinks:\n  page:\n    blog: /b/:filename/\n",
        )
        .unwrap();
        let c = read(d).unwrap();
        assert_eq!((c.title.as_deref(), c.default_language.as_str()), (Some("Why"), "fr"));
        assert_eq!(c.permalinks["blog"], "/b/:filename/");

        std::fs::write(d.join("config/_default/hugo.yaml"), "title: [\n").unwrap();
        let err = read(d).unwrap_err().to_string();
        assert!(err.contains("hugo.yaml:"), "{err}");
    }
}
