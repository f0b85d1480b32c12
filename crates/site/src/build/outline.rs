//! The outline of a build: everything its output depends on except the Markdown of the
//! articles. Every page but an article's own reads an article through its summary
//! (plan/summary.rs: its placement and what it shows, its words as reading minutes), and the
//! outline digests those summaries. So when the outline is the one the last build recorded, and
//! the output is still what that build left, the only pages that can differ are those of
//! articles whose files changed: the cache beside the plan stage then plans just those.

use rustc_hash::FxHashMap;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;
use stillpoint_content::{Article, Site};
use stillpoint_fingerprint::Digester;

use super::key::Key;
use crate::error::BuildError;
use crate::plan::ArticleSummary;
use crate::shard::Shard;
use crate::ssr::WebBundle;

/// A build's outline: its key, and that key's two parts, so that a build can tell an edit of
/// what articles show from one of where they are placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outline {
    /// The whole outline, what [`BuildCache::same_outline`] compares.
    ///
    /// [`BuildCache::same_outline`]: crate::cache::BuildCache::same_outline
    pub key: String,
    /// Everything but what articles show of themselves: the inputs below and each article's
    /// placement. The catalog, the page list and the articles each page picks depend on it alone.
    pub placement: String,
    /// Per article, in `Site::articles` order, the digest of what it shows on other pages.
    pub shown: Vec<[u8; 16]>,
    /// Per article, in order: what it was read from ([`article_id`]) and the digest of its
    /// placement, for the record the next build starts from.
    pub ids: Vec<[u8; 16]>,
    pub placements: Vec<[u8; 16]>,
}

/// The inputs of a build other than the articles' Markdown, as one digest.
pub struct OutlineInputs<'a> {
    pub engine: &'a str,
    pub bundle: &'a WebBundle,
    /// The digest of the SSR worker script (`WorkerScript::key`).
    pub worker: &'a str,
    /// The build hash (the client's JS and CSS and the service worker).
    pub build_hash: &'a str,
    pub year: i16,
    pub site: &'a Site,
    /// The site's static files, as output paths.
    pub static_files: &'a [String],
    /// The shard built, if not the whole site.
    pub shard: Option<Shard>,
    /// Every page asks robots not to index it.
    pub noindex: bool,
    /// The compiled theme: it changes with the font files too, which the data digest does not cover.
    pub theme_css: &'a str,
    /// What the image stage made of the covers (shown on cards) and author photos
    /// (`SiteImages::outline`): a replaced cover changes every page that shows its card.
    pub images: &'a str,
    /// The Content-Security-Policy every page carries: a body-only edit (an embed, a remote
    /// image) can change it, and with it every page.
    pub csp: &'a str,
    /// What the last build recorded: an article read from what it was read from then, at the
    /// same place, has the digests recorded, so a new process does not encode every article.
    pub recorded: Option<&'a super::OutlineRecord>,
}

/// What each article showed elsewhere at the last build of a session, by source file: a file
/// whose digest is the one recorded is not encoded again. It holds for one `data_digest` (the
/// site's start date, which dates undated articles, is in the data files).
#[derive(Default)]
pub struct OutlineMemo {
    data_digest: String,
    /// By a hash of the source file's path: the article last read from it (its path and digest
    /// are compared on each use), without a copy of either for each of a million articles.
    by_source: FxHashMap<u64, (Arc<Article>, Known)>,
    /// The last build's articles, in order, with their digests: an article that is the same
    /// (shared with the load's store, so unchanged) at the same place is found without hashing.
    last: Vec<(Arc<Article>, Known)>,
}

/// The key of an article's source file in [`OutlineMemo::by_source`]: its path's bytes hashed
/// at once (a `Path` hashes component by component).
fn source_hash(source: &Path) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = rustc_hash::FxBuildHasher.build_hasher();
    hasher.write(source.as_os_str().as_encoded_bytes());
    hasher.finish()
}

/// An article's placement and shown digests.
type Digests = ([u8; 16], [u8; 16]);

/// An article's digests, with what it was read from ([`article_id`]).
type Known = (Digests, [u8; 16]);

#[cfg(test)]
impl<'a> OutlineInputs<'a> {
    /// The outline inputs of `site` with everything else fixed: no static files, theme, images
    /// or policy, no shard, and no outline recorded before.
    pub(super) fn fixed(bundle: &'a WebBundle, worker: &'a str, site: &'a Site) -> Self {
        OutlineInputs {
            engine: "e",
            bundle,
            worker,
            build_hash: "b",
            year: 2026,
            site,
            static_files: &[],
            shard: None,
            noindex: crate::plan::noindex(site),
            theme_css: "",
            images: "",
            csp: "",
            recorded: None,
        }
    }
}

impl OutlineInputs<'_> {
    /// What the environment built for changes beyond `stillpoint.toml`'s text (which
    /// `data_digest` covers): the configuration `--env` chose from it.
    fn environment(&self) -> impl Serialize + '_ {
        let c = &self.site.config;
        (&c.env, &c.url, &c.bucket, &c.scripts, self.noindex)
    }

    pub fn key(&self, memo: &mut OutlineMemo) -> Result<Outline, BuildError> {
        let read = |path: &Path| std::fs::read(path).map_err(|e| BuildError::io(path, e));
        let mut key = Key::new(self.engine)
            .part(self.worker.as_bytes())
            .part(&read(&self.bundle.manifest_path())?)
            .part(self.bundle.critical_css()?.as_bytes())
            .part(self.build_hash.as_bytes())
            .part(&self.year.to_le_bytes())
            .part(self.site.data_digest.as_bytes())
            .json(&self.static_files)
            .json(&self.shard)
            .json(&self.environment())
            .part(self.theme_css.as_bytes())
            .part(self.images.as_bytes())
            .part(self.csp.as_bytes())
            // What is published is in the articles below; what waits (the next scheduled article
            // in build.json) and whether this is a preview is here.
            .json(&self.site.schedule)
            // The recordings: their names (digests of their bytes) and durations show on the
            // articles' pages, cards, JSON-LD and the feeds.
            .json(&audio_outline(self.site))
            .json(&self.site.posters);
        if memo.data_digest != self.site.data_digest {
            *memo =
                OutlineMemo { data_digest: self.site.data_digest.clone(), ..Default::default() };
        }
        let (known, last, recorded) = (&memo.by_source, &memo.last, self.recorded);
        let digests: Vec<(Known, bool)> = self
            .site
            .articles
            .par_iter()
            .enumerate()
            .map(|(i, a)| match last.get(i) {
                Some((same, known)) if Arc::ptr_eq(same, a) => (*known, false),
                _ => match known.get(&source_hash(&a.source)) {
                    Some((same, known)) if same.source == a.source && same.digest == a.digest => {
                        (*known, false)
                    }
                    _ => {
                        let id = article_id(a);
                        match recorded.and_then(|r| r.digests_at(i, &id)) {
                            Some(digests) => ((digests, id), false),
                            None => ((ArticleSummary::of(a).digests(), id), true),
                        }
                    }
                },
            })
            .collect();
        for (a, (known, fresh)) in self.site.articles.iter().zip(&digests) {
            key = key.part(&known.0.0);
            if *fresh {
                memo.by_source.insert(source_hash(&a.source), (Arc::clone(a), *known));
            }
        }
        if memo.last.len() == digests.len() {
            // Most are the same articles: only the others are replaced.
            for ((last, a), (known, _)) in
                memo.last.iter_mut().zip(&self.site.articles).zip(&digests)
            {
                if !Arc::ptr_eq(&last.0, a) {
                    *last = (Arc::clone(a), *known);
                }
            }
        } else {
            memo.last = self
                .site
                .articles
                .iter()
                .zip(&digests)
                .map(|(a, d)| (Arc::clone(a), d.0))
                .collect();
        }
        let placement = key.finish();
        let shown: Vec<[u8; 16]> = digests.iter().map(|(((_, shown), _), _)| *shown).collect();
        let placements = digests.iter().map(|(((placement, _), _), _)| *placement).collect();
        let ids = digests.iter().map(|((_, id), _)| *id).collect();
        let key = shown.iter().fold(Key::new(&placement), |key, s| key.part(s)).finish();
        Ok(Outline { key, placement, shown, ids, placements })
    }
}

/// What an article's outline digests are a function of: its file, the bytes read from it (their
/// digest) and its date (the site's start date dates an undated article).
fn article_id(a: &Article) -> [u8; 16] {
    let date = (a.date.year(), a.date.month(), a.date.day());
    let date = [date.0.to_le_bytes()[0], date.0.to_le_bytes()[1], date.1 as u8, date.2 as u8];
    Digester::new()
        .part(a.source.as_os_str().as_encoded_bytes())
        .part(&[0])
        .part(&a.digest.bytes())
        .part(&date)
        .finish()
        .bytes()
}

/// Every recording of the site: its path, published name, duration and size.
fn audio_outline(site: &Site) -> Vec<(&Path, &str, u64, u64)> {
    site.audio.iter().map(|(p, a)| (p.as_path(), a.name.as_str(), a.millis, a.bytes)).collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use stillpoint_content::{Article, Located, Site, load_site};

    use super::*;
    use crate::build::pages::WorkerScript;
    use crate::plan::reading_minutes;
    use crate::ssr::WebBundle;
    use stillpoint_fingerprint::Digest;

    fn demo() -> Site {
        load_site(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo")).unwrap()
    }

    pub(super) fn bundle(dir: &Path) -> WebBundle {
        std::fs::create_dir_all(dir.join("server")).unwrap();
        std::fs::create_dir_all(dir.join("client/.vite")).unwrap();
        std::fs::write(dir.join("server/worker.js"), "worker").unwrap();
        std::fs::write(dir.join("client/.vite/manifest.json"), "{}").unwrap();
        WebBundle::locate(&[dir.to_path_buf()]).unwrap()
    }

    fn key(bundle: &WebBundle, site: &Site, static_files: &[String]) -> String {
        outline(bundle, site, static_files).key
    }

    fn outline(bundle: &WebBundle, site: &Site, static_files: &[String]) -> Outline {
        let worker = WorkerScript::read(bundle).unwrap().key;
        OutlineInputs { static_files, ..OutlineInputs::fixed(bundle, &worker, site) }
            .key(&mut OutlineMemo::default())
            .unwrap()
    }

    #[test]
    fn what_cards_show_is_apart_from_where_articles_are_placed() {
        let dir = tempfile::tempdir().unwrap();
        let bundle = bundle(dir.path());
        let site = demo();
        let base = outline(&bundle, &site, &[]);
        assert_eq!(base.shown.len(), site.articles.len());
        let second = |edit: &dyn Fn(&mut Article)| {
            let mut s = site.clone();
            edit(std::sync::Arc::make_mut(&mut s.articles[1]));
            outline(&bundle, &s, &[])
        };
        let minutes = reading_minutes(site.articles[1].words);
        // Shown on cards: the placement stays, the second article's shown digest alone changes.
        let shown_edits: [&dyn Fn(&mut Article); 4] = [
            &|a| a.title.push('!'),
            &|a| a.description.push('!'),
            &|a| a.image_alt = Some("Another alt".into()),
            &|a| a.words = minutes * 220 + 1,
        ];
        for edit in shown_edits {
            let after = second(edit);
            assert_ne!(after.key, base.key);
            assert_eq!(after.placement, base.placement);
            let changed: Vec<usize> =
                (0..base.shown.len()).filter(|&i| after.shown[i] != base.shown[i]).collect();
            assert_eq!(changed, [1]);
        }
        // Where it is placed: every page may list other articles.
        let placement_edits: [&dyn Fn(&mut Article); 3] =
            [&|a| a.slug.push('x'), &|a| a.draft = !a.draft, &|a| {
                a.links.push(Located { value: "/x".into(), line: 1, col: 1 })
            }];
        for edit in placement_edits {
            let after = second(edit);
            assert_ne!(after.placement, base.placement);
            assert_eq!(after.shown, base.shown);
        }
    }

    #[test]
    fn the_compiled_theme_the_images_and_the_policy_are_in_the_outline() {
        let dir = tempfile::tempdir().unwrap();
        let bundle = bundle(dir.path());
        let site =
            load_site(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo")).unwrap();
        let worker = WorkerScript::read(&bundle).unwrap().key;
        let key = |theme_css: &str, images: &str, csp: &str| {
            let inputs = OutlineInputs {
                noindex: false,
                theme_css,
                images,
                csp,
                ..OutlineInputs::fixed(&bundle, &worker, &site)
            };
            inputs.key(&mut OutlineMemo::default()).unwrap().key
        };
        // A font file's metrics change the compiled theme, not stillpoint.toml's text.
        assert_ne!(key("", "", ""), key(":root{--radius-m:1rem}", "", ""));
        assert_eq!(key("a", "", ""), key("a", "", ""));
        // A replaced cover or author photo changes what cards show.
        assert_ne!(key("", "i1", ""), key("", "i2", ""));
        // An embed or a remote image in one body changes the policy of every page.
        assert_ne!(
            key("", "", "frame-src 'none'"),
            key("", "", "frame-src https://player.vimeo.com")
        );
    }

    #[test]
    fn only_what_other_pages_show_is_in_the_outline() {
        let dir = tempfile::tempdir().unwrap();
        let bundle = bundle(dir.path());
        let site = demo();
        let base = key(&bundle, &site, &[]);
        let with = |edit: &dyn Fn(&mut Site)| {
            let mut s = site.clone();
            edit(&mut s);
            key(&bundle, &s, &[])
        };
        // An edit of the first article.
        let first = |edit: &dyn Fn(&mut Article)| {
            with(&|s: &mut Site| edit(std::sync::Arc::make_mut(&mut s.articles[0])))
        };
        let minutes = reading_minutes(site.articles[0].words);

        // Shown on the article's own page only.
        assert_eq!(first(&|a| a.digest = Digest::of(b"other")), base);
        assert_eq!(first(&|a| a.words = (minutes - 1) * 220 + 1), base);
        assert_eq!(first(&|a| a.images_without_alt.clear()), base);

        // Shown elsewhere (listings, cards, related articles, search, feeds) or checked.
        assert_ne!(first(&|a| a.title.push('!')), base);
        assert_ne!(first(&|a| a.description.push('!')), base);
        assert_ne!(first(&|a| a.words = minutes * 220 + 1), base);
        assert_ne!(first(&|a| a.slug.push('x')), base);
        assert_ne!(first(&|a| a.image = None), base);
        assert_ne!(first(&|a| a.links.push(Located { value: "/x".into(), line: 1, col: 1 })), base);
        assert_ne!(
            first(&|a| a.aliases.push(Located { value: "/x".into(), line: 1, col: 1 })),
            base
        );
        assert_ne!(with(&|s| s.articles.truncate(3)), base);
        assert_ne!(with(&|s| s.data_digest.push('!')), base);
        // Another environment: the same stillpoint.toml text, another configuration.
        assert_ne!(with(&|s| s.config = s.config.for_env("dev").unwrap()), base);
        assert_ne!(with(&|s| s.config.url.push('x')), base);
        assert_ne!(key(&bundle, &site, &["favicon.svg".into()]), base);
        std::fs::write(dir.path().join("server/worker.js"), "worker 2").unwrap();
        assert_ne!(key(&bundle, &site, &[]), base);
    }
}

#[cfg(test)]
mod memo_tests {
    use std::path::Path;

    use stillpoint_content::load_site;

    use super::*;
    use crate::build::OutlineRecord;
    use crate::build::pages::WorkerScript;

    /// The outline inputs of `site` with everything else fixed.
    fn inputs<'a>(
        bundle: &'a WebBundle,
        worker: &'a str,
        site: &'a Site,
        recorded: Option<&'a OutlineRecord>,
    ) -> OutlineInputs<'a> {
        OutlineInputs { recorded, ..OutlineInputs::fixed(bundle, worker, site) }
    }

    #[test]
    fn a_memo_gives_the_key_computed_without_it_and_forgets_a_changed_file() {
        let dir = tempfile::tempdir().unwrap();
        let bundle = tests::bundle(dir.path());
        let mut site =
            load_site(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo")).unwrap();
        let worker = WorkerScript::read(&bundle).unwrap().key;
        let key = |site: &Site, memo: &mut OutlineMemo| {
            inputs(&bundle, &worker, site, None).key(memo).unwrap().key
        };
        let mut memo = OutlineMemo::default();
        let first = key(&site, &mut memo);
        assert_eq!(key(&site, &mut memo), first);
        // A changed file has another digest: its entry is encoded again.
        let a = std::sync::Arc::make_mut(&mut site.articles[0]);
        a.title.push('!');
        a.digest = stillpoint_fingerprint::Digest::of(b"changed");
        let retitled = key(&site, &mut memo);
        assert_ne!(retitled, first);
        assert_eq!(retitled, key(&site, &mut OutlineMemo::default()));
    }

    #[test]
    fn the_last_builds_record_gives_the_digests_of_articles_read_from_the_same_files() {
        let dir = tempfile::tempdir().unwrap();
        let bundle = tests::bundle(dir.path());
        let mut site =
            load_site(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/demo")).unwrap();
        let worker = WorkerScript::read(&bundle).unwrap().key;
        let outline = |site: &Site, recorded: Option<&OutlineRecord>| {
            inputs(&bundle, &worker, site, recorded).key(&mut OutlineMemo::default()).unwrap()
        };
        let first = outline(&site, None);
        let record = |o: &Outline| OutlineRecord {
            shown: o.shown.clone(),
            ids: o.ids.clone(),
            placements: o.placements.clone(),
            ..Default::default()
        };
        assert_eq!(outline(&site, Some(&record(&first))), first);
        // The record is what is used: a record that lies about an article is believed...
        let mut lying = record(&first);
        lying.placements[3] = [0; 16];
        assert_ne!(outline(&site, Some(&lying)).key, first.key);
        // ...but not for an article read from other bytes, at another place or with another date.
        let a = std::sync::Arc::make_mut(&mut site.articles[3]);
        a.title.push('!');
        a.digest = stillpoint_fingerprint::Digest::of(b"changed");
        let fresh = outline(&site, None);
        assert_ne!(fresh.key, first.key);
        assert_eq!(outline(&site, Some(&lying)), fresh);
        site.articles.swap(0, 1);
        assert_eq!(outline(&site, Some(&record(&first))), outline(&site, None));
        let a = std::sync::Arc::make_mut(&mut site.articles[5]);
        a.date = a.date.tomorrow().unwrap();
        assert_eq!(outline(&site, Some(&record(&first))), outline(&site, None));
    }
}
