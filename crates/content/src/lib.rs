//! The site model of Stillpoint: read a content directory (see docs/content.md), validate it, and index it.
//!
//! `load_site` reads `stillpoint.toml`, `data/*`, `articles/**/*.md` and `pages/*.md` and reports
//! every content error at once, each with its file and line. `build_catalog` files every article
//! under its categories, subcategories (falling back to `other`) and sub-subcategories.
//! `content_warnings` lists what builds but is probably a mistake (an author with no articles,
//! an image without alt text, an article left in `other`).
//! This crate knows nothing of pages, routes' HTML or files written: that is `stillpoint-site`.

mod article;
mod article_fields;
mod article_id;
mod audio;
mod authors;
mod catalog;
mod color;
mod config;
mod copy;
mod cross_check;
mod embed;
mod env;
mod error;
mod font_metrics;
mod front_matter;
mod labels;
mod load;
mod located;
mod media_check;
mod media_files;
mod media_refs;
mod nesting;
mod pages;
mod parsed;
mod placeholders;
mod podcast;
mod publish;
mod redirects;
mod site_file;
mod site_links;
mod social;
mod sponsored;
mod suggest;
#[cfg(any(test, feature = "test-support"))]
#[doc(hidden)]
pub mod test_site;
mod theme;
mod thin;
mod topics;
mod warning;
mod warnings;

pub use article::{
    Article, Entity, EntitySubcategory, internal_path, scan_links, text_digest, truncate_words,
};
pub use article_id::ArticleId;
pub use audio::{AUDIO_EXTENSIONS, AudioInfo, AudioKind, read_audio};
pub use authors::{AUTHORS_FILE, Author, Authors};
pub use catalog::{
    Catalog, CategoryIndex, Filing, SubcategoryIndex, SubsubcategoryIndex, build_catalog,
};
pub use color::{Rgb, contrast};
pub use config::{SiteConfig, parse_date};
pub use copy::{HomeCopy, HomeSection, MenuConfig, NOT_FOUND_TEXT, NotFoundCopy};
pub use embed::{Embed, PROVIDERS, Provider, embed_of, looks_like_directive, parse_directive};
pub use env::{DEV, EnvSection, PRODUCTION};
pub use error::{ContentError, ContentErrorKind, Diagnostics, line_col};
pub use font_metrics::{
    ARIAL, Fallback, FontMetrics, Overrides, TIMES_NEW_ROMAN, overrides, read_metrics,
};
pub use front_matter::{Split, SplitError, split as split_front_matter};
pub use labels::{fnv1a32, is_slug, label_from_key, slugify, title_case};
pub use load::{Site, load_site, load_site_partial, load_site_partial_with};
pub use located::Located;
pub use media_check::changed_places;
pub use media_files::SiteAudio;
pub use media_refs::{MediaRef, check as check_media_ref, resolve as resolve_media_ref};
pub use nesting::MAX_NESTING;
pub use pages::{INFO_PAGES, InfoPage, InfoPageSpec, default_route, info_page_spec};
pub use parsed::{ParsedArticles, ParsedPart, ReadPart};
pub use podcast::{PODCAST_CATEGORIES, Podcast};
pub use publish::{Publish, Schedule, Upcoming, declares_draft, is_content_name};
pub use redirects::{
    REDIRECTS_FILE, Redirect, exact_targets as redirect_sources, normalize_path, parse_redirects,
};
pub use site_file::{media_name, missing_file_hint, resolve_site_file};
pub use site_links::{ConfigLink, Footer, FooterTitles, Header};
pub use social::{KNOWN_NETWORKS, SocialLink};
pub use sponsored::Sponsored;
pub use suggest::{did_you_mean, did_you_mean_text};
pub use theme::{FontFile, MIN_CONTRAST, Palette, Theme};
pub use topics::{Category, OTHER, Topic, Topics};
pub use warning::{ContentWarning, WARNING_CODES, WarningKind};
pub use warnings::{Acceptance, content_warnings};
