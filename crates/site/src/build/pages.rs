//! The render stage with the cache beside it: each page's key is a digest of everything its
//! two files depend on; a page whose key and files are as the cache recorded is kept as it is,
//! the others go to the Node workers (started only when there is something to render).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use rayon::prelude::*;

use super::Progress;
use super::key::Key;
use super::session::Session;
use crate::BuildError;
use crate::cache::{BuildCache, PageEntry, Slices};
use crate::emit::Update;
use crate::plan::PagePlan;
use crate::props::PageHead;
use crate::protocol::page_data_json;
use crate::render::{PageAssets, Shell, document};
use crate::ssr::{BODY_MARKER, ChunkFiles, Job, WebBundle};

pub struct Renderer<'a> {
    pub plans: &'a [PagePlan<'a>],
    pub bundle: &'a WebBundle,
    pub node: &'a Path,
    pub jobs: usize,
    pub engine: &'a str,
    pub site_json: &'a str,
}

impl Renderer<'_> {
    /// Emits every page: kept from the live output when unchanged, rendered otherwise. Returns
    /// how many pages were rendered.
    pub fn emit(
        &self,
        shell: Shell,
        update: &Update,
        cache: &mut BuildCache,
        session: &mut Session,
        progress: &dyn Progress,
    ) -> Result<usize, BuildError> {
        let templates = template_chunks(self.bundle, self.plans)?;
        let worker = self.bundle.worker();
        let worker_bytes = std::fs::read(&worker).map_err(|e| BuildError::io(&worker, e))?;
        let worker_key = Key::new("worker").part(&worker_bytes).finish();
        let slices_key =
            Key::new(self.engine).part(&worker_bytes).part(self.site_json.as_bytes()).finish();
        let shell_key = Key::new(&slices_key).json(&shell).finish();

        let keys: Vec<String> = self
            .plans
            .par_iter()
            .map(|p| page_key(&shell_key, &templates[p.props.template()], p))
            .collect();
        let mut todo = Vec::new();
        for (i, plan) in self.plans.iter().enumerate() {
            let (html, data) = (plan.html_file(), plan.page_data_file());
            let kept = cache.pages.get(plan.path.as_str()).filter(|e| {
                e.key == keys[i]
                    && update.live_digest(&html) == Some(e.html.as_str())
                    && update.live_digest(&data) == Some(e.data.as_str())
            });
            match kept {
                Some(e) => {
                    update.keep(&html, &e.html);
                    update.keep(&data, &e.data);
                }
                None => todo.push(i),
            }
        }
        if todo.is_empty() {
            return Ok(0);
        }

        let todo = Todo { pages: todo, keys, templates, slices_key, worker_key };
        let result = self.render(&todo, shell, update, cache, session, progress);
        if matches!(result, Err(BuildError::Node(_))) {
            session.stop_workers();
        }
        result
    }

    /// Renders the pages of `todo` and records them in the cache.
    fn render(
        &self,
        todo: &Todo,
        shell: Shell,
        update: &Update,
        cache: &mut BuildCache,
        session: &mut Session,
        progress: &dyn Progress,
    ) -> Result<usize, BuildError> {
        let Todo { pages: todo, keys, templates, slices_key, worker_key } = todo;
        let worker = self.bundle.worker();
        let pool = session.workers(self.node, &worker, worker_key, self.jobs.min(todo.len()))?;
        let (header, footer) = match &cache.slices {
            Some(s) if &s.key == slices_key => (s.header.clone(), s.footer.clone()),
            _ => {
                let (header, footer) = pool.render_slices(self.site_json)?;
                cache.set_slices(Slices {
                    key: slices_key.clone(),
                    header: header.clone(),
                    footer: footer.clone(),
                });
                (header, footer)
            }
        };
        let shell = Shell { header, footer, ..shell };
        let written = Mutex::new(Vec::with_capacity(todo.len()));
        progress.start(todo.len());
        let failures = pool.render_all(
            todo.len(),
            |k| prepare(&self.plans[todo[k]]),
            |k, job, html| {
                let i = todo[k];
                let plan = &self.plans[i];
                let (html, props_json) = splice_body(html, job);
                let template = plan.props.template();
                let chunk = &templates[template];
                let assets = PageAssets { template, css: &chunk.css };
                let doc = document(&shell, &plan.head, &plan.path, &assets, &html);
                let data = page_data(plan, template, &props_json, &shell);
                let entry = PageEntry {
                    source: plan.source.map(str::to_string),
                    key: keys[i].clone(),
                    html: update.put(&plan.html_file(), doc.as_bytes())?,
                    data: update.put(&plan.page_data_file(), data.as_bytes())?,
                };
                written.lock().expect("lock").push((i, entry));
                progress.inc();
                Ok(())
            },
        )?;
        progress.finish();
        if !failures.is_empty() {
            return Err(BuildError::Render(failures));
        }
        for (i, entry) in written.into_inner().expect("lock") {
            cache.set_page(&self.plans[i].path, entry);
        }
        Ok(todo.len())
    }
}

/// The pages a build must render, with what rendering them needs.
struct Todo {
    /// Indices into the plans.
    pages: Vec<usize>,
    /// Every plan's key, by index.
    keys: Vec<String>,
    templates: HashMap<&'static str, ChunkFiles>,
    /// What the header and footer were rendered from, and the worker script's digest.
    slices_key: String,
    worker_key: String,
}

/// `page-data/{route}/page-data.json`: the page's props (already serialised, with their body)
/// and head.
fn page_data(plan: &PagePlan, template: &str, props_json: &str, shell: &Shell) -> String {
    let head = PageHead::from(&plan.head);
    page_data_json(template, &plan.path, props_json, head, &shell.site_hash, &shell.build_hash)
}

/// Everything a page's HTML and page-data depend on: the shell (and through it the bundle, the
/// site data, the header and footer), its template's chunk, its route, head, props and Markdown.
fn page_key(shell_key: &str, chunk: &ChunkFiles, plan: &PagePlan) -> String {
    Key::new(shell_key)
        .part(plan.props.template().as_bytes())
        .part(chunk.js.as_bytes())
        .json(&chunk.css)
        .json(&chunk.imports)
        .part(plan.path.as_bytes())
        .json(&plan.head)
        .json(&plan.props)
        .part(plan.markdown.map_or("", |m| m.text).as_bytes())
        .part(format!("{:?}", plan.markdown.map(|m| m.raw_html)).as_bytes())
        .finish()
}

/// A page's render job: its Markdown rendered, the HTML held back for splicing (the worker sees
/// `BODY_MARKER`).
fn prepare(plan: &PagePlan) -> Job {
    let (props, body) = plan.rendered_props(BODY_MARKER);
    Job { template: props.template(), path: plan.path.clone(), props, body }
}

/// Puts the held-back body into the rendered HTML and into the props, and serialises the props
/// for page-data.
fn splice_body(html: String, job: Job) -> (String, String) {
    let Job { mut props, body, .. } = job;
    let html = match (body, props.body_mut()) {
        (Some(body), Some(slot)) => {
            let html = html.replacen(BODY_MARKER, &body, 1);
            *slot = body;
            html
        }
        _ => html,
    };
    (html, serde_json::to_string(&props).expect("props serialise"))
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
