//! `build` and `check`: the pipeline load → index → plan → render → emit, with the build cache
//! beside it. Each stage is a call here; the cache only tells the render stage which pages it
//! may skip, and the emit stage writes only files whose bytes changed.

mod files;
mod pages;
mod verify;

use std::path::{Path, PathBuf};
use std::time::Instant;

use stillpoint_content::{ContentErrorKind, Diagnostics, Site, build_catalog, load_site_partial};

pub use verify::{Difference, verify};

use crate::BuildError;
use crate::build_info::{BUILD_INFO_FILE, BuildInfo};
use crate::cache::{BuildCache, engine_id};
use crate::client::{SW_FILE, ServiceWorker, SwSettings, script_srcs};
use crate::emit::{EmitStats, Output, Update, digest};
use crate::feeds::{atom_xml, robots_txt, rss_xml, sitemap_xml};
use crate::layout::{self, ASSETS_DIR};
use crate::links::validate_links;
use crate::plan::{PlanContext, plan_pages};
use crate::protocol::{SLICES, app_data_json, slice_data_json};
use crate::render::Shell;
use crate::route::Route;
use crate::search_index::search_index;
use crate::site_data::site_data;
use crate::ssr::WebBundle;

/// The locale every page offers as its alternate (spec: en_US and ru_RU).
const ALTERNATE_LOCALE: &str = "ru_RU";

#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub site_dir: PathBuf,
    pub out: PathBuf,
    /// The web bundle (`web/dist`); found beside the executable when None.
    pub web: Option<PathBuf>,
    pub node: PathBuf,
    /// Render workers; one per core when 0.
    pub jobs: usize,
    /// Copyright year; `SOURCE_DATE_EPOCH` or the current year when None.
    pub year: Option<i16>,
    /// The build cache directory; `None` renders every page and keeps no cache.
    pub cache: Option<PathBuf>,
}

impl BuildOptions {
    /// A build of `site_dir` into `out` with the default cache (`SITE/.stillpoint`).
    pub fn new(site_dir: &Path, out: &Path) -> Self {
        Self {
            site_dir: site_dir.to_path_buf(),
            out: out.to_path_buf(),
            web: None,
            node: PathBuf::from("node"),
            jobs: 0,
            year: None,
            cache: Some(default_cache_dir(site_dir)),
        }
    }
}

/// `SITE/.stillpoint`: where the build cache lives unless told otherwise.
pub fn default_cache_dir(site_dir: &Path) -> PathBuf {
    site_dir.join(".stillpoint")
}

/// Told how far rendering has got; the CLI draws a progress bar with it.
pub trait Progress: Sync {
    fn start(&self, _total: usize) {}
    fn inc(&self) {}
    fn finish(&self) {}
}

/// No progress output.
pub struct Silent;
impl Progress for Silent {}

#[derive(Debug, Clone)]
pub struct BuildReport {
    pub pages: usize,
    pub articles: usize,
    /// Pages rendered (the others were unchanged).
    pub rendered: usize,
    /// Files changed, removed and unchanged against the previous output.
    pub files: EmitStats,
    pub seconds: f64,
    pub out: PathBuf,
    /// Why the cache was not used, when it was not.
    pub cache_note: Option<String>,
}

#[derive(Debug, Clone)]
pub struct CheckReport {
    pub pages: usize,
    pub articles: usize,
    pub authors: usize,
}

/// Loads a site. When it has content errors, the links between its pages are checked too (on
/// what did load), so every error is reported in one pass. Links to articles whose own file failed
/// to parse are left out: that file's error already says what is wrong.
fn load(site_dir: &Path) -> Result<Site, BuildError> {
    let (site, mut diag) = load_site_partial(site_dir);
    if diag.is_empty() {
        return Ok(site.expect("a site loads when there are no errors"));
    }
    if let Some(site) = site {
        let unparsed: Vec<String> = diag
            .iter()
            .filter(|e| e.path.starts_with("articles"))
            .filter_map(|e| e.path.file_stem().map(|s| Route::article(&s.to_string_lossy()).into()))
            .collect();
        let catalog = build_catalog(&site);
        let plans = plan_pages(&site, &catalog);
        diag.extend(validate_links(&site, &plans).into_iter().filter(|e| {
            !matches!(&e.kind, ContentErrorKind::BrokenLink(target) if unparsed.contains(target))
        }));
    }
    Err(BuildError::Content(diag.into_result().expect_err("not empty")))
}

/// Validates a site as `build` would, writing nothing.
pub fn check(site_dir: &Path) -> Result<CheckReport, BuildError> {
    let site = load(site_dir)?;
    let catalog = build_catalog(&site);
    let plans = plan_pages(&site, &catalog);
    let errors = validate_links(&site, &plans);
    Diagnostics(errors).into_result().map_err(BuildError::Content)?;
    Ok(CheckReport {
        pages: plans.len(),
        articles: site.articles.len(),
        authors: site.authors.list.len(),
    })
}

pub fn build(opts: &BuildOptions, progress: &dyn Progress) -> Result<BuildReport, BuildError> {
    let started = Instant::now();
    let site = load(&opts.site_dir)?;
    tracing::debug!(elapsed = ?started.elapsed(), "loaded");
    let catalog = build_catalog(&site);
    let plans = plan_pages(&site, &catalog);
    tracing::debug!(elapsed = ?started.elapsed(), "planned");
    Diagnostics(validate_links(&site, &plans)).into_result().map_err(BuildError::Content)?;
    let bundle = WebBundle::locate(opts.web.as_deref())?;
    tracing::debug!(elapsed = ?started.elapsed(), "loaded, validated and planned");

    let engine = engine_id();
    let (mut cache, cache_note) = match &opts.cache {
        Some(dir) => BuildCache::load(dir, &engine),
        None => (BuildCache::empty(&engine), None),
    };
    let mut output = Output::open(&opts.out)?;
    let update = output.begin();
    tracing::debug!(elapsed = ?started.elapsed(), "cache and output opened");

    // Static files first, so the site's own files can never overwrite generated ones.
    if let Some(dir) = &site.static_dir {
        files::copy_tree(&update, &mut cache, dir, "")?;
    }
    let asset_files =
        files::copy_tree(&update, &mut cache, &bundle.client_dir().join(ASSETS_DIR), ASSETS_DIR)?;
    let service_worker = ServiceWorker::from_bundle(&bundle.root)?;
    let build_hash = build_hash(&bundle, &asset_files, &service_worker)?;

    let ctx = PlanContext::new(&site, &catalog);
    let search = search_index(&ctx);
    for (path, bytes) in &search.files {
        update.put(path, bytes)?;
    }
    let year = opts.year.unwrap_or_else(current_year);
    let site_json = serde_json::to_string(&site_data(&ctx, year, layout::url(&search.manifest)))
        .expect("site data serialises");
    let site_hash = digest([site_json.as_bytes()]);
    emit_site_data(&update, &site_json, &site_hash, &build_hash)?;

    let entry = bundle
        .manifest
        .entry()
        .ok_or_else(|| BuildError::Web("the web bundle has no client entry".into()))?;
    let static_has = |rel: &str| site.static_dir.as_ref().is_some_and(|d| d.join(rel).is_file());
    let shell = Shell {
        brand: site.config.title.clone(),
        locale: site.config.locale.clone(),
        alternate_locale: ALTERNATE_LOCALE,
        entry_js: entry.js.clone(),
        entry_css: entry.css.clone(),
        critical_css: bundle.critical_css()?,
        entry_imports: entry.imports.clone(),
        build_hash: build_hash.clone(),
        site_hash: site_hash.clone(),
        header: String::new(),
        footer: String::new(),
        favicon: static_has("favicon.svg").then(|| "/favicon.svg".to_string()),
        manifest: static_has("manifest.webmanifest").then(|| "/manifest.webmanifest".to_string()),
        feeds: true,
        scripts: script_srcs(&site.config.scripts, &site.config.proxy_allow),
    };
    let sw_settings = SwSettings { build: &build_hash, brand: &shell.brand, css: &shell.entry_css };
    update.put(SW_FILE, service_worker.script(&sw_settings).as_bytes())?;

    let jobs = if opts.jobs == 0 {
        std::thread::available_parallelism().map_or(2, |n| n.get())
    } else {
        opts.jobs
    };
    let render = pages::Renderer {
        plans: &plans,
        bundle: &bundle,
        node: &opts.node,
        jobs,
        engine: &engine,
        site_json: &site_json,
    };
    tracing::debug!(elapsed = ?started.elapsed(), "site files emitted");
    let build_info = BuildInfo::of(&site).with_inline_style(&shell.critical_css);
    let rendered = render.emit(shell, &update, &mut cache, progress)?;

    update.put(layout::SITEMAP_XML, sitemap_xml(&plans).as_bytes())?;
    update.put(layout::ROBOTS_TXT, robots_txt(&site).as_bytes())?;
    update.put(layout::RSS_XML, rss_xml(&site, &catalog).as_bytes())?;
    update.put(layout::ATOM_XML, atom_xml(&site, &catalog).as_bytes())?;
    update.put(BUILD_INFO_FILE, build_info.to_json().as_bytes())?;
    tracing::debug!(elapsed = ?started.elapsed(), "pages emitted");
    let files = update.commit()?;
    drop(output);
    tracing::debug!(elapsed = ?started.elapsed(), "committed");

    if let Some(dir) = &opts.cache {
        let routes: std::collections::HashSet<&str> =
            plans.iter().map(|p| p.path.as_str()).collect();
        cache.retain_pages(|r| routes.contains(r));
        cache.retain_seen_files();
        cache.save(dir)?;
    }
    Ok(BuildReport {
        pages: plans.len(),
        articles: site.articles.len(),
        rendered,
        files,
        seconds: started.elapsed().as_secs_f64(),
        out: opts.out.clone(),
        cache_note,
    })
}

/// The site data (`sq/d/{hash}.json`), the header and footer slice data, and `app-data.json`.
fn emit_site_data(
    update: &Update,
    site_json: &str,
    site_hash: &str,
    build_hash: &str,
) -> Result<(), BuildError> {
    update.put(&layout::site_data_file(site_hash), site_json.as_bytes())?;
    for (name, template) in SLICES {
        let slice = slice_data_json(template, site_json);
        update.put(&layout::slice_data_file(name), slice.as_bytes())?;
    }
    update.put(layout::APP_DATA, app_data_json(build_hash).as_bytes())?;
    Ok(())
}

/// The build hash: a digest of the JS and CSS the site ships and of the service worker.
fn build_hash(
    bundle: &WebBundle,
    asset_files: &[String],
    sw: &ServiceWorker,
) -> Result<String, BuildError> {
    let client = bundle.client_dir();
    let bytes: Vec<Vec<u8>> = asset_files
        .iter()
        .filter(|f| f.ends_with(".js") || f.ends_with(".css"))
        .map(|f| std::fs::read(client.join(f)).map_err(|e| BuildError::io(&client.join(f), e)))
        .collect::<Result<_, _>>()?;
    Ok(digest(bytes.iter().map(Vec::as_slice).chain([sw.source()])))
}

/// `SOURCE_DATE_EPOCH`'s year when set (reproducible builds), else this year.
fn current_year() -> i16 {
    let ts = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<i64>().ok())
        .and_then(|s| jiff::Timestamp::from_second(s).ok())
        .unwrap_or_else(jiff::Timestamp::now);
    ts.to_zoned(jiff::tz::TimeZone::UTC).year()
}
