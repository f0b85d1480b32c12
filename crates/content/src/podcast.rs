//! `[podcast]` in `stillpoint.toml`: the site's RSS feed as a podcast (the iTunes tags Apple
//! Podcasts and the other apps read). Every article with `audio:` is an episode.

use std::path::Path;

use serde::Deserialize;

use crate::error::{ContentError, ContentErrorKind, line_col};
use crate::suggest::did_you_mean_text;

/// Apple Podcasts' top-level categories (a subcategory follows ` > `).
pub const PODCAST_CATEGORIES: &[&str] = &[
    "Arts",
    "Business",
    "Comedy",
    "Education",
    "Fiction",
    "Government",
    "History",
    "Health & Fitness",
    "Kids & Family",
    "Leisure",
    "Music",
    "News",
    "Religion & Spirituality",
    "Science",
    "Society & Culture",
    "Sports",
    "Technology",
    "True Crime",
    "TV & Film",
];

/// The podcast's channel, as configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Podcast {
    /// The show's title (default: the site's title).
    pub title: Option<String>,
    /// `itunes:author`: who makes the show.
    pub author: String,
    /// `itunes:owner`: who Apple contacts about the show.
    pub owner_name: String,
    pub owner_email: String,
    /// `itunes:category`, and its subcategory when given (`Health & Fitness > Mental Health`).
    pub category: String,
    pub subcategory: Option<String>,
    /// `itunes:explicit`.
    pub explicit: bool,
    /// `itunes:image`: the artwork, a square JPEG or PNG of 1400 to 3000 px: a path under
    /// static/ (`/images/podcast.jpg`) or an `https://` URL.
    pub image: String,
    /// The line `image` is written on, for the error when its file is missing.
    pub image_line: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPodcast {
    title: Option<String>,
    author: String,
    owner_name: String,
    owner_email: toml::Spanned<String>,
    category: toml::Spanned<String>,
    #[serde(default)]
    explicit: bool,
    image: toml::Spanned<String>,
}

impl RawPodcast {
    pub(crate) fn resolve(
        self,
        path: &Path,
        text: &str,
        errors: &mut Vec<ContentError>,
    ) -> Option<Podcast> {
        let at =
            |span: std::ops::Range<usize>, field: &str, message: String, help: Option<String>| {
                let (line, col) = line_col(text, span.start);
                let kind = ContentErrorKind::InvalidValue { field: field.into(), message };
                ContentError::new(path, line, col, kind).with_help(help)
            };
        let before = errors.len();
        let written = self.category.get_ref().trim();
        let (category, subcategory) = match written.split_once('>') {
            Some((c, s)) => {
                (c.trim().to_string(), Some(s.trim().to_string()).filter(|s| !s.is_empty()))
            }
            None => (written.to_string(), None),
        };
        if !PODCAST_CATEGORIES.contains(&category.as_str()) {
            let help = did_you_mean_text(&category, PODCAST_CATEGORIES.iter().copied())
                .unwrap_or_else(|| {
                    format!(
                        "use one of Apple Podcasts' categories: {}",
                        PODCAST_CATEGORIES.join(", ")
                    )
                });
            errors.push(at(
                self.category.span(),
                "podcast.category",
                format!("`{category}` is not a category of Apple Podcasts"),
                Some(help),
            ));
        }
        let image = self.image.get_ref().trim().to_string();
        let ext_ok =
            [".jpg", ".jpeg", ".png"].iter().any(|e| image.to_ascii_lowercase().ends_with(e));
        if !(image.starts_with('/') || image.starts_with("https://"))
            || image.starts_with("//")
            || !ext_ok
        {
            errors.push(at(
                self.image.span(),
                "podcast.image",
                format!("`{image}` is not a JPEG or PNG under static/ (`/images/podcast.jpg`) or at an https:// URL"),
                Some("the artwork is a square JPEG or PNG of 1400 to 3000 pixels".into()),
            ));
        }
        if !self.owner_email.get_ref().contains('@') {
            errors.push(at(
                self.owner_email.span(),
                "podcast.owner_email",
                format!("`{}` is not an email address", self.owner_email.get_ref()),
                Some("Apple Podcasts writes to this address to verify the show".into()),
            ));
        }
        let image_line = line_col(text, self.image.span().start).0;
        (errors.len() == before).then(|| Podcast {
            title: self.title.filter(|t| !t.trim().is_empty()),
            author: self.author,
            owner_name: self.owner_name,
            owner_email: self.owner_email.into_inner(),
            category,
            subcategory,
            explicit: self.explicit,
            image,
            image_line,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::SiteConfig;

    const SITE: &str = "[site]\nid = \"x\"\ntitle = \"X\"\nurl = \"https://x.example\"\ndescription = \"d\"\nstart_date = \"2024-01-01\"\ncontact_email = \"a@x.example\"\n";

    fn parse(podcast: &str) -> Result<SiteConfig, String> {
        let text = format!("{SITE}\n[podcast]\n{podcast}");
        SiteConfig::parse(std::path::Path::new("stillpoint.toml"), &text).map_err(|e| {
            e.iter().map(|e| format!("{e} | {}", e.hint())).collect::<Vec<_>>().join("\n")
        })
    }

    #[test]
    fn podcast_section() {
        let ok = "author = \"A\"\nowner_name = \"O\"\nowner_email = \"o@x.example\"\ncategory = \"Religion & Spirituality > Buddhism\"\nimage = \"/images/p.png\"\nexplicit = true\n";
        let p = parse(ok).unwrap().podcast.unwrap();
        assert_eq!(
            (p.category.as_str(), p.subcategory.as_deref()),
            ("Religion & Spirituality", Some("Buddhism"))
        );
        assert!(p.explicit && p.title.is_none());
        assert_eq!(p.image_line, 14);
        let bad = "author = \"A\"\nowner_name = \"O\"\nowner_email = \"nobody\"\ncategory = \"Health and Fitness\"\nimage = \"podcast.gif\"\n";
        insta::assert_snapshot!(parse(bad).unwrap_err());
        let missing = parse("author = \"A\"\n").unwrap_err();
        assert!(missing.contains("owner_name"), "{missing}");
    }
}
