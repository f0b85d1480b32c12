//! `build` and `check`: the whole pipeline, load → index → plan → render → emit.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use stillpoint_content::{ContentErrorKind, Diagnostics, Site, build_catalog, load_site_partial};

use crate::BuildError;
use crate::build_info::{BUILD_INFO_FILE, BuildInfo};
use crate::client::{SW_FILE, ServiceWorker, SwSettings, page_head_json, script_srcs};
use crate::emit::{Staging, copy_tree, digest};
use crate::feeds::{atom_xml, robots_txt, rss_xml, sitemap_xml};
use crate::links::validate_links;
use crate::plan::{PagePlan, PlanContext, plan_pages};
use crate::props::PageProps;
use crate::render::{PageAssets, Shell, document, render_markdown};
use crate::search_index::search_index;
use crate::site_data::site_data;
use crate::ssr::{BODY_MARKER, ChunkFiles, Job, SsrPool, WebBundle, check_node};

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
    pub seconds: f64,
    pub out: PathBuf,
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
            .filter_map(|e| {
                e.path.file_stem().map(|s| format!("/articles/{}", s.to_string_lossy()))
            })
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
    let catalog = build_catalog(&site);
    let plans = plan_pages(&site, &catalog);
    Diagnostics(validate_links(&site, &plans)).into_result().map_err(BuildError::Content)?;

    let bundle = WebBundle::locate(opts.web.as_deref())?;
    check_node(&opts.node)?;
    let staging = Staging::new(&opts.out)?;

    // Static files first, so the site's own files can never overwrite generated ones.
    if let Some(dir) = &site.static_dir {
        copy_tree(&staging, dir, "")?;
    }
    let assets_dir = bundle.client_dir().join("assets");
    let asset_files = copy_tree(&staging, &assets_dir, "assets")?;
    let asset_bytes: Vec<Vec<u8>> = asset_files
        .iter()
        .filter(|f| f.ends_with(".js") || f.ends_with(".css"))
        .map(|f| std::fs::read(staging.path().join(f)).map_err(|e| BuildError::io(Path::new(f), e)))
        .collect::<Result<_, _>>()?;
    let service_worker = ServiceWorker::from_bundle(&bundle.root)?;
    let build_hash = digest(asset_bytes.iter().map(Vec::as_slice).chain([service_worker.source()]));

    let ctx = PlanContext::new(&site, &catalog);
    let search = search_index(&ctx);
    for (path, bytes) in &search.files {
        staging.write(path, bytes)?;
    }

    let data =
        site_data(&ctx, opts.year.unwrap_or_else(current_year), format!("/{}", search.manifest));
    let site_json = serde_json::to_string(&data).expect("site data serialises");
    let site_hash = digest([site_json.as_bytes()]);
    staging.write(&format!("page-data/sq/d/{site_hash}.json"), site_json.as_bytes())?;
    for (name, chunk) in [("header", "Header"), ("footer", "Footer")] {
        let slice = format!(
            "{{\"componentChunkName\":\"{chunk}\",\"result\":{{\"sliceContext\":{site_json}}}}}"
        );
        staging.write(&format!("slice-data/{name}.json"), slice.as_bytes())?;
    }
    staging.write(
        "page-data/app-data.json",
        format!("{{\"webpackCompilationHash\":\"{build_hash}\"}}").as_bytes(),
    )?;

    let jobs = if opts.jobs == 0 {
        std::thread::available_parallelism().map_or(2, |n| n.get())
    } else {
        opts.jobs
    };
    let mut pool = SsrPool::start(&opts.node, &bundle.worker(), jobs)?;
    let (header, footer) = pool.render_slices(&site_json)?;
    let entry = bundle
        .manifest
        .entry()
        .ok_or_else(|| BuildError::Web("the web bundle has no client entry".into()))?;
    let templates = template_chunks(&bundle, &plans)?;
    let static_has = |rel: &str| site.static_dir.as_ref().is_some_and(|d| d.join(rel).is_file());
    let shell = Shell {
        brand: site.config.title.clone(),
        locale: site.config.locale.clone(),
        alternate_locale: ALTERNATE_LOCALE,
        entry_js: entry.js.clone(),
        entry_css: entry.css.clone(),
        entry_imports: entry.imports.clone(),
        build_hash: build_hash.clone(),
        site_hash: site_hash.clone(),
        header,
        footer,
        favicon: static_has("favicon.svg").then(|| "/favicon.svg".to_string()),
        manifest: static_has("manifest.webmanifest").then(|| "/manifest.webmanifest".to_string()),
        feeds: true,
        scripts: script_srcs(&site.config.scripts, &site.config.proxy_allow),
    };
    let sw_settings = SwSettings { build: &build_hash, brand: &shell.brand, css: &shell.entry_css };
    staging.write(SW_FILE, service_worker.script(&sw_settings).as_bytes())?;

    progress.start(plans.len());
    let failures = pool.render_all(
        plans.len(),
        |i| prepare(&plans[i]),
        |i, job, html| {
            let plan = &plans[i];
            let (html, props_json) = splice_body(html, job);
            let template = plan.props.template();
            let chunk = &templates[template];
            let assets = PageAssets { template, js: Some(&chunk.js), css: &chunk.css, imports: &chunk.imports };
            staging.write(&plan.html_file(), document(&shell, &plan.head, &plan.path, &assets, &html).as_bytes())?;
            let page_data = format!(
                "{{\"componentChunkName\":\"{template}\",\"path\":{},\"matchPath\":null,\"result\":{{\"pageContext\":{props_json},\"head\":{}}},\"staticQueryHashes\":[\"{site_hash}\"],\"slicesMap\":{{\"header\":\"header\",\"footer\":\"footer\"}},\"webpackCompilationHash\":\"{build_hash}\"}}",
                serde_json::to_string(&plan.path).expect("a string serialises"),
                page_head_json(&plan.head)
            );
            staging.write(&plan.page_data_file(), page_data.as_bytes())?;
            progress.inc();
            Ok(())
        },
    )?;
    drop(pool);
    progress.finish();
    if !failures.is_empty() {
        return Err(BuildError::Render(failures));
    }

    staging.write("sitemap.xml", sitemap_xml(&plans).as_bytes())?;
    staging.write("robots.txt", robots_txt(&site).as_bytes())?;
    staging.write("rss.xml", rss_xml(&site, &catalog).as_bytes())?;
    staging.write("atom.xml", atom_xml(&site, &catalog).as_bytes())?;
    staging.write(BUILD_INFO_FILE, BuildInfo::of(&site).to_json().as_bytes())?;
    staging.commit()?;
    Ok(BuildReport {
        pages: plans.len(),
        articles: site.articles.len(),
        seconds: started.elapsed().as_secs_f64(),
        out: opts.out.clone(),
    })
}

/// A page's render job: its Markdown rendered, the HTML held back for splicing (the worker sees
/// `BODY_MARKER`), the props serialised once.
fn prepare(plan: &PagePlan) -> Job {
    let mut props = plan.props.clone();
    let mut body = None;
    if let Some(md) = plan.markdown {
        let rendered = render_markdown(md);
        body = Some(rendered.html);
        let marker = BODY_MARKER.to_string();
        match &mut props {
            PageProps::Article(p) => {
                p.body_html = marker;
                p.toc = rendered.toc;
            }
            PageProps::Author(p) => p.bio_html = marker,
            PageProps::Info(p) => p.body_html = marker,
            _ => body = None,
        }
    }
    let json = serde_json::to_string(&props).expect("props serialise");
    Job { template: props.template(), path: plan.path.clone(), props: json, body }
}

/// Puts the held-back body into the rendered HTML and into the page-data props.
fn splice_body(html: String, job: Job) -> (String, String) {
    match job.body {
        None => (html, job.props),
        Some(body) => {
            let html = html.replacen(BODY_MARKER, &body, 1);
            let quoted_marker = serde_json::to_string(BODY_MARKER).expect("a string serialises");
            let quoted_body = serde_json::to_string(&body).expect("a string serialises");
            (html, job.props.replacen(&quoted_marker, &quoted_body, 1))
        }
    }
}

fn template_chunks(
    bundle: &WebBundle,
    plans: &[PagePlan],
) -> Result<HashMap<&'static str, ChunkFiles>, BuildError> {
    let mut out = HashMap::new();
    for p in plans {
        let name = p.props.template();
        if !out.contains_key(name) {
            let chunk = bundle.manifest.template(name).ok_or_else(|| {
                BuildError::Web(format!(
                    "the web bundle has no template `{name}` (src/templates/{name}.tsx)"
                ))
            })?;
            out.insert(name, chunk);
        }
    }
    Ok(out)
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
