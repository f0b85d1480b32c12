//! `deploy --merge`: the outputs of `build --shard i/N` published as one site. The shards must
//! be one complete set (every index of one count, once) of one site; their files are scanned
//! and combined into one list, and each file is read from the shard that holds it. Two shards
//! may hold the same path only with the same bytes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use stillpoint_dist::BuildInfo;

use crate::DeployError;
use crate::local::{self, Gzip, LocalFile};

/// Where each file of a deploy is read from: one DIST, or several merged.
#[derive(Debug, Clone)]
pub struct Dists {
    roots: Vec<PathBuf>,
    /// Object key → index in `roots`, for files not in the first root (merges only).
    owner: HashMap<String, usize>,
}

impl Dists {
    /// One built site.
    pub fn one(dist: PathBuf) -> Self {
        Self { roots: vec![dist], owner: HashMap::new() }
    }

    /// Several shard outputs of one build, each given as a DIST.
    pub fn merge(roots: Vec<PathBuf>) -> Self {
        Self { roots, owner: HashMap::new() }
    }

    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The DIST that holds `key` (as found by the last `scan`).
    pub fn root_of(&self, key: &str) -> &Path {
        &self.roots[self.owner.get(key).copied().unwrap_or(0)]
    }

    /// Scans every DIST and combines their files, sorted by path; remembers which holds which.
    pub fn scan(&mut self, gzip: &Gzip) -> Result<Vec<LocalFile>, DeployError> {
        for root in &self.roots {
            if !root.is_dir() {
                return Err(DeployError::Input(format!("{}: no such directory", root.display())));
            }
        }
        self.owner.clear();
        let mut first =
            self.roots.first().map_or_else(|| Ok(Vec::new()), |r| local::scan(r, gzip))?;
        if self.roots.len() == 1 {
            return Ok(first);
        }
        let mut index: HashMap<String, usize> =
            first.iter().enumerate().map(|(i, f)| (f.path.clone(), i)).collect();
        let mut from: Vec<usize> = vec![0; first.len()];
        for (r, root) in self.roots.iter().enumerate().skip(1) {
            for file in local::scan(root, gzip)? {
                match index.get(&file.path) {
                    Some(&i) if first[i].entry.sha256 == file.entry.sha256 => {}
                    Some(&i) => {
                        return Err(DeployError::Input(format!(
                            "{}: {} and {} hold different bytes for it; merge shards of one build only",
                            file.path,
                            self.roots[from[i]].display(),
                            root.display()
                        )));
                    }
                    None => {
                        index.insert(file.path.clone(), first.len());
                        self.owner.insert(file.path.clone(), r);
                        from.push(r);
                        first.push(file);
                    }
                }
            }
        }
        first.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(first)
    }
}

/// Reads every shard's build information and checks they are one complete set of shards of one
/// site; returns the build information they share (without the shard).
pub fn shard_set(roots: &[PathBuf]) -> Result<BuildInfo, DeployError> {
    let mut first: Option<(BuildInfo, &Path)> = None;
    let mut seen: HashMap<u32, &Path> = HashMap::new();
    let mut count = 0;
    for root in roots {
        let info = crate::local::build_info(root)?;
        let Some(shard) = info.shard else {
            return Err(DeployError::Input(format!(
                "{}: a whole build, not a shard; --merge takes the outputs of `stillpoint build --shard i/N`",
                root.display()
            )));
        };
        let site = BuildInfo { shard: None, ..info };
        match &first {
            None => {
                count = shard.count;
                first = Some((site, root));
            }
            Some((want, at)) if *want != site => {
                return Err(DeployError::Input(format!(
                    "{} and {} are builds of different sites or engines; merge shards of one build only",
                    at.display(),
                    root.display()
                )));
            }
            Some(_) if shard.count != count => {
                return Err(DeployError::Input(format!(
                    "{}: shard {shard}, but the first DIST is one of {count} shards",
                    root.display()
                )));
            }
            Some(_) => {}
        }
        if let Some(other) = seen.insert(shard.index, root) {
            return Err(DeployError::Input(format!(
                "{} and {} are both shard {shard}",
                other.display(),
                root.display()
            )));
        }
    }
    let Some((info, _)) = first else {
        return Err(DeployError::Input("--merge needs at least one DIST".into()));
    };
    let missing: Vec<String> =
        (0..count).filter(|i| !seen.contains_key(i)).map(|i| format!("{i}/{count}")).collect();
    if !missing.is_empty() {
        return Err(DeployError::Input(format!(
            "shard{} {} missing: a merge publishes the whole site, so it needs every shard",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        )));
    }
    Ok(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(dir: &Path, index: u32, count: u32, files: &[(&str, &str)]) -> PathBuf {
        std::fs::create_dir_all(dir.join(".stillpoint")).unwrap();
        let info = format!(
            r#"{{"engine":"0.1.0","site":{{"id":"s","title":"S","url":"https://s.example","bucket":"s","proxyAllow":[]}},"shard":{{"index":{index},"count":{count}}}}}"#
        );
        std::fs::write(dir.join(".stillpoint/build.json"), info).unwrap();
        for (rel, body) in files {
            let p = dir.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, body).unwrap();
        }
        dir.to_path_buf()
    }

    #[test]
    fn merges_disjoint_and_equal_files_and_refuses_conflicts() {
        let tmp = tempfile::tempdir().unwrap();
        let a = shard(&tmp.path().join("a"), 0, 2, &[("index.html", "home"), ("x.txt", "same")]);
        let b = shard(
            &tmp.path().join("b"),
            1,
            2,
            &[("articles/b/index.html", "b"), ("x.txt", "same")],
        );
        assert_eq!(shard_set(&[a.clone(), b.clone()]).unwrap().site.id, "s");
        let mut dists = Dists::merge(vec![a.clone(), b.clone()]);
        let files = dists.scan(&Gzip::default()).unwrap();
        let paths: Vec<_> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["articles/b/index.html", "index.html", "x.txt"]);
        assert_eq!(dists.root_of("articles/b/index.html"), b);
        assert_eq!(dists.root_of("index.html"), a);

        std::fs::write(b.join("x.txt"), "other").unwrap();
        let err = Dists::merge(vec![a, b]).scan(&Gzip::default()).unwrap_err().to_string();
        assert!(err.starts_with("x.txt: ") && err.contains("different bytes"), "{err}");
    }

    #[test]
    fn the_shards_must_be_one_complete_set() {
        let tmp = tempfile::tempdir().unwrap();
        let s = |name: &str, i, n| shard(&tmp.path().join(name), i, n, &[]);
        let (a, b, c, d) = (s("a", 0, 3), s("b", 1, 3), s("c", 1, 3), s("d", 1, 2));
        let err = |roots: &[PathBuf]| shard_set(roots).unwrap_err().to_string();
        assert!(err(&[a.clone(), b.clone()]).contains("shard 2/3 missing"));
        assert!(err(&[a.clone(), b.clone(), c]).contains("are both shard 1/3"));
        assert!(err(&[a.clone(), d]).contains("one of 3 shards"));
        let whole = tmp.path().join("w");
        std::fs::create_dir_all(whole.join(".stillpoint")).unwrap();
        std::fs::write(
            whole.join(".stillpoint/build.json"),
            r#"{"engine":"0.1.0","site":{"id":"s","title":"S","url":"u","bucket":"s","proxyAllow":[]}}"#,
        )
        .unwrap();
        assert!(err(&[a, b, whole]).contains("a whole build, not a shard"));
    }
}
