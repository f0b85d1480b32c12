//! The demo site's content has the shape issue "The demo site" asks for, and exercises every
//! rule of the catalog.

use std::collections::HashSet;

use stillpoint_content::{OTHER, build_catalog, load_site};

use crate::util::workspace;

/// The spec's topic tree: category key, slug, and child keys in order.
const SPEC_TOPICS: [(&str, &str, [&str; 5]); 7] = [
    (
        "mindfulnessMeditation",
        "understanding-mindfulness",
        [
            "understandingMindfulness",
            "techniquesForMindfulness",
            "mindfulnessExercises",
            "mindfulnessInDailyLife",
            "other",
        ],
    ),
    (
        "sleepEnhancement",
        "enhance-sleep-guided-meditation",
        [
            "guidedMeditationForSleep",
            "techniquesToImproveSleepQuality",
            "sleepMeditationScripts",
            "sleepHygienePractices",
            "other",
        ],
    ),
    (
        "stressReduction",
        "stress-reduction-techniques",
        [
            "guidedMeditationForStressRelief",
            "stressManagementTechniques",
            "breathingExercisesForStress",
            "creatingASupportiveEnvironment",
            "other",
        ],
    ),
    (
        "anxietyManagement",
        "anxiety-management",
        [
            "guidedMeditationForAnxiety",
            "understandingAnxietyTriggers",
            "anxietyReductionTechniques",
            "relaxationStrategies",
            "other",
        ],
    ),
    (
        "focusAndProductivity",
        "focus-and-productivity",
        [
            "meditationForFocus",
            "productivityBoostingTechniques",
            "mindfulnessAtWork",
            "settingHealthyBoundaries",
            "other",
        ],
    ),
    (
        "personalWellnessJourneys",
        "personal-wellness-journeys",
        [
            "successStories",
            "challengesOvercomeThroughMeditation",
            "personalTipsAndTechniques",
            "expertInsightsAndAdvice",
            "other",
        ],
    ),
    (
        "resourcesAndTools",
        "resources-and-tools",
        [
            "meditationAppsAndGuides",
            "journalsForMindfulness",
            "communitySupportResources",
            "booksOnMeditation",
            "other",
        ],
    ),
];

fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

#[test]
fn topic_tree_is_the_specs() {
    let site = load_site(&workspace().join("examples/demo")).unwrap();
    let got: Vec<_> = site
        .topics
        .categories
        .iter()
        .map(|c| (c.topic.key.as_str(), c.topic.slug.as_str()))
        .collect();
    let want: Vec<_> = SPEC_TOPICS.iter().map(|(k, s, _)| (*k, *s)).collect();
    assert_eq!(got, want);
    for (c, (_, _, kids)) in site.topics.categories.iter().zip(SPEC_TOPICS) {
        assert_eq!(
            c.children.iter().map(|k| k.key.as_str()).collect::<Vec<_>>(),
            kids,
            "{}",
            c.topic.key
        );
        for t in std::iter::once(&c.topic).chain(&c.children) {
            let first = t.title.chars().next().unwrap();
            assert!(!first.is_ascii(), "{}: title starts with an emoji", t.key);
            assert!(
                !t.description.chars().next().unwrap().is_ascii(),
                "{}: description starts with an emoji",
                t.key
            );
        }
    }
    let anxiety_other = site.topics.category("anxietyManagement").unwrap().child(OTHER).unwrap();
    assert_eq!(anxiety_other.slug, "other");
}

#[test]
fn fifty_eight_authors_with_real_biographies() {
    let site = load_site(&workspace().join("examples/demo")).unwrap();
    assert_eq!(site.authors.list.len(), 58);
    let mut bios = HashSet::new();
    for a in &site.authors.list {
        let n = words(&a.description);
        assert!((60..=120).contains(&n), "{}: biography of {n} words", a.name);
        assert!(bios.insert(&a.description), "{}: biography repeats another", a.name);
        assert!(a.meta_title.starts_with(&a.name), "{}", a.meta_title);
        assert!(!a.meta_description.is_empty());
    }
}

#[test]
fn articles_cover_every_subcategory_and_every_catalog_rule() {
    let site = load_site(&workspace().join("examples/demo")).unwrap();
    let catalog = build_catalog(&site);
    assert!(site.articles.len() >= 45, "{} articles", site.articles.len());
    for (ci, c) in site.topics.categories.iter().enumerate() {
        for (si, sub) in c.children.iter().enumerate() {
            assert!(
                !catalog.categories[ci].subcategories[si].articles.is_empty(),
                "{} / {} is empty",
                c.topic.key,
                sub.key
            );
        }
    }
    let mut foreign = 0;
    let mut bare_entity = 0;
    let mut two_entities = 0;
    let mut with_subsub = 0;
    let today = jiff::Zoned::now().date();
    for (i, a) in site.articles.iter().enumerate() {
        let name = a.source.display().to_string();
        let n = words(&site.read_body(i).unwrap());
        assert!((500..=1200).contains(&n), "{name}: {n} words");
        assert!(a.author.is_some(), "{name}: no author");
        assert!(!a.description.is_empty(), "{name}: no description");
        assert!(a.date >= site.config.start_date && a.date <= today, "{name}: date {}", a.date);
        if a.entities.len() >= 2 {
            two_entities += 1;
        }
        for e in &a.entities {
            let cat = site.topics.category(&e.category.value).unwrap();
            if e.subcategories.is_empty() {
                bare_entity += 1;
            }
            if e.subcategories.iter().any(|s| cat.child(&s.subcategory).is_none()) {
                foreign += 1;
            }
        }
        if a.entities.iter().flat_map(|e| &e.subcategories).any(|s| !s.subsubcategories.is_empty())
        {
            with_subsub += 1;
        }
    }
    assert!(foreign >= 2, "articles filed under `other` by the fallback: {foreign}");
    assert!(bare_entity >= 1, "entities without subcategories: {bare_entity}");
    assert!(two_entities >= 3, "articles with two entities: {two_entities}");
    assert!(
        with_subsub * 3 >= site.articles.len(),
        "{with_subsub} of {} carry sub-subcategories",
        site.articles.len()
    );
    let shared = catalog
        .categories
        .iter()
        .flat_map(|c| &c.subcategories)
        .flat_map(|s| &s.subsubcategories)
        .filter(|ss| ss.articles.len() > 1)
        .count();
    assert!(shared > 0, "some sub-subcategory page lists more than one article");
}

#[test]
fn every_referenced_image_exists() {
    let root = workspace().join("examples/demo");
    let site = load_site(&root).unwrap();
    let stat = root.join("static");
    assert!(stat.join(format!("icons/{}-logo-small.png", site.config.id)).is_file());
    assert!(stat.join("icons/stillpoint-logo.svg").is_file(), "the logo's source SVG");
    assert!(stat.join("images/search-empty.svg").is_file());
    for c in &site.topics.categories {
        assert!(
            stat.join(format!("images/covers/{}.svg", c.topic.slug)).is_file(),
            "cover of {}",
            c.topic.slug
        );
    }
    let md_image = |body: &str| -> Vec<String> {
        body.match_indices("](/")
            .filter_map(|(i, _)| {
                let before = &body[..i];
                let is_image = before.rfind("![").is_some_and(|b| !before[b..].contains(']'));
                is_image.then(|| {
                    body[i + 2..]
                        .split(')')
                        .next()
                        .unwrap_or("")
                        .split(' ')
                        .next()
                        .unwrap_or("")
                        .to_string()
                })
            })
            .collect()
    };
    for (i, a) in site.articles.iter().enumerate() {
        let body = site.read_body(i).unwrap();
        for img in a.image.iter().map(|l| l.value.clone()).chain(md_image(&body)) {
            assert!(
                stat.join(img.trim_start_matches('/')).is_file(),
                "{}: {img} is missing",
                a.source.display()
            );
        }
        // Markdown images must carry alt text.
        assert!(!body.contains("![]("), "{}: an image without alt text", a.source.display());
    }
}
