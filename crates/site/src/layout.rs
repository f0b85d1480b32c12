//! The output layout: the one place that names every emitted path, relative to the output root
//! (`url` turns one into the absolute URL path the browser asks for). The browser runtime's own
//! spellings (web/src/runtime/pageData.ts, the service worker) are checked against these by the
//! protocol samples (`web/src/protocol.samples.json`).

use stillpoint_content::{INFO_PAGES, default_route};

use crate::route::Route;

/// Where generated data lives; neither is a page route (robots.txt disallows both).
pub const PAGE_DATA_DIR: &str = "page-data";
pub const SLICE_DATA_DIR: &str = "slice-data";
/// The web bundle's hashed JS and CSS.
pub const ASSETS_DIR: &str = "assets";
/// Files the build publishes named by their content, cached for good like `assets/`: image
/// renditions (`media/{key}-{width}.{ext}`, or `media/{key}.{ext}` for a file published as it
/// is) and recordings (`media/{digest}-{name}`).
pub const MEDIA_DIR: &str = "media";
/// The search index (`search/manifest.json` and its pieces).
pub const SEARCH_DIR: &str = "search";

/// `page-data/app-data.json`: the build hash of what is deployed.
pub const APP_DATA: &str = "page-data/app-data.json";
/// The service worker.
pub const SERVICE_WORKER: &str = "sw.js";
pub const SITEMAP_XML: &str = "sitemap.xml";
pub const ROBOTS_TXT: &str = "robots.txt";
pub const RSS_XML: &str = "rss.xml";
pub const ATOM_XML: &str = "atom.xml";
/// The generated files at the site root that internal links may point at.
pub const FEEDS: [&str; 4] = [SITEMAP_XML, ROBOTS_TXT, RSS_XML, ATOM_XML];
/// What a built site is (never served or deployed).
pub const BUILD_INFO: &str = ".stillpoint/build.json";
/// The redirect rules in the format Netlify and Cloudflare Pages read.
pub const REDIRECTS_TXT: &str = "_redirects";
/// The redirect table `serve` and `deploy` read (never served or deployed).
pub const REDIRECT_TABLE: &str = ".stillpoint/redirects.json";

/// The parts of a sitemap split in parts (`*`: the 1-based number), listed by `sitemap.xml`.
pub const SITEMAP_PART: &str = "sitemap-*.xml";

/// Part `n` of a sitemap split in parts: `sitemap-{n}.xml`.
pub fn sitemap_part(n: usize) -> String {
    SITEMAP_PART.replace('*', &n.to_string())
}

/// Every name the build itself writes at the top of the output, whatever the content says: the
/// files and folders of the fixed pages (home, error pages, authors, information pages, HTML
/// sitemap, articles), the generated files and the data folders, sorted. `*` in a name stands
/// for a number. The pages of a category (`{slug}.html` and the folder `{slug}/`) are the only
/// content that lands beside these, so a category slug may take none of them ([`reserved`]).
pub fn top_level() -> Vec<String> {
    let fixed = [
        Route::home(),
        Route::not_found(),
        Route::server_error(),
        Route::authors(),
        Route::author("a"),
        Route::article("a"),
        Route::sitemap(),
        Route::sitemap().page(2),
    ];
    let info = INFO_PAGES.iter().map(|name| Route::info(&default_route(name)));
    let pages = fixed.into_iter().chain(info).flat_map(|r| [html_file(&r), page_data_file(&r)]);
    let generated = [
        ASSETS_DIR.to_string(),
        MEDIA_DIR.to_string(),
        search_file("manifest.json"),
        site_data_file("0"),
        slice_data_file("header"),
        APP_DATA.to_string(),
        SERVICE_WORKER.to_string(),
        SITEMAP_XML.to_string(),
        SITEMAP_PART.to_string(),
        ROBOTS_TXT.to_string(),
        RSS_XML.to_string(),
        ATOM_XML.to_string(),
        BUILD_INFO.to_string(),
        REDIRECTS_TXT.to_string(),
    ];
    let mut names: Vec<String> = pages
        .chain(generated)
        .map(|file| file.split('/').next().expect("a path has a first part").to_string())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Whether `name` is one of [`top_level`]'s names (`*` matching a number).
pub fn is_top_level(name: &str) -> bool {
    top_level().iter().any(|n| match n.split_once('*') {
        Some((head, tail)) => name
            .strip_prefix(head)
            .and_then(|rest| rest.strip_suffix(tail))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())),
        None => n == name,
    })
}

/// The path the build writes itself that a category slug would overwrite, as a URL path
/// (`/index.html`, `/assets/`), or None when the slug is free.
pub fn reserved(slug: &str) -> Option<String> {
    let page = html_file(&Route::category(slug));
    if is_top_level(&page) {
        return Some(url(&page));
    }
    is_top_level(slug).then(|| format!("/{slug}/"))
}

/// The HTML of a route: `index.html` for `/`, `{route}.html` otherwise (`404.html` and
/// `500.html` for the error pages). A page is a file, not a folder of its own: canonical URLs
/// have no trailing slash, and static hosts serve `/x` from `x.html` (GitHub Pages, Netlify,
/// Cloudflare Pages, nginx's `try_files $uri $uri.html`).
pub fn html_file(route: &Route) -> String {
    match route.as_str() {
        "/" => "index.html".to_string(),
        "/404" => "404.html".to_string(),
        "/500" => "500.html".to_string(),
        _ => format!("{}.html", route.relative()),
    }
}

/// The page-data of a route: `page-data/{route}/page-data.json` (`index` for `/`).
pub fn page_data_file(route: &Route) -> String {
    let rel = match route.relative() {
        "" => "index",
        r => r,
    };
    format!("{PAGE_DATA_DIR}/{rel}/page-data.json")
}

/// The site data, content-hashed: `page-data/sq/d/{hash}.json`.
pub fn site_data_file(hash: &str) -> String {
    format!("{PAGE_DATA_DIR}/sq/d/{hash}.json")
}

/// A slice's data: `slice-data/{name}.json`.
pub fn slice_data_file(name: &str) -> String {
    format!("{SLICE_DATA_DIR}/{name}.json")
}

/// A file of the search index, `search/{name}`.
pub fn search_file(name: &str) -> String {
    format!("{SEARCH_DIR}/{name}")
}

/// The URL path of an emitted file: `/` + its path.
pub fn url(file: &str) -> String {
    format!("/{file}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_files_of_a_route() {
        assert_eq!(html_file(&Route::home()), "index.html");
        assert_eq!(html_file(&Route::not_found()), "404.html");
        assert_eq!(html_file(&Route::server_error()), "500.html");
        assert_eq!(html_file(&Route::article("a")), "articles/a.html");
        assert_eq!(html_file(&Route::category("x").page(2)), "x/page/2.html");
        assert_eq!(page_data_file(&Route::home()), "page-data/index/page-data.json");
        assert_eq!(page_data_file(&Route::not_found()), "page-data/404/page-data.json");
        assert_eq!(page_data_file(&Route::article("a")), "page-data/articles/a/page-data.json");
        assert_eq!(site_data_file("abc"), "page-data/sq/d/abc.json");
        assert_eq!(slice_data_file("header"), "slice-data/header.json");
        assert_eq!(url(SERVICE_WORKER), "/sw.js");
        assert_eq!(search_file("manifest.json"), "search/manifest.json");
    }

    #[test]
    fn lists_what_the_build_writes_at_the_top() {
        let names = top_level();
        for name in ["index.html", "404.html", "500.html", "authors.html", "terms.html"] {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
        for name in
            ["assets", "media", "search", "page-data", "slice-data", ".stillpoint", "articles"]
        {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
        assert!(is_top_level("sitemap-12.xml") && !is_top_level("sitemap-x.xml"));
    }

    #[test]
    fn a_category_may_not_take_a_name_the_build_writes() {
        assert_eq!(reserved("index").as_deref(), Some("/index.html"));
        assert_eq!(reserved("404").as_deref(), Some("/404.html"));
        assert_eq!(reserved("500").as_deref(), Some("/500.html"));
        assert_eq!(reserved("assets").as_deref(), Some("/assets/"));
        assert_eq!(reserved("sitemap").as_deref(), Some("/sitemap.html"));
        assert_eq!(reserved("info").as_deref(), Some("/info/"));
        assert_eq!(reserved("privacy-policy").as_deref(), Some("/privacy-policy.html"));
        assert_eq!(reserved("sleep"), None);
        assert_eq!(reserved("rss"), None); // rss.html is not rss.xml
    }
}
