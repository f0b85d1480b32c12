//! The fixed pages: home, authors, the information pages, the sitemap and the error pages.

use serde_json::json;
use std::collections::HashSet;

use stillpoint_content::{ArticleId, InfoPage, info_page_spec, title_case, truncate_words};

use super::json_ld::{breadcrumbs_ld, json_ld};
use super::listing::pagination;
use super::{Head, PagePlan, PlanContext};
use crate::props::{
    AuthorSummary, AuthorsProps, ErrorProps, HomeProps, HomeTitles, InfoProps, Link, PageProps,
    SitemapArticles, SitemapCategory, SitemapProps, SitemapSubcategory,
};
use crate::render::Markdown;
use crate::route::Route;

/// Articles listed per sitemap page: one page up to this many, then `/sitemap/page/{n}`.
pub const SITEMAP_PAGE_SIZE: usize = 1000;

/// Home sections (DESIGN.md): featured, Top Stories, Popular Articles, and the pool behind
/// "Have More Awesome Stuff" (8 shown, each "Show more" adds 12).
const FEATURED: usize = 4;
const TOP_STORIES: usize = 12;
const POPULAR: usize = 8;
const MORE_FIRST: usize = 8;
const MORE_STEP: usize = 12;
const MORE_STEPS: usize = 4;

fn head(ctx: &PlanContext, path: &str, title: &str, description: String) -> Head {
    Head {
        title: ctx.title(title),
        description,
        canonical: ctx.absolute(path),
        og_type: "website",
        ..Head::default()
    }
}

pub fn home<'a>(ctx: &PlanContext<'a>) -> PagePlan<'a> {
    let c = &ctx.config;
    let copy = &c.home;
    // Each article appears once on the page: every section takes from what the ones above left
    // (a hidden section takes nothing, so its articles go to the sections below).
    let newest = &ctx.catalog.newest;
    let featured: Vec<ArticleId> = newest.iter().copied().take(FEATURED).collect();
    let mut shown: HashSet<ArticleId> = featured.iter().copied().collect();
    let next = |shown: &HashSet<ArticleId>, n: usize| -> Vec<ArticleId> {
        newest.iter().copied().filter(|i| !shown.contains(i)).take(n).collect()
    };
    let top = if copy.top_stories.show { next(&shown, TOP_STORIES) } else { Vec::new() };
    shown.extend(&top);
    let popular = if copy.popular.show { popular(ctx, POPULAR, &shown) } else { Vec::new() };
    shown.extend(&popular);
    let more =
        if copy.more.show { next(&shown, MORE_FIRST + MORE_STEP * MORE_STEPS) } else { Vec::new() };
    let description = copy.description.clone().unwrap_or_else(|| c.description.clone());
    let mut h = head(ctx, "/", &copy.title, description);
    h.json_ld.push(json_ld(&json!({
        "@context": "https://schema.org",
        "@type": "WebSite",
        "name": c.title,
        "url": ctx.absolute("/"),
        "description": c.description,
        "potentialAction": {
            "@type": "SearchAction",
            "target": format!("{}/?q={{search_term_string}}", c.url),
            "query-input": "required name=search_term_string"
        }
    })));
    PagePlan {
        path: Route::home(),
        head: h,
        props: PageProps::Home(HomeProps {
            common: ctx.common("/", Vec::new()),
            heading: copy.heading.clone(),
            lead: copy.lead.clone(),
            titles: HomeTitles {
                top_stories: copy.top_stories.title.clone(),
                popular: copy.popular.title.clone(),
                more: copy.more.title.clone(),
            },
            featured: ctx.cards(&featured, None),
            top_stories: ctx.cards(&top, None),
            popular: ctx.cards(&popular, None),
            more: ctx.cards(&more, None),
        }),
        markdown: None,
        source: None,
        body_of: None,
        live: ctx.live(),
        shows: Vec::new(),
    }
}

/// "Popular": the articles other articles link to most (a signal the content itself carries),
/// newest first among equals, leaving out those already `shown` higher on the page.
fn popular(ctx: &PlanContext, n: usize, shown: &HashSet<ArticleId>) -> Vec<ArticleId> {
    let placements: Vec<_> = ctx.summaries().map(|a| a.placement).collect();
    let by_slug: std::collections::HashMap<&str, usize> =
        placements.iter().enumerate().map(|(i, a)| (a.slug, i)).collect();
    let mut inbound = vec![0u32; placements.len()];
    for a in &placements {
        for l in a.links.values() {
            if let Some(&i) = Route::article_slug(l).and_then(|s| by_slug.get(s))
                && placements[i].slug != a.slug
            {
                inbound[i] += 1;
            }
        }
    }
    let mut order: Vec<ArticleId> =
        ctx.catalog.newest.iter().copied().filter(|i| !shown.contains(i)).collect();
    // Stable: keeps newest-first among equals.
    order.sort_by_key(|&i| std::cmp::Reverse(inbound[i.index()]));
    order.truncate(n);
    order
}

pub fn authors<'a>(ctx: &PlanContext<'a>) -> PagePlan<'a> {
    let brand = ctx.brand();
    let authors = ctx
        .authors
        .list
        .iter()
        .enumerate()
        .map(|(ai, a)| AuthorSummary {
            name: a.name.clone(),
            href: ctx.author_href(ai).into(),
            role: a.meta_title.clone(),
            summary: truncate_words(&first_sentences(&a.description), 180),
            article_count: ctx.catalog.by_author[ai].len(),
            photo: ctx.author_photo(ai),
        })
        .collect();
    let description = format!(
        "Meet the meditation teachers, psychologists, coaches and writers behind {brand}'s guided meditations and mindfulness articles."
    );
    let title = "Meet Our Mindfulness Experts";
    let mut h = head(ctx, &Route::authors(), title, description);
    h.json_ld.push(breadcrumbs_ld(ctx, &[ctx.home_link()], title));
    PagePlan {
        path: Route::authors(),
        head: h,
        props: PageProps::Authors(AuthorsProps {
            common: ctx.common(&Route::authors(), vec![ctx.home_link()]),
            title: title.into(),
            authors,
        }),
        markdown: None,
        source: None,
        body_of: None,
        live: ctx.live(),
        shows: Vec::new(),
    }
}

/// The first two sentences of a Markdown biography, as plain text.
fn first_sentences(md: &str) -> String {
    let plain: String = md.chars().filter(|c| !matches!(c, '*' | '_' | '`' | '#')).collect();
    let mut out = String::new();
    for (n, s) in plain.split_inclusive(". ").enumerate() {
        if n == 2 {
            break;
        }
        out.push_str(s);
    }
    out.trim().to_string()
}

/// The head title of a page of `pages/`: the spec's for its three information pages (whatever
/// their `title:`, which is the page's heading), else its `title:`, else its name in words.
fn info_title(page: &InfoPage) -> String {
    match info_page_spec(&page.name) {
        Some(spec) => spec.title.into(),
        None => page.title.clone().unwrap_or_else(|| title_case(&page.name.replace('-', " "))),
    }
}

pub fn info<'a>(ctx: &PlanContext<'a>, page: &'a InfoPage) -> PagePlan<'a> {
    let brand = ctx.brand();
    let title = info_title(page);
    let description = match info_page_spec(&page.name) {
        Some(spec) => spec.description.replace("{brand}", brand),
        None => match first_sentences(&page.body) {
            s if s.is_empty() => format!("{title} on {brand}."),
            s => truncate_words(&s, 160),
        },
    };
    let path = Route::info(&page.route);
    let description = page.description.clone().unwrap_or(description);
    let mut h = head(ctx, &path, &title, description);
    h.json_ld.push(breadcrumbs_ld(ctx, &[ctx.home_link()], &title));
    PagePlan {
        props: PageProps::Info(InfoProps {
            common: ctx.common(&path, vec![ctx.home_link()]),
            title: page.title.clone().unwrap_or_else(|| title.clone()),
            body_html: String::new(),
        }),
        path,
        head: h,
        markdown: Some(
            Markdown::new(&page.body, ctx.config.unsafe_html)
                .with_images(ctx.body_images(page.source().as_ref(), &page.images)),
        ),
        source: None,
        body_of: None,
        live: ctx.live(),
        shows: Vec::new(),
    }
}

/// How many pages the HTML sitemap has (`SITEMAP_PAGE_SIZE` articles a page, at least one).
pub fn sitemap_count(ctx: &PlanContext) -> usize {
    ctx.article_count().div_ceil(SITEMAP_PAGE_SIZE).max(1)
}

/// Page `n` (from 1) of the HTML sitemap: the topic tree, authors and pages on the first, then
/// every article grouped by category (`/sitemap`, `/sitemap/page/2`, …).
pub fn sitemap<'a>(ctx: &PlanContext<'a>, n: usize) -> PagePlan<'a> {
    sitemap_page(ctx, n, SITEMAP_PAGE_SIZE)
}

fn sitemap_page<'a>(ctx: &PlanContext<'a>, n: usize, page_size: usize) -> PagePlan<'a> {
    let first = n == 1;
    let categories: Vec<SitemapCategory> = if !first {
        Vec::new()
    } else {
        (ctx.topics.categories.iter().enumerate())
            .filter(|&(ci, _)| ctx.lists_category(ci))
            .map(|(ci, c)| SitemapCategory {
                category: ctx.category_link(ci),
                subcategories: (0..c.children.len())
                    .filter(|&si| ctx.lists_subcategory(ci, si))
                    .map(|si| SitemapSubcategory {
                        subcategory: ctx.subcategory_link(ci, si),
                        subsubcategories: ctx.catalog.categories[ci].subcategories[si]
                            .subsubcategories
                            .iter()
                            .map(|ss| {
                                let href = ctx.subsubcategory_href(ci, si, &ss.slug);
                                Link::new(ss.label.clone(), href)
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect()
    };
    let authors: Vec<Link> = if !first {
        Vec::new()
    } else {
        (ctx.authors.list.iter().enumerate())
            .map(|(ai, a)| Link::new(a.name.clone(), ctx.author_href(ai)))
            .collect()
    };
    let pages = if !first {
        Vec::new()
    } else {
        [Link::new("Home", "/"), Link::new("Authors", Route::authors())]
            .into_iter()
            .chain(ctx.pages.iter().map(|p| Link::new(info_title(p), Route::info(&p.route))))
            .collect()
    };
    let listed = ctx.sitemap_order();
    let count = listed.len().div_ceil(page_size).max(1);
    let path = Route::sitemap().page(n);
    let chunk = listed.chunks(page_size).nth(n - 1).unwrap_or(&[]);
    let title = if n > 1 { format!("Sitemap (Page {n})") } else { "Sitemap".to_string() };
    let description = if n > 1 {
        format!("Every article on {}, by category (page {n} of {count}).", ctx.brand())
    } else {
        format!("Every category, topic, author and article on {}.", ctx.brand())
    };
    let pagination = pagination(&Route::sitemap(), n, count);
    let mut h = head(ctx, &path, &title, description);
    h.prev = pagination.prev.as_deref().map(|p| ctx.absolute(p));
    h.next = pagination.next.as_deref().map(|p| ctx.absolute(p));
    h.json_ld.push(breadcrumbs_ld(ctx, &[ctx.home_link()], &title));
    PagePlan {
        head: h,
        props: PageProps::Sitemap(SitemapProps {
            common: ctx.common(&path, vec![ctx.home_link()]),
            title,
            categories,
            authors,
            pages,
            articles: group_by_category(ctx, chunk),
            pagination,
        }),
        path,
        markdown: None,
        source: None,
        body_of: None,
        live: ctx.live(),
        shows: Vec::new(),
    }
}

/// Consecutive articles of one category, as one group each (a page may start mid-category).
fn group_by_category(ctx: &PlanContext, chunk: &[ArticleId]) -> Vec<SitemapArticles> {
    let mut groups: Vec<(Option<usize>, Vec<Link>)> = Vec::new();
    for &i in chunk {
        let category = ctx.first_category(i);
        let a = ctx.summary(i);
        let link = Link::new(a.shown.title, Route::article(a.placement.slug));
        match groups.last_mut() {
            Some((last, links)) if *last == category => links.push(link),
            _ => groups.push((category, vec![link])),
        }
    }
    groups
        .into_iter()
        .map(|(category, articles)| SitemapArticles {
            category: category.map(|ci| ctx.category_link(ci)),
            articles,
        })
        .collect()
}

pub fn error_page<'a>(ctx: &PlanContext<'a>, server_error: bool) -> PagePlan<'a> {
    let copy = &ctx.config.not_found;
    let (path, title, heading, description) = if server_error {
        let title = "Something Went Wrong";
        (
            Route::server_error(),
            title,
            title,
            "Something went wrong on our side. Please take a breath and try again in a moment.",
        )
    } else {
        (Route::not_found(), copy.title.as_str(), copy.heading.as_str(), copy.text.as_str())
    };
    let mut h = head(ctx, &path, title, description.to_string());
    h.canonical = String::new();
    h.noindex = true;
    let props = ErrorProps {
        common: ctx.common(&path, Vec::new()),
        title: title.into(),
        heading: heading.into(),
        description: description.into(),
    };
    PagePlan {
        path,
        head: h,
        props: if server_error {
            PageProps::ServerError(props)
        } else {
            PageProps::NotFound(props)
        },
        markdown: None,
        source: None,
        body_of: None,
        live: ctx.live(),
        shows: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use stillpoint_content::build_catalog;

    use super::*;

    use crate::test_site::demo;

    fn hrefs(cards: &[crate::props::Card]) -> Vec<String> {
        cards.iter().map(|c| c.props().href).collect()
    }

    #[test]
    fn home_shows_each_article_once() {
        let site = demo();
        let catalog = build_catalog(&site);
        let ctx = PlanContext::new(&site, &catalog);
        let PageProps::Home(home) = home(&ctx).props else { panic!("home props") };
        let all: Vec<String> = [&home.featured, &home.top_stories, &home.popular, &home.more]
            .into_iter()
            .flat_map(|cards| hrefs(cards))
            .collect();
        let unique: HashSet<&String> = all.iter().collect();
        assert_eq!(unique.len(), all.len(), "an article twice on the home page: {all:?}");
        assert_eq!(home.popular.len(), POPULAR);
        // Fewer than every section can hold: every article is somewhere on the page.
        assert_eq!(all.len(), site.articles.len());
    }

    #[test]
    fn home_and_404_texts_come_from_the_configuration() {
        let mut site = demo();
        let catalog = build_catalog(&site);
        let plan = home(&PlanContext::new(&site, &catalog));
        assert_eq!(plan.head.title, "Guided Meditations for a Calmer You | Stillpoint");
        assert_eq!(plan.head.description, site.config.description);
        let PageProps::Home(props) = plan.props else { panic!("home props") };
        assert_eq!(props.heading, "Guided meditations for a calmer you");
        assert_eq!(props.titles.more, "Have More Awesome Stuff");

        let c = &mut site.config;
        c.home.title = "Still Waters".into();
        c.home.description = Some("Sit.".into());
        c.home.heading = "Sit still".into();
        c.home.lead = "Breathe.".into();
        c.home.top_stories.title = "Newest".into();
        c.not_found.title = "Lost".into();
        c.not_found.heading = "Nothing here".into();
        c.not_found.text = "Try the search.".into();
        let ctx = PlanContext::new(&site, &catalog);
        let plan = home(&ctx);
        assert_eq!(plan.head.title, "Still Waters | Stillpoint");
        assert_eq!(plan.head.description, "Sit.");
        let PageProps::Home(props) = plan.props else { panic!("home props") };
        assert_eq!((props.heading.as_str(), props.lead.as_str()), ("Sit still", "Breathe."));
        assert_eq!(props.titles.top_stories, "Newest");
        let plan = error_page(&ctx, false);
        assert_eq!(plan.head.title, "Lost | Stillpoint");
        assert_eq!(plan.head.description, "Try the search.");
        let PageProps::NotFound(props) = plan.props else { panic!("404 props") };
        assert_eq!((props.title.as_str(), props.heading.as_str()), ("Lost", "Nothing here"));
        assert_eq!(props.description, "Try the search.");
    }

    #[test]
    fn a_hidden_section_is_empty_and_its_articles_go_below() {
        let mut site = demo();
        let catalog = build_catalog(&site);
        site.config.home.top_stories.show = false;
        let ctx = PlanContext::new(&site, &catalog);
        let PageProps::Home(home) = home(&ctx).props else { panic!("home props") };
        assert!(home.top_stories.is_empty());
        assert_eq!(home.popular.len(), POPULAR);
        let all = home.featured.len() + home.popular.len() + home.more.len();
        assert_eq!(all, site.articles.len(), "every article is still on the page");
        site.config.home.popular.show = false;
        site.config.home.more.show = false;
        let ctx = PlanContext::new(&site, &catalog);
        let PageProps::Home(home) = super::home(&ctx).props else { panic!("home props") };
        assert_eq!(home.featured.len(), FEATURED);
        assert!(home.top_stories.is_empty() && home.popular.is_empty() && home.more.is_empty());
    }

    #[test]
    fn sitemap_lists_every_article_once_grouped_by_category() {
        let site = demo();
        let catalog = build_catalog(&site);
        let ctx = PlanContext::new(&site, &catalog);
        assert_eq!(sitemap_count(&ctx), 1, "50 articles fit on one page");
        let plans = [sitemap(&ctx, 1)];
        let PageProps::Sitemap(props) = &plans[0].props else { panic!("sitemap props") };
        let listed: Vec<&str> = props
            .articles
            .iter()
            .flat_map(|g| g.articles.iter().map(|l| l.href.as_str()))
            .collect();
        let expected: HashSet<String> =
            site.articles.iter().map(|a| format!("/articles/{}", a.slug)).collect();
        assert_eq!(listed.len(), site.articles.len());
        assert_eq!(listed.iter().map(|s| s.to_string()).collect::<HashSet<_>>(), expected);
        // One group per category that has articles, in topic order.
        let groups: Vec<String> = props
            .articles
            .iter()
            .map(|g| g.category.as_ref().expect("filed").href.clone())
            .collect();
        let in_order: Vec<String> = (0..site.topics.categories.len())
            .map(|ci| ctx.category_href(ci).to_string())
            .filter(|href| groups.contains(href))
            .collect();
        assert_eq!(groups, in_order);
    }

    #[test]
    fn sitemap_pages_past_the_page_size() {
        let site = demo();
        let catalog = build_catalog(&site);
        let ctx = PlanContext::new(&site, &catalog);
        let plans: Vec<PagePlan> = (1..=3).map(|n| sitemap_page(&ctx, n, 20)).collect();
        let paths: Vec<&str> = plans.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(paths, ["/sitemap", "/sitemap/page/2", "/sitemap/page/3"]);
        let mut listed = Vec::new();
        for (n, plan) in plans.iter().enumerate() {
            let PageProps::Sitemap(props) = &plan.props else { panic!("sitemap props") };
            assert_eq!(props.pagination.page, n + 1);
            assert_eq!(props.pagination.pages, 3);
            // The topic tree, authors and pages are on the first page only.
            assert_eq!(props.categories.is_empty(), n > 0);
            assert_eq!(props.authors.is_empty(), n > 0);
            let here: Vec<&str> = props
                .articles
                .iter()
                .flat_map(|g| g.articles.iter().map(|l| l.href.as_str()))
                .collect();
            assert!(here.len() <= 20);
            listed.extend(here);
        }
        assert_eq!(plans[1].head.prev.as_deref(), Some("https://stillpoint.example/sitemap"));
        let unique: HashSet<&str> = listed.iter().copied().collect();
        assert_eq!((listed.len(), unique.len()), (site.articles.len(), site.articles.len()));
    }
}
