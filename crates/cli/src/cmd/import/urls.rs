//! The address Hugo gave a page, kept as an alias of its Stillpoint article: `url:` front matter,
//! else the `[permalinks]` pattern of its section, else its content path (`/post/my-post/`).

use std::collections::BTreeMap;

/// What a page's Hugo address is made of.
#[derive(Debug, Default)]
pub struct PageUrl<'a> {
    /// Folders under `content/`, the bundle folder excluded: `["post"]`, `[]` at the top.
    pub dirs: Vec<&'a str>,
    /// The file name without extension, or the bundle folder's name.
    pub filename: &'a str,
    pub slug: Option<&'a str>,
    pub title: &'a str,
    pub date: Option<jiff::civil::Date>,
    /// `url:` front matter.
    pub url: Option<&'a str>,
}

/// The page's path on the Hugo site, `/…/`; `Err` names a permalink token it does not know.
pub fn hugo_url(p: &PageUrl, permalinks: &BTreeMap<String, String>) -> Result<String, String> {
    if let Some(url) = p.url {
        return Ok(if url.starts_with('/') { url.to_string() } else { format!("/{url}") });
    }
    let section = p.dirs.first().copied().unwrap_or("");
    let last = p.slug.map(urlize).unwrap_or_else(|| urlize(p.filename));
    let Some(pattern) = permalinks.get(section).filter(|_| !section.is_empty()) else {
        let mut parts: Vec<String> = p.dirs.iter().map(|d| urlize(d)).collect();
        parts.push(last);
        return Ok(format!("/{}/", parts.join("/")));
    };
    let mut out = String::new();
    let mut rest = pattern.as_str();
    while let Some(i) = rest.find(':') {
        out += &rest[..i];
        let after = &rest[i + 1..];
        let end = after.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(after.len());
        let token = &after[..end];
        let date = |f: fn(jiff::civil::Date) -> String| p.date.map(f).unwrap_or_default();
        out += &match token {
            "year" => date(|d| format!("{:04}", d.year())),
            "month" => date(|d| format!("{:02}", d.month())),
            "day" => date(|d| format!("{:02}", d.day())),
            "slug" => p.slug.map(urlize).unwrap_or_else(|| urlize(p.title)),
            "title" => urlize(p.title),
            "section" => section.to_string(),
            "sections" => p.dirs.join("/"),
            "filename" | "contentbasename" => urlize(p.filename),
            "slugorfilename" | "slugorcontentbasename" => last.clone(),
            _ => return Err(format!("the permalink token `:{token}` of `{pattern}`")),
        };
        rest = &after[end..];
    }
    out += rest;
    Ok(if out.starts_with('/') { out } else { format!("/{out}") })
}

/// Hugo's path form of a name: lower case, spaces as dashes, punctuation dropped.
pub fn urlize(s: &str) -> String {
    s.trim()
        .chars()
        .filter_map(|c| match c {
            c if c.is_whitespace() => Some('-'),
            c if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page<'a>(dirs: Vec<&'a str>, filename: &'a str) -> PageUrl<'a> {
        PageUrl { dirs, filename, title: "Hello World!", ..Default::default() }
    }

    #[test]
    fn content_paths_slugs_and_url() {
        let none = BTreeMap::new();
        assert_eq!(hugo_url(&page(vec!["post"], "My Post"), &none).unwrap(), "/post/my-post/");
        assert_eq!(hugo_url(&page(vec![], "about"), &none).unwrap(), "/about/");
        let mut p = page(vec!["docs", "v2"], "x");
        p.slug = Some("why");
        assert_eq!(hugo_url(&p, &none).unwrap(), "/docs/v2/why/");
        p.url = Some("old/place.html");
        assert_eq!(hugo_url(&p, &none).unwrap(), "/old/place.html");
    }

    #[test]
    fn permalink_tokens() {
        let mut links = BTreeMap::new();
        links.insert("post".to_string(), "/:year/:month/:day/:slug/".to_string());
        links.insert("docs".to_string(), ":section/:title/:filename".to_string());
        links.insert("bad".to_string(), "/:weekday/".to_string());
        let mut p = page(vec!["post"], "f");
        p.date = "2019-03-05".parse().ok();
        assert_eq!(hugo_url(&p, &links).unwrap(), "/2019/03/05/hello-world/");
        p.slug = Some("s");
        assert_eq!(hugo_url(&p, &links).unwrap(), "/2019/03/05/s/");
        assert_eq!(hugo_url(&page(vec!["docs"], "F"), &links).unwrap(), "/docs/hello-world/f");
        assert!(hugo_url(&page(vec!["bad"], "f"), &links).unwrap_err().contains(":weekday"));
    }
}
