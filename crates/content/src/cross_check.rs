//! Checks that need more than one file: every slug taken once, every author and category
//! known. At 100,000 articles a full check reads every article's slug, author and categories
//! (about 60 ms, memory-bound); a load that finds all but a few articles as the last one left
//! them (the same shared articles at the same places, as a `dev` rebuild does) checks only
//! those few against what the last check kept.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::article::Article;
use crate::authors::Authors;
use crate::error::{ContentError, ContentErrorKind};
use crate::load::ArticleTree;
use crate::parsed::{ParsedArticles, PlacedArticle};
use crate::suggest::did_you_mean_text;
use crate::topics::Topics;

/// More changed articles than this: the whole site is checked.
const UPDATE_AT_MOST: usize = 64;

/// What the last check found sound, for the next load of the same listing.
#[derive(Debug, Clone)]
pub(crate) struct Checked {
    tree: Arc<ArticleTree>,
    /// The digest of the data files the check read (topics and authors among them).
    data_key: String,
    /// The articles checked, by their place in the listing.
    articles: Vec<PlacedArticle>,
    /// Every slug, with the place of the article that has it.
    slugs: FxHashMap<Box<str>, usize>,
}

/// [`cross_check`], from what the last load's check kept in `parsed` when it can (the same
/// listing and data files, every article loaded, a few changed, none of them with a problem);
/// keeps what this check found sound for the next one.
pub(crate) fn cross_check_with(
    parsed: &mut ParsedArticles,
    data_key: &str,
    articles: &[Arc<Article>],
    failed: &[Arc<Article>],
    topics: &Topics,
    authors: &Authors,
) -> Vec<ContentError> {
    let checked = parsed.checked.take();
    let Some((tree, placed)) = parsed.placed() else {
        return cross_check(articles, failed, topics, authors);
    };
    if failed.is_empty()
        && let Some(mut last) = checked
        && Arc::ptr_eq(&last.tree, tree)
        && last.data_key == data_key
        && update(&mut last, placed, topics, authors)
    {
        parsed.checked = Some(last);
        return Vec::new();
    }
    let errors = cross_check(articles, failed, topics, authors);
    if errors.is_empty() && failed.is_empty() {
        let slugs = placed
            .iter()
            .enumerate()
            .filter_map(|(i, a)| Some((a.as_ref()?.slug.as_str().into(), i)))
            .collect();
        let (tree, articles) = (Arc::clone(tree), placed.to_vec());
        parsed.checked = Some(Checked { tree, data_key: data_key.into(), articles, slugs });
    }
    errors
}

/// Brings `last` up to `placed` when only a few articles changed and none of them has a
/// problem; false when the whole site must be checked (`last` is then spent).
fn update(
    last: &mut Checked,
    placed: &[PlacedArticle],
    topics: &Topics,
    authors: &Authors,
) -> bool {
    if last.articles.len() != placed.len() {
        return false;
    }
    let same = |a: &PlacedArticle, b: &PlacedArticle| match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        _ => false,
    };
    let changed: Vec<usize> = (0..placed.len())
        .filter(|&i| !same(&last.articles[i], &placed[i]))
        .take(UPDATE_AT_MOST + 1)
        .collect();
    if changed.len() > UPDATE_AT_MOST {
        return false;
    }
    for &i in &changed {
        let Some(old) = &last.articles[i] else { return false };
        if last.slugs.get(old.slug.as_str()) == Some(&i) {
            last.slugs.remove(old.slug.as_str());
        }
    }
    for &i in &changed {
        let Some(a) = &placed[i] else { return false };
        if last.slugs.insert(a.slug.as_str().into(), i).is_some()
            || !article_problems(a, topics, authors).is_empty()
        {
            return false;
        }
        last.articles[i] = Some(Arc::clone(a));
    }
    true
}

/// Checks that need more than one file: slugs, authors and categories (the last two of the
/// articles that failed, too).
pub(crate) fn cross_check(
    articles: &[Arc<Article>],
    failed: &[Arc<Article>],
    topics: &Topics,
    authors: &Authors,
) -> Vec<ContentError> {
    let mut errors = Vec::new();
    let mut slugs: FxHashMap<&str, &std::path::Path> =
        FxHashMap::with_capacity_and_hasher(articles.len(), Default::default());
    // Drafts last: a draft that takes a published article's slug is the one at fault. Articles
    // that failed are checked for their author and categories only.
    let (drafts, finished): (Vec<_>, Vec<_>) = articles.iter().partition(|a| a.draft);
    for (i, a) in finished.into_iter().chain(drafts).chain(failed).enumerate() {
        if i < articles.len()
            && let Some(first) = slugs.insert(&a.slug, &a.source)
        {
            slugs.insert(&a.slug, first); // keep the first owner for later duplicates
            errors.push(ContentError::new(
                &a.source,
                a.slug_line,
                1,
                ContentErrorKind::DuplicateSlug {
                    slug: a.slug.clone(),
                    first: first.display().to_string(),
                },
            ));
        }
        errors.extend(article_problems(a, topics, authors));
    }
    errors
}

/// An article's author and categories that the data files do not know.
fn article_problems(a: &Article, topics: &Topics, authors: &Authors) -> Vec<ContentError> {
    let mut errors = Vec::new();
    if let Some(author) = &a.author
        && authors.by_name(&author.value).is_none()
    {
        let names = authors.list.iter().map(|x| x.name.as_str());
        errors.push(
            ContentError::new(
                &a.source,
                author.line,
                author.col,
                ContentErrorKind::UnknownAuthor(author.value.clone()),
            )
            .with_help(did_you_mean_text(&author.value, names)),
        );
    }
    for e in &a.entities {
        if topics.category(&e.category.value).is_none() {
            let keys = topics.categories.iter().map(|c| c.topic.key.as_str());
            errors.push(
                ContentError::new(
                    &a.source,
                    e.category.line,
                    e.category.col,
                    ContentErrorKind::UnknownCategory(e.category.value.clone()),
                )
                .with_help(did_you_mean_text(&e.category.value, keys)),
            );
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::load::load_site_partial_with;
    use crate::parsed::ParsedArticles;
    use crate::publish::Publish;
    use crate::test_site::demo_copy;

    const NOW: Publish = Publish { now: jiff::Timestamp::MAX, drafts: false };

    /// Replaces the front matter line that starts with `field:` in the article at `source`.
    fn set(root: &Path, source: &Path, field: &str, value: &str) {
        let path = root.join(source);
        let text = std::fs::read_to_string(&path).unwrap();
        let prefix = format!("{field}:");
        let old = text.lines().find(|l| l.starts_with(&prefix)).unwrap().to_string();
        std::fs::write(&path, text.replacen(&old, &format!("{field}: {value}"), 1)).unwrap();
    }

    /// Each load after the first is one a watcher vouches for (the check's short way), and
    /// finds what a load with a fresh store finds.
    #[test]
    fn a_few_changed_articles_are_checked_against_the_rest_as_the_whole_site_would_be() {
        let dir = demo_copy();
        let root = dir.path();
        let mut store = ParsedArticles::default();
        let first = load_site_partial_with(root, &mut store, &NOW).0.unwrap();
        let (a, b) = (first.articles[0].clone(), first.articles[1].clone());
        let kinds = |store: &mut ParsedArticles| -> Vec<String> {
            store.vouch([a.source.clone()]);
            let (_, diag) = load_site_partial_with(root, store, &NOW);
            let fresh = load_site_partial_with(root, &mut ParsedArticles::default(), &NOW).1;
            assert_eq!(diag.to_string(), fresh.to_string());
            diag.iter().map(|e| format!("{:?}", e.kind)).collect()
        };

        set(root, &a.source, "title", "Still sound");
        assert!(kinds(&mut store).is_empty());
        assert!(store.checked.is_some(), "the check kept what it found sound");

        set(root, &a.source, "slug", &b.slug);
        let found = kinds(&mut store);
        assert!(found.iter().any(|k| k.starts_with("DuplicateSlug")), "{found:?}");

        set(root, &a.source, "slug", &a.slug);
        assert!(kinds(&mut store).is_empty());
        set(root, &a.source, "author", "\"Nobody Known\"");
        let found = kinds(&mut store);
        assert!(found.iter().any(|k| k.starts_with("UnknownAuthor")), "{found:?}");

        set(root, &a.source, "author", &format!("\"{}\"", b.author.as_ref().unwrap().value));
        assert!(kinds(&mut store).is_empty());
    }
}
