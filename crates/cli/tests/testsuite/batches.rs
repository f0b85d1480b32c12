//! A build holds two batches of pages at a time, however large the site (the one its workers
//! render and the next, planned meanwhile): the count of page plans alive at once (each plan
//! holds its page's props, head and Markdown body) never passes twice the batch size, and any
//! batch size gives the same output, byte for byte.

use std::path::Path;

use stillpoint_site::{BATCH, BuildOptions, BuildReport, Silent, build};

use crate::util::{SiteTest, image_cache, tree, web_bundle};

fn build_with(site: &Path, out: &Path, batch: usize) -> BuildReport {
    let mut opts = BuildOptions::new(site, out);
    opts.web = vec![web_bundle()];
    opts.cache = None;
    opts.image_cache = Some(image_cache());
    opts.year = Some(2026);
    opts.batch = batch;
    build(&opts, &Silent).expect("the demo site builds")
}

#[test]
fn a_build_holds_at_most_two_batches_of_pages_and_any_batch_gives_the_same_output() {
    let t = SiteTest::demo();
    let small = build_with(&t.site(), &t.tmp.path().join("small"), 8);
    assert!(small.pages > 10 * 8, "the site spans many batches: {} pages", small.pages);
    assert_eq!(small.rendered, small.pages);
    assert!(small.peak_plans <= 16, "{} plans alive at once, batches of 8", small.peak_plans);
    assert!(small.peak_plans > 0, "the count counts");

    // One batch of everything holds every plan at once: the count sees it.
    let whole = build_with(&t.site(), &t.tmp.path().join("whole"), usize::MAX);
    assert_eq!(whole.peak_plans, whole.pages);

    let default = build_with(&t.site(), &t.tmp.path().join("default"), BATCH);
    assert!(default.peak_plans <= 2 * BATCH);

    let files = |dir: &str| {
        let root = t.tmp.path().join(dir).canonicalize().unwrap(); // DIST is a symlink
        tree(&root)
            .into_iter()
            .filter(|(rel, _)| !rel.starts_with(".stillpoint"))
            .collect::<Vec<_>>()
    };
    let small_files = files("small");
    assert!(small_files.len() > 2 * small.pages);
    assert!(small_files == files("whole"), "batches of 8 and one batch differ");
    assert!(small_files == files("default"), "batches of 8 and of {BATCH} differ");
}
