//! `sitemap.xml`, `robots.txt`, `rss.xml` and `atom.xml`.

use rayon::prelude::*;
use std::fmt::Write as _;

use stillpoint_content::SiteConfig;

use crate::layout::{ATOM_XML, PAGE_DATA_DIR, RSS_XML, SITEMAP_XML, SLICE_DATA_DIR, sitemap_part};
use crate::plan::{ArticleSummary, PlanContext, SitePage};
use crate::render::escape;

/// Entries in each feed.
pub const FEED_SIZE: usize = 50;

/// URLs in one sitemap file: the sitemap protocol's limit.
pub const SITEMAP_URLS: usize = 50_000;

/// The XML sitemap of every page but the error pages and thin topic pages (no articles), as (file, XML): `sitemap.xml` alone up to
/// [`SITEMAP_URLS`] pages; past that, `sitemap.xml` is a sitemap index of `sitemap-1.xml`,
/// `sitemap-2.xml`, … of that many URLs each.
#[cfg(test)]
pub fn sitemap_files(ctx: &PlanContext, pages: &[SitePage]) -> Vec<(String, String)> {
    sitemap_files_of(ctx, pages, SITEMAP_URLS)
}

/// [`sitemap_files`] handed to `put` one by one, in the same order, made a few at a time (one
/// per thread): at 1,000,000 articles the 24 sitemaps are about 120 MB, which a build at its
/// peak does not also hold at once.
pub fn each_sitemap_file<E>(
    ctx: &PlanContext,
    pages: &[SitePage],
    put: impl FnMut(&str, String) -> Result<(), E>,
) -> Result<(), E> {
    each_sitemap_file_of(ctx, pages, SITEMAP_URLS, put)
}

#[cfg(test)]
fn sitemap_files_of(ctx: &PlanContext, pages: &[SitePage], limit: usize) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let put = |name: &str, xml| {
        files.push((name.to_string(), xml));
        Ok::<_, std::convert::Infallible>(())
    };
    let Ok(()) = each_sitemap_file_of(ctx, pages, limit, put);
    files
}

fn each_sitemap_file_of<E>(
    ctx: &PlanContext,
    pages: &[SitePage],
    limit: usize,
    mut put: impl FnMut(&str, String) -> Result<(), E>,
) -> Result<(), E> {
    let listed: Vec<&SitePage> = pages.iter().filter(|p| ctx.in_sitemap(p)).collect();
    if listed.len() <= limit {
        return put(SITEMAP_XML, urlset(ctx, &listed));
    }
    let batch = limit * rayon::current_num_threads().max(1);
    for (b, group) in listed.chunks(batch).enumerate() {
        let made: Vec<String> = group.par_chunks(limit).map(|chunk| urlset(ctx, chunk)).collect();
        for (k, xml) in made.into_iter().enumerate() {
            put(&sitemap_part(b * batch / limit + k + 1), xml)?;
        }
    }
    let mut index = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for n in 1..=listed.len().div_ceil(limit) {
        let loc = escape(&ctx.absolute(&format!("/{}", sitemap_part(n))));
        let _ = writeln!(index, "<sitemap><loc>{loc}</loc></sitemap>");
    }
    index.push_str("</sitemapindex>\n");
    put(SITEMAP_XML, index)
}

fn urlset(ctx: &PlanContext, pages: &[&SitePage]) -> String {
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for p in pages {
        let _ = write!(x, "<url><loc>{}</loc>", escape(&ctx.absolute(&p.path)));
        if let Some(i) = p.article() {
            let a = ctx.summary(i).placement;
            let _ = write!(x, "<lastmod>{}</lastmod>", a.updated.unwrap_or(a.date));
        }
        x.push_str("</url>\n");
    }
    x.push_str("</urlset>\n");
    x
}

/// `robots.txt`: everything but the data files may be crawled, and the sitemap is named; with
/// `noindex` (a build not for production) or in a preview with drafts (`build --drafts`) nothing
/// may be crawled.
pub fn robots_txt(ctx: &PlanContext) -> String {
    if ctx.noindex || ctx.schedule.preview {
        return "User-agent: *\nDisallow: /\n".to_string();
    }
    format!(
        "User-agent: *\nAllow: /\nDisallow: /{PAGE_DATA_DIR}/\nDisallow: /{SLICE_DATA_DIR}/\n\nSitemap: {}/{SITEMAP_XML}\n",
        ctx.config.url
    )
}

/// The newest articles, as the feeds show them.
fn latest<'a>(ctx: &'a PlanContext) -> impl Iterator<Item = ArticleSummary<'a>> {
    ctx.catalog.newest.iter().take(FEED_SIZE).map(|&i| ctx.summary(i))
}

/// RFC 822 date at midnight UTC.
fn rfc822(d: jiff::civil::Date) -> String {
    d.to_zoned(jiff::tz::TimeZone::UTC)
        .map(|z| z.strftime("%a, %d %b %Y %H:%M:%S +0000").to_string())
        .unwrap_or_default()
}

/// Text for an RSS `<title>` or `<description>`: readers take both as HTML, so the text is
/// escaped as HTML, then as XML (`<b>` arrives as `&lt;b&gt;`, shown as written, never as a tag).
/// Atom says what its text is (`type="text"`, the default), so Atom escapes once.
fn rss_text(text: &str) -> String {
    escape(&escape(text))
}

/// The iTunes namespace of podcast feeds.
const ITUNES: &str = "http://www.itunes.com/dtds/podcast-1.0.dtd";

/// The RSS feed of the newest articles. An article with audio carries its recording as an
/// `<enclosure>`; with `[podcast]` configured the channel and those items carry the iTunes tags
/// podcast apps read (see `podcast_channel`).
pub fn rss_xml(ctx: &PlanContext) -> String {
    let c = ctx.config;
    let podcast = c.podcast.as_ref();
    let mut x = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\"{}>\n<channel>\n",
        if podcast.is_some() { format!(" xmlns:itunes=\"{ITUNES}\"") } else { String::new() }
    );
    let title = podcast.and_then(|p| p.title.as_deref()).unwrap_or(&c.title);
    let _ = writeln!(
        x,
        "<title>{}</title>\n<link>{}/</link>\n<description>{}</description>",
        rss_text(title),
        c.url,
        rss_text(&c.description)
    );
    if let Some(p) = podcast {
        x.push_str(&podcast_channel(c, p));
    }
    let _ = writeln!(x, "<language>{}</language>", c.locale.replace('_', "-").to_lowercase());
    let _ = writeln!(
        x,
        "<atom:link href=\"{}/{RSS_XML}\" rel=\"self\" type=\"application/rss+xml\"/>",
        c.url
    );
    if let Some(first) = latest(ctx).next() {
        let _ = writeln!(x, "<lastBuildDate>{}</lastBuildDate>", rfc822(first.placement.date));
    }
    for ArticleSummary { placement: a, shown } in latest(ctx) {
        let url = format!("{}/articles/{}", c.url, a.slug);
        let _ = writeln!(
            x,
            "<item><title>{}</title><link>{url}</link><guid isPermaLink=\"true\">{url}</guid><pubDate>{}</pubDate><description>{}</description>{}{}</item>",
            rss_text(shown.title),
            rfc822(a.date),
            rss_text(shown.description),
            a.author
                .map(|au| format!(
                    "<dc:creator xmlns:dc=\"http://purl.org/dc/elements/1.1/\">{}</dc:creator>",
                    escape(au)
                ))
                .unwrap_or_default(),
            ctx.audio(shown.audio).map(|r| episode(c, r)).unwrap_or_default()
        );
    }
    x.push_str("</channel>\n</rss>\n");
    x
}

/// The channel's iTunes tags (what Apple Podcasts requires: artwork, category, explicit; and
/// the author and owner it shows and writes to).
fn podcast_channel(c: &SiteConfig, p: &stillpoint_content::Podcast) -> String {
    let image =
        if p.image.starts_with('/') { format!("{}{}", c.url, p.image) } else { p.image.clone() };
    let category = match &p.subcategory {
        Some(sub) => format!(
            "<itunes:category text=\"{}\"><itunes:category text=\"{}\"/></itunes:category>",
            escape(&p.category),
            escape(sub)
        ),
        None => format!("<itunes:category text=\"{}\"/>", escape(&p.category)),
    };
    format!(
        "<itunes:author>{}</itunes:author>\n<itunes:summary>{}</itunes:summary>\n<itunes:image href=\"{}\"/>\n{category}\n<itunes:explicit>{}</itunes:explicit>\n<itunes:owner><itunes:name>{}</itunes:name><itunes:email>{}</itunes:email></itunes:owner>\n<itunes:type>episodic</itunes:type>\n",
        escape(&p.author),
        escape(&c.description),
        escape(&image),
        p.explicit,
        escape(&p.owner_name),
        escape(&p.owner_email),
    )
}

/// An item's recording: its enclosure, and its duration when the feed is a podcast.
fn episode(c: &SiteConfig, r: &stillpoint_content::SiteAudio) -> String {
    let mut x = format!(
        "<enclosure url=\"{}{}\" length=\"{}\" type=\"{}\"/>",
        escape(&c.url),
        escape(&r.url()),
        r.bytes,
        r.kind.mime()
    );
    if c.podcast.is_some() {
        let _ = write!(x, "<itunes:duration>{}</itunes:duration>", r.seconds());
    }
    x
}

pub fn atom_xml(ctx: &PlanContext) -> String {
    let c = ctx.config;
    let updated = latest(ctx).map(|a| a.placement.updated.unwrap_or(a.placement.date)).max();
    let updated = updated.unwrap_or(c.start_date);
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n",
    );
    let _ = writeln!(
        x,
        "<title>{}</title>\n<subtitle>{}</subtitle>",
        escape(&c.title),
        escape(&c.description)
    );
    let _ = writeln!(
        x,
        "<link href=\"{}/\"/>\n<link rel=\"self\" href=\"{}/{ATOM_XML}\"/>\n<id>{}/</id>",
        c.url, c.url, c.url
    );
    let _ = writeln!(x, "<updated>{updated}T00:00:00Z</updated>");
    for ArticleSummary { placement: a, shown } in latest(ctx) {
        let url = format!("{}/articles/{}", c.url, a.slug);
        let author = a.author.unwrap_or(c.title.as_str());
        let _ = writeln!(
            x,
            "<entry><title>{}</title><link href=\"{url}\"/><id>{url}</id><updated>{}T00:00:00Z</updated>{}<author><name>{}</name></author><summary>{}</summary></entry>",
            escape(shown.title),
            a.updated.unwrap_or(a.date),
            a.updated
                .map(|_| format!("<published>{}T00:00:00Z</published>", a.date))
                .unwrap_or_default(),
            escape(author),
            escape(shown.description)
        );
    }
    x.push_str("</feed>\n");
    x
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use stillpoint_content::{build_catalog, load_site_partial};

    use super::*;
    use crate::plan::site_pages;

    /// The text of every `<tag>` element of `xml`, as an XML parser reads it.
    fn texts(xml: &str, tag: &[u8]) -> Vec<String> {
        use quick_xml::events::Event;
        let mut reader = quick_xml::Reader::from_str(xml);
        let (mut inside, mut out) = (false, Vec::new());
        loop {
            match reader.read_event().expect("the feed is well-formed XML") {
                Event::Start(e) if e.local_name().as_ref() == tag => {
                    inside = true;
                    out.push(String::new());
                }
                Event::End(e) if e.local_name().as_ref() == tag => inside = false,
                Event::Text(t) if inside => {
                    out.last_mut().unwrap().push_str(&t.xml_content().unwrap())
                }
                Event::GeneralRef(r) if inside => {
                    let text = match r.resolve_char_ref().unwrap() {
                        Some(c) => c.to_string(),
                        None => quick_xml::escape::resolve_xml_entity(&r.decode().unwrap())
                            .expect("an XML entity")
                            .to_string(),
                    };
                    out.last_mut().unwrap().push_str(&text);
                }
                Event::Eof => return out,
                _ => {}
            }
        }
    }

    #[test]
    fn feed_titles_and_descriptions_are_text_not_markup() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo");
        let mut site = load_site_partial(&dir, &stillpoint_content::Publish::at_clock())
            .0
            .expect("the demo site loads");
        site.config.title = "Calm & <i>co</i>".into();
        let catalog = build_catalog(&site);
        let newest = catalog.newest[0];
        let mut a = (**site.article(newest)).clone();
        a.title = "<b>x</b>".into();
        a.description = "<img src=x onerror=alert(1)> & more".into();
        site.articles[newest.index()] = std::sync::Arc::new(a);

        let ctx = PlanContext::new(&site, &catalog);
        let rss = rss_xml(&ctx);
        let titles = texts(&rss, b"title");
        assert_eq!(titles[0], "Calm &amp; &lt;i&gt;co&lt;/i&gt;", "{rss}");
        assert_eq!(titles[1], "&lt;b&gt;x&lt;/b&gt;", "{rss}");
        let descriptions = texts(&rss, b"description");
        assert_eq!(descriptions[1], "&lt;img src=x onerror=alert(1)&gt; &amp; more", "{rss}");

        let atom = atom_xml(&ctx);
        let titles = texts(&atom, b"title");
        assert_eq!(titles[1], "<b>x</b>", "Atom text is text (type=\"text\"): {atom}");
        assert!(!atom.contains("type=\"html\""), "{atom}");
    }

    #[test]
    fn robots_txt_names_the_sitemap_or_disallows_everything() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo");
        let site = load_site_partial(&dir, &stillpoint_content::Publish::at_clock())
            .0
            .expect("the demo site loads");
        let catalog = build_catalog(&site);
        let mut ctx = PlanContext::new(&site, &catalog);
        ctx.noindex = false;
        let open = robots_txt(&ctx);
        assert!(open.contains("Allow: /\n"), "{open}");
        assert!(open.contains(&format!("Sitemap: {}/sitemap.xml", site.config.url)), "{open}");
        ctx.noindex = true;
        assert_eq!(robots_txt(&ctx), "User-agent: *\nDisallow: /\n");
    }

    #[test]
    fn past_the_limit_sitemap_xml_is_an_index_of_sitemaps() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo");
        let site = load_site_partial(&dir, &stillpoint_content::Publish::at_clock())
            .0
            .expect("the demo site loads");
        let catalog = build_catalog(&site);
        let ctx = PlanContext::new(&site, &catalog);
        let pages = site_pages(&ctx);
        let listed = pages.iter().filter(|p| !p.is_error_page()).count();

        let one = sitemap_files_of(&ctx, &pages, listed);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].0, "sitemap.xml");
        assert_eq!(one[0].1.matches("<url>").count(), listed);

        let limit = listed.div_ceil(3);
        let split = sitemap_files_of(&ctx, &pages, limit);
        let names: Vec<&str> = split.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap.xml"]);
        let urls = |xml: &str| -> Vec<String> {
            xml.lines().filter(|l| l.starts_with("<url>")).map(str::to_string).collect()
        };
        let parts: Vec<String> = split[..3].iter().flat_map(|(_, x)| urls(x)).collect();
        assert_eq!(parts, urls(&one[0].1), "every page once, in order");
        assert_eq!(parts.len(), listed);
        assert!(split[..3].iter().all(|(_, x)| urls(x).len() <= limit));
        let index = &split[3].1;
        assert!(index.contains("<sitemapindex "), "{index}");
        for n in 1..=3 {
            let loc = format!("<loc>{}/sitemap-{n}.xml</loc>", site.config.url);
            assert!(index.contains(&loc), "{index}");
        }
    }

    /// A copy of the demo with a newest article that has a recording, and `podcast` (a
    /// `[podcast]` section, or nothing) appended to stillpoint.toml.
    fn demo_with_audio(podcast: &str) -> (tempfile::TempDir, stillpoint_content::Site) {
        let dir = crate::test_site::demo_copy();
        let root = dir.path();
        let toml = std::fs::read_to_string(root.join("stillpoint.toml")).unwrap() + podcast;
        std::fs::write(root.join("stillpoint.toml"), toml).unwrap();
        std::fs::create_dir_all(root.join("articles/evening")).unwrap();
        std::fs::write(
            root.join("articles/evening/index.md"),
            "---\ntitle: \"Evening wind-down\"\nslug: evening-wind-down\ndate: 2026-01-02\naudio: evening.m4a\nentities:\n  - category: anxietyManagement\n---\nA guided practice.\n",
        )
        .unwrap();
        let fixture =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../content/tests/audio/speech.m4a");
        std::fs::copy(fixture, root.join("articles/evening/evening.m4a")).unwrap();
        std::fs::create_dir_all(root.join("static/images")).unwrap();
        std::fs::write(root.join("static/images/podcast.jpg"), b"jpeg").unwrap();
        let at = jiff::Timestamp::from_second(1_767_400_000).unwrap(); // 2026-01-03
        let (site, diag) =
            load_site_partial(root, &stillpoint_content::Publish { now: at, drafts: false });
        assert!(diag.is_empty(), "{diag:?}");
        (dir, site.unwrap())
    }

    /// The channel up to the first item, and the item with a recording.
    fn podcast_parts(rss: &str) -> String {
        let head = &rss[..rss.find("<item>").unwrap()];
        let item = rss.lines().find(|l| l.contains("<enclosure")).unwrap();
        format!("{head}{item}\n")
    }

    #[test]
    fn an_article_with_audio_is_an_enclosure_and_with_podcast_an_episode() {
        let (_dir, site) = demo_with_audio("");
        let rss = rss_xml(&PlanContext::new(&site, &build_catalog(&site)));
        assert!(!rss.contains("itunes"), "{rss}");
        insta::assert_snapshot!("rss_enclosure", podcast_parts(&rss));
        let (_dir, site) = demo_with_audio(
            "\n[podcast]\ntitle = \"Stillpoint guided meditations\"\nauthor = \"Stillpoint & friends\"\nowner_name = \"Maya Lindqvist\"\nowner_email = \"podcast@stillpoint.example\"\ncategory = \"Health & Fitness > Mental Health\"\nimage = \"/images/podcast.jpg\"\n",
        );
        let rss = rss_xml(&PlanContext::new(&site, &build_catalog(&site)));
        texts(&rss, b"title"); // well-formed
        insta::assert_snapshot!("rss_podcast", podcast_parts(&rss));
    }
}
