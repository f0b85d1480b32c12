use std::path::{Path, PathBuf};

use super::*;
use crate::{Article, Authors, SiteConfig, Sponsored, Topics};

const TOPICS: &str = r#"
[[category]]
key = "sleepEnhancement"
slug = "sleep"
title = "Sleep"
description = "."
  [[category.children]]
  key = "guidedMeditationForSleep"
  slug = "guided"
  title = "Guided"
  description = "."
  [[category.children]]
  key = "other"
  slug = "other-sleep"
  title = "Other"
  description = "."

[[category]]
key = "stressReduction"
slug = "stress"
title = "Stress"
description = "."
  [[category.children]]
  key = "breathingExercisesForStress"
  slug = "breathing"
  title = "Breathing"
  description = "."
  [[category.children]]
  key = "other"
  slug = "other-stress"
  title = "Other"
  description = "."
"#;

const AUTHORS: &str = r#"
[[author]]
name = "Maya"
description = "."
meta_title = "Maya"
meta_description = "."
"#;

fn article(slug: &str, date: &str, entities: &str) -> Article {
    let text = format!(
        "---\ntitle: {slug}\nslug: {slug}\ndate: {date}\nauthor: Maya\nentities:\n{entities}---\nBody.\n"
    );
    Article::parse(Path::new(slug), &text, jiff::civil::date(2024, 9, 12)).unwrap()
}

fn site(articles: Vec<Article>) -> Site {
    let config = SiteConfig::parse(
        Path::new("stillpoint.toml"),
        "[site]\nid='s'\ntitle='S'\nurl='https://s.example'\ndescription='d'\nstart_date='2024-09-12'\ncontact_email='a@b'\n[site.social]\nvideo='https://v'\nfeed='https://f'\nphoto='https://p'\n",
    )
    .unwrap();
    Site {
        root: PathBuf::from("."),
        config,
        topics: Topics::parse(Path::new("t"), TOPICS).unwrap(),
        authors: Authors::parse(Path::new("a"), AUTHORS).unwrap(),
        sponsored: Sponsored::default(),
        articles: articles.into_iter().map(std::sync::Arc::new).collect(),
        schedule: Default::default(),
        draft_problems: Vec::new(),
        pages: Vec::new(),
        static_dir: None,
        redirects: Vec::new(),
        failed: Vec::new(),
        unreadable: Vec::new(),
        symlinks: Vec::new(),
        data_digest: String::new(),
        audio: Default::default(),
        posters: Default::default(),
    }
}

#[test]
fn files_under_known_subcategory_with_subsubcategories() {
    let s = site(vec![
        article(
            "a",
            "2025-01-01",
            "  - category: sleepEnhancement\n    subcategories:\n      - subcategory: guidedMeditationForSleep\n        subsubcategories: [body scan, Body Scan, yoga nidra]\n",
        ),
        article(
            "b",
            "2025-02-01",
            "  - category: sleepEnhancement\n    subcategories:\n      - subcategory: guidedMeditationForSleep\n        subsubcategories: [body scan]\n",
        ),
    ]);
    let c = build_catalog(&s);
    let guided = &c.categories[0].subcategories[0];
    assert_eq!(guided.articles, ids([1, 0]), "newest first");
    let labels: Vec<_> =
        guided.subsubcategories.iter().map(|s| (s.slug.as_str(), s.articles.len())).collect();
    assert_eq!(labels, [("body-scan", 2), ("yoga-nidra", 1)]);
    assert_eq!(guided.subsubcategories[0].label, "Body Scan");
    assert_eq!(c.newest, ids([1, 0]));
    assert_eq!(c.by_author[0], ids([1, 0]));
}

#[test]
fn unknown_subcategory_files_under_other() {
    let s = site(vec![article(
        "a",
        "2025-01-01",
        "  - category: sleepEnhancement\n    subcategories:\n      - subcategory: breathingExercisesForStress\n        subsubcategories: [box breathing]\n",
    )]);
    let c = build_catalog(&s);
    assert!(c.categories[0].subcategories[0].articles.is_empty());
    assert_eq!(c.categories[0].subcategories[1].articles, ids([0]));
    assert_eq!(c.categories[0].subcategories[1].subsubcategories[0].slug, "box-breathing");
    assert!(c.categories[1].articles.is_empty(), "the key's own category is not involved");
    assert_eq!(c.topics_of(ArticleId::new(0)), [(0, 1)]);
}

#[test]
fn entity_without_subcategories_files_under_other() {
    let s = site(vec![article("a", "2025-01-01", "  - category: stressReduction\n")]);
    let c = build_catalog(&s);
    assert_eq!(c.categories[1].subcategories[1].articles, ids([0]));
    assert_eq!(c.categories[1].articles, ids([0]));
}

#[test]
fn two_entities_file_in_both_and_repeats_count_once() {
    let s = site(vec![article(
        "a",
        "2025-01-01",
        "  - category: sleepEnhancement\n    subcategories:\n      - subcategory: guidedMeditationForSleep\n      - subcategory: guidedMeditationForSleep\n  - category: stressReduction\n    subcategories:\n      - subcategory: breathingExercisesForStress\n",
    )]);
    let c = build_catalog(&s);
    assert_eq!(c.categories[0].articles, ids([0]));
    assert_eq!(c.categories[0].subcategories[0].articles, ids([0]));
    assert_eq!(c.categories[1].subcategories[0].articles, ids([0]));
    assert_eq!(c.topics_of(ArticleId::new(0)), [(0, 0), (1, 0)]);
}

#[test]
fn derived_lists() {
    let s = site(vec![article(
        "a",
        "2025-01-01",
        "  - category: sleepEnhancement\n    subcategories:\n      - subcategory: guidedMeditationForSleep\n        subsubcategories: [yoga nidra, body scan]\n",
    )]);
    let c = build_catalog(&s);
    assert_eq!(c.category_keys(&s), ["sleepEnhancement", "stressReduction"]);
    assert_eq!(
        c.subcategory_keys(&s),
        ["guidedMeditationForSleep", "other", "breathingExercisesForStress"]
    );
    assert_eq!(c.subsubcategory_labels(), ["Body Scan", "Yoga Nidra"]);
}

/// Ids of the articles at these indices.
fn ids<const N: usize>(indices: [usize; N]) -> [ArticleId; N] {
    indices.map(ArticleId::new)
}
