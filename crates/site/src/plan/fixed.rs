//! The fixed pages: home, authors, the information pages, the sitemap and the error pages.

use serde_json::json;
use stillpoint_content::{InfoPage, truncate_words};

use super::{Head, NOT_FOUND_DESCRIPTION, PagePlan, PlanContext, strip_emoji};
use crate::props::{
    AuthorSummary, AuthorsProps, ErrorProps, HomeProps, InfoProps, Link, PageProps,
    SitemapCategory, SitemapProps, SitemapSubcategory,
};
use crate::render::Markdown;
use crate::route::Route;

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
    let newest = &ctx.catalog.newest;
    let featured: Vec<usize> = newest.iter().copied().take(FEATURED).collect();
    let top: Vec<usize> = newest.iter().copied().skip(FEATURED).take(TOP_STORIES).collect();
    let popular = popular(ctx, POPULAR);
    let more: Vec<usize> = newest
        .iter()
        .copied()
        .skip(FEATURED + TOP_STORIES)
        .take(MORE_FIRST + MORE_STEP * MORE_STEPS)
        .collect();
    let c = &ctx.site.config;
    let mut h = head(ctx, "/", "Guided Meditations for a Calmer You", c.description.clone());
    h.json_ld.push(json!({
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
    }));
    PagePlan {
        path: Route::home(),
        head: h,
        props: PageProps::Home(HomeProps {
            common: ctx.common("/", Vec::new()),
            featured: ctx.cards(&featured),
            top_stories: ctx.cards(&top),
            popular: ctx.cards(&popular),
            more: ctx.cards(&more),
        }),
        markdown: None,
    }
}

/// "Popular": the articles other articles link to most (a signal the content itself carries),
/// newest first among equals.
fn popular(ctx: &PlanContext, n: usize) -> Vec<usize> {
    let site = ctx.site;
    let by_slug: std::collections::HashMap<&str, usize> =
        site.articles.iter().enumerate().map(|(i, a)| (a.slug.as_str(), i)).collect();
    let mut inbound = vec![0u32; site.articles.len()];
    for a in &site.articles {
        for l in &a.links {
            if let Some(&i) = Route::article_slug(&l.value).and_then(|s| by_slug.get(s))
                && site.articles[i].slug != a.slug
            {
                inbound[i] += 1;
            }
        }
    }
    let mut order: Vec<usize> = ctx.catalog.newest.clone();
    order.sort_by_key(|&i| std::cmp::Reverse(inbound[i])); // stable: keeps newest-first among equals
    order.truncate(n);
    order
}

pub fn authors<'a>(ctx: &PlanContext<'a>) -> PagePlan<'a> {
    let brand = ctx.brand();
    let authors = ctx
        .site
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

pub fn info<'a>(ctx: &PlanContext<'a>, page: &'a InfoPage) -> PagePlan<'a> {
    let brand = ctx.brand();
    let (title, description) = match page.name.as_str() {
        "about-us" => (
            "About Us",
            format!(
                "Who we are and why {brand} exists: calm, practical, evidence-informed writing on meditation and mindfulness."
            ),
        ),
        "privacy-policy" => (
            "Privacy Policy",
            format!(
                "How {brand} handles your data: no accounts, no cookies of our own, and a search that runs in your browser."
            ),
        ),
        _ => (
            "Terms of Service",
            format!(
                "The terms for using {brand}: informational articles about meditation and mindfulness, not medical advice."
            ),
        ),
    };
    let path = Route::info(&page.name);
    let description = page.description.clone().unwrap_or(description);
    let mut h = head(ctx, &path, title, description);
    h.json_ld.push(breadcrumbs_ld(ctx, &[ctx.home_link()], title));
    PagePlan {
        props: PageProps::Info(InfoProps {
            common: ctx.common(&path, vec![ctx.home_link()]),
            title: page.title.clone().unwrap_or_else(|| title.to_string()),
            body_html: String::new(),
        }),
        path,
        head: h,
        markdown: Some(Markdown::new(&page.body, ctx.site.config.unsafe_html)),
    }
}

pub fn sitemap<'a>(ctx: &PlanContext<'a>) -> PagePlan<'a> {
    let site = ctx.site;
    let categories = site
        .topics
        .categories
        .iter()
        .enumerate()
        .map(|(ci, c)| SitemapCategory {
            category: ctx.category_link(ci),
            subcategories: (0..c.children.len())
                .map(|si| SitemapSubcategory {
                    subcategory: ctx.subcategory_link(ci, si),
                    subsubcategories: ctx.catalog.categories[ci].subcategories[si]
                        .subsubcategories
                        .iter()
                        .map(|ss| {
                            Link::new(ss.label.clone(), ctx.subsubcategory_href(ci, si, &ss.slug))
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    let authors = site
        .authors
        .list
        .iter()
        .enumerate()
        .map(|(ai, a)| Link::new(a.name.clone(), ctx.author_href(ai)))
        .collect();
    let pages = vec![
        Link::new("Home", "/"),
        Link::new("Authors", Route::authors()),
        Link::new("About Us", "/info/about-us"),
        Link::new("Privacy Policy", "/privacy-policy"),
        Link::new("Terms of Service", "/terms"),
    ];
    let description = format!("Every category, topic and author on {}, on one page.", ctx.brand());
    let mut h = head(ctx, "/sitemap", "Sitemap", description);
    h.json_ld.push(breadcrumbs_ld(ctx, &[ctx.home_link()], "Sitemap"));
    PagePlan {
        path: Route::sitemap(),
        head: h,
        props: PageProps::Sitemap(SitemapProps {
            common: ctx.common("/sitemap", vec![ctx.home_link()]),
            title: "Sitemap".into(),
            categories,
            authors,
            pages,
        }),
        markdown: None,
    }
}

pub fn error_page<'a>(ctx: &PlanContext<'a>, server_error: bool) -> PagePlan<'a> {
    let (path, title, description) = if server_error {
        (
            Route::server_error(),
            "Something Went Wrong",
            "Something went wrong on our side. Please take a breath and try again in a moment.",
        )
    } else {
        (Route::not_found(), "Page Not Found", NOT_FOUND_DESCRIPTION)
    };
    let mut h = head(ctx, &path, title, description.to_string());
    h.canonical = String::new();
    h.noindex = true;
    let props = ErrorProps {
        common: ctx.common(&path, Vec::new()),
        title: title.into(),
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
    }
}

/// A schema.org BreadcrumbList: the given trail, then the current page by name.
pub fn breadcrumbs_ld(ctx: &PlanContext, trail: &[Link], current: &str) -> serde_json::Value {
    let mut items: Vec<serde_json::Value> = trail
        .iter()
        .enumerate()
        .map(|(n, l)| {
            json!({"@type": "ListItem", "position": n + 1, "name": strip_emoji(&l.label), "item": ctx.absolute(&l.href)})
        })
        .collect();
    items.push(
        json!({"@type": "ListItem", "position": trail.len() + 1, "name": strip_emoji(current)}),
    );
    json!({"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": items})
}
