//! Builds the title search index alone (no pages) from a list of titles, as
//! `bench/gen_corpus.py --titles FILE` writes it, into `OUT/search/`, and reports its files.
//! `bench/search-index.sh` runs it and then measures queries with `bench/search-queries.mjs`.
//!
//!     cargo run --release -p stillpoint-site --example search_index -- TITLES OUT

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use stillpoint_site::search::{Doc, Group, Layout, build_index};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [titles, out] = args.as_slice() else {
        eprintln!("usage: search_index TITLES OUT");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(titles).unwrap_or_else(|e| fail(titles, 0, &e.to_string()));
    let (mut docs, mut groups) = (Vec::new(), Vec::<Group>::new());
    for (n, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["group", a, b, c, d] => groups.push([a, b, c, d].map(|s| s.to_string())),
            [title, slug, placed] => {
                let groups = placed
                    .split(',')
                    .filter(|g| !g.is_empty())
                    .map(|g| g.parse().unwrap_or_else(|_| fail(titles, n + 1, "bad group")))
                    .collect();
                docs.push(Doc { title: title.to_string(), slug: slug.to_string(), groups });
            }
            _ => fail(titles, n + 1, "expected `group` + 4 fields or title, slug, groups"),
        }
    }
    let started = Instant::now();
    let index = build_index(&docs, &groups, Layout::DEFAULT);
    let seconds = started.elapsed().as_secs_f64();
    let root = Path::new(out);
    let _ = std::fs::remove_dir_all(root.join("search"));
    let mut kinds: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (rel, bytes) in &index.files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("output folder");
        std::fs::write(&path, bytes)
            .unwrap_or_else(|e| fail(&path.display().to_string(), 0, &e.to_string()));
        let kind = kind(rel);
        let k = kinds.entry(kind).or_default();
        k.0 += 1;
        k.1 += bytes.len();
    }
    let total: usize = index.files.iter().map(|(_, b)| b.len()).sum();
    println!(
        "search index of {} titles: {} files, {:.1} MB, built in {seconds:.2} s → {}",
        docs.len(),
        index.files.len(),
        total as f64 / 1e6,
        root.join(&index.manifest).display()
    );
    for (kind, (files, bytes)) in kinds {
        println!("  {kind:<9} {files:>8} files {:>10.1} MB", bytes as f64 / 1e6);
    }
}

/// The kind of an index file, as web/scripts/search-bench.mjs names them.
fn kind(rel: &str) -> &'static str {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    if name == "manifest.json" {
        "manifest"
    } else if name.starts_with('k') && rel.matches('/').count() == 1 {
        "shards"
    } else if name.starts_with('c') && name.ends_with(".json") {
        "chunks"
    } else {
        "pieces"
    }
}

fn fail(file: &str, line: usize, why: &str) -> ! {
    eprintln!("error: {file}:{line}: {why}");
    std::process::exit(1);
}
