//! Listing pages: category, subcategory, sub-subcategory and author, 24 articles a page,
//! paginated as `{route}/page/{n}` for n ≥ 2.

use serde_json::json;

use super::fixed::breadcrumbs_ld;
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

/// Pages of a listing: (page number, route, the slice of articles, pagination).
fn paginate<'l>(
    base: &Route,
    articles: &'l [usize],
) -> impl Iterator<Item = (usize, Route, &'l [usize], Pagination)> {
    let pages = articles.len().div_ceil(PAGE_SIZE).max(1);
    let base = base.clone();
    (1..=pages).map(move |n| {
        let start = (n - 1) * PAGE_SIZE;
        let slice = &articles[start.min(articles.len())..(start + PAGE_SIZE).min(articles.len())];
        (n, base.page(n), slice, pagination(&base, n, pages))
    })
}

struct Listing<'l> {
    kind: fn(ListingProps) -> PageProps,
    base: Route,
    title: String,
    description: String,
    breadcrumbs: Vec<Link>,
    children: Vec<Link>,
    articles: &'l [usize],
    cover: Option<String>,
}

fn push_listing<'a>(ctx: &PlanContext<'a>, l: Listing<'_>, out: &mut Vec<PagePlan<'a>>) {
    for (n, path, slice, pagination) in paginate(&l.base, l.articles) {
        let page_title = if n > 1 { format!("{} (Page {n})", l.title) } else { l.title.clone() };
        let mut head = Head {
            title: ctx.title(&page_title),
            description: l.description.clone(),
            canonical: ctx.absolute(&path),
            og_type: "website",
            image: l.cover.as_deref().map(|c| ctx.absolute(c)),
            prev: pagination.prev.as_deref().map(|p| ctx.absolute(p)),
            next: pagination.next.as_deref().map(|p| ctx.absolute(p)),
            ..Head::default()
        };
        head.json_ld.push(breadcrumbs_ld(ctx, &l.breadcrumbs, &l.title));
        out.push(PagePlan {
            head,
            props: (l.kind)(ListingProps {
                common: ctx.common(&path, l.breadcrumbs.clone()),
                title: l.title.clone(),
                description: l.description.clone(),
                children: l.children.clone(),
                articles: ctx.cards(slice),
                total: l.articles.len(),
                pagination,
                cover: l.cover.clone(),
            }),
            path,
            markdown: None,
            source: None,
        });
    }
}

/// Cover image of a category, when the site has one at `static/images/covers/{slug}.svg`.
fn cover(ctx: &PlanContext, ci: usize) -> Option<String> {
    let slug = &ctx.site.topics.categories[ci].topic.slug;
    let rel = format!("images/covers/{slug}.svg");
    ctx.site.static_dir.as_ref().filter(|d| d.join(&rel).is_file()).map(|_| format!("/{rel}"))
}

pub fn topics<'a>(ctx: &PlanContext<'a>, out: &mut Vec<PagePlan<'a>>) {
    for (ci, category) in ctx.site.topics.categories.iter().enumerate() {
        let index = &ctx.catalog.categories[ci];
        let cover = cover(ctx, ci);
        push_listing(
            ctx,
            Listing {
                kind: PageProps::Category,
                base: ctx.category_href(ci),
                title: category.topic.title.clone(),
                description: category.topic.description.clone(),
                breadcrumbs: vec![ctx.home_link()],
                children: (0..category.children.len())
                    .map(|si| ctx.subcategory_link(ci, si))
                    .collect(),
                articles: &index.articles,
                cover: cover.clone(),
            },
            out,
        );
        for (si, sub) in category.children.iter().enumerate() {
            let sub_index = &index.subcategories[si];
            let sub_href = ctx.subcategory_href(ci, si);
            push_listing(
                ctx,
                Listing {
                    kind: PageProps::Subcategory,
                    base: sub_href.clone(),
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
                    cover: cover.clone(),
                },
                out,
            );
            for ss in &sub_index.subsubcategories {
                let n = ss.articles.len();
                push_listing(
                    ctx,
                    Listing {
                        kind: PageProps::Subsubcategory,
                        base: ctx.subsubcategory_href(ci, si, &ss.slug),
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
                        cover: cover.clone(),
                    },
                    out,
                );
            }
        }
    }
}

pub fn authors<'a>(ctx: &PlanContext<'a>, out: &mut Vec<PagePlan<'a>>) {
    let authors_link = Link::new("Authors", Route::authors());
    for (ai, author) in ctx.site.authors.list.iter().enumerate() {
        let base = ctx.author_href(ai);
        let articles = &ctx.catalog.by_author[ai];
        for (n, path, slice, pagination) in paginate(&base, articles) {
            let title = if n > 1 {
                format!("{} (Page {n})", author.meta_title)
            } else {
                author.meta_title.clone()
            };
            let breadcrumbs = vec![ctx.home_link(), authors_link.clone()];
            let mut head = Head {
                title: ctx.title(&title),
                description: author.meta_description.clone(),
                canonical: ctx.absolute(&path),
                og_type: "profile",
                prev: pagination.prev.as_deref().map(|p| ctx.absolute(p)),
                next: pagination.next.as_deref().map(|p| ctx.absolute(p)),
                ..Head::default()
            };
            head.json_ld.push(json!({
                "@context": "https://schema.org",
                "@type": "Person",
                "name": author.name,
                "jobTitle": author.meta_title.split_once(", ").map_or(author.meta_title.as_str(), |(_, r)| r),
                "description": author.meta_description,
                "url": ctx.absolute(&base),
            }));
            head.json_ld.push(breadcrumbs_ld(ctx, &breadcrumbs, &author.name));
            out.push(PagePlan {
                head,
                props: PageProps::Author(AuthorProps {
                    common: ctx.common(&path, breadcrumbs),
                    name: author.name.clone(),
                    role: author.meta_title.clone(),
                    bio_html: String::new(),
                    articles: ctx.cards(slice),
                    total: articles.len(),
                    pagination,
                }),
                path,
                markdown: Some(Markdown::new(&author.description, ctx.site.config.unsafe_html)),
                source: None,
            });
        }
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
    }

    #[test]
    fn empty_listing_has_one_page() {
        let x = Route::category("x");
        let pages: Vec<_> = paginate(&x, &[]).collect();
        assert_eq!(pages.len(), 1);
        let items: Vec<usize> = (0..49).collect();
        let pages: Vec<_> =
            paginate(&x, &items).map(|(n, p, s, _)| (n, p.to_string(), s.len())).collect();
        assert_eq!(
            pages,
            [(1, "/x".to_string(), 24), (2, "/x/page/2".into(), 24), (3, "/x/page/3".into(), 1)]
        );
    }
}
