//! The output layout: the one place that names every emitted path, relative to the output root
//! (`url` turns one into the absolute URL path the browser asks for), and the way back from a
//! page's file to its route ([`route_of`]). The browser runtime's own spellings
//! (web/src/runtime/pageData.ts, the service worker) are checked against these by the protocol
//! samples (`web/src/protocol.samples.json`).

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
/// The site data's folder, `page-data/sq/d/{hash}.json`: named by content.
pub const SITE_DATA_DIR: &str = "page-data/sq";

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
/// What the build keeps beside the site, never served or deployed.
pub const PRIVATE_DIR: &str = ".stillpoint";
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

/// The HTML of a route: `index.html` for `/`, `{route}.html` otherwise (`404.html` and
/// `500.html` for the error pages). A page is a file, not a folder of its own: canonical URLs
/// have no trailing slash, and static hosts serve `/x` from `x.html` (GitHub Pages, Netlify,
/// Cloudflare Pages, nginx's `try_files $uri $uri.html`).
pub fn html_file(route: &Route) -> String {
    let mut out = String::new();
    html_file_into(route, &mut out);
    out
}

/// [`html_file`] written into `out` (cleared first), for callers naming many pages' files.
pub fn html_file_into(route: &Route, out: &mut String) {
    out.clear();
    out.push_str(match route.relative() {
        "" => "index",
        r => r,
    });
    out.push_str(".html");
}

/// The page-data of a route: `page-data/{route}/page-data.json` (`index` for `/`).
pub fn page_data_file(route: &Route) -> String {
    let mut out = String::new();
    page_data_file_into(route, &mut out);
    out
}

/// [`page_data_file`] written into `out` (cleared first).
pub fn page_data_file_into(route: &Route, out: &mut String) {
    out.clear();
    out.push_str(PAGE_DATA_DIR);
    out.push('/');
    out.push_str(match route.relative() {
        "" => "index",
        r => r,
    });
    out.push_str("/page-data.json");
}

/// The route whose HTML ([`html_file`]) or page-data ([`page_data_file`]) is the output file
/// `path`, or None for a file of no page (the site data, assets, feeds, the search index).
pub fn route_of(path: &str) -> Option<Route> {
    route_name_of(path).map(Route::from_relative)
}

/// [`route_of`] as the route's [`relative`](Route::relative) form, borrowed from `path`.
pub fn route_name_of(path: &str) -> Option<&str> {
    let name = match path.strip_prefix("page-data/") {
        Some(dir) => dir.strip_suffix("/page-data.json")?,
        None if path.starts_with(PRIVATE_DIR) => return None,
        None => path.strip_suffix(".html")?,
    };
    Some(if name == "index" { "" } else { name })
}

/// The site data, content-hashed: `page-data/sq/d/{hash}.json`.
pub fn site_data_file(hash: &str) -> String {
    format!("{SITE_DATA_DIR}/d/{hash}.json")
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
    fn finds_the_route_of_a_page_file_and_of_nothing_else() {
        let routes = [
            Route::home(),
            Route::not_found(),
            Route::server_error(),
            Route::article("a"),
            Route::category("x").page(2),
            Route::subsubcategory("a", "b", "c"),
            Route::authors(),
            Route::info("/info/about-us"),
        ];
        for route in routes {
            assert_eq!(route_of(&html_file(&route)).as_ref(), Some(&route));
            assert_eq!(route_of(&page_data_file(&route)).as_ref(), Some(&route));
        }
        for other in [
            site_data_file("1"),
            slice_data_file("header"),
            search_file("manifest.json"),
            APP_DATA.to_string(),
            SERVICE_WORKER.to_string(),
            SITEMAP_XML.to_string(),
            "assets/app-1.css".to_string(),
            "media/0123456789abcdef-640.avif".to_string(),
            BUILD_INFO.to_string(),
        ] {
            assert_eq!(route_of(&other), None, "{other}");
        }
    }
}
