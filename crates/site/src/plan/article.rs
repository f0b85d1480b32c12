//! Article pages.

use crate::route::Route;
use serde::Serialize;
use stillpoint_content::{Article, ArticleId};

use super::json_ld::{breadcrumbs_ld, json_ld};
use super::{Head, PagePlan, PlanContext, strip_emoji};
use crate::props::{ArticleAudio, ArticleProps, AuthorByline, Link, PageProps, TopicPair};
use crate::render::Markdown;

/// Related articles shown under an article.
const RELATED: usize = 4;

/// The page of article `i`, `a`, its Markdown body still to be read ([`PagePlan::read_body`]).
/// ([`PlanContext::article_page`] hands it the article.)
pub fn article<'a>(ctx: &PlanContext<'a>, i: ArticleId, a: &'a Article) -> PagePlan<'a> {
    let path = Route::article(&a.slug);
    let filing = ctx.catalog.filing(i);
    let topics: Vec<TopicPair> = filing
        .topics
        .iter()
        .map(|&(ci, si)| TopicPair {
            category: ctx.category_link(ci),
            subcategory: ctx.subcategory_link(ci, si),
        })
        .collect();
    let breadcrumbs = match filing.topics.first() {
        Some(&(ci, si)) => {
            vec![ctx.home_link(), ctx.category_link(ci), ctx.subcategory_link(ci, si)]
        }
        None => vec![ctx.home_link()],
    };
    // Each tag page lives under the subcategory the catalog filed the label in.
    let tags: Vec<Link> = filing
        .tags
        .iter()
        .map(|&(ci, si, ssi)| {
            let tag = &ctx.catalog.categories[ci].subcategories[si].subsubcategories[ssi];
            Link::new(tag.label.clone(), ctx.subsubcategory_href(ci, si, &tag.slug))
        })
        .collect();
    let related = related(ctx, i);
    let author_index = ctx.author_index(a.author.as_ref().map(|l| l.value.as_str()));
    let author = author_index.map(|ai| {
        let au = &ctx.authors.list[ai];
        AuthorByline {
            label: au.name.clone(),
            href: ctx.author_href(ai).into(),
            role: au.meta_title.clone(),
        }
    });
    let image = ctx.cover(i);
    let url = ctx.absolute(&path);
    let mut head = Head {
        title: ctx.title(&a.title),
        description: a.description.clone(),
        canonical: url.clone(),
        og_type: "article",
        image: a.image_target.as_ref().and_then(|target| ctx.share_image_of(target)),
        published: Some(a.date.to_string()),
        ..Head::default()
    };
    let recording = ctx.audio(a.audio.as_ref().map(|l| l.value.as_path()));
    let audio = recording.map(|r| {
        Box::new(ArticleAudio {
            src: r.url(),
            kind: r.kind.mime().to_string(),
            seconds: r.seconds(),
        })
    });
    let ld = ArticleLd {
        context: "https://schema.org",
        kind: "Article",
        section: filing
            .topics
            .first()
            .map(|&(ci, _)| strip_emoji(&ctx.topics.categories[ci].topic.title)),
        audio: recording.map(|r| AudioLd {
            kind: "AudioObject",
            size: r.bytes.to_string(),
            url: ctx.absolute(&r.url()),
            duration: iso_duration(r.seconds()),
            format: r.kind.mime(),
            name: &a.title,
        }),
        author: author_index.map(|ai| PersonLd {
            kind: "Person",
            name: &ctx.authors.list[ai].name,
            url: ctx.absolute(&ctx.author_href(ai)),
        }),
        modified: a.updated.map(|d| d.to_string()),
        published: a.date.to_string(),
        description: &a.description,
        headline: &a.title,
        image: head.image.as_deref(),
        page: &url,
        publisher: OrganizationLd {
            kind: "Organization",
            logo: ImageLd { kind: "ImageObject", url: ctx.absolute(&logo(ctx)) },
            name: ctx.brand(),
        },
        words: a.words,
    };
    head.json_ld.push(json_ld(&ld));
    head.json_ld.push(breadcrumbs_ld(ctx, &breadcrumbs, &a.title));
    PagePlan {
        head,
        props: PageProps::Article(ArticleProps {
            common: ctx.common(&path, breadcrumbs),
            title: a.title.clone(),
            description: a.description.clone(),
            date: a.date.to_string(),
            updated: a.updated.map(|d| d.to_string()),
            draft: a.draft,
            author,
            reading_minutes: super::reading_minutes(a.words),
            image,
            audio,
            body_html: String::new(),
            toc: Vec::new(),
            related,
            topics,
            tags,
            url,
        }),
        path,
        markdown: Some(
            Markdown::new("", ctx.config.unsafe_html)
                .with_images(ctx.body_images(&a.source, &a.images))
                .with_embeds(ctx.embed_files(a)),
        ),
        source: Some(ctx.images.article_source(i, a.digest)),
        body_of: Some(i),
        live: ctx.live(),
        shows: Vec::new(),
    }
}

/// An ISO 8601 duration of whole seconds: `PT12M30S`, `PT1H2M`, `PT45S`.
pub fn iso_duration(seconds: u64) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let mut out = String::from("PT");
    if h > 0 {
        out.push_str(&format!("{h}H"));
    }
    if m > 0 {
        out.push_str(&format!("{m}M"));
    }
    if s > 0 || (h == 0 && m == 0) {
        out.push_str(&format!("{s}S"));
    }
    out
}

fn logo(ctx: &PlanContext) -> String {
    format!("/icons/{}-logo-small.png", ctx.config.id)
}

/// Up to four other articles of the first subcategory, then of the first category, newest first.
/// Their cards leave out the article's own subcategory, which its breadcrumbs name, and their
/// descriptions: a short "read next" list of titles.
fn related(ctx: &PlanContext, i: ArticleId) -> Vec<crate::props::Card> {
    let Some(&(ci, si)) = ctx.catalog.topics_of(i).first() else { return Vec::new() };
    let cat = &ctx.catalog.categories[ci];
    // Stops at the fourth: the lists hold thousands of articles on a large site.
    let mut picks: Vec<ArticleId> = Vec::with_capacity(RELATED);
    for j in cat.subcategories[si].articles.iter().chain(&cat.articles).copied() {
        if picks.len() == RELATED {
            break;
        }
        if j != i && !picks.contains(&j) {
            picks.push(j);
        }
    }
    picks.into_iter().map(|j| ctx.card(j, Some((ci, si)), false)).collect()
}

// An article's schema.org JSON-LD, its keys declared in alphabetical order (the order of the
// `serde_json::Value` it was written from before, so the pages did not change).

#[derive(Serialize)]
struct ArticleLd<'a> {
    #[serde(rename = "@context")]
    context: &'static str,
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(rename = "articleSection", skip_serializing_if = "Option::is_none")]
    section: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    audio: Option<AudioLd<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    author: Option<PersonLd<'a>>,
    #[serde(rename = "dateModified", skip_serializing_if = "Option::is_none")]
    modified: Option<String>,
    #[serde(rename = "datePublished")]
    published: String,
    description: &'a str,
    headline: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    image: Option<&'a str>,
    #[serde(rename = "mainEntityOfPage")]
    page: &'a str,
    publisher: OrganizationLd<'a>,
    #[serde(rename = "wordCount")]
    words: u32,
}

#[derive(Serialize)]
struct AudioLd<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(rename = "contentSize")]
    size: String,
    #[serde(rename = "contentUrl")]
    url: String,
    duration: String,
    #[serde(rename = "encodingFormat")]
    format: &'a str,
    name: &'a str,
}

#[derive(Serialize)]
struct PersonLd<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    name: &'a str,
    url: String,
}

#[derive(Serialize)]
struct OrganizationLd<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    logo: ImageLd,
    name: &'a str,
}

#[derive(Serialize)]
struct ImageLd {
    #[serde(rename = "@type")]
    kind: &'static str,
    url: String,
}

#[cfg(test)]
mod tests {
    use super::iso_duration;

    #[test]
    fn iso_8601_durations() {
        assert_eq!(iso_duration(750), "PT12M30S");
        assert_eq!(iso_duration(45), "PT45S");
        assert_eq!(iso_duration(3720), "PT1H2M");
        assert_eq!(iso_duration(3600), "PT1H");
        assert_eq!(iso_duration(0), "PT0S");
    }
}
