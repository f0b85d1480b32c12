//! The plan and render stages with the cache beside them, a batch of pages at a time: each
//! page's key is a digest of everything its two files depend on; a page whose key and files are
//! as the cache recorded is kept as it is, the others go to the Node workers (started only when
//! there is something to render). The next batch is planned while one renders: at most two
//! batches of plans are alive at once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;
use stillpoint_dist::Output;
use stillpoint_fingerprint::Digest;

use super::Progress;
use super::key::Key;
use super::session::Session;
use super::shown::ShowsByPage;
use crate::cache::{BuildCache, PageEntry, Slices};
use crate::emit::Update;
use crate::error::BuildError;
use crate::plan::{PagePlan, PlanContext, SitePage, plan_batch, read_bodies};
use crate::props::PageHead;
use crate::protocol::{page_data_json, props_json, splice_body_json};
use crate::render::{PageAssets, Shell, document};
use crate::ssr::{BODY_MARKER, Body, ChunkFiles, Job, RenderFailure, SsrPool, WebBundle};

/// Pages planned, keyed, rendered and written at a time: what a build holds of its pages at
/// once, however large the site (the site itself is held as compact indexes: articles without
/// their bodies, the catalog, the page list).
pub const BATCH: usize = 512;

/// The SSR worker script of the web bundle: where it is, its bytes and their digest.
pub struct WorkerScript {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    pub key: String,
}

impl WorkerScript {
    pub fn read(bundle: &WebBundle) -> Result<Self, BuildError> {
        let path = bundle.worker();
        let bytes = std::fs::read(&path).map_err(|e| BuildError::io(&path, e))?;
        let key = Key::new("worker").part(&bytes).finish();
        Ok(Self { path, bytes, key })
    }
}

pub struct Renderer<'a, 'c> {
    pub ctx: &'c PlanContext<'a>,
    /// The pages this build writes.
    pub pages: &'c [SitePage],
    pub bundle: &'c WebBundle,
    pub worker: &'c WorkerScript,
    pub node: &'c Path,
    pub jobs: usize,
    pub engine: &'c str,
    pub site_json: &'c str,
    /// Pages per batch ([`BATCH`] in a build; tests use small batches).
    pub batch: usize,
}

/// What [`Renderer::emit`] did.
pub struct Emitted {
    /// Pages rendered (the others were kept).
    pub rendered: usize,
    /// Per page given, the articles it shows ([`PagePlan::shows`]).
    pub shows: ShowsByPage,
}

/// What every page's key and render share.
struct Shared {
    worker_key: String,
    /// What the header and footer were rendered from, and the worker script's digest.
    slices_key: String,
    shell_key: String,
    templates: HashMap<&'static str, ChunkFiles>,
    shell: Shell,
    /// Whether the shell has its header and footer: rendered (or taken from the cache) before
    /// the first page is, and not at all when no page needs rendering.
    framed: bool,
}

impl<'a> Renderer<'a, '_> {
    /// Emits every page, a batch at a time: kept from the live output when unchanged, rendered
    /// otherwise. The next batch is planned, keyed and read while the workers render this one,
    /// so they are not left waiting between batches (at most two batches of plans are alive).
    pub fn emit(
        &self,
        shell: Shell,
        update: &Update,
        cache: &mut BuildCache,
        session: &mut Session,
        progress: &dyn Progress,
    ) -> Result<Emitted, BuildError> {
        let worker_key = self.worker.key.clone();
        let slices_key =
            Key::new(self.engine).part(&self.worker.bytes).part(self.site_json.as_bytes()).finish();
        let shell_key = Key::new(&slices_key).json(&shell).finish();
        let templates = HashMap::new();
        let mut shared =
            Shared { worker_key, slices_key, shell_key, templates, shell, framed: false };

        let mut rendered = 0;
        let mut shows = ShowsByPage::default();
        let mut failures = Vec::new();
        progress.start(self.pages.len());
        let batches: Vec<&[SitePage]> = self.pages.chunks(self.batch.max(1)).collect();
        let mut next = (batches.first())
            .map(|f| {
                self.plan(f, shared.templates.clone(), &shared.shell_key, update, cache, progress)
            })
            .transpose()?;
        for b in 0..batches.len() {
            let Planned { plans, keys, todo, templates } = next.take().expect("planned ahead");
            shared.templates = templates;
            for plan in &plans {
                shows.push(&plan.shows);
            }
            let following = batches.get(b + 1);
            if todo.is_empty() {
                next = following
                    .map(|f| {
                        self.plan(
                            f,
                            shared.templates.clone(),
                            &shared.shell_key,
                            update,
                            cache,
                            progress,
                        )
                    })
                    .transpose()?;
                continue;
            }
            let left = self.pages.len() - b * self.batch.max(1);
            let batch = Batch { plans: &plans, keys: &keys, todo: &todo };
            let size = self.jobs.min(left);
            let result = session
                .workers(self.node, &self.worker.path, &shared.worker_key, size)
                .and_then(|pool| {
                    self.frame(pool, &mut shared, cache)?;
                    let (shared, cache) = (&shared, &*cache);
                    std::thread::scope(|scope| {
                        let ahead = following.map(|f| {
                            let templates = shared.templates.clone();
                            scope.spawn(move || {
                                self.plan(f, templates, &shared.shell_key, update, cache, progress)
                            })
                        });
                        let done = self.render(pool, &batch, shared, update, progress);
                        let ahead = ahead.map(|h| h.join().expect("planning panicked"));
                        Ok((done?, ahead.transpose()?))
                    })
                });
            match result {
                Ok(((failed, written), ahead)) => {
                    for (i, entry) in written {
                        cache.set_page(&plans[i].path, entry);
                    }
                    failures.extend(failed);
                    next = ahead;
                }
                Err(e) => {
                    if matches!(e, BuildError::Node(_)) {
                        session.stop_workers();
                    }
                    return Err(e);
                }
            }
            rendered += todo.len();
        }
        progress.finish();
        if !failures.is_empty() {
            failures.sort_by(|a, b| a.path.cmp(&b.path));
            return Err(BuildError::Render(failures));
        }
        Ok(Emitted { rendered, shows })
    }

    /// Plans the pages of `batch`, keys them, keeps those the cache and the live output have as
    /// they would be made, and reads the bodies of the others.
    fn plan(
        &self,
        batch: &[SitePage],
        mut templates: HashMap<&'static str, ChunkFiles>,
        shell_key: &str,
        update: &Update,
        cache: &BuildCache,
        progress: &dyn Progress,
    ) -> Result<Planned<'a>, BuildError> {
        let mut plans = plan_batch(self.ctx, batch);
        add_templates(self.bundle, &plans, &mut templates)?;
        let keys: Vec<Digest> = plans
            .par_iter()
            .map(|p| page_key(shell_key, &templates[p.props.template()], p))
            .collect();
        let todo = keep_unchanged(&plans, &keys, update, cache, progress);
        // Only the pages to render read their articles' bodies (the keys hold the digests).
        read_bodies(&mut plans, &todo, self.ctx).map_err(BuildError::Content)?;
        Ok(Planned { plans, keys, todo, templates })
    }

    /// Gives the shell its header and footer before the first page is rendered: from the cache
    /// when they were rendered from the same bundle and site data, else rendered.
    fn frame(
        &self,
        pool: &mut SsrPool,
        shared: &mut Shared,
        cache: &mut BuildCache,
    ) -> Result<(), BuildError> {
        if shared.framed {
            return Ok(());
        }
        let (header, footer) = match &cache.slices {
            Some(s) if s.key == shared.slices_key => (s.header.clone(), s.footer.clone()),
            _ => {
                let (header, footer) = pool.render_slices(self.site_json)?;
                cache.set_slices(Slices {
                    key: shared.slices_key.clone(),
                    header: header.clone(),
                    footer: footer.clone(),
                });
                (header, footer)
            }
        };
        (shared.shell.header, shared.shell.footer) = (header, footer);
        shared.framed = true;
        Ok(())
    }

    /// Renders the pages `batch.todo` picks and writes them; returns the pages that failed to
    /// render, and the cache entries of those written (by index into the plans).
    fn render(
        &self,
        pool: &mut SsrPool,
        batch: &Batch,
        shared: &Shared,
        update: &Update,
        progress: &dyn Progress,
    ) -> Result<Rendered, BuildError> {
        let Batch { plans, keys, todo } = *batch;
        let shell = &shared.shell;
        let templates = &shared.templates;
        let written = Mutex::new(Vec::with_capacity(todo.len()));
        let failures = pool.render_all(
            todo.len(),
            |k| prepare(&plans[todo[k]]),
            |k, job, html| {
                let i = todo[k];
                let plan = &plans[i];
                let (html, props_json) = splice_body(html, job);
                let template = plan.props.template();
                let chunk = &templates[template];
                let assets = PageAssets { template, css: &chunk.css };
                let doc = document(shell, &plan.head, &plan.path, &assets, &html);
                let data = page_data(plan, template, &props_json, shell);
                let entry = PageEntry {
                    source: plan.source,
                    key: keys[i],
                    html: update.put(Output::Page, &plan.html_file(), doc.as_bytes())?,
                    data: update.put(Output::Page, &plan.page_data_file(), data.as_bytes())?,
                };
                written.lock().expect("lock").push((i, entry));
                progress.inc();
                Ok(())
            },
        )?;
        Ok((failures, written.into_inner().expect("lock")))
    }
}

/// What a batch's render gives: the pages that failed, and the cache entries of those written
/// (by index into the batch's plans).
type Rendered = (Vec<RenderFailure>, Vec<(usize, PageEntry)>);

/// A batch planned and keyed: the pages it renders picked, their bodies read.
struct Planned<'a> {
    plans: Vec<PagePlan<'a>>,
    /// Every plan's key, by index.
    keys: Vec<Digest>,
    /// Indices into the plans of the pages to render.
    todo: Vec<usize>,
    /// The chunks of the templates used so far, this batch's included.
    templates: HashMap<&'static str, ChunkFiles>,
}

/// Keeps every page of the batch whose key and files are as the cache recorded; returns the
/// indices of the others, which must be rendered.
fn keep_unchanged(
    plans: &[PagePlan],
    keys: &[Digest],
    update: &Update,
    cache: &BuildCache,
    progress: &dyn Progress,
) -> Vec<usize> {
    let mut todo = Vec::new();
    let mut kept = Vec::new();
    for (i, plan) in plans.iter().enumerate() {
        let (html, data) = (plan.html_file(), plan.page_data_file());
        let entry = cache.pages.get(plan.path.as_str()).filter(|e| {
            e.key == keys[i]
                && update.live_digest(&html) == Some(e.html)
                && update.live_digest(&data) == Some(e.data)
        });
        match entry {
            Some(e) => {
                kept.push((html, e.html));
                kept.push((data, e.data));
                progress.inc();
            }
            None => todo.push(i),
        }
    }
    update.keep_all(kept.iter().map(|(rel, digest)| (rel.as_str(), *digest)));
    todo
}

/// One batch's pages to render, with what rendering them needs.
#[derive(Clone, Copy)]
struct Batch<'b, 'a> {
    plans: &'b [PagePlan<'a>],
    /// Every plan's key, by index.
    keys: &'b [Digest],
    /// Indices into the plans of the pages to render.
    todo: &'b [usize],
}

/// `page-data/{route}/page-data.json`: the page's props (already serialised) and head, except
/// what its HTML alone holds (an article's body and head).
fn page_data(plan: &PagePlan, template: &str, props_json: &str, shell: &Shell) -> String {
    let head = (!plan.props.data_in_document()).then(|| PageHead::from(&plan.head));
    page_data_json(template, &plan.path, props_json, head, &shell.site_hash, &shell.build_hash)
}

/// Everything a page's HTML and page-data depend on: the shell (and through it the bundle, the
/// site data, the header and footer), its template's chunk, its route, head, props and Markdown.
fn page_key(shell_key: &str, chunk: &ChunkFiles, plan: &PagePlan) -> Digest {
    let source = plan.source.map(Digest::bytes);
    Key::new(shell_key)
        .part(plan.props.template().as_bytes())
        .part(chunk.js.as_bytes())
        .json(&chunk.css)
        .json(&chunk.imports)
        .part(plan.path.as_bytes())
        .json(&plan.head)
        .json(&plan.props)
        // An article's body is not read to key its page: its file's digest stands for it.
        .part(source.as_ref().map_or(&[][..], |b| b))
        .part(plan.markdown.as_ref().map_or("", |m| &m.text).as_bytes())
        .part(format!("{:?}", plan.markdown.as_ref().map(|m| m.raw_html)).as_bytes())
        // The body's pictures: a replaced image changes the page that shows it.
        .json(&plan.markdown.as_ref().map(|m| &m.images))
        // The embeds' files: a replaced poster (its renditions) or recording changes the page.
        .json(&plan.markdown.as_ref().and_then(|m| m.embeds.as_deref()).map(|e| {
            let audio: std::collections::BTreeMap<_, _> = e.audio.iter().collect();
            let posters: std::collections::BTreeMap<_, _> = e.posters.iter().collect();
            (audio, posters)
        }))
        .digest()
}

/// A page's render job: its props serialised once, for the worker and (without a body, or with
/// its body spliced in) for page-data; its Markdown rendered, the HTML held back for splicing
/// (the worker sees `BODY_MARKER`).
fn prepare(plan: &PagePlan) -> Job {
    let template = plan.props.template();
    let path = plan.path.clone();
    if plan.markdown.is_none() {
        return Job { template, path, props_json: props_json(&plan.props), body: None };
    }
    let (props, html) = plan.rendered_props(BODY_MARKER);
    let body = html.zip(props.body_field()).map(|(html, field)| Body {
        html,
        field,
        in_data: !props.data_in_document(),
    });
    Job { template, path, props_json: props_json(&props), body }
}

/// Puts the held-back body into the rendered HTML and into the props' JSON for page-data (or
/// leaves its field out there, when the page's HTML alone keeps it); returns the two.
fn splice_body(html: String, job: Job) -> (String, String) {
    match job.body {
        Some(body) => {
            let data =
                splice_body_json(&job.props_json, body.field, body.in_data.then_some(&*body.html));
            (html.replacen(BODY_MARKER, &body.html, 1), data)
        }
        None => (html, job.props_json),
    }
}

/// Adds the chunk of every template `plans` use that `out` lacks.
fn add_templates(
    bundle: &WebBundle,
    plans: &[PagePlan],
    out: &mut HashMap<&'static str, ChunkFiles>,
) -> Result<(), BuildError> {
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
    Ok(())
}
