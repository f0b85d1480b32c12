//! `load_site`: read and validate a whole site directory, reporting every error at once.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use rayon::prelude::*;
use stillpoint_fingerprint::Digest;

use crate::article::Article;
use crate::article::text_digest;
use crate::article::written_slug;
use crate::article_id::ArticleId;
use crate::authors::{AUTHORS_FILE, Authors};
use crate::config::SiteConfig;
use crate::error::{ContentError, ContentErrorKind, Diagnostics, line_col};
use crate::front_matter::split;
use crate::pages::{INFO_PAGES, InfoPage, sort_pages};
use crate::parsed::{ParsedArticles, Stamp};
use crate::publish::{Publish, Schedule, declares_draft, is_content_name};
use crate::redirects::{REDIRECTS_FILE, Redirect, parse_redirects};
use crate::sponsored::Sponsored;
use crate::topics::Topics;

/// A validated site: everything docs/content.md describes, in memory.
#[derive(Debug, Clone)]
pub struct Site {
    /// The site directory.
    pub root: PathBuf,
    pub config: SiteConfig,
    pub topics: Topics,
    pub authors: Authors,
    pub sponsored: Sponsored,
    /// The articles published at the load's [`Publish`] instant (drafts only in a preview),
    /// sorted by source path, so every later stage sees one order. Shared with the store of
    /// parsed articles, so an unchanged article costs a rebuild no copy.
    pub articles: Vec<Arc<Article>>,
    /// Articles whose files have errors, as far as they parsed: checked against the rest of the
    /// site (author, categories, links) so that every error is reported at once; never built.
    pub failed: Vec<Arc<Article>>,
    /// The slugs written in article files whose front matter could not be read at all (their
    /// `slug:` lines, read leniently): links to them are not reported on top of their errors.
    pub unreadable: Vec<String>,
    /// What was left out and when the published set next changes by itself.
    pub schedule: Schedule,
    /// Errors in drafts, when drafts are not published: reported as warnings, so a
    /// half-written draft never blocks a publish.
    pub draft_problems: Vec<ContentError>,
    /// Every `pages/*.md`: the `INFO_PAGES` first, in that order, then the others by name.
    pub pages: Vec<InfoPage>,
    /// `static/`, when present.
    pub static_dir: Option<PathBuf>,
    /// `data/redirects.toml`, in file order (empty when there is none). Articles' `aliases`
    /// are on the articles.
    pub redirects: Vec<Redirect>,
    /// Symbolic links under `articles/` that name a Markdown file or a folder: not followed, so
    /// not loaded (a warning says so).
    pub symlinks: Vec<PathBuf>,
    /// The recordings the articles name (`audio:`, `::audio`), by site-relative path.
    pub audio: std::collections::BTreeMap<PathBuf, crate::media_files::SiteAudio>,
    /// The embeds' posters, by site-relative path: their name under `media/`.
    pub posters: std::collections::BTreeMap<PathBuf, String>,
    /// Digest of every file read other than the articles (`stillpoint.toml`, `data/*`, `pages/*`),
    /// as read: with the articles' own digests it names exactly what was loaded.
    pub data_digest: String,
}

impl Site {
    /// The article `id` names.
    pub fn article(&self, id: ArticleId) -> &Arc<Article> {
        &self.articles[id.index()]
    }

    /// Every article's id, in order.
    pub fn article_ids(&self) -> impl DoubleEndedIterator<Item = ArticleId> + ExactSizeIterator {
        ArticleId::all(self.articles.len())
    }

    /// The recording of an article's `audio:`, when it has one.
    pub fn audio_of(&self, a: &Article) -> Option<&crate::media_files::SiteAudio> {
        self.audio.get(&a.audio.as_ref()?.value)
    }

    /// The recording an `::audio` embed's `src` (as written in the article) names.
    pub fn embed_audio(&self, a: &Article, src: &str) -> Option<&crate::media_files::SiteAudio> {
        self.audio.get(&crate::site_file::resolve_site_file(&a.source, src).ok()?)
    }

    pub fn page(&self, name: &str) -> Option<&InfoPage> {
        self.pages.iter().find(|p| p.name == name)
    }

    /// The Markdown body of article `i`, read from its file: the load keeps no bodies, so a
    /// build holds only those of the pages it is rendering. A file whose bytes are no longer
    /// those loaded is an error: it was written during the build, which must run again.
    pub fn read_body(&self, i: usize) -> Result<String, ContentError> {
        let a = &self.articles[i];
        let file = |kind| ContentError::file(&a.source, kind);
        let text = fs::read_to_string(self.root.join(&a.source))
            .map_err(|e| file(ContentErrorKind::Io(e.to_string())))?;
        match split(&text) {
            Ok(s) if Digest::of(text.as_bytes()) == a.digest => Ok(s.body.to_string()),
            _ => Err(file(ContentErrorKind::Io("written during the build; build again".into()))),
        }
    }
}

/// Reads `root` as published now. On any content error, returns all of them, sorted by file and
/// line, with paths relative to `root`.
pub fn load_site(root: &Path) -> Result<Site, Diagnostics> {
    let (site, diag) = load_site_partial(root, &Publish::at_clock());
    diag.into_result()?;
    Ok(site.expect("a site loads when there are no errors"))
}

/// Reads `root` as far as it can: every diagnostic, and the site made of what did parse
/// (None when `stillpoint.toml`, `data/topics.toml` or `data/authors.toml` did not), so later
/// checks (links between pages) can still run and report in the same pass.
pub fn load_site_partial(root: &Path, publish: &Publish) -> (Option<Site>, Diagnostics) {
    load_site_partial_with(root, &mut ParsedArticles::default(), publish)
}

/// [`load_site_partial`], taking the articles whose files are unchanged from `parsed` and
/// recording there the ones it parses (and forgetting files that are gone).
pub fn load_site_partial_with(
    root: &Path,
    parsed: &mut ParsedArticles,
    publish: &Publish,
) -> (Option<Site>, Diagnostics) {
    let _span = tracing::info_span!("load", root = %root.display()).entered();
    let started = std::time::Instant::now();
    let mut diag = Diagnostics::default();
    let data_digest = std::cell::RefCell::new(Vec::new());
    let read = |rel: &str, diag: &mut Diagnostics| -> Option<String> {
        let path = root.join(rel);
        // A pipe or a device would block the read or never end: only plain files are read (a
        // symbolic link to one is: these files are read by name).
        if fs::metadata(&path).is_ok_and(|m| !m.is_file()) {
            diag.push(ContentError::file(rel, ContentErrorKind::NotRegularFile(rel.into())));
            return None;
        }
        match fs::read(&path) {
            Ok(bytes) => {
                let t = utf8(Path::new(rel), bytes).map_err(|e| diag.push(e)).ok()?;
                data_digest.borrow_mut().push(format!("{rel}\0{}", text_digest(&t)));
                Some(t)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                diag.push(ContentError::file(rel, ContentErrorKind::MissingFile(rel.into())));
                None
            }
            Err(e) => {
                diag.push(ContentError::file(rel, ContentErrorKind::Io(e.to_string())));
                None
            }
        }
    };

    let config = read("stillpoint.toml", &mut diag)
        .and_then(|t| parse_into(&mut diag, SiteConfig::parse(Path::new("stillpoint.toml"), &t)));
    let config = config.map(|mut c| {
        diag.extend(crate::theme::read_fonts(&mut c.theme, root));
        c
    });
    if let Some(p) = config.as_ref().and_then(|c| c.podcast.as_ref())
        && let Some(rooted) = p.image.strip_prefix('/')
        && !root.join("static").join(rooted).is_file()
    {
        let path = Path::new("static").join(rooted);
        let kind = ContentErrorKind::MissingMedia(path.display().to_string());
        let hint = crate::site_file::missing_file_hint(root, &path);
        diag.push(
            ContentError::new("stillpoint.toml", p.image_line, 1, kind).with_help(Some(hint)),
        );
    }
    let topics = read("data/topics.toml", &mut diag)
        .and_then(|t| parse_into(&mut diag, Topics::parse(Path::new("data/topics.toml"), &t)));
    let authors = read(AUTHORS_FILE, &mut diag)
        .and_then(|t| parse_into(&mut diag, Authors::parse(Path::new(AUTHORS_FILE), &t)));
    let sponsored = if root.join("data/sponsored.json").exists() {
        read("data/sponsored.json", &mut diag).and_then(|t| {
            parse_into(&mut diag, Sponsored::parse(Path::new("data/sponsored.json"), &t))
        })
    } else {
        Some(Sponsored::default())
    };
    let redirects = if root.join(REDIRECTS_FILE).is_file() {
        read(REDIRECTS_FILE, &mut diag)
            .and_then(|t| parse_into(&mut diag, parse_redirects(Path::new(REDIRECTS_FILE), &t)))
    } else {
        None
    };
    let mut pages = Vec::new();
    for name in page_names(root) {
        let rel = format!("pages/{name}.md");
        if let Some(t) = read(&rel, &mut diag)
            && let Some(p) = parse_into(&mut diag, InfoPage::parse(Path::new(&rel), &name, &t))
        {
            pages.push(p);
        }
    }
    sort_pages(&mut pages);

    tracing::debug!(elapsed = ?started.elapsed(), "data files read");
    let default_date = config.as_ref().map_or(jiff::civil::date(2024, 9, 12), |c| c.start_date);
    let LoadedArticles {
        mut articles,
        mut failed,
        unreadable,
        errors: article_errors,
        mut draft_problems,
        symlinks,
    } = load_articles(root, default_date, parsed);
    tracing::debug!(elapsed = ?started.elapsed(), "articles read");
    diag.extend(article_errors);
    let crate::media_files::Media { audio, posters, errors: media_errors } =
        crate::media_files::check_media(root, &articles);
    for e in media_errors {
        let in_draft = articles.iter().any(|a| a.draft && a.source == e.path);
        if in_draft { draft_problems.push(e) } else { diag.push(e) }
    }

    tracing::debug!(elapsed = ?started.elapsed(), "recordings read");
    // Every data file was read above: this names them all.
    let data_key = text_digest(&data_digest.borrow().join("\n"));
    let media = crate::media_check::check_all_with(
        &mut parsed.media_checked,
        root,
        &articles,
        authors.as_ref(),
        &pages,
    );
    let media_failed = crate::media_check::check_all(root, &failed, None, &[]);
    if let (Some(topics), Some(authors)) = (&topics, &authors) {
        let found = crate::cross_check::cross_check_with(
            parsed, &data_key, &articles, &failed, topics, authors,
        );
        for e in found.into_iter().chain(media).chain(media_failed) {
            let in_draft = articles.iter().chain(&failed).any(|a| a.draft && a.source == e.path);
            if in_draft { draft_problems.push(e) } else { diag.push(e) }
        }
    } else {
        diag.extend(media.into_iter().chain(media_failed));
    }
    tracing::debug!(elapsed = ?started.elapsed(), "media, slugs, authors and categories checked");
    if publish.drafts {
        diag.extend(draft_problems.drain(..));
    }
    diag.sort();
    draft_problems.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    let schedule = Schedule::of(articles.iter().map(|a| &**a), publish);
    articles.retain(|a| publish.shows(a));
    failed.retain(|a| publish.drafts || !a.draft);
    let site = match (config, topics, authors) {
        (Some(config), Some(topics), Some(authors)) => Some(Site {
            root: root.to_path_buf(),
            config,
            topics,
            authors,
            sponsored: sponsored.unwrap_or_default(),
            articles,
            failed,
            unreadable,
            schedule,
            draft_problems,
            pages,
            static_dir: Some(root.join("static")).filter(|p| p.is_dir()),
            redirects: redirects.unwrap_or_default(),
            symlinks,
            data_digest: data_key,
            audio,
            posters,
        }),
        _ => None,
    };
    (site, diag)
}

/// The stems of the pages to read: the required `INFO_PAGES` (a missing one is reported as
/// missing), then every other `*.md` directly under `pages/`, sorted.
fn page_names(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = INFO_PAGES.iter().map(|p| p.name.to_string()).collect();
    let mut others: Vec<String> = fs::read_dir(root.join("pages"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".md").map(str::to_string))
        .filter(|stem| !stem.starts_with('.') && crate::pages::info_page_spec(stem).is_none())
        .collect();
    others.sort();
    names.extend(others);
    names
}

fn parse_into<T>(diag: &mut Diagnostics, r: Result<T, Vec<ContentError>>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(errs) => {
            diag.extend(errs);
            None
        }
    }
}

/// How an article was loaded.
enum Loaded {
    /// From the store by its stamp: the file was not read.
    Unread,
    /// Read, and found to be the bytes parsed before.
    Same(Option<Stamp>),
    /// Read and parsed.
    Parsed(Option<Stamp>),
}

/// An article loaded, or what is known of a file that failed.
type LoadResult = Result<(Arc<Article>, Loaded), Failed>;

/// An article file with errors: the errors, the article as far as it parsed, whether the file
/// says it is a draft, and, when its front matter could not be read at all, the slug its
/// `slug:` line gives.
struct Failed {
    errors: Vec<ContentError>,
    partial: Option<Box<Article>>,
    draft: bool,
    written_slug: Option<String>,
}

impl Failed {
    fn of(errors: Vec<ContentError>) -> Self {
        Self { errors, partial: None, draft: false, written_slug: None }
    }
}

/// Parses every `articles/**/*.md` in parallel (or takes it from `parsed` when the file is
/// unchanged); each list is sorted by path.
fn load_articles(
    root: &Path,
    default_date: jiff::civil::Date,
    parsed: &mut ParsedArticles,
) -> LoadedArticles {
    let tree = parsed.listing(root).unwrap_or_else(|| {
        let mut tree = ArticleTree::default();
        markdown_files(&root.join("articles"), 0, &mut tree);
        Arc::new(tree)
    });
    let rel = |p: &PathBuf| p.strip_prefix(root).unwrap_or(p).to_path_buf();
    let not_regular: Vec<ContentError> = tree
        .not_regular
        .iter()
        .map(|p| {
            let rel = rel(p);
            let name = rel.display().to_string();
            ContentError::file(rel, ContentErrorKind::NotRegularFile(name))
        })
        .collect();
    let symlinks = tree.symlinks.iter().map(rel).collect();
    let files = &tree.files;
    let store = &*parsed;
    let read_at = SystemTime::now();
    let by_place = store.vouched_by_place(root, &tree, default_date);
    let results: Vec<LoadResult> = files
        .par_iter()
        .enumerate()
        .map(|(i, path)| {
            if let Some((placed, changed)) = &by_place
                && let Some(Some(a)) = placed.get(i)
                && !changed.contains(&i)
            {
                return Ok((Arc::clone(a), Loaded::Unread));
            }
            let rel = path.strip_prefix(root).unwrap_or(path);
            if let Some(a) = store.vouched(rel, default_date) {
                return Ok((a, Loaded::Unread));
            }
            let io = |e: std::io::Error| {
                Failed::of(vec![ContentError::file(rel, ContentErrorKind::Io(e.to_string()))])
            };
            let meta = fs::metadata(path).map_err(io)?;
            if !meta.is_file() {
                let name = rel.display().to_string();
                let error = ContentError::file(rel, ContentErrorKind::NotRegularFile(name));
                return Err(Failed::of(vec![error]));
            }
            if let Some(a) = store.unchanged(rel, &meta, default_date) {
                return Ok((a, Loaded::Unread));
            }
            let text = utf8(rel, fs::read(path).map_err(io)?).map_err(|e| Failed::of(vec![e]))?;
            let stamp = Stamp::of(&meta, read_at);
            match store.get(rel, Digest::of(text.as_bytes()), default_date) {
                Some(a) => Ok((a, Loaded::Same(stamp))),
                None => match Article::parse_partial(rel, &text, default_date) {
                    (Some(a), errors) if errors.is_empty() => {
                        Ok((Arc::new(a), Loaded::Parsed(stamp)))
                    }
                    (partial, errors) => Err(Failed {
                        written_slug: partial.is_none().then(|| written_slug(&text)).flatten(),
                        errors,
                        partial: partial.map(Box::new),
                        draft: declares_draft(&text),
                    }),
                },
            }
        })
        .collect();
    let placed = results.iter().map(|r| r.as_ref().ok().map(|(a, _)| Arc::clone(a))).collect();
    let mut articles = Vec::with_capacity(results.len());
    let mut failed = Vec::new();
    let mut unreadable = Vec::new();
    let mut errors = not_regular;
    let mut draft_errors = Vec::new();
    let mut read = 0;
    for r in results {
        match r {
            Ok((a, loaded)) => {
                match loaded {
                    Loaded::Unread => {}
                    Loaded::Same(stamp) => parsed.restamp(&a.source, stamp),
                    Loaded::Parsed(stamp) => parsed.insert(default_date, &a, stamp),
                }
                read += usize::from(!matches!(loaded, Loaded::Unread));
                articles.push(a)
            }
            Err(Failed { errors: e, partial, draft, written_slug }) => {
                read += 1;
                if draft {
                    draft_errors.extend(e)
                } else {
                    errors.extend(e);
                    unreadable.extend(written_slug);
                }
                failed.extend(partial.map(|a| Arc::new(*a)));
            }
        }
    }
    parsed.set_files_read(read);
    // Every article loaded has its entry; more entries are files gone or failing to parse.
    if parsed.len() != articles.len() {
        let sources: std::collections::HashSet<&Path> =
            files.iter().map(|p| p.strip_prefix(root).unwrap_or(p)).collect();
        parsed.retain(|p| sources.contains(p));
    }
    parsed.end_vouch();
    parsed.keep_placed(Arc::clone(&tree), default_date, placed);
    parsed.keep_listing(root, tree);
    LoadedArticles { articles, failed, unreadable, errors, draft_problems: draft_errors, symlinks }
}

/// What [`load_articles`] found.
struct LoadedArticles {
    articles: Vec<Arc<Article>>,
    /// Files with errors, as far as they parsed.
    failed: Vec<Arc<Article>>,
    /// The slugs of files whose front matter could not be read, as their `slug:` lines give them.
    unreadable: Vec<String>,
    errors: Vec<ContentError>,
    /// The errors of files that say they are drafts.
    draft_problems: Vec<ContentError>,
    /// Symbolic links, not followed.
    symlinks: Vec<PathBuf>,
}

/// What is under `articles/`.
#[derive(Debug, Default)]
pub(crate) struct ArticleTree {
    /// The Markdown files, in `Path` order.
    pub(crate) files: Vec<PathBuf>,
    /// Symbolic links named `*.md` or to a folder: not followed.
    symlinks: Vec<PathBuf>,
    /// `*.md` entries that are neither files, folders nor links (pipes, sockets, devices).
    not_regular: Vec<PathBuf>,
}

/// The text of file `rel`; bytes that are not UTF-8 are an error at the first invalid one.
fn utf8(rel: &Path, bytes: Vec<u8>) -> Result<String, ContentError> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let before = std::str::from_utf8(valid).expect("valid up to there");
        let (line, col) = line_col(before, before.len());
        ContentError::new(rel, line, col, ContentErrorKind::Io(NOT_UTF8.into()))
    })
}

const NOT_UTF8: &str = "not UTF-8 text: this is the first byte that is not";

/// The Markdown files under `dir`, in `Path` order (which compares component by component):
/// each folder's entries sorted by name, depth first. Symbolic links are not followed (a link
/// may leave the site or loop); they are listed apart, as are pipes and other special files.
/// Names starting with `.` (hidden folders such as `.drafts/`, editors' `.#x.md` and
/// `.x.md.swp`) and ending with `~` (backups) are not content, and are skipped without a word.
/// A folder below `articles/` holding an `index.md` is a page bundle: that file alone is read.
fn markdown_files(dir: &Path, depth: usize, out: &mut ArticleTree) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut entries: Vec<(std::ffi::OsString, fs::FileType)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| Some((e.file_name(), e.file_type().ok()?)))
        .collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    // A page bundle: a folder below articles/ with an index.md is one article, and everything
    // else in it (images, audio, other Markdown, subfolders) is its files, never articles.
    if depth > 0 && entries.iter().any(|(name, kind)| name == "index.md" && !kind.is_dir()) {
        let path = dir.join("index.md");
        let kind = &entries.iter().find(|(n, _)| n == "index.md").expect("found").1;
        if kind.is_symlink() {
            out.symlinks.push(path);
        } else if kind.is_file() {
            out.files.push(path);
        } else {
            out.not_regular.push(path);
        }
        return;
    }
    for (name, kind) in entries {
        if !is_content_name(Path::new(&name)) {
            continue;
        }
        let path = dir.join(&name);
        let md = path.extension().is_some_and(|x| x == "md");
        if kind.is_dir() {
            markdown_files(&path, depth + 1, out);
        } else if kind.is_symlink() {
            if md || path.is_dir() {
                out.symlinks.push(path);
            }
        } else if md {
            if kind.is_file() { out.files.push(path) } else { out.not_regular.push(path) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_site::demo_copy;

    const ARTICLE: &str = "---\ntitle: T\nslug: SLUG\ndate: DATE\nEXTRA\nentities:\n  - category: anxietyManagement\n---\nBody.\n";

    fn write(dir: &Path, rel: &str, slug: &str, date: &str, extra: &str) {
        let text = ARTICLE.replace("SLUG", slug).replace("DATE", date).replace("EXTRA", extra);
        let path = dir.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    fn at(now: &str, drafts: bool) -> Publish {
        Publish { now: now.parse().unwrap(), drafts }
    }

    fn slugs(site: &Site) -> Vec<&str> {
        site.articles.iter().map(|a| a.slug.as_str()).filter(|s| s.starts_with("t-")).collect()
    }

    #[test]
    fn every_markdown_file_of_pages_is_a_page_and_the_data_digest_covers_them() {
        let dir = demo_copy();
        let root = dir.path();
        let before = load_site(root).unwrap().data_digest;
        fs::write(root.join("pages/contact.md"), "Write to us.\n").unwrap();
        fs::write(root.join("pages/faq.md"), "---\nroute: /faq\n---\nAsk.\n").unwrap();
        fs::write(root.join("pages/notes.txt"), "not a page").unwrap();
        fs::write(root.join("pages/.draft.md"), "hidden").unwrap();
        let site = load_site(root).unwrap();
        let pages: Vec<(&str, &str)> =
            site.pages.iter().map(|p| (p.name.as_str(), p.route.as_str())).collect();
        assert_eq!(
            pages,
            [
                ("about-us", "/info/about-us"),
                ("privacy-policy", "/privacy-policy"),
                ("terms", "/terms"),
                ("contact", "/info/contact"),
                ("faq", "/faq"),
            ]
        );
        assert_ne!(site.data_digest, before, "a new page changes what was loaded");

        fs::write(root.join("pages/Contact Us.md"), "Hi.\n").unwrap();
        fs::remove_file(root.join("pages/terms.md")).unwrap();
        let errs = load_site(root).unwrap_err();
        let text = errs.to_string();
        assert!(text.contains("pages/Contact Us.md:1:1"), "{text}");
        assert!(text.contains("pages/terms.md"), "the spec's pages stay required: {text}");
    }

    #[test]
    fn drafts_scheduled_and_expired_articles_are_left_out_at_the_instant() {
        let dir = demo_copy();
        let root = dir.path();
        write(root, "articles/t/draft.md", "t-draft", "2025-01-01", "draft: true");
        write(root, "articles/t/future.md", "t-future", "2027-03-01", "");
        write(root, "articles/t/gone.md", "t-gone", "2025-01-01", "expires: 2027-02-01T12:00:00Z");
        let (site, diag) = load_site_partial(root, &at("2026-12-01T00:00:00Z", false));
        assert!(diag.is_empty(), "{diag}");
        let site = site.unwrap();
        assert_eq!(slugs(&site), ["t-gone"]);
        let s = &site.schedule;
        assert_eq!((s.drafts, s.scheduled, s.expired, s.preview), (1, 1, 0, false));
        let next = s.next.as_ref().unwrap();
        assert_eq!(
            (next.slug.as_str(), next.at.to_string().as_str()),
            ("t-future", "2027-03-01T00:00:00Z")
        );
        assert_eq!(s.next_expiry.as_ref().unwrap().slug, "t-gone");

        let site = load_site_partial(root, &at("2027-03-01T00:00:00Z", true)).0.unwrap();
        assert_eq!(
            slugs(&site),
            ["t-draft", "t-future"],
            "the instant itself publishes; gone expired"
        );
        assert_eq!((site.schedule.expired, site.schedule.preview), (1, true));
    }

    #[test]
    fn errors_in_drafts_are_held_back_unless_drafts_are_published() {
        let dir = demo_copy();
        let root = dir.path();
        write(root, "articles/t/wip.md", "t-wip", "2025-01-01", "draft: true\ntitle: [unclosed");
        write(root, "articles/t/wip2.md", "t-wip2", "2025-01-01", "draft: true\nauthor: Nobody");
        let (site, diag) = load_site_partial(root, &at("2026-01-01T00:00:00Z", false));
        assert!(diag.is_empty(), "{diag}");
        let held: Vec<_> = site.unwrap().draft_problems.iter().map(|e| e.kind.code()).collect();
        assert_eq!(held, ["malformed_front_matter", "unknown_author"]);
        let (_, diag) = load_site_partial(root, &at("2026-01-01T00:00:00Z", true));
        assert_eq!(diag.len(), 2, "{diag}");
    }

    #[test]
    fn page_bundles_are_one_article_with_its_files() {
        let dir = demo_copy();
        let root = dir.path();
        write(
            root,
            "articles/t/morning-light/index.md",
            "t-morning",
            "2025-01-01",
            "image: cover.jpg",
        );
        fs::write(root.join("articles/t/morning-light/cover.jpg"), b"jpeg").unwrap();
        fs::write(root.join("articles/t/morning-light/notes.md"), "not an article").unwrap();
        fs::create_dir_all(root.join("articles/t/morning-light/more")).unwrap();
        fs::write(root.join("articles/t/morning-light/more/x.md"), "not one either").unwrap();
        let (site, diag) = load_site_partial(root, &at("2026-01-01T00:00:00Z", false));
        assert!(diag.is_empty(), "{diag}");
        assert_eq!(slugs(&site.unwrap()), ["t-morning"]);
    }

    #[test]
    fn missing_images_are_errors_at_their_reference() {
        let dir = demo_copy();
        let root = dir.path();
        let body = "image: cover.jpg\nimage_alt: A lake";
        write(root, "articles/t/a/index.md", "t-a", "2025-01-01", body);
        fs::write(root.join("articles/t/a/cover.jpeg"), b"jpeg").unwrap();
        let text = fs::read_to_string(root.join("articles/t/a/index.md")).unwrap()
            + "\n![A candle](images/candle.jpg) and ![x](/images/covers/nope.svg)\n";
        fs::write(root.join("articles/t/a/index.md"), text).unwrap();
        write(root, "articles/t/b.md", "t-b", "2025-01-01", "draft: true\nimage: /nope.png");
        let (site, diag) = load_site_partial(root, &at("2026-01-01T00:00:00Z", false));
        let found: Vec<String> = diag.iter().map(|e| format!("{e} | {}", e.hint())).collect();
        assert_eq!(found.len(), 3, "{found:#?}");
        assert!(found[0].starts_with("articles/t/a/index.md:5:8: image `cover.jpg` not found | looked for articles/t/a/cover.jpg; did you mean `articles/t/a/cover.jpeg`?"), "{found:#?}");
        assert!(found[1].starts_with("articles/t/a/index.md:12:1: image `images/candle.jpg` not found | looked for articles/t/a/images/candle.jpg"), "{found:#?}");
        assert!(found[2].contains("index.md:12:36: image `/images/covers/nope.svg` not found | looked for static/images/covers/nope.svg"), "{found:#?}");
        let held: Vec<_> = site.unwrap().draft_problems.iter().map(|e| e.kind.code()).collect();
        assert_eq!(held, ["missing_image"], "a draft's missing image is held back");

        fs::write(root.join("pages/faq.md"), "Ask.\n\n![A map](/images/map.png)\n").unwrap();
        let (_, diag) = load_site_partial(root, &at("2026-01-01T00:00:00Z", false));
        let page = diag.iter().find(|e| e.path == Path::new("pages/faq.md")).expect("{diag}");
        assert_eq!((page.line, page.col, page.kind.code()), (3, 1, "missing_image"), "{diag}");
        fs::remove_file(root.join("pages/faq.md")).unwrap();

        let authors = root.join("data/authors.toml");
        let text = fs::read_to_string(&authors).unwrap().replacen(
            "[[author]]\n",
            "[[author]]\nphoto = \"photos/nobody.jpg\"\n",
            1,
        );
        fs::write(&authors, text).unwrap();
        let (_, diag) = load_site_partial(root, &at("2026-01-01T00:00:00Z", false));
        assert!(
            diag.iter()
                .any(|e| e.path == Path::new("data/authors.toml")
                    && e.kind.code() == "missing_image"),
            "{diag}"
        );
    }

    #[test]
    fn hidden_files_and_editor_backups_are_not_content() {
        let dir = demo_copy();
        let root = dir.path();
        for rel in [
            "articles/.drafts/x.md",
            "articles/t/.#x.md",
            "articles/t/x.md~",
            "articles/t/.x.md.swp",
        ] {
            let path = root.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "---\ntitle: [half-written\n").unwrap();
        }
        let (_, diag) = load_site_partial(root, &at("2026-01-01T00:00:00Z", false));
        assert!(diag.is_empty(), "{diag}");
    }
}
