//! The bucket: an object_store client that counts its requests and turns failures into one-line
//! errors naming the bucket and the endpoint. Object keys are the file paths byte for byte
//! (`Path::parse`, never the percent-encoding `Path::from`).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures::TryStreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder, AmazonS3ConfigKey};
use object_store::path::Path as Key;
use object_store::prefix::PrefixStore;
use object_store::{
    Attribute, Attributes, ClientOptions, GetOptions, ObjectStore, PutOptions, PutPayload,
    RetryConfig,
};

use crate::DeployError;
use crate::creds;
use crate::manifest::{Entry, Headers, MANIFEST_KEY};

/// Where to deploy: `s3://BUCKET[/PREFIX]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub bucket: String,
    pub prefix: String,
}

impl Target {
    pub fn parse(url: &str) -> Result<Self, DeployError> {
        let rest = url.strip_prefix("s3://").ok_or_else(|| {
            DeployError::Input(format!("--to {url}: expected s3://BUCKET or s3://BUCKET/PREFIX"))
        })?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(DeployError::Input(format!("--to {url}: the bucket name is empty")));
        }
        let prefix = prefix.trim_matches('/');
        if !prefix.is_empty() {
            key(prefix).map_err(|e| DeployError::Input(format!("--to {url}: {e}")))?;
        }
        Ok(Self { bucket: bucket.into(), prefix: prefix.into() })
    }
}

/// The object key of a path, unencoded: `articles/ü-ñ.html` is stored under exactly those
/// bytes. object_store refuses only empty segments, `.` and `..`, and ASCII control characters;
/// such a path is refused with the reason.
pub fn key(path: &str) -> Result<Key, DeployError> {
    if let Some(c) = path.chars().find(char::is_ascii_control) {
        return Err(DeployError::Input(format!(
            "{path}: cannot be an object key: the name holds the control character U+{:04X}; rename the file",
            u32::from(c)
        )));
    }
    Key::parse(path).map_err(|e| {
        let why = match e {
            object_store::path::Error::EmptySegment { .. } => "an empty segment (`//`)".into(),
            other => chain(&other),
        };
        DeployError::Input(format!("{path}: cannot be an object key: {why}"))
    })
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.prefix.is_empty() {
            write!(f, "s3://{}", self.bucket)
        } else {
            write!(f, "s3://{}/{}", self.bucket, self.prefix)
        }
    }
}

/// How a deploy learned what the bucket holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Its manifest, checked against the bucket with one HEAD.
    Manifest,
    /// Listing every object (no manifest, an unreadable one, or one the bucket contradicts).
    Listing,
}

pub struct Bucket {
    store: Arc<dyn ObjectStore>,
    /// The same client, for its credentials (signed requests object_store cannot make).
    s3: AmazonS3,
    /// Where and how object_store addresses the bucket, resolved once from its configuration.
    site: Addressing,
    http: reqwest::Client,
    pub target: Target,
    pub endpoint: String,
    requests: AtomicU64,
}

/// How the bucket is addressed, as object_store resolved it: the URL of the bucket (path style
/// `{endpoint}/{bucket}`, or the endpoint itself when virtual-hosted) and the signing region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addressing {
    pub bucket_url: String,
    pub region: String,
}

impl Addressing {
    /// What `AmazonS3Builder::build` does with the same settings (object_store 0.12).
    pub fn resolve(
        bucket: &str,
        endpoint: Option<&str>,
        region: Option<&str>,
        virtual_hosted: bool,
    ) -> Self {
        let region = region.unwrap_or("us-east-1").to_string();
        let bucket_url = match (endpoint, virtual_hosted) {
            (Some(e), true) => e.trim_end_matches('/').to_string(),
            (Some(e), false) => format!("{}/{bucket}", e.trim_end_matches('/')),
            (None, true) => format!("https://{bucket}.s3.{region}.amazonaws.com"),
            (None, false) => format!("https://s3.{region}.amazonaws.com/{bucket}"),
        };
        Self { bucket_url, region }
    }

    /// The URL of an object key, each segment percent-encoded as S3 canonicalises it.
    pub fn object_url(&self, key: &str) -> String {
        const KEEP: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
            .remove(b'-')
            .remove(b'_')
            .remove(b'.')
            .remove(b'~')
            .remove(b'/');
        format!("{}/{}", self.bucket_url, percent_encoding::utf8_percent_encode(key, KEEP))
    }
}

/// The credentials a signed request is made with.
pub struct Keys {
    pub key_id: String,
    pub secret: String,
    pub token: Option<String>,
}

/// A PUT of `bytes` to `url` carrying `headers`, signed (SigV4, `x-amz-content-sha256` the
/// payload's hash): every header of the request, the signature's included.
pub fn signed_put(
    url: &str,
    region: &str,
    keys: &Keys,
    headers: &[(&str, String)],
    bytes: &[u8],
    time: std::time::SystemTime,
) -> Result<Vec<(String, String)>, String> {
    use aws_sigv4::http_request::{
        PayloadChecksumKind, PercentEncodingMode, SignableBody, SignableRequest, SigningSettings,
        UriPathNormalizationMode, sign,
    };
    use sha2::{Digest, Sha256};
    let sha = hex::encode(Sha256::digest(bytes));
    let mut all: Vec<(&str, String)> = headers.to_vec();
    all.push(("x-amz-content-sha256", sha.clone()));
    let identity = aws_credential_types::Credentials::new(
        &keys.key_id,
        &keys.secret,
        keys.token.clone(),
        None,
        "object_store",
    )
    .into();
    let mut settings = SigningSettings::default();
    settings.payload_checksum_kind = PayloadChecksumKind::XAmzSha256;
    settings.percent_encoding_mode = PercentEncodingMode::Single;
    settings.uri_path_normalization_mode = UriPathNormalizationMode::Disabled;
    let params = aws_sigv4::sign::v4::SigningParams::builder()
        .identity(&identity)
        .region(region)
        .name("s3")
        .time(time)
        .settings(settings)
        .build()
        .map_err(|e| e.to_string())?
        .into();
    let request = SignableRequest::new(
        "PUT",
        url,
        all.iter().map(|(k, v)| (*k, v.as_str())),
        SignableBody::Precomputed(sha),
    )
    .map_err(|e| e.to_string())?;
    let (instructions, _) = sign(request, &params).map_err(|e| e.to_string())?.into_parts();
    let (signed, _) = instructions.into_parts();
    let mut out: Vec<(String, String)> =
        all.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    for h in signed {
        if !out.iter().any(|(k, _)| k.eq_ignore_ascii_case(h.name())) {
            out.push((h.name().to_string(), h.value().to_string()));
        }
    }
    Ok(out)
}

impl Bucket {
    /// A client configured from the AWS environment variables and shared files.
    pub fn open(target: Target) -> Result<Self, DeployError> {
        let profile = creds::from_profile();
        let mut b = AmazonS3Builder::from_env();
        for (k, v) in &profile {
            b = b.with_config(k.parse().expect("known key"), v);
        }
        let endpoint =
            b.get_config_value(&"aws_endpoint".parse().expect("known key")).unwrap_or_else(|| {
                let region = b
                    .get_config_value(&"aws_region".parse().expect("known key"))
                    .unwrap_or_else(|| "us-east-1".into());
                format!("AWS S3 ({region})")
            });
        if !creds::available(&profile) {
            return Err(DeployError::NoCredentials(target.to_string()));
        }
        let config = |k: AmazonS3ConfigKey| b.get_config_value(&k);
        let virtual_hosted = config(AmazonS3ConfigKey::VirtualHostedStyleRequest)
            .is_some_and(|v| v.eq_ignore_ascii_case("true"));
        let site = Addressing::resolve(
            &target.bucket,
            config(AmazonS3ConfigKey::Endpoint).as_deref(),
            config(AmazonS3ConfigKey::Region).as_deref(),
            virtual_hosted,
        );
        let allow_http = endpoint.starts_with("http://");
        let http = reqwest::Client::builder()
            .https_only(!allow_http)
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(120))
            .build()
            .map_err(|e| DeployError::Input(format!("{target}: {e}")))?;
        let client = ClientOptions::new()
            .with_allow_http(allow_http)
            .with_connect_timeout(Duration::from_secs(10))
            .with_timeout(Duration::from_secs(120));
        let retry = RetryConfig {
            max_retries: 6,
            retry_timeout: Duration::from_secs(180),
            ..RetryConfig::default()
        };
        let s3 = b
            .with_bucket_name(&target.bucket)
            .with_client_options(client)
            .with_retry(retry)
            .build()
            .map_err(|e| DeployError::Input(format!("{target}: {e}")))?;
        let store: Arc<dyn ObjectStore> = if target.prefix.is_empty() {
            Arc::new(s3.clone())
        } else {
            Arc::new(PrefixStore::new(s3.clone(), key(&target.prefix)?))
        };
        Ok(Self { store, s3, site, http, target, endpoint, requests: AtomicU64::new(0) })
    }

    /// HTTP requests made so far (a listing counts one per page of 1,000 keys).
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    fn count(&self, n: u64) {
        self.requests.fetch_add(n, Ordering::Relaxed);
    }

    fn fail(&self, op: &'static str, key: &str, e: object_store::Error) -> DeployError {
        let detail = chain(&e);
        let (bucket, endpoint) = (self.target.bucket.clone(), self.endpoint.clone());
        let lower = detail.to_ascii_lowercase();
        if lower.contains("nosuchbucket") {
            DeployError::NoBucket { bucket, endpoint }
        } else if matches!(
            e,
            object_store::Error::PermissionDenied { .. }
                | object_store::Error::Unauthenticated { .. }
        ) || lower.contains("accessdenied")
            || lower.contains("invalidaccesskeyid")
            || lower.contains("signaturedoesnotmatch")
            || lower.contains("403 forbidden")
        {
            DeployError::Denied { bucket, endpoint, detail: short(&detail) }
        } else {
            DeployError::Request { op, key: key.into(), bucket, endpoint, detail: short(&detail) }
        }
    }

    /// The manifest's bytes; `None` when there is none.
    pub async fn get_manifest(&self) -> Result<Option<Vec<u8>>, DeployError> {
        self.count(1);
        match self.store.get(&key(MANIFEST_KEY)?).await {
            Ok(r) => {
                let bytes = r.bytes().await.map_err(|e| self.fail("GET", MANIFEST_KEY, e))?;
                Ok(Some(bytes.to_vec()))
            }
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(self.fail("GET", MANIFEST_KEY, e)),
        }
    }

    /// HEAD: the object's entry (no digests), or `None` when it does not exist.
    pub async fn head(&self, key: &str) -> Result<Option<Entry>, DeployError> {
        self.count(1);
        let opts = GetOptions { head: true, ..GetOptions::default() };
        match self.store.get_opts(&self::key(key)?, opts).await {
            Ok(r) => {
                let attr = |a: &Attribute| r.attributes.get(a).map(|v| v.to_string());
                let headers = Headers {
                    content_type: attr(&Attribute::ContentType).unwrap_or_default(),
                    cache_control: attr(&Attribute::CacheControl).unwrap_or_default(),
                    content_encoding: attr(&Attribute::ContentEncoding),
                    // object_store does not report it: a listed redirect page is uploaded again.
                    redirect: None,
                };
                let mut entry = listed(r.meta.size, r.meta.e_tag);
                entry.headers = Some(headers);
                Ok(Some(entry))
            }
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(self.fail("HEAD", key, e)),
        }
    }

    /// Every object except `.stillpoint/`, with size and ETag.
    pub async fn list(&self) -> Result<BTreeMap<String, Entry>, DeployError> {
        let metas: Vec<_> =
            self.store.list(None).try_collect().await.map_err(|e| self.fail("LIST", "", e))?;
        self.count((metas.len() as u64).div_ceil(1000).max(1));
        Ok(metas
            .into_iter()
            .map(|m| (m.location.to_string(), listed(m.size, m.e_tag)))
            .filter(|(k, _)| !k.starts_with(".stillpoint/"))
            .collect())
    }

    /// PUT with the file's headers; returns the ETag.
    pub async fn put(
        &self,
        key: &str,
        bytes: Vec<u8>,
        headers: &Headers,
    ) -> Result<Option<String>, DeployError> {
        self.count(1);
        let mut attributes = Attributes::new();
        attributes.insert(Attribute::ContentType, headers.content_type.clone().into());
        attributes.insert(Attribute::CacheControl, headers.cache_control.clone().into());
        if let Some(enc) = &headers.content_encoding {
            attributes.insert(Attribute::ContentEncoding, enc.clone().into());
        }
        let opts = PutOptions { attributes, ..PutOptions::default() };
        let r = self
            .store
            .put_opts(&self::key(key)?, PutPayload::from(bytes), opts)
            .await
            .map_err(|e| self.fail("PUT", key, e))?;
        Ok(r.e_tag)
    }

    /// PUT with the file's headers and `x-amz-website-redirect-location`, which object_store
    /// cannot send: signed here with the client's own credentials. Returns the ETag.
    pub async fn put_redirect(
        &self,
        key: &str,
        bytes: Vec<u8>,
        headers: &Headers,
        location: &str,
    ) -> Result<Option<String>, DeployError> {
        self.count(1);
        let full = if self.target.prefix.is_empty() {
            key.to_string()
        } else {
            format!("{}/{key}", self.target.prefix)
        };
        let url = self.site.object_url(&full);
        let cred =
            self.s3.credentials().get_credential().await.map_err(|e| self.fail("PUT", key, e))?;
        let keys = Keys {
            key_id: cred.key_id.clone(),
            secret: cred.secret_key.clone(),
            token: cred.token.clone(),
        };
        let mut list = vec![
            ("content-type", headers.content_type.clone()),
            ("cache-control", headers.cache_control.clone()),
            ("x-amz-website-redirect-location", location.to_string()),
        ];
        if let Some(enc) = &headers.content_encoding {
            list.push(("content-encoding", enc.clone()));
        }
        // Retried as object_store retries: a connection error, 429 or 5xx, signed again each time.
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let now = std::time::SystemTime::now();
            let signed = signed_put(&url, &self.site.region, &keys, &list, &bytes, now)
                .map_err(|e| self.request_failed(key, e))?;
            let mut req = self.http.put(&url).body(bytes.clone());
            for (k, v) in &signed {
                req = req.header(k.as_str(), v.as_str());
            }
            let (detail, retry) = match req.send().await {
                Ok(resp) if resp.status().is_success() => {
                    let etag = resp.headers().get("etag").and_then(|v| v.to_str().ok());
                    return Ok(etag.map(str::to_string));
                }
                Ok(resp) => {
                    let status = resp.status();
                    let body = resp.text().await.unwrap_or_default();
                    let retry = status.is_server_error() || status.as_u16() == 429;
                    (format!("{status}: {body}"), retry)
                }
                Err(e) => (chain(&e), e.is_connect() || e.is_timeout() || e.is_request()),
            };
            if !retry || attempt >= 4 {
                return Err(self.request_failed(key, detail));
            }
            self.count(1);
            tokio::time::sleep(Duration::from_millis(200 << attempt)).await;
        }
    }

    fn request_failed(&self, key: &str, detail: String) -> DeployError {
        let (bucket, endpoint) = (self.target.bucket.clone(), self.endpoint.clone());
        let lower = detail.to_ascii_lowercase();
        if lower.contains("nosuchbucket") {
            DeployError::NoBucket { bucket, endpoint }
        } else if lower.contains("403") || lower.contains("accessdenied") {
            DeployError::Denied { bucket, endpoint, detail: short(&detail) }
        } else {
            DeployError::Request {
                op: "PUT",
                key: key.into(),
                bucket,
                endpoint,
                detail: short(&detail),
            }
        }
    }

    /// DELETE; an object already gone is fine.
    pub async fn delete(&self, key: &str) -> Result<(), DeployError> {
        self.count(1);
        match self.store.delete(&self::key(key)?).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(self.fail("DELETE", key, e)),
        }
    }
}

/// An entry known from a listing: an ETag without `-` is the MD5 of a single-part upload.
pub(crate) fn listed(size: u64, etag: Option<String>) -> Entry {
    let md5 = etag
        .as_deref()
        .map(|t| t.trim_matches('"').to_ascii_lowercase())
        .filter(|t| t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()));
    Entry { sha256: None, md5, size, headers: None, etag }
}

fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(inner) = src {
        let t = inner.to_string();
        if !s.contains(&t) {
            s.push_str(": ");
            s.push_str(&t);
        }
        src = inner.source();
    }
    s
}

/// One line, bounded: S3 error bodies are XML documents.
fn short(s: &str) -> String {
    let line: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.len() > 300 {
        let cut = (0..=300).rev().find(|i| line.is_char_boundary(*i)).unwrap_or(0);
        format!("{}…", &line[..cut])
    } else {
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        let t = Target::parse("s3://b/pre/fix/").unwrap();
        assert_eq!((t.bucket.as_str(), t.prefix.as_str()), ("b", "pre/fix"));
        assert_eq!(t.to_string(), "s3://b/pre/fix");
        assert_eq!(Target::parse("s3://b").unwrap().to_string(), "s3://b");
        assert!(Target::parse("https://b").is_err());
        assert!(Target::parse("s3:///x").is_err());
        assert!(Target::parse("s3://b/a//b").is_err());
    }

    #[test]
    fn keys_are_the_paths_unencoded() {
        for p in ["static/ü-ñ.txt", "a#b.txt", "100%/x y+z.txt", "q?x=1&[a]{b}~|^`<>\"\\.txt"] {
            assert_eq!(key(p).unwrap().as_ref(), p);
        }
        let err = key("a\nb.txt").unwrap_err().to_string();
        assert!(err.contains("control character U+000A"), "{err}");
        assert!(key("a/../b").is_err() && key("a//b").is_err());
    }

    #[test]
    fn redirect_puts_address_the_bucket_as_object_store_does_and_sign_the_redirect() {
        let path = Addressing::resolve("b", Some("http://127.0.0.1:9000/"), None, false);
        assert_eq!(
            path.object_url("old/ü a+b.html"),
            "http://127.0.0.1:9000/b/old/%C3%BC%20a%2Bb.html"
        );
        assert_eq!(path.region, "us-east-1");
        let aws = Addressing::resolve("b", None, Some("eu-west-1"), false);
        assert_eq!(aws.object_url("x.html"), "https://s3.eu-west-1.amazonaws.com/b/x.html");
        let vhost = Addressing::resolve("b", None, Some("eu-west-1"), true);
        assert_eq!(vhost.object_url("x.html"), "https://b.s3.eu-west-1.amazonaws.com/x.html");
        let custom = Addressing::resolve("b", Some("https://b.r2.example"), Some("auto"), true);
        assert_eq!(custom.object_url("x.html"), "https://b.r2.example/x.html");

        let keys = Keys { key_id: "AKID".into(), secret: "s".into(), token: Some("tok".into()) };
        let headers = [
            ("content-type", "text/html; charset=utf-8".to_string()),
            ("cache-control", "no-store".to_string()),
            ("x-amz-website-redirect-location", "/articles/new".to_string()),
        ];
        let time = std::time::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let url = aws.object_url("old.html");
        let signed = signed_put(&url, "eu-west-1", &keys, &headers, b"<p>moved</p>", time).unwrap();
        let get = |k: &str| signed.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("x-amz-website-redirect-location"), Some("/articles/new"));
        use sha2::Digest;
        let sha = hex::encode(sha2::Sha256::digest(b"<p>moved</p>"));
        assert_eq!(get("x-amz-content-sha256"), Some(sha.as_str()));
        assert_eq!(get("x-amz-security-token"), Some("tok"));
        assert_eq!(get("x-amz-date"), Some("20231114T221320Z"));
        let auth = get("authorization").unwrap();
        assert!(
            auth.starts_with("AWS4-HMAC-SHA256 Credential=AKID/20231114/eu-west-1/s3/aws4_request"),
            "{auth}"
        );
        let names = auth.split("SignedHeaders=").nth(1).unwrap().split(',').next().unwrap();
        let names: Vec<&str> = names.split(';').collect();
        for h in [
            "cache-control",
            "content-type",
            "host",
            "x-amz-content-sha256",
            "x-amz-website-redirect-location",
        ] {
            assert!(names.contains(&h), "{h} not signed: {auth}");
        }
        // The same request signed again is the same signature: nothing random goes in.
        assert_eq!(
            signed,
            signed_put(&url, "eu-west-1", &keys, &headers, b"<p>moved</p>", time).unwrap()
        );
    }

    #[test]
    fn md5_etags() {
        let md5 = "\"0CC175B9C0F1B6A831C399E269772661\"";
        assert_eq!(
            listed(1, Some(md5.into())).md5.as_deref(),
            Some("0cc175b9c0f1b6a831c399e269772661")
        );
        assert_eq!(listed(1, Some("\"abc-2\"".into())).md5, None);
    }
}
