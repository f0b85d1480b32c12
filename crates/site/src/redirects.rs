//! Redirects in the output: validated against the pages a build writes, then emitted three
//! ways: an HTML page per exact redirect (at the old URL's `{path}.html`, as pages are), the
//! `_redirects` file that Netlify and Cloudflare Pages read, and `.stillpoint/redirects.json`,
//! the table `stillpoint serve` (and so `dev`) and `deploy` read.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use stillpoint_content::{ContentError, ContentErrorKind, Redirect, Site};

use crate::layout;
use crate::plan::{PlanContext, SitePage};
use crate::render::escape;
use crate::route::Route;

/// Every redirect of a site: `data/redirects.toml` in file order, then the articles' aliases in
/// article order (each to its article, permanent).
pub fn site_redirects(ctx: &PlanContext) -> Vec<Redirect> {
    let mut all = ctx.redirects.to_vec();
    for a in ctx.summaries().map(|a| a.placement) {
        for alias in a.aliases.0 {
            all.push(Redirect {
                from: alias.value.clone(),
                to: Route::article(a.slug).as_str().to_string(),
                permanent: true,
                prefix: false,
                source: a.source.to_path_buf(),
                line: alias.line,
                col: alias.col,
            });
        }
    }
    all
}

/// One row of `.stillpoint/redirects.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableEntry {
    pub from: String,
    pub to: String,
    pub status: u16,
    pub prefix: bool,
}

/// `.stillpoint/redirects.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub version: u32,
    pub redirects: Vec<TableEntry>,
}

/// What names a generated file or data folder of the output (`layout::top_level`), so a redirect
/// may not start there.
fn reserved(path: &str) -> Option<&'static str> {
    let rel = path.trim_start_matches('/');
    let first = rel.split('/').next().unwrap_or("");
    let data =
        [layout::PAGE_DATA_DIR, layout::SLICE_DATA_DIR, layout::ASSETS_DIR, layout::SEARCH_DIR];
    if data.contains(&first) || first.starts_with('.') || first.starts_with("__") {
        return Some("a reserved output path");
    }
    // A file at the top of the output: a generated one (`sw.js`), or a fixed page's (`index`).
    let top_file = (rel.contains('.') && layout::is_top_level(rel))
        || layout::is_top_level(&format!("{rel}.html"));
    (!rel.contains('/') && top_file).then_some("a file the build writes")
}

/// The redirects that pass every check, deduplicated, and the errors of the others: a `from`
/// that shadows a page, a static file or a reserved name; the same `from` with two targets; an
/// internal target that is no page; a target that itself redirects (a chain, or a loop).
pub fn validate_redirects(
    site: &Site,
    pages: &[SitePage],
    redirects: &[Redirect],
) -> (Vec<Redirect>, Vec<ContentError>) {
    if redirects.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let routes: HashSet<&str> = pages.iter().map(|p| p.path.as_str()).collect();
    let static_file = |path: &str| {
        site.static_dir.as_ref().is_some_and(|d| {
            let rel = path.trim_start_matches('/');
            !rel.is_empty() && (d.join(rel).is_file() || d.join(format!("{rel}.html")).is_file())
        })
    };
    let page = |path: &str| {
        routes.contains(path)
            || path.strip_prefix('/').is_some_and(|f| layout::FEEDS.contains(&f))
            || static_file(path)
    };
    let err = |r: &Redirect, kind| ContentError::new(&r.source, r.line, r.col, kind);
    let mut errors = Vec::new();
    let mut kept: Vec<Redirect> = Vec::new();
    let mut first: HashMap<(&str, bool), &Redirect> = HashMap::new();
    for r in redirects {
        if let Some((_, earlier)) = first.get_key_value(&(r.from.as_str(), r.prefix)) {
            if earlier.to != r.to || earlier.permanent != r.permanent {
                let at = format!("{}:{}", earlier.source.display(), earlier.line);
                let (from, first) = (r.from_pattern(), earlier.to.clone());
                errors.push(err(r, ContentErrorKind::DuplicateRedirect { from, first, at }));
            }
            continue;
        }
        first.insert((r.from.as_str(), r.prefix), r);
        let shadows = if let Some(what) = reserved(&r.from) {
            Some(what)
        } else if r.prefix {
            (r.from == "/").then_some("every path of the site")
        } else if routes.contains(r.from.as_str()) {
            Some("a page of this site")
        } else if static_file(&r.from) {
            Some("a file in static/")
        } else {
            None
        };
        if let Some(what) = shadows {
            errors.push(err(r, ContentErrorKind::RedirectShadows(r.from_pattern(), what.into())));
            continue;
        }
        kept.push(r.clone());
    }
    let exact: HashMap<&str, &Redirect> =
        kept.iter().filter(|r| !r.prefix).map(|r| (r.from.as_str(), r)).collect();
    let mut valid = Vec::with_capacity(kept.len());
    for r in &kept {
        if !r.is_internal() || r.to.contains(":splat") {
            valid.push(r.clone());
            continue;
        }
        if exact.contains_key(r.to.as_str()) {
            // Follow the chain to its end, or to a path seen before: a loop.
            let mut seen = vec![r.from.as_str()];
            let mut at = r.to.as_str();
            while let Some(next) = exact.get(at) {
                if seen.contains(&at) {
                    break;
                }
                seen.push(at);
                at = next.to.as_str();
            }
            let kind = if seen.contains(&at) {
                seen.push(at);
                ContentErrorKind::RedirectLoop(seen.join(" → "))
            } else {
                ContentErrorKind::RedirectChain { to: r.to.clone(), last: at.to_string() }
            };
            errors.push(err(r, kind));
        } else if !page(&r.to) {
            errors.push(err(r, ContentErrorKind::RedirectTarget(r.to.clone())));
        } else {
            valid.push(r.clone());
        }
    }
    (valid, errors)
}

/// The output file of an exact redirect's page: where the builder would write a page at `from`.
pub fn redirect_page_file(from: &str) -> String {
    format!("{}.html", from.trim_start_matches('/'))
}

/// The page left at an old URL: it refreshes to the target at once, names it as canonical and
/// links to it, for hosts that do not read `_redirects` (and crawlers that meet the file).
pub fn redirect_page(r: &Redirect, site_url: &str) -> String {
    let to = escape(&r.to);
    let canonical =
        if r.is_internal() { escape(&format!("{site_url}{}", r.to)) } else { to.clone() };
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Moved to {to}</title>\n<meta name=\"robots\" content=\"noindex\">\n\
         <meta http-equiv=\"refresh\" content=\"0; url={to}\">\n\
         <link rel=\"canonical\" href=\"{canonical}\">\n</head>\n<body>\n\
         <p>This page has moved{}: <a href=\"{to}\">{to}</a></p>\n</body>\n</html>\n",
        if r.permanent { " permanently" } else { "" },
    )
}

/// `_redirects`: `from to status` per line, exact ones first, then the prefixes (`/x/*`, with
/// `:splat` in the target).
pub fn redirects_txt(redirects: &[Redirect]) -> String {
    let mut out =
        String::from("# Written by stillpoint build from aliases and data/redirects.toml.\n");
    let ordered =
        redirects.iter().filter(|r| !r.prefix).chain(redirects.iter().filter(|r| r.prefix));
    for r in ordered {
        out.push_str(&format!("{} {} {}\n", r.from_pattern(), r.to, r.status()));
    }
    out
}

/// `.stillpoint/redirects.json`.
pub fn redirect_table_json(redirects: &[Redirect]) -> String {
    let table = Table {
        version: 1,
        redirects: redirects
            .iter()
            .map(|r| TableEntry {
                from: r.from.clone(),
                to: r.to.clone(),
                status: r.status(),
                prefix: r.prefix,
            })
            .collect(),
    };
    serde_json::to_string_pretty(&table).expect("the table serialises") + "\n"
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use stillpoint_content::{build_catalog, load_site};

    use super::*;
    use crate::plan::{PlanContext, site_pages};

    fn redirect(from: &str, to: &str, line: u32) -> Redirect {
        Redirect {
            from: from.trim_end_matches("/*").to_string(),
            to: to.into(),
            permanent: true,
            prefix: from.ends_with("/*"),
            source: PathBuf::from("data/redirects.toml"),
            line,
            col: 1,
        }
    }

    fn check(list: &[Redirect]) -> (Vec<Redirect>, Vec<String>) {
        let site =
            load_site(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo")).unwrap();
        let catalog = build_catalog(&site);
        let pages = site_pages(&PlanContext::new(&site, &catalog));
        let (valid, errors) = validate_redirects(&site, &pages, list);
        (valid, errors.iter().map(|e| format!("{}: {}", e.line, e.kind)).collect())
    }

    #[test]
    fn each_problem_is_named_at_its_line() {
        let (valid, errors) = check(&[
            redirect("/old", "/info/about-us", 1),
            redirect("/old", "/info/about-us", 2),
            redirect("/old", "/terms", 3),
            redirect("/gone", "/nowhere", 4),
            redirect("/a", "/b", 5),
            redirect("/b", "/info/about-us", 6),
            redirect("/x", "/y", 7),
            redirect("/y", "/x", 8),
            redirect("/info/about-us", "/terms", 9),
            redirect("/assets/app.js", "/terms", 10),
            redirect("/blog/*", "/articles/:splat", 11),
            redirect("/shop", "https://shop.example/", 12),
            redirect("/sitemap.xml", "/terms", 13),
        ]);
        let froms: Vec<&str> = valid.iter().map(|r| r.from.as_str()).collect();
        assert_eq!(froms, ["/old", "/b", "/blog", "/shop"]);
        assert_eq!(
            errors,
            [
                "3: `/old` already redirects to `/info/about-us` (data/redirects.toml:1)",
                "9: `/info/about-us` is a page of this site: a redirect from it would hide it",
                "10: `/assets/app.js` is a reserved output path: a redirect from it would hide it",
                "13: `/sitemap.xml` is a file the build writes: a redirect from it would hide it",
                "4: redirect to `/nowhere`, which is not a page of this site",
                "5: redirect to `/b`, which itself redirects: point it at `/info/about-us`",
                "7: redirect loop: /x → /y → /x",
                "8: redirect loop: /y → /x → /y",
            ]
        );
    }

    #[test]
    fn writes_the_page_and_the_rules() {
        let r = redirect("/2019/05/body-scan", "/articles/body-scan", 1);
        assert_eq!(redirect_page_file(&r.from), "2019/05/body-scan.html");
        let page = redirect_page(&r, "https://s.example");
        assert!(
            page.contains("<meta http-equiv=\"refresh\" content=\"0; url=/articles/body-scan\">")
        );
        assert!(
            page.contains("<link rel=\"canonical\" href=\"https://s.example/articles/body-scan\">")
        );
        assert!(page.contains("<meta name=\"robots\" content=\"noindex\">"));
        assert!(!page.contains("<script"));
        let prefix = Redirect { permanent: false, ..redirect("/blog/*", "/articles/:splat", 2) };
        assert_eq!(
            redirects_txt(&[prefix.clone(), r.clone()]).lines().skip(1).collect::<Vec<_>>(),
            ["/2019/05/body-scan /articles/body-scan 301", "/blog/* /articles/:splat 302"]
        );
        let table: Table = serde_json::from_str(&redirect_table_json(&[prefix])).unwrap();
        assert_eq!(
            table.redirects,
            [TableEntry {
                from: "/blog".into(),
                to: "/articles/:splat".into(),
                status: 302,
                prefix: true
            }]
        );
    }
}
