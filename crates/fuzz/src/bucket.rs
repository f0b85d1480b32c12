//! A bucket in memory for the deploy planner's target: objects with sizes, ETags and headers, and
//! the manifest object. Reading it goes through the planner's own pure steps (`state::whose`,
//! `Record::paths`, `state::take_superseded`, `state::sort_listed`) with the I/O of
//! `state::state` (list, HEAD, the manifest's sentinel check) done here; applying a plan does what
//! `run::deploy` does to a bucket: upload, record ETags, delete, write the manifest.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use stillpoint_deploy::kind;
use stillpoint_deploy::local::LocalFile;
use stillpoint_deploy::manifest::{Entry, FORMAT, Headers, Manifest, Record, Superseded};
use stillpoint_deploy::plan::{Plan, Remote};
use stillpoint_deploy::state;

/// The site every deploy of a scenario is for.
pub const SITE: &str = "calm";

/// A file: which bytes (an id) and which of a few header variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct File {
    pub body: u8,
    pub headers: u8,
}

/// An object in the bucket before the first deploy of a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Object {
    pub file: File,
    /// Uploaded with no headers (a HEAD reads empty ones).
    pub bare: bool,
    /// A multipart upload: its ETag is not an MD5.
    pub multipart: bool,
}

/// The manifest object before the first deploy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Found {
    None,
    /// Bytes that are no manifest of this site.
    Bytes(String),
    Manifest {
        format: u32,
        site: Option<String>,
        files: BTreeMap<String, File>,
        superseded: BTreeMap<String, File>,
    },
}

/// How a deploy reads the bucket (`deploy --verify`, `--prune`, `--force`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flags {
    pub verify: bool,
    pub prune: bool,
    pub force: bool,
}

/// Size, sha256 and MD5 (hex; a stand-in digest) of each body id, computed once.
static DIGESTS: LazyLock<Vec<(u64, String, String)>> = LazyLock::new(|| {
    (0..=u8::MAX)
        .map(|body| {
            let sha = hex::encode(Sha256::digest([b's', body]));
            let md5 = hex::encode(&Sha256::digest([b'm', body])[..16]);
            (u64::from(body % 5), sha, md5)
        })
        .collect()
});

/// The id's bytes as uploaded: their size, sha256 and MD5.
pub fn digests(body: u8) -> (u64, String, String) {
    DIGESTS[usize::from(body)].clone()
}

/// Header variant `v` of `path`.
pub fn headers(path: &str, v: u8) -> Headers {
    Headers {
        content_type: kind::content_type(path).into(),
        cache_control: if v.is_multiple_of(2) {
            kind::cache_control(path).into()
        } else {
            "no-store".into()
        },
        content_encoding: (v % 3 == 2).then(|| "gzip".into()),
        redirect: None,
    }
}

/// DIST as `scan` returns it: sorted, sha256 and headers, no MD5.
pub fn local_files(build: &BTreeMap<String, File>) -> Vec<LocalFile> {
    build
        .iter()
        .map(|(path, f)| {
            let (size, sha, _) = digests(f.body);
            LocalFile {
                path: path.clone(),
                phase: kind::phase(path),
                entry: Entry {
                    sha256: Some(sha),
                    md5: None,
                    size,
                    headers: Some(headers(path, f.headers)),
                    etag: None,
                },
            }
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Stored {
    body: u8,
    headers: Option<Headers>,
    etag: String,
}

/// The bucket.
#[derive(Debug, Clone, Default)]
pub struct Bucket {
    objects: BTreeMap<String, Stored>,
    manifest: Option<Vec<u8>>,
}

impl Bucket {
    pub fn new(objects: &BTreeMap<String, Object>, found: &Found) -> Self {
        let stored = |o: &Object, path: &str| {
            let (_, _, md5) = digests(o.file.body);
            Stored {
                body: o.file.body,
                headers: (!o.bare).then(|| headers(path, o.file.headers)),
                etag: if o.multipart {
                    format!("\"{}-2\"", &md5[..30])
                } else {
                    format!("\"{md5}\"")
                },
            }
        };
        let objects = objects.iter().map(|(k, o)| (k.clone(), stored(o, k))).collect();
        Self { objects, manifest: manifest_bytes(found) }
    }

    /// Every object key, the manifest's aside.
    pub fn keys(&self) -> BTreeSet<String> {
        self.objects.keys().cloned().collect()
    }

    /// `state::state` on this bucket: the planner's view of it and whether it is the manifest's
    /// (trusted, not listed), or the other site's name.
    pub fn read(&self, local: &mut [LocalFile], flags: Flags) -> Result<(Remote, bool), String> {
        let record = self.manifest.as_deref().and_then(Record::parse);
        let own = match &record {
            Some(r) => state::whose(r, SITE, flags.force).map_err(str::to_string)?.then_some(r),
            None => None,
        };
        let manifest = own.and(self.manifest.as_deref()).and_then(Manifest::parse);
        if let Some(m) = &manifest
            && !flags.verify
            && !flags.prune
            && self.holds(m)
        {
            let files = m.files.clone();
            return Ok((
                Remote { files, superseded: m.superseded.clone(), ..Remote::default() },
                true,
            ));
        }
        let recorded = own.map(Record::paths).unwrap_or_default();
        let mut listed: BTreeMap<String, Entry> = self
            .objects
            .iter()
            .filter(|(k, _)| !k.starts_with(".stillpoint/"))
            .map(|(k, o)| (k.clone(), self.entry(o, false)))
            .collect();
        let superseded = state::take_superseded(&mut listed, manifest.as_ref());
        for f in local.iter_mut() {
            if listed.get(&f.path).is_some_and(|r| r.size == f.entry.size && r.md5.is_some()) {
                f.entry.md5 = Some(digests(self.local_body(f)).2);
            }
        }
        for f in local.iter() {
            if let Some(r) = listed.get_mut(&f.path)
                && r.size == f.entry.size
                && r.md5 == f.entry.md5
            {
                *r = self.entry(&self.objects[&f.path], true);
            }
        }
        let mut remote = Remote { superseded, ..Remote::default() };
        state::sort_listed(&mut remote, listed, &recorded, flags.prune);
        Ok((remote, false))
    }

    /// Carries out `plan` for DIST `local`, as `run::deploy` does.
    pub fn apply(&mut self, plan: &Plan) {
        let mut files = plan.files.clone();
        for f in &plan.uploads {
            let body = self.local_body(f);
            let (_, _, md5) = digests(body);
            let etag = format!("\"{md5}\"");
            self.objects.insert(
                f.path.clone(),
                Stored { body, headers: f.entry.headers.clone(), etag: etag.clone() },
            );
            if let Some(e) = files.get_mut(&f.path) {
                e.etag = Some(etag);
            }
        }
        for doomed in plan.deletes.iter().chain(&plan.expired) {
            self.objects.remove(doomed);
        }
        let manifest = Manifest {
            format: FORMAT,
            engine: "fuzz".into(),
            site: SITE.into(),
            deployed_at: "t".into(),
            files,
            superseded: plan.superseded.clone(),
            deleting: Default::default(),
        };
        self.manifest = Some(manifest.to_json());
    }

    /// Whether every file of `local` is in the bucket with its bytes and headers.
    pub fn holds_all(&self, local: &[LocalFile]) -> bool {
        local.iter().all(|f| {
            self.objects.get(&f.path).is_some_and(|o| {
                Some(digests(o.body).1) == f.entry.sha256 && o.headers == f.entry.headers
            })
        })
    }

    /// The listing's entry of `o` (and the HEAD's headers with `head`).
    fn entry(&self, o: &Stored, head: bool) -> Entry {
        let t = o.etag.trim_matches('"');
        let md5 = (t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit())).then(|| t.into());
        let headers = head.then(|| {
            o.headers.clone().unwrap_or(Headers {
                content_type: String::new(),
                cache_control: String::new(),
                content_encoding: None,
                redirect: None,
            })
        });
        Entry { sha256: None, md5, size: digests(o.body).0, headers, etag: Some(o.etag.clone()) }
    }

    /// The body id of a local file, found back from its sha256.
    fn local_body(&self, f: &LocalFile) -> u8 {
        let sha = f.entry.sha256.as_deref();
        (0..=u8::MAX)
            .find(|b| Some(DIGESTS[usize::from(*b)].1.as_str()) == sha)
            .expect("local files are made by local_files")
    }

    /// The manifest's sentinel check (`state::manifest_holds`).
    fn holds(&self, m: &Manifest) -> bool {
        let sentinel = m
            .files
            .get_key_value("page-data/app-data.json")
            .filter(|(_, e)| e.etag.is_some())
            .or_else(|| m.files.iter().find(|(_, e)| e.etag.is_some()));
        let Some((key, recorded)) = sentinel else { return m.files.is_empty() };
        self.objects.get(key).is_some_and(|o| {
            Some(&o.etag) == recorded.etag.as_ref() && digests(o.body).0 == recorded.size
        })
    }
}

/// The bytes of the manifest object `found` describes.
fn manifest_bytes(found: &Found) -> Option<Vec<u8>> {
    match found {
        Found::None => None,
        Found::Bytes(b) => Some(b.clone().into_bytes()),
        Found::Manifest { format, site, files, superseded } => {
            let entry = |path: &str, f: &File| {
                let (size, sha, md5) = digests(f.body);
                Entry {
                    sha256: Some(sha),
                    md5: None,
                    size,
                    headers: Some(headers(path, f.headers)),
                    etag: Some(format!("\"{md5}\"")),
                }
            };
            let json = serde_json::json!({
                "format": format,
                "engine": "earlier",
                "site": site,
                "deployedAt": "t0",
                "files": files.iter().map(|(k, f)| (k.clone(), entry(k, f))).collect::<BTreeMap<_, _>>(),
                "superseded": superseded.iter().map(|(k, f)| {
                    (k.clone(), Superseded { since: "t0".into(), entry: entry(k, f) })
                }).collect::<BTreeMap<_, _>>(),
            });
            Some(serde_json::to_vec(&json).expect("serialises"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stillpoint_deploy::plan::plan;

    fn build(paths: &[(&str, u8)]) -> BTreeMap<String, File> {
        paths.iter().map(|(p, b)| (p.to_string(), File { body: *b, headers: 0 })).collect()
    }

    #[test]
    fn a_deploy_then_a_redeploy_by_manifest_and_by_listing() {
        let foreign = Object { file: File { body: 9, headers: 0 }, bare: true, multipart: true };
        let mut bucket = Bucket::new(&[("user/x.png".to_string(), foreign)].into(), &Found::None);
        let local = local_files(&build(&[("index.html", 1), ("assets/a-1.js", 2)]));
        let flags = Flags { verify: false, prune: false, force: false };
        let (remote, _) = bucket.read(&mut local.clone(), flags).unwrap();
        assert_eq!(remote.unrecorded.keys().collect::<Vec<_>>(), ["user/x.png"]);
        let p = plan(&local, &remote, "t1");
        assert_eq!((p.uploads.len(), p.deletes_total()), (2, 0));
        bucket.apply(&p);
        for verify in [false, true] {
            let mut again_local = local.clone();
            let (remote, trusted) =
                bucket.read(&mut again_local, Flags { verify, ..flags }).unwrap();
            assert_eq!(trusted, !verify);
            let again = plan(&again_local, &remote, "t2");
            assert_eq!((again.uploads.len(), again.deletes_total()), (0, 0), "verify {verify}");
        }
        assert!(bucket.holds_all(&local));
        let (pruned, _) = bucket.read(&mut local.clone(), Flags { prune: true, ..flags }).unwrap();
        assert_eq!(plan(&local, &pruned, "t3").deletes, ["user/x.png"]);
    }

    #[test]
    fn another_sites_manifest_is_refused_unless_forced() {
        let found = Found::Manifest {
            format: FORMAT,
            site: Some("loud".into()),
            files: build(&[("a.html", 1)]),
            superseded: BTreeMap::new(),
        };
        let bucket = Bucket::new(&BTreeMap::new(), &found);
        let flags = Flags { verify: false, prune: false, force: false };
        assert_eq!(bucket.read(&mut [], flags).unwrap_err(), "loud");
        let (forced, _) = bucket.read(&mut [], Flags { force: true, ..flags }).unwrap();
        assert!(forced.files.is_empty());
    }
}
