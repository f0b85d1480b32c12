//! `build` and `check`: the pipeline load → index → plan → render → emit, with the build cache
//! beside it. Each stage is a call here; the cache only tells the render stage which pages it
//! may skip, and the emit stage writes only files whose bytes changed.

mod current;
mod files;
pub(crate) mod key;
mod outline;
#[cfg(test)]
mod outline_guard;
mod pages;
mod queue;
mod renamed;
mod scope;
mod session;
mod shown;
#[cfg(test)]
mod shown_guard;
mod site_files;
mod unchanged;
mod verify;

use std::borrow::Cow;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use stillpoint_dist::{Changed, Output};

use stillpoint_content::{
    ArticleId, ContentError, ContentErrorKind, Diagnostics, ParsedArticles, Publish, Schedule,
    Site, build_catalog, load_site_partial_with,
};

pub use crate::shard::Shard;
pub use pages::BATCH;
pub use renamed::Renamed;
pub use session::Session;
pub(crate) use shown::OutlineRecord;
pub use verify::{Difference, verify};

use outline::OutlineInputs;
use queue::{Copies, Queue};
use scope::Scope;

use crate::build_info::{self, BuildInfo};
use crate::cache::{BuildCache, engine_id};
use crate::client::{ServiceWorker, SwSettings, script_srcs};
use crate::csp::{Csp, SiteUses};
use crate::emit::{EmitStats, Manifest, digest};
use crate::error::BuildError;
use crate::layout::{self, ASSETS_DIR};
use crate::links::validate_links;
use crate::page_routes::validate_page_routes;
use crate::plan::{PlanContext, SitePage, site_pages};
use crate::redirects::{site_redirects, validate_redirects};
use crate::render::{Shell, csp_hash};
use crate::reserved::validate_reserved;
use crate::route::Route;
use crate::search_index::search_manifest;
use crate::site_data::site_data;
use crate::ssr::WebBundle;
use pages::WorkerScript;

/// The locale every page offers as its alternate (spec: en_US and ru_RU).
const ALTERNATE_LOCALE: &str = "ru_RU";
/// The Apple touch icon under `static/`, linked when present (`stillpoint new` writes one).
const APPLE_TOUCH_ICON: &str = "icons/apple-touch-icon.png";

#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub site_dir: PathBuf,
    pub out: PathBuf,
    /// Where the web bundle (`web/dist`) may be: the first that holds one is used.
    pub web: Vec<PathBuf>,
    pub node: PathBuf,
    /// Render workers (at least one; the CLI starts one per core unless told).
    pub jobs: usize,
    /// Copyright year (the CLI: `SOURCE_DATE_EPOCH`'s); `now`'s year, or this year, when None.
    pub year: Option<i16>,
    /// Identifies the engine in the build cache ([`engine_id`]): a cache another engine wrote
    /// is not used.
    pub engine: String,
    /// The build cache directory; `None` renders every page and keeps no cache.
    pub cache: Option<PathBuf>,
    /// The image cache (`SITE/.stillpoint/images` by default): the pipeline's renditions, kept
    /// by content and shared by every build and `dev`. `None`: raster images are published as
    /// they are, without renditions.
    pub image_cache: Option<PathBuf>,
    /// The most bytes the image cache keeps (least recently used images go first).
    pub image_cache_max: u64,
    /// Build only this shard's files (`build --shard i/N`, see `shard.rs`); None: the whole site.
    pub shard: Option<Shard>,
    /// Pages planned, rendered and written at a time ([`BATCH`]).
    pub batch: usize,
    /// The environment (`[env.NAME]` in stillpoint.toml) to build for; production by default.
    pub env: String,
    /// The instant the site is published as of (`--now`): articles dated later wait, those past
    /// their `expires` are gone. The clock when None.
    pub now: Option<jiff::Timestamp>,
    /// Publish drafts too: a preview (`build --drafts`, `dev`), which asks robots not to index it.
    pub drafts: bool,
}

impl BuildOptions {
    /// A build of `site_dir` into `out` with the default cache (`SITE/.stillpoint`), two render
    /// workers and the engine identified by its version only; set `web` before building.
    pub fn new(site_dir: &Path, out: &Path) -> Self {
        Self {
            site_dir: site_dir.to_path_buf(),
            out: out.to_path_buf(),
            web: Vec::new(),
            node: PathBuf::from("node"),
            jobs: 2,
            year: None,
            engine: engine_id(None),
            cache: Some(default_cache_dir(site_dir)),
            image_cache: Some(default_image_cache_dir(site_dir)),
            image_cache_max: stillpoint_media::DEFAULT_MAX_BYTES,
            shard: None,
            batch: BATCH,
            env: stillpoint_content::PRODUCTION.to_string(),
            now: None,
            drafts: false,
        }
    }

    /// What is published: as of `now` (the clock when unset), drafts or not.
    pub fn publish(&self) -> Publish {
        Publish { now: self.now.unwrap_or_else(jiff::Timestamp::now), drafts: self.drafts }
    }
}

/// `SITE/.stillpoint`: where the build cache lives unless told otherwise.
pub fn default_cache_dir(site_dir: &Path) -> PathBuf {
    site_dir.join(".stillpoint")
}

/// `SITE/.stillpoint/images`: where processed images live unless told otherwise.
pub fn default_image_cache_dir(site_dir: &Path) -> PathBuf {
    default_cache_dir(site_dir).join("images")
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
    /// The files that are new, changed or gone, with their outputs, sorted by path.
    pub changed: Vec<Changed>,
    pub seconds: f64,
    pub out: PathBuf,
    /// Why the cache was not used, when it was not.
    pub cache_note: Option<String>,
    /// The most page plans that were alive at once: at most two batches, however large the site.
    pub peak_plans: usize,
    /// Drafts, scheduled and expired articles left out, and the next scheduled one.
    pub schedule: Schedule,
    /// Errors in drafts that were not published (warnings).
    pub draft_problems: Vec<ContentError>,
    /// What the build found that is probably not meant (an animated image), sorted.
    pub warnings: Vec<stillpoint_content::ContentWarning>,
    /// The articles whose slug changed since the session's last build, when the session
    /// follows them ([`Session::following_slugs`]).
    pub renamed: Vec<Renamed>,
}

#[derive(Debug, Clone)]
pub struct CheckReport {
    pub pages: usize,
    pub articles: usize,
    pub authors: usize,
    pub schedule: Schedule,
    /// The images' warnings (an animated image), sorted.
    pub warnings: Vec<stillpoint_content::ContentWarning>,
}

/// Loads a site. When it has content errors, the links between its pages are checked too (on
/// what did load), so every error is reported in one pass. Links to articles whose own file failed
/// to parse are left out: that file's error already says what is wrong.
fn load(
    site_dir: &Path,
    env: &str,
    parsed: &mut ParsedArticles,
    publish: &Publish,
) -> Result<Site, BuildError> {
    let (site, mut diag) = load_site_partial_with(site_dir, parsed, publish);
    if diag.is_empty() {
        let mut site = site.expect("a site loads when there are no errors");
        site.config = site.config.for_env(env).map_err(BuildError::Env)?;
        return Ok(site);
    }
    if let Some(site) = site {
        let unparsed: Vec<String> = (site.unreadable.iter())
            .chain(site.failed.iter().map(|a| &a.slug))
            .map(|slug| Route::article(slug).into())
            .collect();
        let catalog = build_catalog(&site);
        let pages = site_pages(&PlanContext::new(&site, &catalog));
        diag.extend(validate(&site, &pages).into_iter().filter(|e| {
            !matches!(&e.kind, ContentErrorKind::BrokenLink(target) if unparsed.contains(target))
        }));
    }
    Err(BuildError::Content(diag.into_result().expect_err("not empty")))
}

/// The checks that need the planned pages or the output layout: links between pages, category
/// slugs that would overwrite what the build writes itself, and the routes of `pages/`.
fn validate(site: &Site, pages: &[SitePage]) -> Vec<stillpoint_content::ContentError> {
    let mut errors = validate_reserved(site);
    errors.extend(validate_page_routes(site, pages));
    errors.extend(validate_links(site, pages));
    errors
}

/// Validates a site as `build --env ENV` would, writing nothing. The articles it reads stay in
/// `parsed`, for a caller that loads the site again (for its warnings) without parsing them again.
pub fn check(
    site_dir: &Path,
    env: &str,
    parsed: &mut ParsedArticles,
    publish: &Publish,
) -> Result<CheckReport, BuildError> {
    let site = load(site_dir, env, parsed, publish)?;
    let catalog = build_catalog(&site);
    let ctx = PlanContext::new(&site, &catalog);
    let pages = site_pages(&ctx);
    let mut errors = validate(&site, &pages);
    errors.extend(validate_redirects(&site, &pages, &site_redirects(&ctx)).1);
    // Every image readable, from its header (no digest: nothing is published).
    let refs = crate::images::References::of(&site);
    let warnings =
        match crate::images::prepare_with(&site, &refs, &|_| Some(String::new()), None, None) {
            Ok(images) => images.warnings().to_vec(),
            Err(images) => {
                errors.extend(images.0);
                Vec::new()
            }
        };
    let mut diag = Diagnostics(errors);
    diag.sort();
    diag.into_result().map_err(BuildError::Content)?;
    Ok(CheckReport {
        pages: pages.len(),
        articles: site.articles.len(),
        authors: site.authors.list.len(),
        schedule: site.schedule.clone(),
        warnings,
    })
}

/// Builds the site once. When the last build left the output as this one would make it (see
/// `unchanged.rs`), says so without loading anything.
pub fn build(opts: &BuildOptions, progress: &dyn Progress) -> Result<BuildReport, BuildError> {
    let started = Instant::now();
    // One instant for the whole build: what it publishes is what its record says it published.
    let now = opts.now.unwrap_or_else(jiff::Timestamp::now);
    let before = unchanged::Before::take(opts, now);
    tracing::debug!(elapsed = ?started.elapsed(), "inputs stamped");
    let mut session = Session::one_shot();
    match before.as_ref().map(|b| b.compare(&opts.out, started)) {
        Some(unchanged::Found::Unchanged(report)) => return Ok(*report),
        Some(unchanged::Found::Changed(files)) => session.vouch_on_load = Some(files),
        _ => {}
    }
    let opts = BuildOptions { now: Some(now), ..opts.clone() };
    let mut report = build_in(&mut session, &opts, progress);
    // The workers end (Node takes a moment to) while the build's record is written.
    std::thread::scope(|s| {
        s.spawn(|| session.release());
        if let (Ok(report), Some(before)) = (&report, before) {
            before.record(report);
        }
    });
    // The whole build: the stamps taken before it and the record written after it too.
    if let Ok(report) = &mut report {
        report.seconds = started.elapsed().as_secs_f64();
    }
    report
}

/// A build that keeps its cache and render workers in `session` for the next one.
pub fn build_in(
    session: &mut Session,
    opts: &BuildOptions,
    progress: &dyn Progress,
) -> Result<BuildReport, BuildError> {
    let started = Instant::now();
    let engine = opts.engine.clone();
    session.forget_if_written(&opts.out);
    let kept = session.cache.take();
    let vouched = session.vouch_on_load.take().filter(|_| kept.is_none());
    // Files written since the cache was saved: a page will most likely be rendered.
    let edited = vouched.as_ref().is_some_and(|files| !files.is_empty());
    // The output is opened (its live generation checked file by file) while the cache is
    // decoded: at 100,000 articles each is about half a second, and the decoding uses one core.
    let (output, (mut cache, cache_note)) = rayon::join(
        || session.output(&opts.out),
        || match (kept, &opts.cache) {
            (Some(cache), Some(_)) => (cache, None),
            (None, Some(dir)) => BuildCache::load(dir, &engine),
            (_, None) => (BuildCache::empty(&engine), None),
        },
    );
    let output = output?;
    // The stamps of the site's files, taken before this build read any, against those of the
    // build that saved this cache: only the files they name may have been written since.
    if let Some(changed) = vouched.filter(|_| cache_note.is_none()) {
        cache.parsed.vouch(changed);
    }
    tracing::debug!(elapsed = ?started.elapsed(), "cache read and output opened");
    // Until the build begins its update of the output, a failure (most often a content error
    // while the owner types, in `dev`) gives the session back its cache and output, so that the
    // next build does not read both from disk again.
    macro_rules! or_keep {
        ($result:expr) => {
            match $result {
                Ok(value) => value,
                Err(e) => {
                    session.keep_after_failure(cache, output);
                    return Err(e);
                }
            }
        };
    }
    let bundle = or_keep!(WebBundle::locate(&opts.web));
    let worker = or_keep!(WorkerScript::read(&bundle));
    let jobs = opts.jobs.max(1);
    if cache.pages.is_empty() {
        // Nothing rendered before: every page will be. The workers start while the site loads.
        session.start_workers(&opts.node, &worker.path, &worker.key, jobs);
    } else if edited {
        // One worker starts while the site loads (Node takes a few hundred milliseconds to be
        // ready), enough for an edit's pages; more join it when a batch needs them.
        session.start_workers(&opts.node, &worker.path, &worker.key, 1);
    }
    let publish = opts.publish();
    let site = or_keep!(load(&opts.site_dir, &opts.env, &mut cache.parsed, &publish));
    tracing::debug!(elapsed = ?started.elapsed(), "loaded");
    // Each image file's digest from the cache (read again only when its size or time changed).
    let mut image_digests = std::collections::HashMap::new();
    let image_stage = crate::images::ImageStage::of(&site, session.last_images.take());
    for file in image_stage.files(&site.root) {
        if let Ok(digest) = cache.file_digest(&file) {
            image_digests.insert(file, digest);
        }
    }
    let image_cache = match (&opts.image_cache, session.images.take()) {
        (Some(dir), Some(kept)) if kept.is(dir, opts.image_cache_max) => Some(kept),
        (Some(dir), _) => Some(or_keep!(
            stillpoint_media::ImageCache::open(dir, opts.image_cache_max)
                .map_err(|e| BuildError::io(dir, std::io::Error::other(e.to_string())))
        )),
        (None, _) => None,
    };
    let (images, last_images) = image_stage.prepare(
        &site,
        &|p| image_digests.get(p).map(ToString::to_string),
        image_cache.as_ref(),
        !session.one_shot,
    );
    session.last_images = last_images;
    let images = or_keep!(images.map_err(BuildError::Content));
    tracing::debug!(elapsed = ?started.elapsed(), images = images.len(), "images read");
    let mut static_files = match &site.static_dir {
        Some(dir) => or_keep!(files::tree(dir, "")),
        None => Vec::new(),
    };
    // What the pipeline processed is published as its renditions only: its original (with its
    // metadata) is not copied (images::unpublished_originals).
    let processed = images.processed_originals();
    static_files.retain(|(rel, _)| !processed.contains(rel));
    let asset_files = or_keep!(files::tree(&bundle.client_dir().join(ASSETS_DIR), ASSETS_DIR));
    let service_worker = or_keep!(ServiceWorker::from_bundle(&bundle.root));
    let build_hash = or_keep!(build_hash(&asset_files, &service_worker));
    let year = opts.year.unwrap_or_else(|| current_year(opts.now));
    // The files published from `static/`: a change to which (a photograph a page starts or
    // stops showing) changes the placement, so the build is a whole one (outline.rs).
    let static_names: Vec<String> = static_files.iter().map(|(rel, _)| rel.clone()).collect();
    let theme = crate::theme_css::theme_css(&site.config.theme);
    let critical_css = or_keep!(bundle.critical_css());
    let style_hashes: Vec<String> =
        Some(&critical_css).filter(|c| !c.is_empty()).map(|c| csp_hash(c)).into_iter().collect();
    debug_assert_eq!(images.any_remote(), crate::csp::remote_images(&site));
    let uses = SiteUses::with_remote_images(&site, style_hashes.clone(), images.any_remote());
    let csp = Csp::derive(&uses);
    let csp_header = csp.header();
    let outline = or_keep!(
        OutlineInputs {
            engine: &engine,
            bundle: &bundle,
            worker: &worker.key,
            build_hash: &build_hash,
            year,
            site: &site,
            static_files: &static_names,
            shard: opts.shard,
            noindex: crate::plan::noindex(&site),
            theme_css: &theme.css,
            images: images.outline(),
            csp: &csp_header,
            recorded: cache.outline_record(),
        }
        .key(&mut session.outlines)
    );
    if session.one_shot {
        session.outlines = Default::default();
    }
    let mut output = output;
    tracing::debug!(elapsed = ?started.elapsed(), "outline");

    let update = output.begin();
    let live_output = update.live_manifest_digest();
    // The cache beside the plan stage: with the outline unchanged, only the pages of articles
    // whose files changed can differ from the live output (see outline.rs); with only what some
    // articles show changed, only the pages that show them (see shown.rs).
    let same_outline = cache.same_outline(&outline.key, live_output.as_deref());
    let replan = match cache.outline_record() {
        Some(last) if !same_outline && opts.shard.is_none() => {
            last.pages_to_replan(&outline, live_output.as_deref())
        }
        _ => None,
    };
    let scope = Scope::of(same_outline, replan);
    // The catalog depends only on the outline's placement: the last one fits an equal one.
    let placed_as_last = matches!(&session.catalog, Some((key, _)) if *key == outline.placement);
    let catalog = match session.catalog.take() {
        Some((key, catalog)) if key == outline.placement => catalog,
        _ => {
            cache.catalog_for(&outline.placement).unwrap_or_else(|| Arc::new(build_catalog(&site)))
        }
    };
    tracing::debug!(elapsed = ?started.elapsed(), scope = scope.name(), "catalog");
    let ctx = PlanContext::new(&site, &catalog).with_images(&images);
    let owner = crate::shard::Owner::new(opts.shard, &site);
    let last_current = session.current.take();
    let page_current = |i: ArticleId| {
        let a = site.article(i);
        current::article_page_current(&cache, last_current.as_ref(), &images, i, a)
    };
    let (pages, redirects) = queue::list(&scope, &site, &ctx, &owner, &page_current)?;
    tracing::debug!(elapsed = ?started.elapsed(), pages = pages.len(), "listed and validated");
    let writes = |rel: &str| owner.writes(rel);
    let update = if opts.shard.is_some() { update.only(&writes) } else { update };
    // A build whose process ends with it reports how many files changed, not which.
    let update = if session.one_shot { update.counting() } else { update };

    let recordings = files::media(&site);
    // Every file of `media/` is named by its content: when the live output holds exactly the
    // names this build would put there, it is kept whole instead of put again (in `dev`, a body
    // edit of a site with a photograph on every card is 2,400 renditions not looked at).
    let media_live = scope == Scope::Articles
        && opts.shard.is_none()
        && files::media_is_live(&update, &[images.files(), &recordings]);
    let mut copies = vec![
        Copies { output: Output::Static, files: Cow::Borrowed(&static_files), shared: false },
        Copies { output: Output::Asset, files: Cow::Borrowed(&asset_files), shared: false },
    ];
    if !media_live {
        copies.extend([
            Copies { output: Output::Media, files: Cow::Borrowed(images.files()), shared: true },
            Copies { output: Output::Media, files: Cow::Owned(recordings), shared: false },
        ]);
    }
    let queue = Queue::of(&scope, &pages, copies, media_live, &owner, &page_current);
    tracing::debug!(elapsed = ?started.elapsed(), pages = queue.pages.len(), "queued");
    queue.copy(&update, &mut cache)?;
    let site_json = serde_json::to_string(&site_data(&ctx, year, layout::url(&search_manifest())))
        .expect("site data serialises");
    let site_hash = digest([site_json.as_bytes()]);
    let entry = bundle
        .manifest
        .entry()
        .ok_or_else(|| BuildError::Web("the web bundle has no client entry".into()))?;
    let static_has = |rel: &str| static_names.iter().any(|s| s == rel);
    let theme_href = if theme.css.is_empty() {
        None
    } else {
        let file = crate::theme_css::theme_file(&theme.css);
        update.put(Output::Asset, &file, theme.css.as_bytes())?;
        Some(layout::url(&file))
    };
    let shell = Shell {
        brand: site.config.title.clone(),
        locale: site.config.locale.clone(),
        alternate_locale: ALTERNATE_LOCALE,
        entry_js: entry.js.clone(),
        entry_css: entry.css.clone(),
        critical_css,
        entry_imports: entry.imports.clone(),
        build_hash: build_hash.clone(),
        site_hash: site_hash.clone(),
        header: String::new(),
        footer: String::new(),
        favicon: static_has("favicon.svg").then(|| "/favicon.svg".to_string()),
        favicon_ico: static_has("favicon.ico").then(|| "/favicon.ico".to_string()),
        apple_touch_icon: static_has(APPLE_TOUCH_ICON).then(|| format!("/{APPLE_TOUCH_ICON}")),
        manifest: static_has("manifest.webmanifest").then(|| "/manifest.webmanifest".to_string()),
        theme_css: theme_href,
        font_preload: theme.preload.clone(),
        site_css: static_has(crate::theme_css::SITE_CSS)
            .then(|| format!("/{}", crate::theme_css::SITE_CSS)),
        feeds: true,
        scripts: script_srcs(&site.config.scripts, &site.config.proxy_allow),
        csp: csp.meta(),
    };
    // The offline page is styled like the others: the bundle's stylesheets, then the theme's.
    let sw_css: Vec<String> =
        shell.entry_css.iter().chain(shell.theme_css.as_ref()).cloned().collect();
    let sw_settings =
        SwSettings { build: &build_hash, brand: &shell.brand, css: &sw_css, csp: &csp_header };
    let service_worker = service_worker.script(&sw_settings);

    let render = pages::Renderer {
        ctx: &ctx,
        pages: &queue.pages,
        bundle: &bundle,
        worker: &worker,
        node: &opts.node,
        jobs,
        engine: &engine,
        site_json: &site_json,
        batch: opts.batch,
    };
    tracing::debug!(elapsed = ?started.elapsed(), "site files emitted");
    let build_info = BuildInfo {
        shard: opts.shard,
        noindex: ctx.noindex,
        style_hashes,
        csp: Some(csp_header.clone()),
        ..build_info::of(&site)
    };
    let mut search_memo = session.search.take();
    let one_shot = session.one_shot;
    let emitted = std::thread::scope(|threads| {
        // The search index needs no page: it is built and written while the pages render.
        let search = queue.site_files.then(|| {
            threads.spawn(|| {
                let memo = (!one_shot).then_some(&mut search_memo);
                site_files::emit_search_index(&update, &ctx, memo, placed_as_last)
            })
        });
        let rendered = render.emit(shell, &update, &mut cache, session, progress);
        match search.map(|thread| thread.join().expect("the search index does not panic")) {
            Some(Err(e)) => Err(e),
            _ => rendered,
        }
    });
    session.search = search_memo;
    let emitted = emitted?;
    tracing::debug!(elapsed = ?started.elapsed(), "pages rendered and search index emitted");

    if queue.site_files {
        let files = site_files::SiteFiles {
            ctx: &ctx,
            pages: &pages,
            site_json: &site_json,
            site_hash: &site_hash,
            build_hash: &build_hash,
            service_worker: &service_worker,
            build_info: &build_info,
            redirects: &redirects,
            // The sitemaps list the pages' routes and dates: the placement's.
            sitemaps: !scope.same_placement(),
        };
        files.emit(&update)?;
    }
    queue.kept.keep(&update);
    tracing::debug!(elapsed = ?started.elapsed(), "site files emitted and the rest kept");
    let (files, changed) = update.commit()?;
    if let Some(cache) = image_cache {
        let made = cache.take_made();
        if made > 0 {
            // The cache grew: the images this build shows stay; others go, least recently
            // used first, past the bound. (A build that made nothing leaves it as it was: an
            // edit in `dev` does not walk the cache.)
            tracing::debug!(made, "images processed");
            if let Err(e) = cache.collect_garbage(&images.processed_keys()) {
                tracing::warn!("image cache: {e}");
            }
        }
        session.images = Some(cache);
    }
    let output_digest = output.live_manifest().map(Manifest::digest);
    session.output = Some(output);
    if opts.shard.is_none() && !session.one_shot {
        session.current = Some(last_current.unwrap_or_default().record(&site, &images));
    }
    tracing::debug!(elapsed = ?started.elapsed(), "committed");

    let page_count = match scope {
        Scope::Articles => cache.pages.len(),
        Scope::Showing(_) | Scope::Site => queue.pages.len() + queue.kept.pages(),
    };
    let articles = site.articles.len();
    // The same placement as the last build's: the same slugs.
    let renamed = match &mut session.slugs {
        Some(slugs) => slugs.update(&site, scope.same_placement()),
        None => Vec::new(),
    };
    let peak_plans = ctx.peak_plans();
    let catalog_key = outline.placement.clone();
    if let Some(dir) = &opts.cache {
        // (With the placement the last build's, so are the pages.)
        if !scope.same_placement() {
            let routes: HashSet<&str> = pages.iter().map(|p| p.path.as_str()).collect();
            cache.retain_pages(|r| routes.contains(r));
        }
        cache.retain_seen_files();
        cache.set_catalog(&outline.placement, &catalog);
        if scope == Scope::Articles {
            cache.set_outline_output(output_digest);
        } else {
            // Where each article is shown: as the pages planned now read them when every page
            // was; as the last build recorded when the placement is the same; unknown for a shard.
            let shown_on = match (opts.shard, &scope) {
                (Some(_), _) => None,
                (None, Scope::Showing(_)) => {
                    cache.outline_record().and_then(|r| r.shown_on.clone())
                }
                (None, _) => {
                    Some(shown::ShownOn::from_pages(site.articles.len(), emitted.shows.pages()))
                }
            };
            cache.set_outline(output_digest.map(|output| OutlineRecord {
                key: outline.key.clone(),
                output,
                placement: outline.placement.clone(),
                shown: outline.shown.clone(),
                shown_on,
                ids: outline.ids.clone(),
                placements: outline.placements.clone(),
            }));
        }
        session.cache = Some(cache);
        session.unsaved = Some(dir.clone());
        if !session.defer_save {
            session.save()?;
        }
    }
    drop(queue);
    drop(pages);
    drop(ctx);
    session.catalog = Some((catalog_key, catalog));
    tracing::debug!(elapsed = ?started.elapsed(), "cache saved");
    Ok(BuildReport {
        pages: page_count,
        articles,
        peak_plans,
        rendered: emitted.rendered,
        files,
        changed,
        seconds: started.elapsed().as_secs_f64(),
        out: opts.out.clone(),
        cache_note,
        schedule: site.schedule.clone(),
        draft_problems: site.draft_problems.clone(),
        warnings: images.warnings().to_vec(),
        renamed,
    })
}

/// The build hash: a digest of the JS and CSS the site ships and of the service worker.
fn build_hash(assets: &[(String, PathBuf)], sw: &ServiceWorker) -> Result<String, BuildError> {
    let bytes: Vec<Vec<u8>> = assets
        .iter()
        .filter(|(rel, _)| rel.ends_with(".js") || rel.ends_with(".css"))
        .map(|(_, path)| std::fs::read(path).map_err(|e| BuildError::io(path, e)))
        .collect::<Result<_, _>>()?;
    Ok(digest(bytes.iter().map(Vec::as_slice).chain([sw.source()])))
}

/// `--now`'s year, else this year: the copyright year when the caller gave none.
fn current_year(now: Option<jiff::Timestamp>) -> i16 {
    now.unwrap_or_else(jiff::Timestamp::now).to_zoned(jiff::tz::TimeZone::UTC).year()
}
