//! The deploy manifest, `.stillpoint/deploy-manifest.json` in the bucket, written last by every
//! deploy: each published path with the sha256 of its uploaded bytes and its headers, and the
//! content-hashed files a deploy superseded but kept for one more deploy. The manifest is also
//! the bucket's record of ownership: a deploy deletes only objects a manifest of its own site
//! recorded, and refuses a bucket whose manifest names another site.

use std::collections::{BTreeMap, BTreeSet};

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

/// The manifest's key in the bucket. Nothing under `.stillpoint/` in DIST is ever uploaded, so
/// this cannot collide with a site file.
pub const MANIFEST_KEY: &str = ".stillpoint/deploy-manifest.json";
/// Bumped when the format changes; a manifest of another format is ignored (the bucket is listed)
/// except for its [`Record`] of ownership. Format 1 was written by deploys that stored each path
/// percent-encoded (`a#b.txt` as the key `a%23b.txt`); format 2 keys are the paths themselves.
pub const FORMAT: u32 = 2;

/// The headers a file is uploaded with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Headers {
    pub content_type: String,
    pub cache_control: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_encoding: Option<String>,
    /// `x-amz-website-redirect-location` of a redirect page (`/path` or an absolute URL), so a
    /// changed target uploads the page again even when its bytes are the same. Absent from other
    /// files and from manifests written before it, which read as no redirect.
    #[serde(default, rename = "websiteRedirectLocation", skip_serializing_if = "Option::is_none")]
    pub redirect: Option<String>,
}

/// One object of the bucket as a deploy knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// sha256 (hex) of the uploaded bytes; unknown for objects found only by listing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// MD5 (hex) of the uploaded bytes: the ETag S3 gives a single-part upload. Only for objects
    /// found by listing; never written to the manifest.
    #[serde(skip)]
    pub md5: Option<String>,
    pub size: u64,
    #[serde(flatten)]
    pub headers: Option<Headers>,
    /// The ETag the server returned; used to check the manifest against the bucket.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
}

/// A content-hashed file that is no longer part of the site, kept so that pages still open in a
/// browser (or cached by a CDN) keep loading; deleted by the next deploy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Superseded {
    /// When the deploy that superseded it ran (RFC 3339).
    pub since: String,
    pub entry: Entry,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: u32,
    pub engine: String,
    pub site: String,
    pub deployed_at: String,
    pub files: BTreeMap<String, Entry>,
    #[serde(default)]
    pub superseded: BTreeMap<String, Superseded>,
    /// The objects a deploy is deleting. A deploy with deletions writes its manifest with them
    /// first, then deletes, then writes it again without them: a manifest that still names some
    /// is of a deploy stopped half way, so it records ownership (these keys included) but not
    /// what the bucket holds, and the next deploy lists the bucket.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub deleting: BTreeSet<String>,
}

impl Manifest {
    /// Parses a manifest; `None` when it is not one this version understands, or one of a deploy
    /// stopped while deleting.
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        let m: Self = serde_json::from_slice(bytes).ok()?;
        (m.format == FORMAT
            && m.deleting.is_empty()
            && m.files.values().all(|e| e.sha256.is_some() && e.headers.is_some()))
        .then_some(m)
    }

    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("manifest serialises")
    }
}

/// What a manifest of any format (older, newer, or this one) says about ownership: the site
/// that deployed it and every path it recorded. Read even when [`Manifest::parse`] refuses the
/// manifest, so that a format change never turns a bucket into one without an owner.
#[derive(Debug, Clone, Deserialize)]
pub struct Record {
    pub format: u32,
    /// `None` in a manifest that does not name its site.
    #[serde(default)]
    pub site: Option<String>,
    #[serde(default)]
    files: BTreeMap<String, IgnoredAny>,
    #[serde(default)]
    superseded: BTreeMap<String, IgnoredAny>,
    #[serde(default)]
    deleting: BTreeSet<String>,
}

impl Record {
    /// `None` when the bytes are not a Stillpoint deploy manifest (a JSON object with `format`).
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        serde_json::from_slice(bytes).ok()
    }

    /// Every object key the manifest recorded, published, superseded or being deleted: for a
    /// format 1 manifest, each path as those deploys stored it (percent-encoded) as well.
    pub fn paths(&self) -> BTreeSet<String> {
        let mut keys = BTreeSet::new();
        for path in self.files.keys().chain(self.superseded.keys()).chain(&self.deleting) {
            if self.format < 2 {
                keys.insert(object_store::path::Path::from(path.as_str()).to_string());
            }
            keys.insert(path.clone());
        }
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_other_formats() {
        let entry = Entry {
            sha256: Some("ab".into()),
            md5: Some("cd".into()),
            size: 3,
            headers: Some(Headers {
                content_type: "text/html; charset=utf-8".into(),
                cache_control: "public, max-age=0, must-revalidate".into(),
                content_encoding: Some("gzip".into()),
                redirect: None,
            }),
            etag: Some("\"x\"".into()),
        };
        let m = Manifest {
            format: FORMAT,
            engine: "0.1.0".into(),
            site: "s".into(),
            deployed_at: "2026-01-01T00:00:00Z".into(),
            files: [("index.html".to_string(), entry.clone())].into(),
            superseded: [(
                "assets/a-1.js".to_string(),
                Superseded { since: "2026-01-01T00:00:00Z".into(), entry: entry.clone() },
            )]
            .into(),
            deleting: BTreeSet::new(),
        };
        assert!(!String::from_utf8(m.to_json()).unwrap().contains("deleting"));
        let back = Manifest::parse(&m.to_json()).unwrap();
        // The MD5 is never stored.
        assert_eq!(back.files["index.html"].md5, None);
        assert_eq!(back.files["index.html"].headers, entry.headers);
        assert_eq!(back.superseded["assets/a-1.js"].since, "2026-01-01T00:00:00Z");
        let mut other = m.clone();
        other.format = FORMAT + 1;
        assert!(Manifest::parse(&other.to_json()).is_none());
        assert!(Manifest::parse(b"{not json").is_none());
    }

    #[test]
    fn a_manifest_written_before_deleting_owns_but_is_not_trusted() {
        let m = br#"{"format":2,"engine":"0.1.0","site":"calm","deployedAt":"t","files":{},
            "deleting":["gone.html","assets/a-1.js"]}"#;
        assert!(Manifest::parse(m).is_none(), "the bucket is listed");
        let keys = Record::parse(m).unwrap().paths();
        assert_eq!(keys, ["assets/a-1.js".to_string(), "gone.html".to_string()].into());
    }

    #[test]
    fn the_record_of_ownership_is_read_from_any_format() {
        let other = br#"{"format":7,"site":"calm","files":{"a.html":{"x":1}},
            "superseded":{"assets/b-1.js":{}},"more":[1]}"#;
        let r = Record::parse(other).unwrap();
        assert_eq!(r.site.as_deref(), Some("calm"));
        assert_eq!(r.paths(), ["a.html".to_string(), "assets/b-1.js".to_string()].into());
        let unnamed = Record::parse(br#"{"format":3,"files":{}}"#).unwrap();
        assert_eq!(unnamed.site, None);
        // Format 1 deploys stored `a#b.txt` as `a%23b.txt`: both keys are the site's.
        let old = r#"{"format":1,"site":"calm","files":{"s/\u00fc #.txt":{}}}"#;
        let keys = Record::parse(old.as_bytes()).unwrap().paths();
        assert_eq!(keys, ["s/%C3%BC %23.txt".to_string(), "s/ü #.txt".to_string()].into());
        assert!(Record::parse(br#"{"site":"calm"}"#).is_none(), "not a manifest");
        assert!(Record::parse(b"[]").is_none());
    }
}
