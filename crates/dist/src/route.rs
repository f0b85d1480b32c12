//! `Route`: the path of a page, spelled in one place. Every page route (and every internal href
//! to a page) is made by a constructor here; `as_str` gives the plain string, which is also how
//! a route serialises.

use std::fmt;

/// A page's route: `/`, `/articles/{slug}`, `/{category}/page/2`, `/404`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(transparent)]
pub struct Route(String);

impl Route {
    /// `/`.
    pub fn home() -> Self {
        Self("/".into())
    }

    /// `/articles/{slug}`.
    pub fn article(slug: &str) -> Self {
        Self(format!("/articles/{slug}"))
    }

    /// `/{category}`.
    pub fn category(slug: &str) -> Self {
        Self(format!("/{slug}"))
    }

    /// `/{category}/{subcategory}`.
    pub fn subcategory(category: &str, slug: &str) -> Self {
        Self(format!("/{category}/{slug}"))
    }

    /// `/{category}/{subcategory}/{slug}`.
    pub fn subsubcategory(category: &str, subcategory: &str, slug: &str) -> Self {
        Self(format!("/{category}/{subcategory}/{slug}"))
    }

    /// `/authors`.
    pub fn authors() -> Self {
        Self("/authors".into())
    }

    /// `/authors/{slug}`.
    pub fn author(slug: &str) -> Self {
        Self(format!("/authors/{slug}"))
    }

    /// `/sitemap` (the HTML sitemap page; `sitemap.xml` is a file of the layout).
    pub fn sitemap() -> Self {
        Self("/sitemap".into())
    }

    /// A page of `pages/`, at the route the content gave it (`InfoPage::route`, which
    /// `stillpoint_content::default_route` fills in: `/info/about-us`, `/terms`, `/info/{name}`).
    pub fn info(route: &str) -> Self {
        Self(route.into())
    }

    /// `/404`.
    pub fn not_found() -> Self {
        Self("/404".into())
    }

    /// `/500`.
    pub fn server_error() -> Self {
        Self("/500".into())
    }

    /// Page `n` (1-based) of the listing at this route: itself for 1, `{route}/page/{n}` after.
    pub fn page(&self, n: usize) -> Self {
        if n <= 1 { self.clone() } else { Self(format!("{}/page/{n}", self.0)) }
    }

    /// The slug of an article href (`/articles/{slug}`), or None for any other href.
    pub fn article_slug(href: &str) -> Option<&str> {
        href.strip_prefix("/articles/")
    }

    /// The route as a string, e.g. for an href.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The route relative to the site root: `` for `/`, `articles/x` for `/articles/x`.
    pub fn relative(&self) -> &str {
        &self.0[1..]
    }

    /// The route whose [`relative`](Self::relative) form is `rel` (`` for `/`).
    pub fn from_relative(rel: &str) -> Self {
        Self(format!("/{rel}"))
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Route {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// Lets `&route` stand where a `&str` is expected (the cache keys pages by route string).
impl std::ops::Deref for Route {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<Route> for String {
    fn from(r: Route) -> String {
        r.0
    }
}

#[cfg(test)]
mod tests {
    use super::Route;

    #[test]
    fn spells_every_kind_of_route() {
        assert_eq!(Route::home().as_str(), "/");
        assert_eq!(Route::article("body-scan").as_str(), "/articles/body-scan");
        assert_eq!(Route::category("sleep").to_string(), "/sleep");
        assert_eq!(Route::subcategory("sleep", "insomnia").as_str(), "/sleep/insomnia");
        assert_eq!(Route::subsubcategory("a", "b", "c").as_str(), "/a/b/c");
        assert_eq!(Route::author("maya").as_str(), "/authors/maya");
        assert_eq!(Route::info("/info/about-us").as_str(), "/info/about-us");
        assert_eq!(Route::info("/podcast").as_str(), "/podcast");
        assert_eq!(Route::category("sleep").page(1), Route::category("sleep"));
        assert_eq!(Route::category("sleep").page(3).as_str(), "/sleep/page/3");
        assert_eq!(Route::home().relative(), "");
        assert_eq!(Route::from_relative(""), Route::home());
        assert_eq!(Route::from_relative("articles/x"), Route::article("x"));
        assert_eq!(Route::article_slug(Route::article("x").as_str()), Some("x"));
        assert_eq!(Route::article_slug("/x"), None);
        assert_eq!(serde_json::to_string(&Route::not_found()).unwrap(), "\"/404\"");
    }
}
