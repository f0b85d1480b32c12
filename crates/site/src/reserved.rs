//! Names the build writes itself may not be taken by content: a category slug lands at the top
//! of the output (`{slug}.html`, `{slug}/`), beside the files of [`layout::top_level`] and the
//! site's own `static/` files. (Articles and authors land in their own folders, and the
//! information pages have fixed names.)

use stillpoint_content::{ContentError, ContentErrorKind, Site};

use crate::layout;

const TOPICS: &str = "data/topics.toml";

/// A `Reserved` error at the `slug` of every category whose pages would overwrite a file the
/// build writes or a file of `static/`.
pub fn validate_reserved(site: &Site) -> Vec<ContentError> {
    let in_static = |name: &str| {
        site.static_dir.as_deref().is_some_and(|d| d.join(name).symlink_metadata().is_ok())
    };
    let static_top = |slug: &str| {
        let page = format!("{slug}.html");
        if in_static(&page) {
            Some(layout::url(&page))
        } else {
            in_static(slug).then(|| format!("/{slug}/"))
        }
    };
    site.topics
        .categories
        .iter()
        .filter_map(|c| {
            let t = &c.topic;
            let path = layout::reserved(&t.slug).or_else(|| static_top(&t.slug))?;
            Some(ContentError::new(
                TOPICS,
                t.slug_line,
                t.slug_col,
                ContentErrorKind::Reserved { name: t.slug.clone(), path },
            ))
        })
        .collect()
}
