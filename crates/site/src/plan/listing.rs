//! Listing pages: category, subcategory, sub-subcategory and author, 24 articles a page,
//! paginated as `{route}/page/{n}` for n ≥ 2.

use serde_json::json;
use stillpoint_content::ArticleId;

use super::json_ld::{breadcrumbs_ld, json_ld};
use super::{Head, PAGE_SIZE, PagePlan, PlanContext, strip_emoji};
use crate::props::{AuthorProps, Link, ListingProps, PageProps, Pagination};
use crate::render::Markdown;
use crate::route::Route;

pub(super) fn pagination(base: &Route, page: usize, pages: usize) -> Pagination {
    Pagination {
        page,
        pages,
        prev: (page > 1).then(|| base.page(page - 1).into()),
        next: (page < pages).then(|| base.page(page + 1).into()),
        first: base.page(1).into(),
    }
}

/// How many pages a listing of `len` articles has (one, even when empty).
fn page_count(len: usize) -> usize {
    len.div_ceil(PAGE_SIZE).max(1)
}

/// Page `n` (from 1) of a listing: its route, its slice of articles and its pagination.
fn paginate<'l, T>(base: &Route, articles: &'l [T], n: usize) -> (Route, &'l [T], Pagination) {
    let start = ((n - 1) * PAGE_SIZE).min(articles.len());
    let slice = &articles[start..(start + PAGE_SIZE).min(articles.len())];
    (base.page(n), slice, pagination(base, n, page_count(articles.len())))
}

/// A topic of the tree by its indices: category, subcategory, sub-subcategory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    Category(usize),
    Subcategory(usize, usize),
    Subsubcategory(usize, usize, usize),
}

struct Listing<'l> {
    kind: fn(ListingProps) -> PageProps,
    base: Route,
    title: String,
    description: String,
    breadcrumbs: Vec<Link>,
    children: Vec<Link>,
    articles: &'l [ArticleId],
    cover: Option<String>,
    /// The subcategory the listing is about (its own, or its sub-subcategory's): cards filed
    /// first under it leave out their topic eyebrow.
    here: Option<(usize, usize)>,
}

/// The head of page `n` of a listing titled `title`: `{title} (Page n)` past the first, with
/// rel=prev/next.
fn page_head(
    ctx: &PlanContext,
    (path, n, pagination): (&Route, usize, &Pagination),
    title: &str,
    description: &str,
    og_type: &'static str,
) -> Head {
    let page_title = if n > 1 { format!("{title} (Page {n})") } else { title.to_string() };
    Head {
        title: ctx.title(&page_title),
        description: description.to_string(),
        canonical: ctx.absolute(path),
        og_type,
        prev: pagination.prev.as_deref().map(|p| ctx.absolute(p)),
        next: pagination.next.as_deref().map(|p| ctx.absolute(p)),
        ..Head::default()
    }
}

fn listing_page<'a>(ctx: &PlanContext<'a>, l: Listing<'_>, n: usize) -> PagePlan<'a> {
    let (path, slice, pagination) = paginate(&l.base, l.articles, n);
    let mut head = page_head(ctx, (&path, n, &pagination), &l.title, &l.description, "website");
    head.image = l.cover.as_deref().map(|c| ctx.image_url(c));
    // A topic with no articles is a thin page: there for links, not for search engines.
    head.noindex = l.articles.is_empty();
    head.json_ld.push(breadcrumbs_ld(ctx, &l.breadcrumbs, &l.title));
    PagePlan {
        head,
        props: (l.kind)(ListingProps {
            common: ctx.common(&path, l.breadcrumbs),
            title: l.title,
            description: l.description,
            // The child topics are listed on the first page only: a subcategory's can be 60 links.
            children: if n == 1 { l.children } else { Vec::new() },
            articles: ctx.cards(slice, l.here),
            total: l.articles.len(),
            pagination,
            cover: l.cover,
        }),
        path,
        markdown: None,
        source: None,
        body_of: None,
        live: ctx.live(),
        shows: Vec::new(),
    }
}

/// Cover image of a category, when the site has one at `static/images/covers/{slug}.svg`.
fn cover(ctx: &PlanContext, ci: usize) -> Option<String> {
    let slug = &ctx.topics.categories[ci].topic.slug;
    let rel = format!("images/covers/{slug}.svg");
    ctx.static_dir.filter(|d| d.join(&rel).is_file()).map(|_| format!("/{rel}"))
}

/// Every topic of the tree in page order (each category, then each of its subcategories followed
/// by that subcategory's sub-subcategories), with its number of listing pages.
pub fn topics(ctx: &PlanContext) -> Vec<(Topic, usize)> {
    let mut out = Vec::new();
    for (ci, index) in ctx.catalog.categories.iter().enumerate() {
        out.push((Topic::Category(ci), page_count(index.articles.len())));
        for (si, sub) in index.subcategories.iter().enumerate() {
            out.push((Topic::Subcategory(ci, si), page_count(sub.articles.len())));
            for (ssi, ss) in sub.subsubcategories.iter().enumerate() {
                out.push((Topic::Subsubcategory(ci, si, ssi), page_count(ss.articles.len())));
            }
        }
    }
    out
}

/// The route of a topic's first listing page.
pub fn topic_route(ctx: &PlanContext, topic: Topic) -> Route {
    match topic {
        Topic::Category(ci) => ctx.category_href(ci),
        Topic::Subcategory(ci, si) => ctx.subcategory_href(ci, si),
        Topic::Subsubcategory(ci, si, ssi) => {
            let ss = &ctx.catalog.categories[ci].subcategories[si].subsubcategories[ssi];
            ctx.subsubcategory_href(ci, si, &ss.slug)
        }
    }
}

/// Listing page `n` of `topic`.
pub fn topic_page<'a>(ctx: &PlanContext<'a>, topic: Topic, n: usize) -> PagePlan<'a> {
    let base = topic_route(ctx, topic);
    let listing = match topic {
        Topic::Category(ci) => {
            let category = &ctx.topics.categories[ci];
            Listing {
                kind: PageProps::Category,
                base,
                title: category.topic.title.clone(),
                description: category.topic.description.clone(),
                breadcrumbs: vec![ctx.home_link()],
                children: (0..category.children.len())
                    .filter(|&si| ctx.lists_subcategory(ci, si))
                    .map(|si| ctx.subcategory_link(ci, si))
                    .collect(),
                articles: &ctx.catalog.categories[ci].articles,
                cover: cover(ctx, ci),
                here: None,
            }
        }
        Topic::Subcategory(ci, si) => {
            let sub = &ctx.topics.categories[ci].children[si];
            let sub_index = &ctx.catalog.categories[ci].subcategories[si];
            Listing {
                kind: PageProps::Subcategory,
                base,
                title: sub.title.clone(),
                description: sub.description.clone(),
                breadcrumbs: vec![ctx.home_link(), ctx.category_link(ci)],
                children: sub_index
                    .subsubcategories
                    .iter()
                    .map(|ss| {
                        Link::new(ss.label.clone(), ctx.subsubcategory_href(ci, si, &ss.slug))
                    })
                    .collect(),
                articles: &sub_index.articles,
                cover: cover(ctx, ci),
                here: Some((ci, si)),
            }
        }
        Topic::Subsubcategory(ci, si, ssi) => {
            let sub = &ctx.topics.categories[ci].children[si];
            let ss = &ctx.catalog.categories[ci].subcategories[si].subsubcategories[ssi];
            let n = ss.articles.len();
            Listing {
                kind: PageProps::Subsubcategory,
                base,
                title: ss.label.clone(),
                description: format!(
                    "{n} article{} about {} in {}, from {}.",
                    if n == 1 { "" } else { "s" },
                    ss.label.to_lowercase(),
                    strip_emoji(&sub.title),
                    ctx.brand()
                ),
                breadcrumbs: vec![
                    ctx.home_link(),
                    ctx.category_link(ci),
                    ctx.subcategory_link(ci, si),
                ],
                children: Vec::new(),
                articles: &ss.articles,
                cover: cover(ctx, ci),
                here: Some((ci, si)),
            }
        }
    };
    listing_page(ctx, listing, n)
}

/// How many listing pages author `ai` has.
pub fn author_page_count(ctx: &PlanContext, ai: usize) -> usize {
    page_count(ctx.catalog.by_author[ai].len())
}

/// Page `n` of author `ai`'s listing.
pub fn author_page<'a>(ctx: &PlanContext<'a>, ai: usize, n: usize) -> PagePlan<'a> {
    let authors_link = Link::new("Authors", Route::authors());
    let author = &ctx.authors.list[ai];
    let base = ctx.author_href(ai);
    let articles = &ctx.catalog.by_author[ai];
    let (path, slice, pagination) = paginate(&base, articles, n);
    let breadcrumbs = vec![ctx.home_link(), authors_link];
    let (title, description) = (&author.meta_title, &author.meta_description);
    let mut head = page_head(ctx, (&path, n, &pagination), title, description, "profile");
    let mut person = json!({
        "@context": "https://schema.org",
        "@type": "Person",
        "name": author.name,
        "jobTitle": author.meta_title.split_once(", ").map_or(author.meta_title.as_str(), |(_, r)| r),
        "description": author.meta_description,
        "url": ctx.absolute(&base),
    });
    if let Some(photo) = &author.photo
        && let Some(url) = ctx.share_image(std::path::Path::new("data/authors.toml"), &photo.value)
    {
        person["image"] = json!(url);
    }
    head.json_ld.push(json_ld(&person));
    head.json_ld.push(breadcrumbs_ld(ctx, &breadcrumbs, &author.name));
    PagePlan {
        head,
        props: PageProps::Author(AuthorProps {
            common: ctx.common(&path, breadcrumbs),
            name: author.name.clone(),
            role: author.meta_title.clone(),
            photo: ctx.author_photo(ai),
            bio_html: String::new(),
            articles: ctx.cards(slice, None),
            total: articles.len(),
            pagination,
        }),
        path,
        markdown: Some(Markdown::new(&author.description, ctx.config.unsafe_html)),
        source: None,
        body_of: None,
        live: ctx.live(),
        shows: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_routes() {
        let p = pagination(&Route::category("sleep"), 2, 3);
        assert_eq!(p.prev.as_deref(), Some("/sleep"));
        assert_eq!(p.next.as_deref(), Some("/sleep/page/3"));
        assert_eq!(p.first, "/sleep");
        assert_eq!(format!("{}/page/3", p.first), Route::category("sleep").page(3).as_str());
    }

    #[test]
    fn empty_listing_has_one_page() {
        let x = Route::category("x");
        assert_eq!(page_count(0), 1);
        assert_eq!(paginate::<ArticleId>(&x, &[], 1).1.len(), 0);
        let items: Vec<usize> = (0..49).collect();
        let pages: Vec<_> = (1..=page_count(items.len()))
            .map(|n| (n, paginate(&x, &items, n)))
            .map(|(n, (p, s, _))| (n, p.to_string(), s.len()))
            .collect();
        assert_eq!(
            pages,
            [(1, "/x".to_string(), 24), (2, "/x/page/2".into(), 24), (3, "/x/page/3".into(), 1)]
        );
    }
}
