use super::*;
use output::FILL_CHUNK;
use stillpoint_dist::Output;

#[test]
fn digest_is_stable_and_length_prefixed() {
    assert_eq!(digest([b"ab".as_slice(), b"c"]), digest([b"ab".as_slice(), b"c"]));
    assert_ne!(digest([b"ab".as_slice(), b"c"]), digest([b"a".as_slice(), b"bc"]));
    assert_eq!(digest([b"x".as_slice()]).len(), 20);
}

#[test]
fn each_changed_file_is_reported_with_the_output_it_was_put_as() {
    use stillpoint_dist::Changed;
    let dir = tempfile::tempdir().unwrap();
    let mut output = Generations::open(&dir.path().join("dist")).unwrap();
    // Put out of path order, as outputs their paths alone would not tell.
    let update = output.begin();
    update.put(Output::Media, "z.txt", b"z").unwrap();
    update.put(Output::Asset, "a.txt", b"a").unwrap();
    update.put(Output::SearchIndex, "m/x.txt", b"m").unwrap();
    update.put(Output::Media, "n.txt", b"n").unwrap();
    let (_, changed) = update.commit().unwrap();
    let expected = [
        Changed::new("a.txt", Output::Asset),
        Changed::new("m/x.txt", Output::SearchIndex),
        Changed::new("n.txt", Output::Media),
        Changed::new("z.txt", Output::Media),
    ];
    assert_eq!(changed, expected);
    // One changed, one gone (read from its path), two the same.
    let update = output.begin();
    update.put(Output::Asset, "a.txt", b"a").unwrap();
    update.put(Output::Media, "n.txt", b"n").unwrap();
    update.put(Output::Media, "z.txt", b"zz").unwrap();
    let (_, changed) = update.commit().unwrap();
    let gone = Changed::removed("m/x.txt");
    assert_eq!(changed, [gone, Changed::new("z.txt", Output::Media)]);
}

#[test]
fn a_counting_update_counts_what_changed_without_listing_it() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dist");
    let mut output = Generations::open(&dest).unwrap();
    let build = |output: &mut Generations, b: &str, counting: bool| {
        let update = output.begin();
        let update = if counting { update.counting() } else { update };
        update.put(Output::Static, "a.txt", b"a").unwrap();
        update.put(Output::Static, b, b.as_bytes()).unwrap();
        update.commit().unwrap()
    };
    let (stats, changed) = build(&mut output, "b.txt", true);
    assert_eq!((stats.changed, stats.unchanged, stats.removed, changed.len()), (2, 0, 0, 0));
    let (stats, changed) = build(&mut output, "c.txt", true);
    assert_eq!((stats.changed, stats.unchanged, stats.removed, changed.len()), (1, 1, 1, 0));
    assert_eq!(std::fs::read_to_string(dest.join("c.txt")).unwrap(), "c.txt");
    assert!(!dest.join("b.txt").exists());
    // The same change listed.
    let (_, changed) = build(&mut output, "b.txt", false);
    assert_eq!(changed.len(), 2);
}

#[test]
fn an_output_kept_open_follows_its_builds_and_notices_a_change_from_outside() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dist");
    let mut output = Generations::open(&dest).unwrap();
    let build = |output: &mut Generations, b: &str| {
        let update = output.begin();
        update.put(Output::Static, "a.txt", b"a").unwrap();
        update.put(Output::Static, "b.txt", b.as_bytes()).unwrap();
        update.commit().unwrap()
    };
    build(&mut output, "1");
    assert!(output.is_as_left(&dest));
    let (same, changed) = build(&mut output, "1");
    assert_eq!((same.changed, same.written, changed.len()), (0, 0, 0));
    let (stats, changed) = build(&mut output, "2");
    assert_eq!((stats.changed, stats.unchanged, stats.written), (1, 1, 1));
    assert_eq!(changed, [stillpoint_dist::Changed::new("b.txt", Output::Static)]);
    assert_eq!(std::fs::read_to_string(dest.join("b.txt")).unwrap(), "2");
    assert!(output.is_as_left(&dest));
    assert!(!output.is_as_left(&dir.path().join("elsewhere")));

    // Removed by hand: no longer as the last build left it.
    std::fs::remove_file(&dest).unwrap();
    assert!(!output.is_as_left(&dest));
}

/// A symbolic link planted in the live output, where the manifest lists a file, does not
/// outlive the next builds: unchanged files are carried forward on the manifest's word, so
/// the generation holding it is rebuilt from the build's own bytes.
#[test]
fn a_link_planted_in_the_output_is_replaced_by_the_next_build() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dist");
    let outside = dir.path().join("outside.txt");
    std::fs::write(&outside, "planted").unwrap();
    let build = || {
        let mut output = Generations::open(&dest).unwrap();
        let update = output.begin();
        update.put(Output::Static, "a.txt", b"a").unwrap();
        update.put(Output::Static, "sub/b.txt", b"b").unwrap();
        update.commit().unwrap();
    };
    let regular = |rel: &str| {
        let live = dir.path().join(dest.read_link().unwrap());
        std::fs::symlink_metadata(live.join(rel)).unwrap().file_type().is_file()
    };
    build();
    build(); // both generations hold the files
    let live = dir.path().join(dest.read_link().unwrap());
    std::fs::remove_file(live.join("sub/b.txt")).unwrap();
    std::os::unix::fs::symlink(&outside, live.join("sub/b.txt")).unwrap();
    // Unchanged build: the output is the same, yet the link goes.
    build();
    assert!(regular("sub/b.txt"), "the link is gone from the live output");
    assert_eq!(std::fs::read_to_string(dest.join("sub/b.txt")).unwrap(), "b");
    // And from the other generation (rebuilt from the clean one), which the next build makes
    // live.
    build();
    assert!(regular("sub/b.txt"), "and from the other generation");
    assert_eq!(std::fs::read_to_string(dest.join("sub/b.txt")).unwrap(), "b");
    assert!(regular("a.txt"));
}

/// A file of the live output that is missing, or a folder where the manifest lists a file, at
/// the top or further down, makes the generation unknown as a planted link does: the next build
/// writes it again.
#[test]
fn a_missing_file_or_a_folder_in_its_place_is_written_again() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dist");
    let build = || {
        let mut output = Generations::open(&dest).unwrap();
        let update = output.begin();
        update.put(Output::Static, "a.txt", b"a").unwrap();
        update.put(Output::Static, "sub/deeper/b.txt", b"b").unwrap();
        update.commit().unwrap();
    };
    let live = || dir.path().join(dest.read_link().unwrap());
    build();
    std::fs::remove_file(live().join("a.txt")).unwrap();
    build();
    assert_eq!(std::fs::read_to_string(dest.join("a.txt")).unwrap(), "a");
    std::fs::remove_file(live().join("sub/deeper/b.txt")).unwrap();
    std::fs::create_dir(live().join("sub/deeper/b.txt")).unwrap();
    build();
    assert_eq!(std::fs::read_to_string(dest.join("sub/deeper/b.txt")).unwrap(), "b");
    std::fs::remove_dir_all(live().join("sub")).unwrap();
    build();
    assert_eq!(std::fs::read_to_string(dest.join("sub/deeper/b.txt")).unwrap(), "b");
}

/// A file shared with a cache (a hard link) and shared again under another digest, into a spare
/// that holds a link to the very same file: the output holds the file and nothing else.
#[test]
fn sharing_a_file_the_spare_already_links_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dist");
    let cached = dir.path().join("cached.avif");
    std::fs::write(&cached, "pixels").unwrap();
    let build = |digest: &str| {
        let mut output = Generations::open(&dest).unwrap();
        let update = output.begin();
        update.put(Output::Static, "a.txt", b"a").unwrap();
        update
            .transfer(
                (Output::Media, "media/k-320.avif"),
                &cached,
                stillpoint_fingerprint::Digest::of(digest.as_bytes()),
                Transfer::Share,
            )
            .unwrap();
        update.commit().unwrap();
    };
    build("one");
    build("one"); // both generations link the cached file
    build("two");
    build("three");
    let generations = std::fs::read_dir(dir.path().join(".dist.gens")).unwrap();
    for generation in generations.map(|g| g.unwrap().path()).filter(|g| g.is_dir()) {
        let media = generation.join("media");
        let names: Vec<String> = std::fs::read_dir(&media)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["k-320.avif"], "in {}", media.display());
    }
    assert_eq!(std::fs::read_to_string(dest.join("media/k-320.avif")).unwrap(), "pixels");
}

/// Files put from many threads into a spare that must first be emptied (a killed build's
/// leftovers, no manifest) all reach the output: no writer starts before the emptying ends.
#[test]
fn files_put_in_parallel_into_an_unknown_spare_all_arrive() {
    use rayon::prelude::*;
    for round in 0..20 {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("dist");
        let leftovers = dir.path().join(".dist.gens/a/old");
        std::fs::create_dir_all(&leftovers).unwrap();
        for i in 0..200 {
            std::fs::write(leftovers.join(format!("{i}.txt")), "old").unwrap();
        }
        let mut output = Generations::open(&dest).unwrap();
        let update = output.begin();
        let names: Vec<String> = (0..400).map(|i| format!("d{}/{i}.txt", i % 7)).collect();
        names.par_iter().for_each(|rel| {
            update.put(Output::Static, rel, rel.as_bytes()).unwrap();
        });
        update.commit().unwrap();
        for rel in &names {
            let got = std::fs::read_to_string(dest.join(rel));
            assert_eq!(got.ok().as_deref(), Some(rel.as_str()), "round {round}: {rel}");
        }
        assert!(!dest.join("old").exists(), "round {round}: the leftovers are gone");
    }
}

/// After a change, the generation caught up shares the new one's manifest file (written once),
/// and each build after that still finds both generations known: an unchanged build, the
/// output opened afresh, writes nothing.
#[test]
fn the_caught_up_generation_shares_the_manifest_and_both_stay_known() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dist");
    let build = |b: &str| {
        let mut output = Generations::open(&dest).unwrap();
        let update = output.begin();
        update.put(Output::Static, "a.txt", b.as_bytes()).unwrap();
        update.put(Output::Static, "same.txt", b"same").unwrap();
        update.commit().unwrap().0
    };
    let inode = |g: &str| {
        std::fs::metadata(dir.path().join(format!(".dist.gens/{g}.manifest"))).unwrap().ino()
    };
    build("1");
    build("2");
    assert_eq!(inode("a"), inode("b"), "one manifest file for two equal generations");
    build("3");
    assert_eq!(inode("a"), inode("b"));
    assert_eq!(std::fs::read_to_string(dest.join("a.txt")).unwrap(), "3");
    let unchanged = build("3");
    assert_eq!((unchanged.changed, unchanged.written), (0, 0));
    // The next change writes only its file into the spare, which is known.
    let changed = build("4");
    assert_eq!((changed.changed, changed.written), (1, 1));
    assert_eq!(std::fs::read_to_string(dest.join("a.txt")).unwrap(), "4");
}

/// After a first build the spare generation is empty; filled while the owner is idle (`dev`),
/// it holds the live generation's files as links of theirs and shares its manifest, and the
/// next build writes only what it changes. Stopped half-way, what was linked is known and the
/// next build completes the rest.
#[test]
fn a_spare_filled_while_idle_is_known_whole_or_in_part() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dist");
    let names: Vec<String> =
        (0..FILL_CHUNK + 100).map(|i| format!("d{}/{i}.txt", i % 50)).collect();
    let build = |output: &mut Generations, changed: &str| {
        let update = output.begin();
        for rel in &names {
            let bytes = if rel == changed { "new" } else { rel.as_str() };
            update.put(Output::Static, rel, bytes.as_bytes()).unwrap();
        }
        update.commit().unwrap().0
    };
    let gens = dir.path().join(".dist.gens");
    let ino = |p: std::path::PathBuf| std::fs::metadata(p).unwrap().ino();

    // Whole.
    let mut output = Generations::open(&dest).unwrap();
    build(&mut output, "");
    assert!(!gens.join("b").exists(), "one generation after a first build");
    assert!(output.fill_spare(&mut || false).unwrap());
    assert_eq!(ino(gens.join("a.manifest")), ino(gens.join("b.manifest")));
    assert_eq!(ino(gens.join("a/d3/3.txt")), ino(gens.join("b/d3/3.txt")));
    assert!(output.fill_spare(&mut || panic!("nothing left to fill")).unwrap());
    let stats = build(&mut output, "d7/7.txt");
    assert_eq!((stats.changed, stats.written), (1, 1));
    assert_eq!(std::fs::read_to_string(dest.join("d7/7.txt")).unwrap(), "new");
    // Opened afresh, both generations are known: an unchanged build writes nothing.
    drop(output);
    let mut output = Generations::open(&dest).unwrap();
    assert_eq!(build(&mut output, "d7/7.txt").written, 0);

    // In part: one slice linked, then a change.
    std::fs::remove_dir_all(&gens).unwrap();
    std::fs::remove_file(&dest).unwrap();
    let mut output = Generations::open(&dest).unwrap();
    build(&mut output, "");
    let mut asked = 0;
    assert!(
        !output
            .fill_spare(&mut || {
                asked += 1;
                asked > 1
            })
            .unwrap()
    );
    assert!(!gens.join("b.manifest").exists(), "a spare in part has no manifest file");
    let stats = build(&mut output, "d9/9.txt");
    assert_eq!((stats.changed, stats.written), (1, 1));
    for rel in &names {
        let want = if rel == "d9/9.txt" { "new" } else { rel.as_str() };
        assert_eq!(std::fs::read_to_string(dest.join(rel)).unwrap(), want, "{rel}");
    }
    drop(output);
    let mut output = Generations::open(&dest).unwrap();
    assert_eq!(build(&mut output, "d9/9.txt").written, 0);
}

/// A deferring output (`dev`'s) swaps each build in without writing the manifest file or
/// catching the spare up; both happen when it settles (or is let go), and the output is then
/// what a non-deferring one would have left.
#[test]
fn a_deferring_output_writes_its_manifest_when_it_settles() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dist");
    let gens = dir.path().join(".dist.gens");
    let build = |output: &mut Generations, b: &str| {
        let update = output.begin();
        update.put(Output::Static, "a.txt", b"a").unwrap();
        update.put(Output::Static, "b.txt", b.as_bytes()).unwrap();
        update.commit().unwrap().0
    };
    let mut output = Generations::open(&dest).unwrap().deferring();
    build(&mut output, "1");
    assert!(!gens.join("a.manifest").exists(), "left for later");
    assert!(output.is_as_left(&dest));
    output.settle().unwrap();
    assert!(gens.join("a.manifest").exists());
    assert!(output.fill_spare(&mut || false).unwrap());
    assert!(gens.join("b.manifest").exists());

    // Two edits in a row: each swapped in, no manifest file written, the spare not caught up.
    assert_eq!(build(&mut output, "2").written, 1);
    assert_eq!(build(&mut output, "3").written, 1);
    assert_eq!(std::fs::read_to_string(dest.join("b.txt")).unwrap(), "3");
    assert!(!gens.join("a.manifest").exists() && !gens.join("b.manifest").exists());
    assert!(output.is_as_left(&dest));

    // Let go: the manifest is written, so a later build knows the live generation.
    drop(output);
    let mut output = Generations::open(&dest).unwrap();
    assert_eq!(output.live_manifest().map(|m| m.get("b.txt").is_some()), Some(true));
    assert_eq!(build(&mut output, "3").written, 0);
    assert_eq!(std::fs::read_to_string(dest.join("a.txt")).unwrap(), "a");
}

/// An output kept open with its lock let go (a build server between builds): another build may
/// write to it meanwhile, and the kept one then knows it is no longer as it left it, whichever
/// generation the other build wrote, committed or not.
#[test]
fn an_output_let_go_between_builds_notices_another_build() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dist");
    let build = |output: &mut Generations, b: &str| {
        let update = output.begin();
        update.put(Output::Static, "a.txt", b"a").unwrap();
        update.put(Output::Static, "b.txt", b.as_bytes()).unwrap();
        update.commit().unwrap().0
    };
    let mut kept = Generations::open(&dest).unwrap().deferring();
    build(&mut kept, "1");
    assert!(Generations::open(&dest).is_err(), "locked while kept");
    kept.unlock().unwrap();
    assert!(dir.path().join(".dist.gens/a.manifest").exists(), "written before letting go");
    assert!(kept.is_as_left(&dest), "nothing happened meanwhile: taken back as it was");
    assert!(Generations::open(&dest).is_err(), "locked again");
    assert!(kept.fill_spare(&mut || false).unwrap());

    // Another build commits twice: the live generation is the same letter as before.
    kept.unlock().unwrap();
    {
        let mut other = Generations::open(&dest).unwrap();
        build(&mut other, "2");
        build(&mut other, "3");
    }
    assert!(!kept.is_as_left(&dest));
    drop(kept);

    // Another build that fails after it began to write the spare, and commits nothing.
    let mut kept = Generations::open(&dest).unwrap();
    build(&mut kept, "4");
    kept.unlock().unwrap();
    {
        let mut other = Generations::open(&dest).unwrap();
        let update = other.begin();
        update.put(Output::Static, "b.txt", b"never live").unwrap();
        drop(update);
    }
    assert!(!kept.is_as_left(&dest));
    drop(kept);

    // Held by another build: not taken back.
    let mut kept = Generations::open(&dest).unwrap();
    kept.unlock().unwrap();
    let _other = Generations::open(&dest).unwrap();
    assert!(!kept.is_as_left(&dest));
}
