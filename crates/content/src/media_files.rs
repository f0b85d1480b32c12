//! The files articles name beside their text: audio recordings (`audio:`, `::audio` embeds) and
//! embed posters. The load checks each is there, reads each recording's kind and duration, and
//! gives it the content-addressed name it is published under (`media/{digest}-{name}`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use stillpoint_fingerprint::Digest;

use crate::article::Article;
use crate::audio::{AudioKind, read_audio};
use crate::embed::Provider;
use crate::error::{ContentError, ContentErrorKind};
use crate::site_file::{media_name, missing_file_hint, resolve_site_file};

/// A recording of the site, as the build publishes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteAudio {
    pub kind: AudioKind,
    /// The playing time in milliseconds.
    pub millis: u64,
    /// The file's size in bytes (an RSS enclosure's `length`).
    pub bytes: u64,
    /// The file's name in the output, under `media/`: `{16 hex digits of its SHA-256}-{name}`.
    pub name: String,
}

impl SiteAudio {
    /// Its URL on the site: `/media/{name}`.
    pub fn url(&self) -> String {
        format!("/media/{}", self.name)
    }

    /// Whole seconds, rounded to the nearest (at least 1).
    pub fn seconds(&self) -> u64 {
        (self.millis.saturating_add(500) / 1000).max(1)
    }

    /// Minutes, rounded to the nearest (at least 1): what a card shows, as the player's caption
    /// rounds.
    pub fn minutes(&self) -> u64 {
        (self.millis.saturating_add(30_000) / 60_000).max(1)
    }
}

/// One reference to a file, where it is written.
struct Use<'a> {
    article: &'a Article,
    line: u32,
    col: u32,
    audio: bool,
}

/// What [`check_media`] found.
#[derive(Default)]
pub(crate) struct Media {
    pub audio: BTreeMap<PathBuf, SiteAudio>,
    /// Embed posters: their name in the output under `media/` (`{digest}-{name}`).
    pub posters: BTreeMap<PathBuf, String>,
    pub errors: Vec<ContentError>,
}

/// Checks every file the articles name; returns the recordings and posters by site-relative
/// path, and an error for each reference to a file that is missing or is not what it must be.
pub(crate) fn check_media(root: &Path, articles: &[Arc<Article>]) -> Media {
    let mut uses: BTreeMap<PathBuf, Vec<Use>> = BTreeMap::new();
    for a in articles {
        if let Some(audio) = &a.audio {
            let u = Use { article: a, line: audio.line, col: audio.col, audio: true };
            uses.entry(audio.value.clone()).or_default().push(u);
        }
        for e in &a.embeds {
            let audio = (e.provider == Provider::Audio).then_some(&e.id);
            for (written, is_audio) in [(audio, true), (e.poster.as_ref(), false)] {
                if let Some(Ok(path)) = written.map(|w| resolve_site_file(&a.source, w)) {
                    let u = Use { article: a, line: e.line, col: e.col, audio: is_audio };
                    uses.entry(path).or_default().push(u);
                }
            }
        }
    }
    let audio_paths: BTreeSet<&PathBuf> =
        uses.iter().filter(|(_, us)| us.iter().any(|u| u.audio)).map(|(p, _)| p).collect();
    let read: Vec<(PathBuf, Result<SiteAudio, String>)> = audio_paths
        .par_iter()
        .filter(|p| root.join(p).is_file())
        .map(|p| ((*p).clone(), read_site_audio(&root.join(p), p)))
        .collect();
    let mut audio = BTreeMap::new();
    let mut errors = Vec::new();
    let mut bad: BTreeMap<PathBuf, String> = BTreeMap::new();
    for (path, r) in read {
        match r {
            Ok(a) => {
                audio.insert(path, a);
            }
            Err(m) => {
                bad.insert(path, m);
            }
        }
    }
    for (path, us) in &uses {
        let shown = path.display().to_string();
        for u in us {
            let at = |kind| ContentError::new(&u.article.source, u.line, u.col, kind);
            if !root.join(path).is_file() {
                let hint = missing_file_hint(root, path);
                errors
                    .push(at(ContentErrorKind::MissingMedia(shown.clone())).with_help(Some(hint)));
            } else if let (true, Some(message)) = (u.audio, bad.get(path)) {
                let kind = ContentErrorKind::InvalidAudio {
                    path: shown.clone(),
                    message: message.clone(),
                };
                errors.push(at(kind));
            }
        }
    }
    let posters = uses
        .iter()
        .filter(|(p, us)| us.iter().any(|u| !u.audio) && root.join(p).is_file())
        .filter_map(|(p, _)| {
            let bytes = std::fs::read(root.join(p)).ok()?;
            Some((p.clone(), media_name(&Digest::of(&bytes).short(16), p)))
        })
        .collect();
    Media { audio, posters, errors }
}

fn read_site_audio(file: &Path, rel: &Path) -> Result<SiteAudio, String> {
    let info = read_audio(file)?;
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read the file: {e}"))?;
    let digest = Digest::of(&bytes).short(16);
    Ok(SiteAudio {
        kind: info.kind,
        millis: info.millis,
        bytes: bytes.len() as u64,
        name: media_name(&digest, rel),
    })
}

#[cfg(test)]
mod tests {
    use std::fs;

    use crate::publish::Publish;
    use crate::test_site::demo_copy;

    fn fixture(name: &str) -> Vec<u8> {
        fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/audio").join(name))
            .unwrap()
    }

    const ARTICLE: &str = "---\ntitle: Evening\nslug: evening-sit\ndate: 2025-01-02\naudio: evening.m4a\nentities:\n  - category: anxietyManagement\n---\nIntro.\n\n::audio[Body scan]{src=/audio/scan.opus}\n\n::youtube[Rain]{id=dQw4w9WgXcQ poster=poster.jpg}\n";

    #[test]
    fn recordings_are_read_and_named_by_their_bytes() {
        let dir = demo_copy();
        let root = dir.path();
        fs::create_dir_all(root.join("articles/evening")).unwrap();
        fs::create_dir_all(root.join("static/audio")).unwrap();
        fs::write(root.join("articles/evening/index.md"), ARTICLE).unwrap();
        fs::write(root.join("articles/evening/evening.m4a"), fixture("speech.m4a")).unwrap();
        fs::write(root.join("articles/evening/poster.jpg"), b"jpeg").unwrap();
        fs::write(root.join("static/audio/scan.opus"), fixture("speech.opus")).unwrap();
        let (site, diag) = crate::load_site_partial(root, &Publish::at_clock());
        assert!(diag.is_empty(), "{diag:?}");
        let site = site.unwrap();
        let a = site.articles.iter().find(|a| a.slug == "evening-sit").unwrap();
        let rec = site.audio_of(a).unwrap();
        assert_eq!((rec.kind.mime(), rec.seconds(), rec.minutes()), ("audio/mp4", 2, 1));
        assert!(rec.url().starts_with("/media/") && rec.url().ends_with("-evening.m4a"));
        assert_eq!(rec.name.len(), 16 + "-evening.m4a".len());
        assert_eq!(rec.bytes, fixture("speech.m4a").len() as u64);
        let scan = site.embed_audio(a, "/audio/scan.opus").unwrap();
        assert_eq!(scan.kind.mime(), "audio/ogg");
        assert_eq!(a.embeds.len(), 2);
        assert_eq!(a.embeds[1].line, 13);
    }

    #[test]
    fn missing_and_bad_files_are_errors_at_their_line() {
        let dir = demo_copy();
        let root = dir.path();
        fs::create_dir_all(root.join("articles/evening")).unwrap();
        fs::write(root.join("articles/evening/index.md"), ARTICLE).unwrap();
        fs::write(root.join("articles/evening/evenin.m4a"), b"").unwrap();
        fs::create_dir_all(root.join("static/audio")).unwrap();
        fs::write(root.join("static/audio/scan.opus"), b"not audio at all").unwrap();
        let (_, diag) = crate::load_site_partial(root, &Publish::at_clock());
        let shown: Vec<String> = diag.iter().map(|e| format!("{e} | {}", e.hint())).collect();
        insta::assert_snapshot!(shown.join("\n"));
    }
}
