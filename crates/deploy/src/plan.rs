//! The plan of a deploy: what to upload, what to keep, what to delete, and the manifest that
//! describes the bucket afterwards. Pure: no I/O.
//!
//! Only objects a manifest of this site recorded are ever deleted; every other object of the
//! bucket is compared with DIST (an identical one is not uploaded again) but never deleted,
//! superseded or recorded unless DIST has it.

use std::collections::BTreeMap;

use crate::DeployError;
use crate::kind;
use crate::local::LocalFile;
use crate::manifest::{Entry, Superseded};

/// What the bucket holds, as read from its manifest or by listing it.
#[derive(Debug, Clone, Default)]
pub struct Remote {
    /// Objects that are part of the published site.
    pub files: BTreeMap<String, Entry>,
    /// Content-hashed objects kept from an earlier deploy (deleted by this one unless the site
    /// uses them again).
    pub superseded: BTreeMap<String, Superseded>,
    /// Objects no manifest of this site recorded (found by listing a bucket without one, or
    /// beyond what its manifest lists): never deleted.
    pub unrecorded: BTreeMap<String, Entry>,
}

#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Files to upload, in path order (the runner orders them by phase).
    pub uploads: Vec<LocalFile>,
    /// Bytes of `uploads`.
    pub upload_bytes: u64,
    pub unchanged: usize,
    pub unchanged_bytes: u64,
    /// Site files that are gone from DIST.
    pub deletes: Vec<String>,
    /// Content-hashed files superseded by the previous deploy and unused now.
    pub expired: Vec<String>,
    /// Objects of the bucket not in DIST that no manifest of this site recorded: left alone.
    pub unrecorded: Vec<String>,
    /// The manifest's `files` after this deploy (ETags filled in as uploads succeed).
    pub files: BTreeMap<String, Entry>,
    /// The manifest's `superseded` after this deploy.
    pub superseded: BTreeMap<String, Superseded>,
}

impl Plan {
    /// Every deletion, of site files and of expired hashed files alike.
    pub fn deletes_total(&self) -> usize {
        self.deletes.len() + self.expired.len()
    }

    /// Refuses a plan that deletes more than `max` objects, whatever they are, unless `force`.
    pub fn check_deletes(&self, max: usize, force: bool) -> Result<(), DeployError> {
        let count = self.deletes_total();
        if count > max && !force {
            return Err(DeployError::TooManyDeletes { count, max });
        }
        Ok(())
    }
}

/// `true` when the object already holds these bytes with these headers. With a manifest the
/// sha256 decides; for a listed object, size and the MD5 ETag (headers were read by HEAD).
fn same(local: &Entry, remote: &Entry) -> bool {
    let bytes = match (&remote.sha256, &remote.md5) {
        (Some(r), _) => local.sha256.as_ref() == Some(r),
        (None, Some(r)) => local.md5.as_ref() == Some(r),
        (None, None) => false,
    };
    bytes
        && local.size == remote.size
        && remote.headers.is_some()
        && local.headers == remote.headers
}

/// Plans a deploy of `local` onto `remote`; `now` is the RFC 3339 time recorded for files this
/// deploy supersedes.
pub fn plan(local: &[LocalFile], remote: &Remote, now: &str) -> Plan {
    let mut p = Plan::default();
    for f in local {
        let known = remote
            .files
            .get(&f.path)
            .or_else(|| remote.superseded.get(&f.path).map(|s| &s.entry))
            .or_else(|| remote.unrecorded.get(&f.path));
        match known {
            Some(r) if same(&f.entry, r) => {
                p.unchanged += 1;
                p.unchanged_bytes += f.entry.size;
                let mut kept = f.entry.clone();
                kept.etag = r.etag.clone();
                p.files.insert(f.path.clone(), kept);
            }
            _ => {
                p.upload_bytes += f.entry.size;
                p.uploads.push(f.clone());
                p.files.insert(f.path.clone(), f.entry.clone());
            }
        }
    }
    for (path, entry) in &remote.files {
        if p.files.contains_key(path) {
            continue;
        }
        if kind::is_hashed(path) {
            let entry = entry.clone();
            p.superseded.insert(path.clone(), Superseded { since: now.to_string(), entry });
        } else {
            p.deletes.push(path.clone());
        }
    }
    for path in remote.superseded.keys() {
        // A path the manifest also lists as a site file was dealt with above (a manifest written
        // by hand or by another tool may list a path in both).
        if !p.files.contains_key(path)
            && !p.superseded.contains_key(path)
            && !remote.files.contains_key(path)
        {
            p.expired.push(path.clone());
        }
    }
    p.unrecorded =
        remote.unrecorded.keys().filter(|k| !p.files.contains_key(*k)).cloned().collect();
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::Headers;
    use proptest::prelude::*;

    fn file(path: &str, content: &str) -> LocalFile {
        LocalFile {
            path: path.into(),
            phase: kind::phase(path),
            entry: Entry {
                sha256: Some(format!("sha-{content}")),
                md5: Some(format!("md5-{content}")),
                size: content.len() as u64,
                headers: Some(Headers {
                    content_type: kind::content_type(path).into(),
                    cache_control: kind::cache_control(path).into(),
                    content_encoding: None,
                    redirect: None,
                }),
                etag: None,
            },
        }
    }

    /// The bucket after a successful deploy of `p`, as its manifest records it.
    fn after(p: &Plan) -> Remote {
        Remote { files: p.files.clone(), superseded: p.superseded.clone(), ..Remote::default() }
    }

    #[test]
    fn first_then_unchanged_then_edited() {
        let v1 = [file("index.html", "a"), file("assets/x-1.js", "1"), file("a/index.html", "b")];
        let p1 = plan(&v1, &Remote::default(), "t1");
        assert_eq!(p1.uploads.len(), 3);
        let p2 = plan(&v1, &after(&p1), "t2");
        assert_eq!((p2.uploads.len(), p2.unchanged, p2.deletes_total()), (0, 3, 0));

        let v3 = [file("assets/x-2.js", "2"), file("index.html", "a2")];
        let p3 = plan(&v3, &after(&p2), "t3");
        let up: Vec<_> = p3.uploads.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(up, ["assets/x-2.js", "index.html"]);
        assert_eq!(p3.deletes, ["a/index.html"]);
        assert!(p3.expired.is_empty());
        assert_eq!(p3.superseded["assets/x-1.js"].since, "t3");

        // One deploy later the superseded asset goes.
        let p4 = plan(&v3, &after(&p3), "t4");
        assert_eq!(p4.expired, ["assets/x-1.js"]);
        assert!(p4.deletes.is_empty() && p4.superseded.is_empty() && p4.uploads.is_empty());
    }

    #[test]
    fn header_changes_and_rollbacks() {
        let v1 = [file("index.html", "a"), file("assets/x-1.js", "1")];
        let p1 = plan(&v1, &Remote::default(), "t1");
        let mut v2 = v1.clone();
        v2[0].entry.headers.as_mut().unwrap().cache_control = "no-store".into();
        v2[1] = file("assets/x-2.js", "2");
        let p2 = plan(&v2, &after(&p1), "t2");
        assert_eq!(p2.uploads.len(), 2, "a header-only change uploads again");
        // Back to the previous build: its asset is still there, so nothing of it is uploaded.
        let p3 = plan(&v1, &after(&p2), "t3");
        let up: Vec<_> = p3.uploads.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(up, ["index.html"]);
        assert!(p3.superseded.contains_key("assets/x-2.js"));
    }

    #[test]
    fn a_redirect_page_whose_target_changes_is_uploaded_again() {
        let mut v1 = [file("old.html", "moved"), file("index.html", "a")];
        v1[0].entry.headers.as_mut().unwrap().redirect = Some("/articles/a".into());
        let p1 = plan(&v1, &Remote::default(), "t1");
        assert_eq!(
            p1.files["old.html"].headers.as_ref().unwrap().redirect.as_deref(),
            Some("/articles/a")
        );
        assert!(plan(&v1, &after(&p1), "t2").uploads.is_empty());
        let mut v2 = v1.clone();
        v2[0].entry.headers.as_mut().unwrap().redirect = Some("https://x.example/".into());
        let up: Vec<_> = plan(&v2, &after(&p1), "t2").uploads.into_iter().map(|f| f.path).collect();
        assert_eq!(up, ["old.html"], "same bytes, another target");
    }

    #[test]
    fn listed_objects_compare_by_md5_and_size() {
        let local = [file("index.html", "a"), file("b.html", "b")];
        let mut remote = Remote::default();
        let mut same = local[0].entry.clone();
        same.sha256 = None;
        let mut other = local[1].entry.clone();
        other.sha256 = None;
        other.md5 = Some("md5-zzz".into());
        remote.files.insert("index.html".into(), same);
        remote.files.insert("b.html".into(), other);
        let p = plan(&local, &remote, "t");
        assert_eq!(p.unchanged, 1);
        assert_eq!(p.uploads[0].path, "b.html");
    }

    #[test]
    fn unrecorded_objects_are_compared_but_never_deleted() {
        let local = [file("index.html", "a"), file("assets/x-1.js", "1")];
        let mut remote = Remote::default();
        let mut same = local[0].entry.clone();
        same.sha256 = None;
        remote.unrecorded.insert("index.html".into(), same);
        for k in ["assets/user-upload-1.png", "other/index.html", "search/k-upload"] {
            remote.unrecorded.insert(k.into(), file(k, "u").entry);
        }
        let p = plan(&local, &remote, "t");
        assert_eq!((p.unchanged, p.uploads.len(), p.deletes_total()), (1, 1, 0));
        assert_eq!(
            p.unrecorded,
            ["assets/user-upload-1.png", "other/index.html", "search/k-upload"]
        );
        assert!(p.superseded.is_empty(), "a hashed path nobody recorded is not superseded");
        assert_eq!(p.files.len(), 2, "the manifest records DIST only");
    }

    #[test]
    fn every_deletion_counts_against_the_cap() {
        let v1 = [file("a.html", "a"), file("assets/x-1.js", "1"), file("assets/y-1.js", "1")];
        let p1 = plan(&v1, &Remote::default(), "t1");
        let v2 = [file("a.html", "a")];
        let p2 = plan(&v2, &after(&p1), "t2");
        assert_eq!(p2.check_deletes(0, false).map_err(|e| e.to_string()), Ok(()));
        let p3 = plan(&v2, &after(&p2), "t3");
        assert_eq!((p3.deletes.len(), p3.expired.len()), (0, 2));
        let err = p3.check_deletes(1, false).unwrap_err().to_string();
        assert!(err.starts_with("refusing to delete 2 objects"), "{err}");
        assert!(p3.check_deletes(2, false).is_ok() && p3.check_deletes(1, true).is_ok());
    }

    #[test]
    fn a_path_listed_as_file_and_superseded_is_deleted_once() {
        let gone = file("old.html", "o");
        let mut remote = Remote::default();
        remote.files.insert("old.html".into(), gone.entry.clone());
        let superseded = Superseded { since: "t0".into(), entry: gone.entry };
        remote.superseded.insert("old.html".into(), superseded);
        let p = plan(&[], &remote, "t1");
        assert_eq!(
            (p.deletes.as_slice(), p.expired.len()),
            (["old.html".to_string()].as_slice(), 0)
        );
        assert_eq!(p.deletes_total(), 1);
    }

    proptest! {
        /// Deploying any sequence of builds: after each, the manifest lists exactly the build's
        /// files, a redeploy uploads and deletes nothing, and every superseded file is a hashed
        /// file of the build before.
        #[test]
        fn deploys_converge(builds in prop::collection::vec(
            prop::collection::btree_map("(assets/[a-c]|[a-c]\\.html|p/[a-c])", "[xy]", 0..6), 1..5)
        ) {
            let mut remote = Remote::default();
            let mut prev: Option<Vec<LocalFile>> = None;
            for (i, b) in builds.iter().enumerate() {
                let local: Vec<_> = b.iter().map(|(k, v)| file(k, v)).collect();
                let p = plan(&local, &remote, &format!("t{i}"));
                prop_assert_eq!(p.files.len(), local.len());
                for s in p.superseded.keys() {
                    prop_assert!(kind::is_hashed(s));
                    prop_assert!(prev.as_ref().unwrap().iter().any(|f| &f.path == s));
                    prop_assert!(!p.files.contains_key(s));
                }
                remote = after(&p);
                let again = plan(&local, &remote, "again");
                prop_assert_eq!(again.uploads.len(), 0);
                prop_assert_eq!(again.deletes.len(), 0);
                prev = Some(local);
            }
        }
    }
}
