//! Fetching one proxied URL: policy checks on every hop (at most 3 redirects), the filtering
//! resolver, size and time caps, the content-type rule, the answer cache, a cap on fetches
//! at once and one fetch per URL at a time (`flight.rs`).

use std::{error::Error as _, sync::Arc, time::Instant};

use axum::{body::Body, response::Response};
use bytes::{Bytes, BytesMut};
use http::{HeaderValue, StatusCode, header};
use url::{Host, Url};

use super::{
    ProxyOptions,
    flight::Flights,
    policy::Policy,
    resolve::{FilteringResolver, Unreachable},
};

const MAX_REDIRECTS: usize = 3;

/// Why a proxied request got no answer.
#[derive(Clone, Debug)]
pub(crate) enum Failure {
    /// The URL is not one we fetch (403).
    Refused(String),
    /// The request itself is malformed (400).
    BadRequest(String),
    /// The upstream failed (502).
    Upstream(String),
    /// As many fetches as allowed are running, and none ended within the wait (503).
    Busy,
}

/// A successful upstream answer, as cached.
#[derive(Clone, Debug)]
pub(crate) struct Answer {
    content_type: HeaderValue,
    /// The upstream's coding of `body` (asked for none, but some send gzip anyway): it is
    /// stored and sent with the bytes it describes.
    content_encoding: Option<HeaderValue>,
    body: Bytes,
    fetched: Instant,
}

impl Answer {
    pub(crate) fn response(self) -> Response {
        let length = HeaderValue::from(self.body.len());
        let mut response = Response::new(Body::from(self.body));
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, self.content_type);
        if let Some(coding) = self.content_encoding {
            headers.insert(header::CONTENT_ENCODING, coding);
        }
        headers.insert(header::CONTENT_LENGTH, length);
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=300"));
        response
    }
}

pub(crate) struct Proxy {
    policy: Arc<Policy>,
    resolver: FilteringResolver,
    client: reqwest::Client,
    options: ProxyOptions,
    cache: quick_cache::sync::Cache<String, Answer, AnswerWeight>,
    /// Upstream fetches running at once (`ProxyOptions::max_fetches`).
    fetches: tokio::sync::Semaphore,
    flights: Flights<Result<Answer, Failure>>,
}

/// Proxied answers kept in memory, in bytes.
const CACHE_BYTES: u64 = 32 << 20;

#[derive(Clone)]
struct AnswerWeight;

impl quick_cache::Weighter<String, Answer> for AnswerWeight {
    fn weight(&self, key: &String, answer: &Answer) -> u64 {
        (key.len() + answer.body.len() + 128) as u64
    }
}

impl Proxy {
    pub(crate) fn new(allow: &[String], options: ProxyOptions) -> Self {
        let policy = Arc::new(Policy::new(allow, options.loopback_exception.clone()));
        let hosts = options.hosts.iter().map(|(k, v)| (k.to_ascii_lowercase(), *v)).collect();
        let resolver = FilteringResolver { policy: policy.clone(), hosts: Arc::new(hosts) };
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .dns_resolver(Arc::new(resolver.clone()))
            // An HTTP(S)_PROXY from the environment would connect to addresses we never checked.
            .no_proxy()
            .connect_timeout(options.timeout)
            .user_agent(concat!("stillpoint-proxy/", env!("CARGO_PKG_VERSION")))
            .build()
            .expect("the proxy's HTTP client builds (TLS roots are compiled in)");
        Self {
            policy,
            resolver,
            client,
            cache: quick_cache::sync::Cache::with_weighter(256, CACHE_BYTES, AnswerWeight),
            fetches: tokio::sync::Semaphore::new(options.max_fetches),
            flights: Flights::default(),
            options,
        }
    }

    pub(crate) fn allows_nothing(&self) -> bool {
        self.policy.is_empty()
    }

    pub(crate) async fn get(&self, raw: &str) -> Result<Answer, Failure> {
        let url = Url::parse(raw)
            .map_err(|e| Failure::BadRequest(format!("url is not a valid absolute URL: {e}")))?;
        self.policy.check(&url).map_err(|r| Failure::Refused(r.0))?;
        let key = url.to_string();
        if let Some(answer) = self.fresh(&key) {
            return Ok(answer);
        }
        let flight = self.flights.join(&key);
        flight.cell.get_or_init(|| self.fetch_once(&key, url)).await.clone()
    }

    /// The cached answer for `key`, if still fresh.
    fn fresh(&self, key: &str) -> Option<Answer> {
        self.cache.get(key).filter(|answer| answer.fetched.elapsed() < self.options.cache_ttl)
    }

    /// The one fetch of a flight: within the cap on fetches at once, then cached.
    async fn fetch_once(&self, key: &str, url: Url) -> Result<Answer, Failure> {
        // A flight that ended just before this one began may have cached it.
        if let Some(answer) = self.fresh(key) {
            return Ok(answer);
        }
        let _permit = tokio::time::timeout(self.options.fetch_wait, self.fetches.acquire())
            .await
            .map_err(|_| Failure::Busy)?
            .expect("the semaphore is never closed");
        let timeout = self.options.timeout;
        let answer = tokio::time::timeout(timeout, self.fetch(url)).await.map_err(|_| {
            Failure::Upstream(format!("upstream did not answer within {}s", timeout.as_secs_f32()))
        })??;
        self.cache.insert(key.to_owned(), answer.clone());
        Ok(answer)
    }

    async fn fetch(&self, mut url: Url) -> Result<Answer, Failure> {
        for hop in 0..=MAX_REDIRECTS {
            if hop > 0 {
                self.policy
                    .check(&url)
                    .map_err(|r| Failure::Refused(format!("redirect to {url} refused: {}", r.0)))?;
            }
            if let Some(Host::Domain(name)) = url.host() {
                // Checked here for a clear refusal; the resolver checks again when connecting.
                self.resolver.lookup(name).await.map_err(|e| Failure::Refused(e.0))?;
            }
            let response = self
                .client
                .get(url.clone())
                .header(header::ACCEPT, "application/javascript, text/javascript, application/json")
                // The body is passed on as it comes: ask for it uncoded.
                .header(header::ACCEPT_ENCODING, "identity")
                .send()
                .await
                .map_err(|e| send_failure(&url, &e))?;
            let status = response.status();
            if status.is_redirection() {
                let location = response
                    .headers()
                    .get(header::LOCATION)
                    .and_then(|l| l.to_str().ok())
                    .ok_or_else(|| {
                        Failure::Upstream(format!("upstream answered {status} without a Location"))
                    })?;
                url = url
                    .join(location)
                    .map_err(|e| Failure::Refused(format!("redirect to an invalid URL: {e}")))?;
                continue;
            }
            if status != StatusCode::OK {
                return Err(Failure::Upstream(format!("upstream answered {status}")));
            }
            return self.read(response).await;
        }
        Err(Failure::Refused(format!("more than {MAX_REDIRECTS} redirects")))
    }

    async fn read(&self, mut response: reqwest::Response) -> Result<Answer, Failure> {
        let content_type = response.headers().get(header::CONTENT_TYPE).cloned();
        let content_encoding = response
            .headers()
            .get(header::CONTENT_ENCODING)
            .filter(|coding| !coding.as_bytes().eq_ignore_ascii_case(b"identity"))
            .cloned();
        let allowed =
            content_type.as_ref().and_then(|v| v.to_str().ok()).is_some_and(is_script_or_json);
        let Some(content_type) = content_type.clone().filter(|_| allowed) else {
            let shown = content_type.as_ref().and_then(|v| v.to_str().ok()).unwrap_or("none");
            return Err(Failure::Upstream(format!(
                "upstream content type {shown} is not script or JSON"
            )));
        };
        let max = self.options.max_bytes;
        let too_large = || Failure::Upstream(format!("upstream body is larger than {max} bytes"));
        if response.content_length().is_some_and(|len| len > max as u64) {
            return Err(too_large());
        }
        let mut body = BytesMut::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| Failure::Upstream(format!("upstream body failed: {e}")))?
        {
            if body.len() + chunk.len() > max {
                return Err(too_large());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Answer { content_type, content_encoding, body: body.freeze(), fetched: Instant::now() })
    }
}

/// A send error: a refusal if our resolver refused the name, else an upstream failure.
fn send_failure(url: &Url, err: &reqwest::Error) -> Failure {
    let mut source = err.source();
    while let Some(cause) = source {
        if let Some(unreachable) = cause.downcast_ref::<Unreachable>() {
            return Failure::Refused(unreachable.0.clone());
        }
        source = cause.source();
    }
    let host = url.host_str().unwrap_or_default();
    if err.is_timeout() {
        return Failure::Upstream(format!("{host} did not answer in time"));
    }
    Failure::Upstream(format!("cannot reach {host}: {}", one_line(err)))
}

fn one_line(err: &reqwest::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text.replace('\n', " ")
}

/// Scripts and JSON only: what a page may load through the proxy.
fn is_script_or_json(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    matches!(
        essence.as_str(),
        "application/javascript"
            | "text/javascript"
            | "application/x-javascript"
            | "application/ecmascript"
            | "text/ecmascript"
            | "application/json"
    ) || (essence.starts_with("application/") && essence.ends_with("+json"))
}
