//! The output layout ([`stillpoint_dist::layout`], re-exported here) and what the content may
//! not take of it: the names the build writes at the top of the output, which no category slug
//! may shadow.

use stillpoint_content::INFO_PAGES;

pub use stillpoint_dist::layout::*;

use crate::route::Route;

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
    let info = INFO_PAGES.iter().map(|p| Route::info(p.route));
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

#[cfg(test)]
mod tests {
    use super::*;

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
