//! Reading a Hugo content file's front matter (TOML `+++`, YAML `---` or JSON `{…}`) into JSON
//! values, and writing a Stillpoint article's YAML front matter.

use serde_json::{Map, Value};

/// A content file split into its front matter and body.
#[derive(Debug)]
pub struct HugoFile {
    pub fields: Map<String, Value>,
    pub body: String,
    /// 1-based line of the body's first line in the file.
    pub body_line: usize,
}

/// Splits and parses `text`. The error is a message and the 1-based line it is about.
pub fn parse(text: &str) -> Result<HugoFile, (usize, String)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text.lines().next().unwrap_or("").trim_end();
    let fence = match first {
        "+++" => "+++",
        "---" => "---",
        _ if first.starts_with('{') => return parse_json(text),
        _ => return Ok(HugoFile { fields: Map::new(), body: text.to_string(), body_line: 1 }),
    };
    let start = text.find('\n').map_or(text.len(), |i| i + 1);
    let mut pos = start;
    let mut line = 2;
    while pos < text.len() {
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
        if text[pos..end].trim_end() == fence {
            let head = &text[start..pos];
            let fields = if fence == "+++" { toml_fields(head) } else { yaml_fields(head) }
                .map_err(|(l, m)| (l + 1, m))?;
            return Ok(HugoFile { fields, body: text[end..].to_string(), body_line: line + 1 });
        }
        pos = end;
        line += 1;
    }
    Err((1, format!("no closing `{fence}` line for the front matter")))
}

/// `{ … }` JSON front matter, ended by the closing brace of the object.
fn parse_json(text: &str) -> Result<HugoFile, (usize, String)> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    match stream.next() {
        Some(Ok(Value::Object(fields))) => {
            let end = stream.byte_offset();
            let rest = &text[end..];
            let rest =
                rest.strip_prefix("\r\n").or_else(|| rest.strip_prefix('\n')).unwrap_or(rest);
            let body_line = text[..text.len() - rest.len()].matches('\n').count() + 1;
            Ok(HugoFile { fields, body: rest.to_string(), body_line })
        }
        Some(Err(e)) => Err((e.line(), format!("JSON front matter: {e}"))),
        _ => Err((1, "JSON front matter must be an object".into())),
    }
}

/// The line of a byte offset in `text`, 1-based.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

fn toml_fields(head: &str) -> Result<Map<String, Value>, (usize, String)> {
    let table: toml::Table = toml::from_str(head).map_err(|e| {
        let line = e.span().map_or(1, |s| line_of(head, s.start));
        (line, format!("TOML front matter: {}", e.message()))
    })?;
    Ok(table.into_iter().map(|(k, v)| (k, toml_to_json(v))).collect())
}

fn toml_to_json(v: toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => Value::from(f),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.into_iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => {
            Value::Object(t.into_iter().map(|(k, v)| (k, toml_to_json(v))).collect())
        }
    }
}

fn yaml_fields(head: &str) -> Result<Map<String, Value>, (usize, String)> {
    if head.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_saphyr::from_str::<Value>(head) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(Value::Null) => Ok(Map::new()),
        Ok(_) => Err((1, "YAML front matter must be a mapping of fields".into())),
        Err(e) => {
            let line = e.location().map_or(1, |l| l.line() as usize);
            Err((line.max(1), format!("YAML front matter: {e}")))
        }
    }
}

/// A string field, trimmed (a number as written: `title = 2024`); `None` when absent, empty or
/// neither.
pub fn string(fields: &Map<String, Value>, key: &str) -> Option<String> {
    match fields.get(key)? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A list of strings (a single string counts as a list of one).
pub fn strings(fields: &Map<String, Value>, key: &str) -> Vec<String> {
    match fields.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => vec![s.trim().to_string()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|v| v.as_str().map(str::trim).filter(|s| !s.is_empty()).map(String::from))
            .collect(),
        _ => Vec::new(),
    }
}

/// `2019-03-11`, `2019-03-11T10:00:00-07:00` or `2019-03-11 10:00`: the calendar date.
pub fn date(value: &str) -> Option<jiff::civil::Date> {
    let day = value.trim().get(..10)?;
    day.parse().ok()
}

/// A Stillpoint article's front matter, in the order it is written.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ArticleFields {
    pub title: String,
    pub slug: String,
    pub date: Option<jiff::civil::Date>,
    pub updated: Option<jiff::civil::Date>,
    pub draft: bool,
    pub author: Option<String>,
    pub description: Option<String>,
    pub image: Option<String>,
    pub aliases: Vec<String>,
    pub entities: Vec<EntityOut>,
}

/// One `entities` entry: a category key, its subcategory keys and their labels.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct EntityOut {
    pub category: String,
    pub subcategories: Vec<(String, Vec<String>)>,
}

/// A YAML double-quoted string (JSON's escapes are a subset of YAML's).
fn q(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

impl ArticleFields {
    /// `---\n…\n---\n`, every string quoted.
    pub fn to_yaml(&self) -> String {
        let mut out = String::from("---\n");
        out += &format!("title: {}\nslug: {}\n", q(&self.title), self.slug);
        if let Some(d) = self.date {
            out += &format!("date: {d}\n");
        }
        if let Some(d) = self.updated {
            out += &format!("updated: {d}\n");
        }
        if self.draft {
            out += "draft: true\n";
        }
        if let Some(a) = &self.author {
            out += &format!("author: {}\n", q(a));
        }
        if let Some(d) = &self.description {
            out += &format!("description: {}\n", q(d));
        }
        if let Some(i) = &self.image {
            out += &format!("image: {}\n", q(i));
        }
        if !self.aliases.is_empty() {
            out += "aliases:\n";
            for a in &self.aliases {
                out += &format!("  - {}\n", q(a));
            }
        }
        if !self.entities.is_empty() {
            out += "entities:\n";
        }
        for e in &self.entities {
            out += &format!("  - category: {}\n", q(&e.category));
            if !e.subcategories.is_empty() {
                out += "    subcategories:\n";
            }
            for (sub, labels) in &e.subcategories {
                out += &format!("      - subcategory: {}\n", q(sub));
                if !labels.is_empty() {
                    let labels: Vec<String> = labels.iter().map(|l| q(l)).collect();
                    out += &format!("        subsubcategories: [{}]\n", labels.join(", "));
                }
            }
        }
        out + "---\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_yaml_and_json_front_matter() {
        let t = parse("+++\ntitle = \"T\"\ndate = 2019-03-11T10:00:00-07:00\ntags = [\"a\", \"b\"]\n+++\nbody\n").unwrap();
        assert_eq!(string(&t.fields, "title").as_deref(), Some("T"));
        assert_eq!(strings(&t.fields, "tags"), ["a", "b"]);
        assert_eq!(date(&string(&t.fields, "date").unwrap()).unwrap().to_string(), "2019-03-11");
        assert_eq!((t.body.as_str(), t.body_line), ("body\n", 6));

        let y = parse("---\ntitle: \"Y\"\ndraft: true\ncover:\n  image: c.jpg\n---\n\nx").unwrap();
        assert_eq!(y.fields["draft"], Value::Bool(true));
        assert_eq!(y.fields["cover"]["image"], "c.jpg");
        assert_eq!(y.body_line, 7);

        let j = parse("{\n  \"title\": \"J\",\n  \"tags\": \"one\"\n}\nbody").unwrap();
        assert_eq!(strings(&j.fields, "tags"), ["one"]);
        let n = parse("---\ntitle: 2024\nslug: [a]\n---\n").unwrap();
        assert_eq!(string(&n.fields, "title").as_deref(), Some("2024"));
        assert_eq!(string(&n.fields, "slug"), None);
        assert_eq!((j.body.as_str(), j.body_line), ("body", 5));
    }

    #[test]
    fn errors_name_the_line() {
        let (line, msg) = parse("---\ntitle: a\nbad: [\n---\n").unwrap_err();
        assert!(line >= 3, "{line} {msg}");
        let (line, msg) = parse("+++\ntitle = \"a\"\ntitle = \"b\"\n+++\n").unwrap_err();
        assert_eq!(line, 3, "{msg}");
        assert_eq!(parse("+++\ntitle = 1\n").unwrap_err().0, 1);
    }

    #[test]
    fn writes_yaml_that_reads_back() {
        let f = ArticleFields {
            title: "Say \"om\": a: b".into(),
            slug: "say-om".into(),
            date: date("2020-01-02"),
            updated: date("2021-02-03T00:00:00Z"),
            draft: true,
            description: Some("d\nnext".into()),
            image: Some("/images/say-om/a.jpg".into()),
            aliases: vec!["/post/say-om/".into()],
            entities: vec![EntityOut {
                category: "c".into(),
                subcategories: vec![("s".into(), vec!["l \"1\"".into()])],
            }],
            ..Default::default()
        };
        let y = f.to_yaml();
        let back = parse(&(y + "body")).unwrap().fields;
        assert_eq!(back["title"], "Say \"om\": a: b");
        assert_eq!(back["updated"], "2021-02-03");
        assert_eq!(back["draft"], true);
        assert_eq!(back["description"], "d\nnext");
        assert_eq!(back["aliases"][0], "/post/say-om/");
        assert_eq!(back["entities"][0]["subcategories"][0]["subsubcategories"][0], "l \"1\"");
    }
}
