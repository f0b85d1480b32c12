//! The files a build writes beside its pages when its scope is more than articles' pages
//! (scope.rs): each made whole from the planning context and put into the output's update,
//! which keeps a file whose bytes did not change as it is.

use std::time::Instant;

use stillpoint_content::Redirect;
use stillpoint_dist::Output;

use crate::build_info::BuildInfo;
use crate::emit::Update;
use crate::error::BuildError;
use crate::feeds::{atom_xml, each_sitemap_file, robots_txt, rss_xml};
use crate::layout;
use crate::plan::{PlanContext, SitePage};
use crate::protocol::{SLICES, app_data_json, slice_data_json};
use crate::redirects::{redirect_page, redirect_page_file, redirect_table_json, redirects_txt};
use crate::search_index::{SearchMemo, search_index_with};

/// What the site-wide files are made from, beside the planning context.
pub(super) struct SiteFiles<'c, 'a> {
    pub ctx: &'c PlanContext<'a>,
    /// Every page of the site: the sitemaps list them.
    pub pages: &'c [SitePage],
    /// The site data (`site_data.rs`) as JSON, and its digest, which names its file.
    pub site_json: &'c str,
    pub site_hash: &'c str,
    /// The build hash (the client's JS and CSS and the service worker).
    pub build_hash: &'c str,
    /// The service worker's script (`sw.js`).
    pub service_worker: &'c str,
    pub build_info: &'c BuildInfo,
    /// The redirects that passed validation.
    pub redirects: &'c [Redirect],
    /// Whether the sitemaps are made: not when the live output's are kept, the placement (the
    /// pages, their routes and dates) being the last build's.
    pub sitemaps: bool,
}

impl SiteFiles<'_, '_> {
    /// Puts every site-wide file but the search index ([`emit_search_index`]).
    pub(super) fn emit(&self, update: &Update) -> Result<(), BuildError> {
        update.put(
            Output::SiteData,
            &layout::site_data_file(self.site_hash),
            self.site_json.as_bytes(),
        )?;
        for (name, template) in SLICES {
            let slice = slice_data_json(template, self.site_json);
            update.put(Output::SiteData, &layout::slice_data_file(name), slice.as_bytes())?;
        }
        update.put(Output::AppData, layout::APP_DATA, app_data_json(self.build_hash).as_bytes())?;
        update.put(
            Output::ServiceWorker,
            crate::client::SW_FILE,
            self.service_worker.as_bytes(),
        )?;
        if self.sitemaps {
            each_sitemap_file(self.ctx, self.pages, |file, xml| {
                update.put(Output::Sitemaps, file, xml.as_bytes()).map(drop)
            })?;
        }
        update.put(Output::Robots, layout::ROBOTS_TXT, robots_txt(self.ctx).as_bytes())?;
        update.put(Output::Feeds, layout::RSS_XML, rss_xml(self.ctx).as_bytes())?;
        update.put(Output::Feeds, layout::ATOM_XML, atom_xml(self.ctx).as_bytes())?;
        update.put(Output::BuildInfo, layout::BUILD_INFO, self.build_info.to_json().as_bytes())?;
        emit_redirects(update, self.redirects, &self.ctx.config.url)
    }
}

/// A page per exact redirect, `_redirects` and the table `serve` reads.
fn emit_redirects(update: &Update, redirects: &[Redirect], url: &str) -> Result<(), BuildError> {
    for r in redirects.iter().filter(|r| !r.prefix) {
        update.put(
            Output::RedirectPage,
            &redirect_page_file(&r.from),
            redirect_page(r, url).as_bytes(),
        )?;
    }
    if !redirects.is_empty() {
        update.put(
            Output::Redirects,
            layout::REDIRECTS_TXT,
            redirects_txt(redirects).as_bytes(),
        )?;
        update.put(
            Output::Redirects,
            layout::REDIRECT_TABLE,
            redirect_table_json(redirects).as_bytes(),
        )?;
    }
    Ok(())
}

/// The title search index's files (`search/`): made while the pages render, as it needs none.
pub(super) fn emit_search_index(
    update: &Update,
    ctx: &PlanContext,
    memo: Option<&mut Option<SearchMemo>>,
    same_placement: bool,
) -> Result<(), BuildError> {
    let started = Instant::now();
    // Without a memo to keep (a build whose process ends with it), the documents and keys go
    // as soon as the files are encoded, and each file as soon as it is written.
    let index = search_index_with(ctx, memo, same_placement);
    tracing::debug!(elapsed = ?started.elapsed(), "search index made");
    for (path, bytes) in index.files {
        update.put(Output::SearchIndex, &path, &bytes)?;
    }
    Ok(())
}
