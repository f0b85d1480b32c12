//! Fuzz target `deploy`: a bucket (the site's objects, foreign ones, a manifest of this site,
//! another site's, an older format's or none) and a sequence of builds deployed onto it with
//! `--verify`, `--prune`, `--force` and `--max-deletes`, planned by `plan::plan` on the state
//! `state.rs` reads (`stillpoint_fuzz::bucket`). Properties, for every deploy:
//!
//! - no plan deletes an object that no manifest of this site recorded, unless `--prune` (and then
//!   only objects the bucket holds); none deletes a file of the build or under `.stillpoint/`;
//! - every deletion counts toward `--max-deletes`: a plan is refused exactly when it deletes more;
//! - another site's bucket is refused unless `--force`;
//! - after a deploy from a bucket whose manifest told the truth (or that was listed), the bucket
//!   holds the build, and planning again uploads and deletes nothing (it only expires the files
//!   this deploy superseded).

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde::{Deserialize, Serialize};
use stillpoint_deploy::plan::plan;
use stillpoint_fuzz::bucket::{Bucket, File, Flags, Found, Object, SITE, local_files};
use stillpoint_fuzz::driver::{Json, Target};

const TARGET: Target<Json> = Target { name: "deploy", codec: Json };

const PATHS: &[&str] = &[
    "index.html",
    "a.html",
    "a/index.html",
    "b/index.html",
    "404.html",
    "sw.js",
    "assets/x-1.js",
    "assets/x-2.js",
    "assets/y-1.css",
    "page-data/app-data.json",
    "page-data/sq/1.json",
    "page-data/a.json",
    "search/k1",
    "search/k2",
    "search/kx/y",
    "user/upload.png",
    "other-site/index.html",
    ".stillpoint/lock",
];
/// Manifest objects that are no manifest of any site.
const GARBAGE: &[&str] = &[
    "",
    "not json",
    "[]",
    "{}",
    "{\"site\":\"calm\"}",
    "{\"format\":\"2\"}",
    "{\"format\":2,\"files\":[]}",
    "{\"format\":7,\"files\":{\"a.html\":1}}",
];

/// One fuzz input.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Scenario {
    objects: BTreeMap<String, Object>,
    found: Found,
    /// The manifest's files are missing from the bucket or differ (a manifest that lies: a
    /// trusted one then hides what is gone; `--verify` lists the bucket instead).
    drift: bool,
    builds: Vec<BTreeMap<String, File>>,
    flags: Flags,
    max_deletes: usize,
}

fn file() -> impl Strategy<Value = File> {
    (0u8..6, 0u8..3).prop_map(|(body, headers)| File { body, headers })
}

/// Files at `PATHS`; DIST never has any under `.stillpoint/` (`local::scan` skips them).
fn files(max: usize) -> impl Strategy<Value = BTreeMap<String, File>> {
    let path = prop::sample::select(PATHS).prop_filter_map("not in DIST", |p| {
        (!p.starts_with(".stillpoint/")).then(|| p.to_string())
    });
    prop::collection::btree_map(path, file(), 0..max)
}

fn found() -> impl Strategy<Value = Found> {
    let site = prop::sample::select(&[Some(SITE), Some(SITE), Some("loud"), None][..]);
    let manifest = (prop::sample::select(&[1u32, 2, 2, 2, 3][..]), site, files(8), files(4))
        .prop_map(|(format, site, files, superseded)| Found::Manifest {
            format,
            site: site.map(String::from),
            files,
            superseded,
        });
    prop_oneof![
        1 => Just(Found::None),
        1 => prop::sample::select(GARBAGE).prop_map(|g| Found::Bytes(g.into())),
        4 => manifest,
    ]
}

fn scenarios() -> impl Strategy<Value = Scenario> {
    let object = (file(), any::<bool>(), prop::bool::weighted(0.2))
        .prop_map(|(file, bare, multipart)| Object { file, bare, multipart });
    let objects = prop::collection::btree_map(
        prop::sample::select(PATHS).prop_map(String::from),
        object,
        0..6,
    );
    let flags = (prop::bool::weighted(0.3), prop::bool::weighted(0.3), prop::bool::weighted(0.2))
        .prop_map(|(verify, prune, force)| Flags { verify, prune, force });
    (
        objects,
        found(),
        prop::bool::weighted(0.2),
        prop::collection::vec(files(8), 1..4),
        flags,
        0usize..6,
    )
        .prop_map(|(mut objects, found, drift, builds, flags, max_deletes)| {
            // An earlier deploy left what its manifest records, unless the bucket drifted.
            if let Found::Manifest { files, superseded, .. } = &found
                && !drift
            {
                // A path in both (a manifest written by hand) holds what `files` says.
                for (k, f) in superseded.iter().chain(files) {
                    objects.insert(k.clone(), Object { file: *f, bare: false, multipart: false });
                }
            }
            Scenario { objects, found, drift, builds, flags, max_deletes }
        })
}

/// The keys the bucket's first manifest records for this site.
fn owned_at_first(found: &Found) -> BTreeSet<String> {
    match found {
        Found::Manifest { site: Some(site), files, superseded, .. } if site == SITE => {
            files.keys().chain(superseded.keys()).cloned().collect()
        }
        _ => BTreeSet::new(),
    }
}

fn property(s: &Scenario) -> Result<(), TestCaseError> {
    let mut bucket = Bucket::new(&s.objects, &s.found);
    let mut owned = owned_at_first(&s.found);
    let mut truthful = !s.drift;
    let flags = s.flags;
    for (i, build) in s.builds.iter().enumerate() {
        let local = local_files(build);
        let mut seen = local.clone();
        let before = bucket.keys();
        let (remote, trusted) = match bucket.read(&mut seen, flags) {
            Ok(read) => read,
            Err(other) => {
                let named =
                    matches!(&s.found, Found::Manifest { site: Some(n), .. } if *n == other);
                prop_assert!(
                    i == 0 && !flags.force && named && other != SITE,
                    "refused: {}",
                    other
                );
                return Ok(());
            }
        };
        let p = plan(&seen, &remote, "t");
        let doomed: Vec<&String> = p.deletes.iter().chain(&p.expired).collect();
        for d in &doomed {
            if flags.prune {
                prop_assert!(
                    before.contains(*d) || owned.contains(*d),
                    "pruned {} not in the bucket",
                    d
                );
            } else {
                prop_assert!(
                    owned.contains(*d),
                    "deletes {}, which no manifest of {} recorded",
                    d,
                    SITE
                );
            }
            prop_assert!(!build.contains_key(*d), "deletes {}, a file of the build", d);
            prop_assert!(!d.starts_with(".stillpoint/"), "deletes {}", d);
        }
        let distinct: BTreeSet<&String> = doomed.iter().copied().collect();
        prop_assert_eq!(distinct.len(), doomed.len(), "an object deleted twice");
        prop_assert_eq!(p.deletes_total(), doomed.len());
        let refused = p.check_deletes(s.max_deletes, false).is_err();
        prop_assert_eq!(refused, doomed.len() > s.max_deletes, "--max-deletes {}", s.max_deletes);
        prop_assert!(p.check_deletes(doomed.len(), false).is_ok());
        if p.check_deletes(s.max_deletes, flags.force).is_err() {
            continue; // refused: the bucket is left as it was
        }
        bucket.apply(&p);
        owned = p.files.keys().chain(p.superseded.keys()).cloned().collect();
        truthful |= !trusted;
        if !truthful {
            continue;
        }
        prop_assert!(bucket.holds_all(&local), "the bucket lacks part of the build");
        let mut seen = local.clone();
        let (remote, _) = bucket.read(&mut seen, flags).map_err(TestCaseError::fail)?;
        let again = plan(&seen, &remote, "t2");
        let uploads: Vec<&str> = again.uploads.iter().map(|f| f.path.as_str()).collect();
        prop_assert!(uploads.is_empty(), "planning again uploads {:?}", uploads);
        prop_assert!(again.deletes.is_empty(), "planning again deletes {:?}", again.deletes);
        for e in &again.expired {
            prop_assert!(p.superseded.contains_key(e), "planning again expires {}", e);
        }
    }
    Ok(())
}

#[test]
fn fuzz_deploy() {
    TARGET.run(scenarios(), property);
}
