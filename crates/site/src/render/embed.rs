//! Embeds (`::youtube`, `::vimeo`, `::audio`) as HTML: a click-to-load facade for a video (no
//! request to the video's host before the click: the web runtime swaps the button for the
//! player's frame; without JavaScript the caption's link opens the video), a plain `<audio
//! controls>` for a recording of the site.

use std::collections::HashMap;

use pulldown_cmark_escape::escape_html;
use stillpoint_content::{Article, Embed, Provider, Site};

use super::picture::{BODY_SIZES, picture_html};
use crate::images::SiteImages;
use crate::props::Picture;

/// The site's URLs of the files an article's embeds name, by what is written in the article.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EmbedFiles {
    /// An `::audio` `src` → its URL (`/media/…`) and MIME type.
    pub audio: HashMap<String, (String, String)>,
    /// A `poster` → its picture (the image stage's: renditions for a raster image).
    pub posters: HashMap<String, Picture>,
}

impl EmbedFiles {
    /// The files of article `a`'s embeds, as the load found them and the image stage read them.
    pub fn of(site: &Site, a: &Article, images: &SiteImages) -> Self {
        let mut files = Self::default();
        for e in &a.embeds {
            if e.provider == Provider::Audio
                && let Some(r) = site.embed_audio(a, &e.id)
            {
                files.audio.insert(e.id.clone(), (r.url(), r.kind.mime().to_string()));
            }
            if let Some(poster) = &e.poster
                && let Some(picture) = images.poster(&a.source, poster)
            {
                files.posters.insert(poster.clone(), picture);
            }
        }
        files
    }
}

/// The facade of `e`, or None when a file it names is not known (the load reports that).
pub fn embed_html(e: &Embed, files: &EmbedFiles) -> Option<String> {
    let title = escape(&e.title);
    if e.provider == Provider::Audio {
        let (src, _kind) = files.audio.get(&e.id)?;
        return Some(format!(
            "<figure class=\"embed embed-audio\"><audio controls preload=\"none\" src=\"{}\"></audio><figcaption>{title}</figcaption></figure>",
            escape(src)
        ));
    }
    let player = e.provider.player_url(&e.id)?;
    let (watch, watch_label) = e.provider.watch_url(&e.id)?;
    let poster = match &e.poster {
        Some(p) => poster_html(files.posters.get(p)?),
        None => String::new(),
    };
    Some(format!(
        "<figure class=\"embed embed-video\" data-embed=\"{provider}\"><button type=\"button\" class=\"embed-play\" data-embed-src=\"{player}\" data-embed-title=\"{title}\" aria-label=\"Play video: {title}\">{poster}<span class=\"embed-icon\" aria-hidden=\"true\"></span></button><figcaption>{title} · <a href=\"{watch}\">{watch_label}</a></figcaption></figure>",
        provider = e.provider.name(),
        player = escape(&player),
        watch = escape(&watch),
    ))
}

/// A poster image: the `<picture>` a body image gets (renditions, intrinsic size, placeholder
/// colour, lazy loading, the body's `sizes`) when the pipeline made renditions; a plain `<img>`
/// of the file with its size otherwise (an SVG, or a build without an image cache).
pub fn poster_html(p: &Picture) -> String {
    if p.renditions.is_none() {
        return format!(
            "<img src=\"{}\" width=\"{}\" height=\"{}\" alt=\"\" loading=\"lazy\" decoding=\"async\">",
            escape(&p.src),
            p.width,
            p.height
        );
    }
    picture_html(p, BODY_SIZES, escape)
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_html(&mut out, s).expect("writing to a String cannot fail");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use stillpoint_content::embed_of;

    #[test]
    fn facades() {
        let mut files = EmbedFiles::default();
        files.audio.insert(
            "evening.m4a".into(),
            ("/media/0123456789abcdef-evening.m4a".into(), "audio/mp4".into()),
        );
        files.posters.insert(
            "rain.jpg".into(),
            Picture {
                src: "/media/fedcba9876543210-1280.jpg".into(),
                width: 1920,
                height: 1080,
                alt: String::new(),
                renditions: Some(crate::props::Renditions {
                    stem: "/media/fedcba9876543210".into(),
                    widths: vec![320, 640],
                }),
                color: Some("#334455".into()),
                preview: None,
                position: None,
            },
        );
        files.posters.insert(
            "/images/tide.svg".into(),
            Picture {
                src: "/images/tide.svg".into(),
                width: 640,
                height: 360,
                alt: String::new(),
                renditions: None,
                color: None,
                preview: None,
                position: None,
            },
        );
        let html = |line: &str| embed_html(&embed_of(line, (1, 1)).unwrap(), &files);
        insta::assert_snapshot!(
            [
                html("::youtube[Rain on \"leaves\" <3]{id=dQw4w9WgXcQ poster=rain.jpg}").unwrap(),
                html("::vimeo[Tide]{id=76979871}").unwrap(),
                html("::vimeo[Tide]{id=76979871 poster=/images/tide.svg}").unwrap(),
                html("::audio[Evening practice]{src=evening.m4a}").unwrap(),
            ]
            .join("\n\n")
        );
        assert_eq!(html("::audio[X]{src=unknown.m4a}"), None);
        assert_eq!(html("::youtube[X]{id=dQw4w9WgXcQ poster=unknown.jpg}"), None);
    }
}
