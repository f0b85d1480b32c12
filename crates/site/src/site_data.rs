//! Site-wide data: what the header and footer slices and the search box need, shipped once.

use crate::plan::PlanContext;
use crate::props::{FooterData, FooterTitles, Link, SiteData, SocialLink, TopicNode};

pub fn site_data(ctx: &PlanContext, year: i16, search_manifest: String) -> SiteData {
    let c = ctx.config;
    let categories = ctx
        .topics
        .categories
        .iter()
        .enumerate()
        .filter(|&(ci, _)| ctx.lists_category(ci))
        .map(|(ci, cat)| TopicNode {
            key: cat.topic.key.clone(),
            slug: cat.topic.slug.clone(),
            title: cat.topic.title.clone(),
            description: cat.topic.description.clone(),
            href: ctx.category_href(ci).into(),
            children: cat
                .children
                .iter()
                .enumerate()
                .filter(|&(si, _)| ctx.lists_subcategory(ci, si))
                .map(|(si, ch)| TopicNode {
                    key: ch.key.clone(),
                    slug: ch.slug.clone(),
                    title: ch.title.clone(),
                    description: ch.description.clone(),
                    href: ctx.subcategory_href(ci, si).into(),
                    children: Vec::new(),
                })
                .collect(),
        })
        .collect();
    let empty = "images/search-empty.svg";
    SiteData {
        id: c.id.clone(),
        brand: c.title.clone(),
        url: c.url.clone(),
        description: c.description.clone(),
        logo: format!("/icons/{}-logo-small.png", c.id),
        contact_email: c.contact_email.clone(),
        social: (c.social.iter())
            .map(|s| SocialLink {
                label: s.label.clone(),
                href: s.url.clone(),
                icon: s.icon.clone(),
            })
            .collect(),
        footer: FooterData {
            titles: FooterTitles {
                categories: c.footer.titles.categories.clone(),
                info: c.footer.titles.info.clone(),
                contacts: c.footer.titles.contacts.clone(),
                mail: c.footer.titles.mail.clone(),
            },
            links: links(&c.footer.links),
            copyright: c.footer.copyright_line(year, &c.title),
        },
        header_links: links(&c.header.links),
        categories,
        year,
        search_manifest,
        search_empty_image: ctx
            .static_dir
            .filter(|d| d.join(empty).is_file())
            .map(|_| format!("/{empty}")),
    }
}

fn links(links: &[stillpoint_content::ConfigLink]) -> Vec<Link> {
    links.iter().map(|l| Link::new(l.label.clone(), l.href.clone())).collect()
}
