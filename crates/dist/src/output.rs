//! What the files of a built site are products of. The build names the [`Output`] of each file
//! it puts, and reports the files that changed with theirs ([`Changed`]), so a reader of the
//! report (`dev`, which reloads what changed in open tabs) matches on what changed instead of
//! reading paths. A file gone from the output was not put by the build that removed it: its
//! output is read from its path ([`Output::of_file`]).

use std::sync::Arc;

use crate::layout::{
    self, APP_DATA, ASSETS_DIR, ATOM_XML, BUILD_INFO, MEDIA_DIR, REDIRECT_TABLE, REDIRECTS_TXT,
    ROBOTS_TXT, RSS_XML, SEARCH_DIR, SERVICE_WORKER, SITE_DATA_DIR, SITEMAP_XML, SLICE_DATA_DIR,
};
use crate::route::Route;

/// A product of a build. Each names the files it is made of through the layout (`layout.rs`):
/// a page its HTML and page data, the search index the files under `search/`, a static file
/// its own path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Output {
    /// A page of the site: its HTML ([`layout::html_file`]) and its page data
    /// ([`layout::page_data_file`]).
    Page,
    /// The page a redirect leaves at an old URL (`{from}.html`).
    RedirectPage,
    /// `_redirects` and the redirect table `serve` and `deploy` read.
    Redirects,
    /// The title search index (`search/`).
    SearchIndex,
    /// The site data (`page-data/sq/d/{hash}.json`) and the slices made from it
    /// (`slice-data/`).
    SiteData,
    /// `page-data/app-data.json`: the build hash clients compare with theirs.
    AppData,
    /// `sw.js`.
    ServiceWorker,
    /// `sitemap.xml` and its parts.
    Sitemaps,
    /// `robots.txt`.
    Robots,
    /// `rss.xml` and `atom.xml`.
    Feeds,
    /// `.stillpoint/build.json`.
    BuildInfo,
    /// A file of the web bundle under `assets/`, or the theme's stylesheet beside them.
    Asset,
    /// An image rendition or a recording under `media/`, named by its content.
    Media,
    /// A file of the site's `static/` folder, at its own path.
    Static,
}

impl Output {
    /// The output a file of a built site most likely belongs to, from its path alone: a file
    /// at a page's path is taken for a page (a static `x.html` or a redirect's page is served at
    /// the same URL), any other unknown file for a static one.
    pub fn of_file(path: &str) -> Self {
        let under = |dir: &str| path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'));
        match path {
            APP_DATA => Self::AppData,
            SERVICE_WORKER => Self::ServiceWorker,
            ROBOTS_TXT => Self::Robots,
            RSS_XML | ATOM_XML => Self::Feeds,
            BUILD_INFO => Self::BuildInfo,
            REDIRECTS_TXT | REDIRECT_TABLE => Self::Redirects,
            _ if path == SITEMAP_XML || is_sitemap_part(path) => Self::Sitemaps,
            _ if under(SEARCH_DIR) => Self::SearchIndex,
            // (A category `sq`'s pages have their page data under the site data's folder.)
            _ if under(SITE_DATA_DIR) && layout::route_name_of(path).is_none() => Self::SiteData,
            _ if under(SLICE_DATA_DIR) => Self::SiteData,
            _ if under(ASSETS_DIR) => Self::Asset,
            _ if under(MEDIA_DIR) => Self::Media,
            _ if layout::route_name_of(path).is_some() => Self::Page,
            _ => Self::Static,
        }
    }
}

/// Whether `path` is a part of a split sitemap (`sitemap-{n}.xml`).
fn is_sitemap_part(path: &str) -> bool {
    let (prefix, suffix) = layout::SITEMAP_PART.split_once('*').expect("a numbered pattern");
    (path.strip_prefix(prefix).and_then(|p| p.strip_suffix(suffix)))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A file a build added, changed or removed, with the output it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Changed {
    /// Its path in the output (`/`-separated, relative): shared with the output's manifest,
    /// since a clean build changes every file (2.5 million at 1,000,000 articles).
    pub file: Arc<str>,
    pub output: Output,
}

impl Changed {
    /// The changed file `file` of `output`.
    pub fn new(file: impl Into<Arc<str>>, output: Output) -> Self {
        Self { file: file.into(), output }
    }

    /// A file removed from the output: its output read from its path.
    pub fn removed(file: impl Into<Arc<str>>) -> Self {
        let file = file.into();
        let output = Output::of_file(&file);
        Self { file, output }
    }

    /// The route a browser shows this file at, when it is a page's, a redirect's page (served
    /// at its old URL) or a static HTML file (`static/x.html` is served at `/x`).
    pub fn route(&self) -> Option<Route> {
        match self.output {
            Output::Page | Output::RedirectPage | Output::Static => layout::route_of(&self.file),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_the_layout_reads_as_its_output() {
        let article = Route::article("a");
        let cases = [
            (layout::html_file(&article), Output::Page),
            (layout::page_data_file(&article), Output::Page),
            (layout::html_file(&Route::home()), Output::Page),
            (layout::site_data_file("12f8"), Output::SiteData),
            // Category `sq`, subcategory `d`: its page data lies beside the site data.
            (layout::page_data_file(&Route::subcategory("sq", "d")), Output::Page),
            (layout::slice_data_file("header"), Output::SiteData),
            (layout::search_file("manifest.json"), Output::SearchIndex),
            (layout::search_file("k1-0.d29a.bin"), Output::SearchIndex),
            (APP_DATA.into(), Output::AppData),
            (SERVICE_WORKER.into(), Output::ServiceWorker),
            (SITEMAP_XML.into(), Output::Sitemaps),
            (layout::sitemap_part(12), Output::Sitemaps),
            (ROBOTS_TXT.into(), Output::Robots),
            (RSS_XML.into(), Output::Feeds),
            (ATOM_XML.into(), Output::Feeds),
            (BUILD_INFO.into(), Output::BuildInfo),
            (REDIRECTS_TXT.into(), Output::Redirects),
            (REDIRECT_TABLE.into(), Output::Redirects),
            ("assets/entry-client-Csvmr_1K.css".into(), Output::Asset),
            ("media/0123456789abcdef-640.avif".into(), Output::Media),
            ("icons/demo-logo-small.png".into(), Output::Static),
            ("sitemap-x.xml".into(), Output::Static),
            ("favicon.ico".into(), Output::Static),
        ];
        for (file, output) in cases {
            assert_eq!(Output::of_file(&file), output, "{file}");
        }
    }

    #[test]
    fn a_changed_page_names_its_route() {
        let data = Changed::new(layout::page_data_file(&Route::home()), Output::Page);
        assert_eq!(data.route(), Some(Route::home()));
        let moved = Changed::new("old/path.html", Output::RedirectPage);
        assert_eq!(moved.route(), Some(Route::from_relative("old/path")));
        assert_eq!(
            Changed::new("about.html", Output::Static).route(),
            Some(Route::from_relative("about"))
        );
        assert_eq!(Changed::new("favicon.ico", Output::Static).route(), None);
        assert_eq!(Changed::new(layout::search_file("a.html"), Output::SearchIndex).route(), None);
        assert_eq!(Changed::removed("articles/b.html").route(), Some(Route::article("b")));
        assert_eq!(Changed::removed("robots.txt").output, Output::Robots);
    }
}
