//! The image stage: every image the pages show (covers, body images, author photos), read once
//! per build, in parallel, and made into what the plans need: a [`Picture`] for each reference,
//! the absolute share URL for `og:image`, the files to publish under `media/`, and the digests
//! that tell the build cache which pages an image change reaches.
//!
//! A raster image goes through the pipeline (`stillpoint-media`, its results kept by content in
//! the image cache): its renditions (AVIF, WebP and the source's format at several widths, and a
//! 1200 px JPEG for sharing) are published under `media/`. An SVG is published untouched, like
//! a raster image when the build has no image cache (`check`): its intrinsic size read from its
//! header, and a file outside `static/` (a page bundle's) published content-addressed as
//! `media/{key}.{ext}`. A file under `static/` keeps its address too (`static/` is copied as it is).

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use stillpoint_content::{
    Article, ArticleId, ContentError, ContentErrorKind, ContentWarning, Diagnostics, Located,
    MediaRef, Site, WarningKind,
};
use stillpoint_fingerprint::{Digest, digest_parts};
use stillpoint_media::{Format, ImageCache, Processed};

use crate::build::key::Key;
use crate::layout::MEDIA_DIR;
use crate::props::{Picture, Renditions};

mod kept;
mod table;
pub use kept::{ImageStage, LastImages};
pub use table::ImageTable;

/// The size a remote image is given (the slot's default): its real size is not known.
pub const REMOTE_SIZE: (u32, u32) = (1200, 675);
/// The most bytes of an SVG read to find its size.
const SVG_HEAD: usize = 64 * 1024;

/// What the stage knows of one image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prepared {
    /// A file of the site, published as it is at `url`; `animated`: it has more than one frame.
    Plain { url: String, width: u32, height: u32, key: String, animated: bool },
    /// An `https://` image, shown as it is.
    Remote { url: String },
    /// A raster file of the site through the pipeline: its renditions, and where each is in
    /// the image cache (output path → file).
    Raster { processed: Box<Processed>, share_url: String, files: Vec<(String, PathBuf)> },
}

impl Prepared {
    /// What changes when the image's bytes do.
    pub fn key(&self) -> &str {
        match self {
            Self::Plain { key, .. } => key,
            Self::Remote { url } => url,
            Self::Raster { processed, .. } => &processed.key,
        }
    }

    /// The URL `og:image` and JSON-LD give, as a path on the site or a full URL.
    pub fn share_url(&self) -> &str {
        match self {
            Self::Plain { url, .. } | Self::Remote { url } => url,
            Self::Raster { share_url, .. } => share_url,
        }
    }

    /// Whether the image has more than one frame (only the first is shown).
    pub fn animated(&self) -> bool {
        match self {
            Self::Plain { animated, .. } => *animated,
            Self::Remote { .. } => false,
            Self::Raster { processed, .. } => processed.animated,
        }
    }

    /// The image as a picture: renditions when the pipeline made them, else the file itself.
    fn picture(&self, alt: String, position: Option<String>) -> Picture {
        let (src, width, height) = match self {
            Self::Plain { url, width, height, .. } => (url.clone(), *width, *height),
            Self::Remote { url } => (url.clone(), REMOTE_SIZE.0, REMOTE_SIZE.1),
            Self::Raster { processed, .. } => return raster_picture(processed, alt, position),
        };
        Picture { src, width, height, alt, renditions: None, color: None, preview: None, position }
    }
}

/// Every image of a build, by reference.
#[derive(Debug, Default, Clone)]
pub struct SiteImages {
    table: ImageTable,
    /// Per article (the site's order): the digest of its file's digest and the keys of the
    /// images it shows; None when it shows none.
    sources: Vec<Option<Digest>>,
    /// The digest of what shows on pages other than the image's own article: covers (cards)
    /// and author photos.
    outline: String,
    /// What builds but is probably not meant (an animated image), at each reference.
    warnings: Vec<ContentWarning>,
}

impl SiteImages {
    /// The files to publish under `media/` (output path, source file), sorted.
    pub fn files(&self) -> &[(String, PathBuf)] {
        self.table.files()
    }

    /// The images read, for the next build of a session to reuse while they stay the same.
    pub fn table(&self) -> &ImageTable {
        &self.table
    }

    /// The empty table, for planning without images read (`check`, tests).
    pub fn none() -> &'static Self {
        static NONE: std::sync::LazyLock<SiteImages> =
            std::sync::LazyLock::new(SiteImages::default);
        &NONE
    }

    /// The page key's source part for article `i`: its file's digest and its images' keys (the
    /// file's digest alone when it shows no image or the images were not read).
    pub fn article_source(&self, i: ArticleId, file_digest: Digest) -> Digest {
        self.sources.get(i.index()).copied().flatten().unwrap_or(file_digest)
    }

    /// What cards and author photos show, for the build's outline.
    pub fn outline(&self) -> &str {
        &self.outline
    }

    /// How many distinct images were read.
    pub fn len(&self) -> usize {
        self.table.all().len()
    }

    /// The picture of the reference `value` written in `from`, when it is one the stage read.
    pub fn picture(
        &self,
        from: &Path,
        value: &str,
        alt: String,
        position: Option<String>,
    ) -> Option<Picture> {
        let r = stillpoint_content::resolve_media_ref(from, value).ok()?;
        self.picture_of(&r, alt, position)
    }

    /// The picture of a reference already resolved (an article's cover), when the stage read it.
    pub fn picture_of(
        &self,
        target: &MediaRef,
        alt: String,
        position: Option<String>,
    ) -> Option<Picture> {
        Some(self.table.get(target)?.picture(alt, position))
    }

    /// The picture of an embed's `poster=` (`written` in the article `from`, a file of the
    /// site), with no alt text (the play button says what it is), when the stage read it.
    pub fn poster(&self, from: &Path, written: &str) -> Option<Picture> {
        let r = poster_ref(from, written)?;
        Some(self.table.get(&r)?.picture(String::new(), None))
    }

    /// The warnings of the images read (an animated image), at each reference, sorted.
    pub fn warnings(&self) -> &[ContentWarning] {
        &self.warnings
    }

    /// The keys of the images the pipeline made (what the image cache must keep).
    pub fn processed_keys(&self) -> std::collections::HashSet<String> {
        self.table
            .all()
            .iter()
            .filter_map(|p| match p {
                Prepared::Raster { processed, .. } => Some(processed.key.clone()),
                _ => None,
            })
            .collect()
    }

    /// The files under `static/` that went through the pipeline (paths relative to `static/`):
    /// they are published as their renditions, never as they are ([`unpublished_originals`]).
    pub fn processed_originals(&self) -> rustc_hash::FxHashSet<String> {
        self.table
            .targets()
            .filter(|(_, p)| matches!(p, Prepared::Raster { .. }))
            .filter_map(|(t, _)| t.static_path())
            .collect()
    }

    /// Whether an image the pages show is an `https://` URL.
    pub fn any_remote(&self) -> bool {
        self.table.all().iter().any(|p| matches!(p, Prepared::Remote { .. }))
    }

    /// The share URL (path on the site, or full URL) of a reference, when the stage read it.
    pub fn share_url_of(&self, target: &MediaRef) -> Option<&str> {
        self.table.get(target).map(Prepared::share_url)
    }
}

/// The `<picture>` of a processed image: its AVIF and WebP renditions, the source's format as
/// the `<img>` (one file: every browser that shows pages reads WebP), its colour and preview
/// behind it while it loads.
fn raster_picture(p: &Processed, alt: String, position: Option<String>) -> Picture {
    let prefix = format!("/{MEDIA_DIR}/");
    let renditions = Renditions {
        stem: format!("{prefix}{}", p.key),
        widths: p.of_format(Format::Avif).map(|r| r.width).collect(),
    };
    debug_assert_eq!(renditions.srcset("avif"), p.srcset(Format::Avif, &prefix));
    debug_assert_eq!(renditions.srcset("webp"), p.srcset(Format::Webp, &prefix));
    Picture {
        src: format!("{prefix}{}", p.fallback().file),
        width: p.width,
        height: p.height,
        alt,
        renditions: Some(renditions),
        color: Some(p.color.clone()),
        preview: Some(p.preview.clone()),
        position,
    }
}

/// One reference to read: where it is written, and what it names.
struct Use<'a> {
    from: Cow<'a, Path>,
    /// As written.
    value: &'a str,
    line: u32,
    col: u32,
    /// What it names: an index into [`References::targets`].
    target: usize,
}

/// What an embed's `poster=` names: a file of the site (resolved as the load checked it).
fn poster_ref(from: &Path, written: &str) -> Option<MediaRef> {
    stillpoint_content::resolve_site_file(from, written).ok().map(MediaRef::File)
}

/// The posters of an article's embeds, each with where it is written.
fn posters(a: &Article) -> impl Iterator<Item = (MediaRef, &stillpoint_content::Embed)> {
    a.embeds.iter().filter_map(|e| Some((poster_ref(&a.source, e.poster.as_deref()?)?, e)))
}

/// The images an article's page shows, in order (its cover, the body's images, the embeds'
/// posters): what each names, as written, and where (line and column). A cover was resolved
/// when the article was read; the load checked that each poster is there.
fn shown_by(a: &Article) -> impl Iterator<Item = (Cow<'_, MediaRef>, &str, (u32, u32))> {
    let cover = a.image.as_ref().zip(a.image_target.as_ref());
    let cover = cover.map(|(at, t)| (Cow::Borrowed(t), at.value.as_str(), (at.line, at.col)));
    let body = a.images.iter().filter_map(|at| {
        let target = stillpoint_content::resolve_media_ref(&a.source, &at.value).ok()?;
        Some((Cow::Owned(target), at.value.as_str(), (at.line, at.col)))
    });
    let posters = posters(a).map(|(target, e)| {
        (Cow::Owned(target), e.poster.as_deref().unwrap_or_default(), (e.line, e.col))
    });
    cover.into_iter().chain(body).chain(posters)
}

/// Whether an article's page shows a cover (the first of [`shown_by`]).
fn has_cover(a: &Article) -> bool {
    a.image.is_some() && a.image_target.is_some()
}

/// The targets of the authors' photos, then of the pages' images, by their index in `index`
/// (None: a reference that names nothing); None when one names a target `index` does not have.
fn others_of(site: &Site, index: &TargetIndex) -> Option<Vec<Option<usize>>> {
    let authors = Path::new(stillpoint_content::AUTHORS_FILE);
    let photos = site.authors.list.iter().map(|au| au.photo.as_ref().map(|at| (authors, at)));
    let pages: Vec<(PathBuf, &Located<String>)> = (site.pages.iter())
        .flat_map(|p| p.images.iter().map(move |at| (PathBuf::from(p.source()), at)))
        .collect();
    let pages = pages.iter().map(|(from, at)| Some((from.as_path(), *at)));
    photos
        .chain(pages)
        .map(|written| {
            let Some((from, at)) = written else { return Some(None) };
            match stillpoint_content::resolve_media_ref(from, &at.value) {
                Ok(target) => index.of(&target).map(Some),
                Err(_) => Some(None),
            }
        })
        .collect()
}

/// The targets of a build's references, each with its index.
#[derive(Debug, Default, Clone)]
struct TargetIndex {
    /// By the bytes of a file's path or a URL (a `Path` hashes component by component, at
    /// several times the cost; resolved paths are normalised, so equal paths have equal bytes).
    files: rustc_hash::FxHashMap<std::ffi::OsString, usize>,
    remote: rustc_hash::FxHashMap<String, usize>,
}

impl TargetIndex {
    fn of(&self, target: &MediaRef) -> Option<usize> {
        match target {
            MediaRef::File(f) => self.files.get(f.as_os_str()).copied(),
            MediaRef::Remote(url) => self.remote.get(url).copied(),
        }
    }
}

/// Every image reference of a site (covers, body images, embed posters, author photos, the
/// fixed pages' images), each resolved once.
pub struct References<'a> {
    uses: Vec<Use<'a>>,
    /// Per article (the site's order): its cover's use, and the range of its own uses (cover
    /// first, then the body's images, then the embed posters).
    covers: Vec<Option<usize>>,
    article_uses: Vec<std::ops::Range<usize>>,
    /// Per author: the photo's use.
    photos: Vec<Option<usize>>,
    /// What the uses name, each once, in the order first named. Uses point into it by index,
    /// so the stage looks each reference's image up without hashing its path again.
    targets: Vec<MediaRef>,
    index: TargetIndex,
}

/// The references collected so far, and what they name, each once with its index.
#[derive(Default)]
struct Collect<'a> {
    uses: Vec<Use<'a>>,
    index: TargetIndex,
    targets: Vec<MediaRef>,
}

impl<'a> Collect<'a> {
    /// Adds a use of `target`, written at `at` (its line and column) in `from`; its index.
    fn push(
        &mut self,
        from: Cow<'a, Path>,
        value: &'a str,
        at: (u32, u32),
        target: &MediaRef,
    ) -> usize {
        let target = match self.index.of(target) {
            Some(i) => i,
            None => {
                let i = self.targets.len();
                match target {
                    MediaRef::File(f) => self.index.files.insert(f.as_os_str().to_owned(), i),
                    MediaRef::Remote(url) => self.index.remote.insert(url.clone(), i),
                };
                self.targets.push(target.clone());
                i
            }
        };
        self.uses.push(Use { from, value, line: at.0, col: at.1, target });
        self.uses.len() - 1
    }

    /// Adds a use of what `at` (written in `from`) names, when it names an image.
    fn resolve(&mut self, from: Cow<'a, Path>, at: &'a Located<String>) -> Option<usize> {
        let target = stillpoint_content::resolve_media_ref(&from, &at.value).ok()?;
        Some(self.push(from, &at.value, (at.line, at.col), &target))
    }
}

impl<'a> References<'a> {
    pub fn of(site: &'a Site) -> Self {
        let authors = Path::new("data/authors.toml");
        let mut c = Collect { uses: Vec::with_capacity(site.articles.len()), ..Collect::default() };
        let mut covers: Vec<Option<usize>> = Vec::with_capacity(site.articles.len());
        let mut article_uses = Vec::with_capacity(site.articles.len());
        for a in &site.articles {
            let from = || Cow::Borrowed(a.source.as_path());
            let start = c.uses.len();
            for (target, value, at) in shown_by(a) {
                c.push(from(), value, at, &target);
            }
            covers.push(has_cover(a).then_some(start));
            article_uses.push(start..c.uses.len());
        }
        let photos = site
            .authors
            .list
            .iter()
            .map(|au| au.photo.as_ref().and_then(|at| c.resolve(Cow::Borrowed(authors), at)))
            .collect();
        for p in &site.pages {
            for at in &p.images {
                c.resolve(Cow::Owned(PathBuf::from(p.source())), at);
            }
        }
        Self { uses: c.uses, covers, article_uses, photos, targets: c.targets, index: c.index }
    }
}

/// The files under `static/` that the pages show as raster images (paths relative to `static/`,
/// `/`-separated). A build publishes each as its renditions under `media/`, stripped of their
/// metadata, and does not copy the original: its EXIF (GPS positions, the camera's serial
/// number) stays with the owner. A link to one is a broken link (links.rs). SVGs pass through
/// as they are.
pub fn unpublished_originals(site: &Site) -> rustc_hash::FxHashSet<String> {
    let refs = References::of(site);
    refs.targets.iter().filter(|t| !t.is_svg()).filter_map(MediaRef::static_path).collect()
}

/// Reads every image the site's pages show, each file's digest computed from its bytes.
#[cfg(test)]
pub fn prepare(site: &Site) -> Result<SiteImages, Diagnostics> {
    prepare_with(site, &References::of(site), &|_| None, None, None)
}

/// Reads every image the site's pages show (`refs`, of `site`): a raster image through the
/// pipeline when there is an image `cache`, else its size from its header and its digest from
/// `known` (by absolute path) or from its bytes; `kept` (the last build's table, in `dev`) is
/// used as it is when nothing it was read from changed. An image that cannot be read is an
/// error naming the file that references it, with its line, and the image file.
pub fn prepare_with(
    site: &Site,
    refs: &References,
    known: &(dyn Fn(&Path) -> Option<String> + Sync),
    cache: Option<&ImageCache>,
    kept: Option<&ImageTable>,
) -> Result<SiteImages, Diagnostics> {
    let References { uses, covers, article_uses, photos, targets, .. } = refs;
    let table = ImageTable::read(&site.root, targets, known, cache, kept).map_err(|failures| {
        let failed: HashMap<usize, &String> = failures.iter().map(|(i, m)| (*i, m)).collect();
        let mut diag = Diagnostics::default();
        for u in uses {
            if let Some(message) = failed.get(&u.target) {
                let kind = ContentErrorKind::InvalidImage(format!("`{}`: {message}", u.value));
                diag.push(ContentError::new(u.from.as_ref(), u.line, u.col, kind));
            }
        }
        diag
    })?;
    let mut warnings: Vec<ContentWarning> = uses
        .iter()
        .filter(|u| table.at(u.target).animated())
        .map(|u| ContentWarning {
            path: u.from.to_path_buf(),
            line: u.line,
            col: u.col,
            kind: WarningKind::AnimatedImage(
                targets[u.target].file().map(|f| f.display().to_string()).unwrap_or_default(),
            ),
        })
        .collect();
    warnings.sort_by(|a, b| (&a.path, a.line, a.col).cmp(&(&b.path, b.line, b.col)));
    warnings.dedup();
    let key_of = |i: Option<usize>| i.map_or("", |i| table.at(uses[i].target).key());
    // An article's source, made once per build: `dev` asks it of every article on each rebuild.
    let mut buf = Vec::with_capacity(128);
    let sources = (site.articles.iter().zip(article_uses))
        .map(|(a, range)| source_of(a, &table, range.clone().map(|i| uses[i].target), &mut buf))
        .collect();
    let mut outline = Key::new("images");
    for &cover in covers {
        outline = outline.part(key_of(cover).as_bytes());
    }
    for &photo in photos {
        outline = outline.part(key_of(photo).as_bytes());
    }
    Ok(SiteImages { table, sources, outline: outline.finish(), warnings })
}

/// An article's source: a digest of its file's digest and the keys of the images its page
/// shows (`targets`, in order), or None when it shows none (its source is its file's digest).
fn source_of(
    a: &Article,
    table: &ImageTable,
    targets: impl ExactSizeIterator<Item = usize>,
    buf: &mut Vec<u8>,
) -> Option<Digest> {
    (targets.len() > 0).then(|| {
        let file = a.digest.bytes();
        let keys = targets.map(|t| table.at(t).key().as_bytes());
        digest_parts(std::iter::once(&file[..]).chain(keys), buf)
    })
}

/// Reads one image: an SVG or a raster image's size from the start of the file, and its
/// digest (`known`'s, else of its bytes).
fn read_one(
    root: &Path,
    target: &MediaRef,
    known: &(dyn Fn(&Path) -> Option<String> + Sync),
    cache: Option<&ImageCache>,
) -> Result<Prepared, String> {
    let file = match target {
        MediaRef::Remote(url) => return Ok(Prepared::Remote { url: url.clone() }),
        MediaRef::File(file) => file,
    };
    let path = root.join(file);
    if let Some(cache) = cache.filter(|_| !target.is_svg()) {
        // The pipeline's error names the file as the build found it: say it as the site does.
        let processed = match known(&path).filter(|d| !d.is_empty()) {
            Some(digest) => cache.process_known(&path, &digest),
            None => cache.process(&path),
        }
        .map_err(|e| format!("{}: {}", file.display(), e.kind))?;
        let media = |name: &str| format!("{MEDIA_DIR}/{name}");
        // The pages show the AVIF and WebP renditions and one fallback: the other widths of the
        // fallback format stay in the cache, unpublished.
        let fallback = processed.fallback();
        let files = processed
            .renditions
            .iter()
            .filter(|r| matches!(r.format, Format::Avif | Format::Webp) || r.file == fallback.file)
            .chain([&processed.share])
            .map(|r| (media(&r.file), cache.path(r)))
            .collect();
        let share_url = format!("/{}", media(&processed.share.file));
        return Ok(Prepared::Raster { processed: Box::new(processed), share_url, files });
    }
    let shown = file.display();
    let cannot = |e: std::io::Error| format!("{shown}: cannot read ({e})");
    let key = match known(&path) {
        Some(digest) => digest.chars().take(16).collect(),
        None => Digest::of(&std::fs::read(&path).map_err(cannot)?).short(16),
    };
    let mut bytes = Vec::new();
    let file_handle = std::fs::File::open(&path).map_err(cannot)?;
    std::io::Read::read_to_end(&mut std::io::Read::take(file_handle, SVG_HEAD as u64), &mut bytes)
        .map_err(cannot)?;
    let (width, height, animated) = if target.is_svg() {
        let (w, h) = svg_size(&bytes)
            .ok_or_else(|| format!("{shown}: not an SVG image (no <svg> element)"))?;
        (w, h, false)
    } else {
        // The pipeline's header check: format by content, oriented size, the pixel cap.
        let found = stillpoint_media::probe(&path).map_err(|e| format!("{shown}: {}", e.kind))?;
        (found.width, found.height, found.animated)
    };
    if width == 0 || height == 0 {
        return Err(format!("{shown}: the image has no size"));
    }
    let url = match target.static_path() {
        Some(p) => format!("/{p}"),
        None => {
            let ext = file.extension().and_then(|x| x.to_str()).unwrap_or("bin");
            format!("/{MEDIA_DIR}/{key}.{}", ext.to_ascii_lowercase())
        }
    };
    Ok(Prepared::Plain { url, width, height, key, animated })
}

/// An SVG's size: its `width` and `height` in pixels, else its `viewBox`'s, else 1200×675.
fn svg_size(bytes: &[u8]) -> Option<(u32, u32)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_reader(bytes);
    let mut buf = Vec::new();
    loop {
        match reader.read_event_into(&mut buf).ok()? {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"svg" => {
                let mut width = None;
                let mut height = None;
                let mut view_box = None;
                for attr in e.attributes().flatten() {
                    let value = String::from_utf8_lossy(&attr.value).into_owned();
                    match attr.key.as_ref() {
                        b"width" => width = pixels(&value),
                        b"height" => height = pixels(&value),
                        b"viewBox" => view_box = Some(value),
                        _ => {}
                    }
                }
                let from_box = view_box.and_then(|v| {
                    let n: Vec<f64> = v
                        .split(|c: char| c == ',' || c.is_whitespace())
                        .filter(|s| !s.is_empty())
                        .filter_map(|s| s.parse().ok())
                        .collect();
                    (n.len() == 4 && n[2] > 0.0 && n[3] > 0.0).then(|| (n[2], n[3]))
                });
                return Some(match (width, height, from_box) {
                    (Some(w), Some(h), _) => (w, h),
                    (_, _, Some((w, h))) => (w.round().max(1.0) as u32, h.round().max(1.0) as u32),
                    _ => REMOTE_SIZE,
                });
            }
            Event::Eof => return None,
            _ => {}
        }
        buf.clear();
    }
}

/// `"640"` or `"640px"` as pixels (a percentage or another unit is no intrinsic size).
fn pixels(value: &str) -> Option<u32> {
    let n: f64 = value.trim().trim_end_matches("px").parse().ok()?;
    (n.is_finite() && (1.0..100_000.0).contains(&n)).then(|| n.round() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_sizes() {
        assert_eq!(svg_size(br#"<svg width="640" height="360px"/>"#), Some((640, 360)));
        assert_eq!(
            svg_size(br#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 800"><g/></svg>"#),
            Some((1200, 800))
        );
        assert_eq!(svg_size(br#"<svg width="100%" viewBox="0,0,30,20"/>"#), Some((30, 20)));
        assert_eq!(svg_size(br#"<svg/>"#), Some(REMOTE_SIZE));
        assert_eq!(svg_size(b"GIF89a"), None);
    }

    /// A 3×2 PNG (whole: the pipeline's header check reads it with its checksums).
    pub(super) const PNG: &[u8] = &[
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0x12,
        0x16, 0xf1, 0x4d, 0x00, 0x00, 0x00, 0x10, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xe0,
        0x12, 0x91, 0x83, 0x20, 0x06, 0x38, 0x0b, 0x00, 0x0d, 0xac, 0x01, 0x69, 0xf8, 0x51, 0x7e,
        0xdc, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
    ];

    #[test]
    fn reads_sizes_and_publishes_bundle_files_by_content() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("articles/x")).unwrap();
        std::fs::create_dir_all(root.join("static/images")).unwrap();
        std::fs::write(root.join("articles/x/cover.PNG"), PNG).unwrap();
        std::fs::write(root.join("static/images/a.png"), PNG).unwrap();
        std::fs::write(root.join("static/images/fake.jpg"), b"hello").unwrap();
        let none = |_: &Path| None;
        let bundle =
            read_one(root, &MediaRef::File("articles/x/cover.PNG".into()), &none, None).unwrap();
        let Prepared::Plain { url, width, height, key, .. } = &bundle else { panic!("{bundle:?}") };
        assert_eq!((*width, *height), (3, 2));
        assert_eq!(url, &format!("/media/{key}.png"));
        assert_eq!(key.len(), 16);
        let known = |_: &Path| Some("fedcba9876543210ffff".to_string());
        let kept =
            read_one(root, &MediaRef::File("static/images/a.png".into()), &known, None).unwrap();
        assert!(matches!(&kept, Prepared::Plain { key, .. } if key == "fedcba9876543210"));
        assert_eq!(kept.share_url(), "/images/a.png");
        let err = read_one(root, &MediaRef::File("static/images/fake.jpg".into()), &none, None)
            .unwrap_err();
        assert!(err.starts_with("static/images/fake.jpg: not an image"), "{err}");
    }
}
