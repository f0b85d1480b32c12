//! Thin topic pages: a topic with no articles keeps its page (a link to it must not 404), but the
//! page is not in sitemap.xml, asks robots not to index it, and is listed for navigation (the
//! menu, the footer, the HTML sitemap, its category's page) only with `[menu] empty_topics`.

use super::{PageRef, PlanContext, SitePage, Topic};

impl PlanContext<'_> {
    /// Whether sitemap.xml lists `page`: not an error page, not a topic with no articles.
    pub fn in_sitemap(&self, page: &SitePage) -> bool {
        match page.page {
            PageRef::NotFound | PageRef::ServerError => false,
            PageRef::Topic(topic, _) => !self.is_thin(topic),
            _ => true,
        }
    }

    /// Whether `topic` has no articles.
    pub fn is_thin(&self, topic: Topic) -> bool {
        let c = self.catalog;
        match topic {
            Topic::Category(ci) => c.category_is_empty(ci),
            Topic::Subcategory(ci, si) => c.subcategory_is_empty(ci, si),
            Topic::Subsubcategory(ci, si, ssi) => {
                c.categories[ci].subcategories[si].subsubcategories[ssi].articles.is_empty()
            }
        }
    }

    /// Whether category `ci` is listed for navigation.
    pub fn lists_category(&self, ci: usize) -> bool {
        self.config.menu.empty_topics || !self.catalog.category_is_empty(ci)
    }

    /// Whether subcategory `si` of category `ci` is listed for navigation.
    pub fn lists_subcategory(&self, ci: usize, si: usize) -> bool {
        self.config.menu.empty_topics || !self.catalog.subcategory_is_empty(ci, si)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use stillpoint_content::{Catalog, Site, build_catalog, load_site_partial};

    use super::super::{plan, site_pages};
    use super::*;
    use crate::feeds::sitemap_files;
    use crate::site_data::site_data;

    fn demo() -> (Site, Catalog) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo");
        let site = load_site_partial(&dir, &stillpoint_content::Publish::at_clock()).0.unwrap();
        let catalog = build_catalog(&site);
        (site, catalog)
    }

    #[test]
    fn a_topic_with_no_articles_is_neither_in_sitemap_xml_nor_indexed_nor_in_the_menu() {
        let (mut site, mut catalog) = demo();
        assert!(catalog.empty_topics().is_empty(), "every topic of the demo has articles");
        // The demo's first category, its second subcategory emptied; its last category emptied.
        catalog.categories[0].subcategories[1].articles.clear();
        let last = catalog.categories.len() - 1;
        catalog.categories[last].articles.clear();
        for sub in &mut catalog.categories[last].subcategories {
            sub.articles.clear();
            sub.subsubcategories.clear();
        }
        let check = |site: &Site, catalog: &Catalog, listed: bool| {
            let ctx = PlanContext::new(site, catalog);
            let pages = site_pages(&ctx);
            let thin = [ctx.subcategory_href(0, 1), ctx.category_href(last)];
            let xml: String = sitemap_files(&ctx, &pages).into_iter().map(|(_, x)| x).collect();
            let data = serde_json::to_string(&site_data(&ctx, 2026, String::new())).unwrap();
            for route in &thin {
                let page = pages.iter().find(|p| &p.path == route).expect("the page exists");
                assert!(plan(&ctx, page.page).head.noindex, "{route} is indexed");
                assert!(!xml.contains(&format!("{}<", ctx.absolute(route))), "{route} in xml");
                let href = format!("\"href\":\"{}\"", route.as_str());
                assert_eq!(data.contains(&href), listed, "{route} in the menu: {listed}");
            }
            let full = ctx.subcategory_href(0, 0);
            let page = pages.iter().find(|p| p.path == full).unwrap();
            assert!(!plan(&ctx, page.page).head.noindex);
            assert!(xml.contains(&format!("{}<", ctx.absolute(&full))));
            // The category page's own subcategory links.
            let category = pages.iter().find(|p| p.path == ctx.category_href(0)).unwrap();
            let crate::props::PageProps::Category(props) = plan(&ctx, category.page).props else {
                panic!("category props")
            };
            let links: Vec<&str> = props.children.iter().map(|l| l.href.as_str()).collect();
            assert_eq!(links.contains(&thin[0].as_str()), listed, "{links:?}");
        };
        check(&site, &catalog, false);
        site.config.menu.empty_topics = true;
        check(&site, &catalog, true);
    }
}
