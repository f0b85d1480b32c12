//! One Hugo page → one Stillpoint article: the front matter mapped field by field, the body's
//! shortcodes converted and its references to bundle files rewritten.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};
use stillpoint_content::title_case;

use super::bundles;
use super::front_matter::{ArticleFields, HugoFile, date, string, strings};
use super::mapping::Mapping;
use super::pages::Page;
use super::shortcodes;
use super::urls::{PageUrl, hugo_url};

/// Front matter fields the import reads (the rest are listed as left out).
pub const READ: &[&str] = &[
    "title",
    "date",
    "publishDate",
    "lastmod",
    "draft",
    "description",
    "summary",
    "aliases",
    "slug",
    "url",
    "tags",
    "categories",
    "images",
    "featured_image",
    "featuredImage",
    "cover",
    "image",
    "author",
    "authors",
    "headless",
    "build",
    "_build",
];

/// What converting needs from the whole import.
pub struct Site<'a> {
    pub permalinks: &'a BTreeMap<String, String>,
    pub mapping: &'a Mapping,
    /// The names in data/authors.toml.
    pub authors: &'a BTreeSet<String>,
    pub resolve: &'a dyn Fn(&str) -> Option<String>,
}

/// A converted page, and what the owner should know (file lines).
#[derive(Debug, Default)]
pub struct Output {
    pub fields: ArticleFields,
    pub body: String,
    pub notes: Vec<(usize, String)>,
    pub failed: Vec<(usize, String)>,
    /// Filed under the mapping's fallback.
    pub fallback: bool,
    /// Front matter fields not carried over.
    pub left_out: Vec<String>,
}

/// The title: `title`, else the file name in title case.
pub fn title(fields: &Map<String, Value>, page: &Page) -> (String, bool) {
    match string(fields, "title") {
        Some(t) => (t, false),
        None => (title_case(&page.name.replace(['-', '_'], " ")), true),
    }
}

pub fn convert(
    page: &Page,
    src: &HugoFile,
    slug: &str,
    resources: &[String],
    site: &Site,
) -> Output {
    let f = &src.fields;
    let mut out = Output::default();
    let (title, made_up) = title(f, page);
    if made_up {
        out.notes.push((1, format!("no `title`: `{title}`, from the file name")));
    }
    let mut date_of = |key: &str| {
        let v = string(f, key)?;
        let d = date(&v);
        if d.is_none() {
            out.notes.push((1, format!("`{key}: {v}` is not a date: left out")));
        }
        d
    };
    let day = date_of("date").or_else(|| date_of("publishDate"));
    let updated = date_of("lastmod");
    let draft = match f.get("draft") {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s == "true",
        _ => false,
    };
    let description = string(f, "description").or_else(|| string(f, "summary"));

    let res: BTreeSet<String> = resources.iter().cloned().collect();
    let image_field = strings(f, "images")
        .into_iter()
        .next()
        .or_else(|| string(f, "featured_image"))
        .or_else(|| string(f, "featuredImage"))
        .or_else(|| {
            f.get("cover").and_then(|c| c.get("image")).and_then(Value::as_str).map(String::from)
        })
        .or_else(|| string(f, "image"));
    let image = match image_field {
        Some(i) if i.starts_with("http://") || i.starts_with("https://") || i.starts_with('/') => {
            Some(i)
        }
        Some(i) => match bundles::resource(&i, &res) {
            Some(rel) => Some(bundles::address(slug, rel)),
            None => {
                out.notes.push((
                    1,
                    format!("image `{i}` is not a file of the page's bundle: taken as `/{i}`"),
                ));
                Some(format!("/{i}"))
            }
        },
        // Hugo themes take a bundle's `feature*` (or `cover*`, `thumb*`) image as its cover.
        None => ["feature", "cover", "thumb"]
            .iter()
            .find_map(|p| resources.iter().find(|r| r.starts_with(p) && !r.contains('/')))
            .map(|r| bundles::address(slug, r)),
    };

    let author = string(f, "author").or_else(|| strings(f, "authors").into_iter().next());
    let author = match author {
        Some(a) if site.authors.contains(&a) => Some(a),
        Some(a) => {
            out.left_out.push(format!("author (`{a}` is not in data/authors.toml)"));
            None
        }
        None => None,
    };

    let mut aliases: Vec<String> = strings(f, "aliases")
        .into_iter()
        .map(|a| if a.starts_with('/') { a } else { format!("/{a}") })
        .collect();
    let (slug_field, url_field) = (string(f, "slug"), string(f, "url"));
    let url_fields = PageUrl {
        dirs: page.dirs.iter().map(String::as_str).collect(),
        filename: &page.name,
        slug: slug_field.as_deref(),
        title: &title,
        date: day,
        url: url_field.as_deref(),
    };
    match hugo_url(&url_fields, site.permalinks) {
        Ok(url) => {
            let own = format!("/articles/{slug}");
            if url.trim_end_matches('/') != own && !aliases.contains(&url) {
                aliases.push(url);
            }
        }
        Err(why) => {
            out.notes.push((1, format!("no alias for the old address: {why} is not supported")))
        }
    }

    let (entities, fallback) =
        site.mapping.entities(&strings(f, "categories"), &strings(f, "tags"));
    out.fallback = fallback;

    for key in f.keys().filter(|k| !READ.contains(&k.as_str())) {
        out.left_out.push(key.clone());
    }

    let body = shortcodes::convert(&src.body, src.body_line, site.resolve);
    out.notes.extend(body.notes);
    out.failed.extend(body.failed);
    out.body = bundles::rewrite(&body.body, &res, slug);
    out.fields = ArticleFields {
        title,
        slug: slug.to_string(),
        date: day,
        updated,
        draft,
        author,
        description,
        image,
        aliases,
        entities,
    };
    out
}
