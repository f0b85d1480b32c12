//! Audio files of the site (`audio:` front matter, `::audio` embeds): which kind each is, read
//! from its bytes, and its duration, read from the container's headers with symphonia (only the
//! MP4, MP3 and Ogg demuxers are built in; nothing is decoded).
//!
//! Opus in Ogg: the duration is the last page's granule position less the stream's pre-skip, at
//! 48 kHz (RFC 7845 §4), read from the file directly (symphonia's Ogg reader is used to check
//! that the stream is Opus or Vorbis).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use symphonia::core::codecs::CodecParameters;
use symphonia::core::formats::probe::Hint;
use symphonia::core::formats::{FormatOptions, FormatReader, TrackType};
use symphonia::core::io::{MediaSourceStream, MediaSourceStreamOptions};
use symphonia::core::meta::MetadataOptions;

/// The file name endings an audio file may have, with what each must contain.
pub const AUDIO_EXTENSIONS: &[&str] = &["m4a", "mp3", "opus", "ogg"];

/// The container of an audio file, as found in its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AudioKind {
    /// AAC in MP4 (`.m4a`).
    Mp4,
    Mp3,
    /// Opus or Vorbis in Ogg (`.opus`, `.ogg`).
    Ogg,
}

impl AudioKind {
    /// The MIME type of the file (an `<audio>` source, an RSS enclosure).
    pub fn mime(self) -> &'static str {
        match self {
            Self::Mp4 => "audio/mp4",
            Self::Mp3 => "audio/mpeg",
            Self::Ogg => "audio/ogg",
        }
    }
}

/// What the build needs of an audio file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AudioInfo {
    pub kind: AudioKind,
    /// The playing time in milliseconds.
    pub millis: u64,
}

impl AudioInfo {
    /// Whole seconds, rounded to the nearest (at least 1).
    pub fn seconds(&self) -> u64 {
        (self.millis.saturating_add(500) / 1000).max(1)
    }
}

/// The longest recording accepted: a duration beyond it is a corrupt header.
const MAX_MILLIS: u64 = 24 * 3600 * 1000;

/// Reads the kind and duration of the audio file at `path`. The error says what is wrong with
/// the file in words (the caller names the file).
pub fn read_audio(path: &Path) -> Result<AudioInfo, String> {
    let ext =
        path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    if !AUDIO_EXTENSIONS.contains(&ext.as_str()) {
        return Err(format!(
            "not an audio file Stillpoint publishes: use .{}",
            AUDIO_EXTENSIONS.join(", .")
        ));
    }
    let file = File::open(path).map_err(|e| format!("cannot read the file: {e}"))?;
    // A demuxer that panics on a malformed file must not take the build down with it.
    let info = std::panic::catch_unwind(|| probe(file, &ext))
        .map_err(|_| "not a readable audio file (the reader failed on it)".to_string())??;
    let expected = match ext.as_str() {
        "m4a" => AudioKind::Mp4,
        "mp3" => AudioKind::Mp3,
        _ => AudioKind::Ogg,
    };
    if info.kind != expected {
        return Err(format!(
            "the file is {} but is named .{ext}: rename it",
            match info.kind {
                AudioKind::Mp4 => "MP4 audio (.m4a)",
                AudioKind::Mp3 => "MP3 (.mp3)",
                AudioKind::Ogg => "Ogg audio (.ogg or .opus)",
            }
        ));
    }
    if info.millis == 0 {
        return Err("the recording is empty (no audio in it)".into());
    }
    if info.millis > MAX_MILLIS {
        return Err(
            "the duration in the file's header is not believable: the file is corrupt".into()
        );
    }
    Ok(info)
}

fn probe(file: File, ext: &str) -> Result<AudioInfo, String> {
    let mut opus_file = file.try_clone().map_err(|e| format!("cannot read the file: {e}"))?;
    let mss = MediaSourceStream::new(Box::new(file), MediaSourceStreamOptions::default());
    let mut hint = Hint::new();
    hint.with_extension(ext);
    let not_audio = |e: symphonia::core::errors::Error| {
        match e {
        symphonia::core::errors::Error::Unsupported(_) => {
            "not a readable audio file (.m4a, .mp3, .opus or .ogg): no audio format recognised in its bytes".to_string()
        }
        e => format!("not a readable audio file (.m4a, .mp3, .opus or .ogg): {e}"),
    }
    };
    let mut reader = symphonia::default::get_probe()
        .probe(&hint, mss, FormatOptions::default(), MetadataOptions::default())
        .map_err(not_audio)?;
    let kind = match reader.format_info().short_name {
        "isomp4" => AudioKind::Mp4,
        "mp3" | "mpa" => AudioKind::Mp3,
        "ogg" => AudioKind::Ogg,
        other => return Err(format!("a {other} file, not audio Stillpoint publishes")),
    };
    let track =
        reader.default_track(TrackType::Audio).ok_or("the file has no audio track")?.clone();
    let Some(CodecParameters::Audio(params)) = &track.codec_params else {
        return Err("the file has no audio track".into());
    };
    let is_opus = params.codec == symphonia::core::codecs::audio::well_known::CODEC_ID_OPUS;
    if kind == AudioKind::Ogg && is_opus {
        return opus_millis(&mut opus_file).map(|millis| AudioInfo { kind, millis });
    }
    let from_header = match (track.time_base, track.duration) {
        (Some(tb), Some(d)) => tb.calc_duration(d).map(|t| time_millis(t.as_secs_f64())),
        _ => None,
    };
    let from_frames = match (track.num_frames, params.sample_rate) {
        (Some(n), Some(rate)) if rate > 0 => Some(n.saturating_mul(1000) / u64::from(rate)),
        _ => None,
    };
    let millis = match from_header.or(from_frames) {
        Some(m) if m > 0 => m,
        _ => packets_millis(&mut *reader, track.id, track.time_base)?,
    };
    Ok(AudioInfo { kind, millis })
}

fn time_millis(secs: f64) -> u64 {
    if secs.is_finite() && secs > 0.0 { (secs * 1000.0).round() as u64 } else { 0 }
}

/// The duration as the sum of the packets' durations: for a stream whose headers give none (an
/// MP3 without a Xing or VBRI frame). Only demuxed, never decoded.
fn packets_millis(
    reader: &mut dyn FormatReader,
    track: u32,
    time_base: Option<symphonia::core::units::TimeBase>,
) -> Result<u64, String> {
    let tb = time_base.ok_or("the file gives no time base for its audio")?;
    let mut total: u64 = 0;
    loop {
        match reader.next_packet() {
            Ok(Some(p)) if p.track_id == track => total = total.saturating_add(p.dur.get()),
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(symphonia::core::errors::Error::IoError(e))
                if e.kind() == std::io::ErrorKind::UnexpectedEof =>
            {
                break;
            }
            Err(e) => return Err(format!("the audio is corrupt: {e}")),
        }
    }
    let time =
        tb.calc_duration(total.into()).ok_or("the duration overflows: the file is corrupt")?;
    Ok(time_millis(time.as_secs_f64()))
}

/// The size of the tail searched for the last Ogg page: a page is at most 65,307 bytes.
const OGG_TAIL: u64 = 65_536 + 27 + 255;

/// Opus in Ogg: (last granule position − pre-skip) / 48 kHz.
fn opus_millis(file: &mut File) -> Result<u64, String> {
    let io = |e: std::io::Error| format!("cannot read the file: {e}");
    // The handle shares its position with the one the demuxer read.
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut head = [0u8; 512];
    let n = read_up_to(file, &mut head).map_err(io)?;
    let head = &head[..n];
    let at = find(head, b"OpusHead").ok_or("an Ogg file without an Opus header: corrupt")?;
    let pre_skip = head
        .get(at + 10..at + 12)
        .map(|b| u64::from(u16::from_le_bytes([b[0], b[1]])))
        .ok_or("the Opus header is cut short: the file is truncated")?;
    let len = file.seek(SeekFrom::End(0)).map_err(io)?;
    let start = len.saturating_sub(OGG_TAIL);
    file.seek(SeekFrom::Start(start)).map_err(io)?;
    let mut tail = Vec::with_capacity((len - start) as usize);
    file.take(OGG_TAIL).read_to_end(&mut tail).map_err(io)?;
    // The last page whose header is whole and gives a granule position (−1: no packet ends there).
    let mut granule = None;
    let mut from = 0;
    while let Some(i) = find(&tail[from..], b"OggS").map(|i| i + from) {
        if let Some(g) = tail.get(i + 6..i + 14) {
            let g = i64::from_le_bytes(g.try_into().expect("8 bytes"));
            if g >= 0 {
                granule = Some(g as u64);
            }
        }
        from = i + 4;
    }
    let granule = granule.ok_or("no Ogg page with a position at the end: the file is truncated")?;
    Ok(granule.saturating_sub(pre_skip) * 1000 / 48_000)
}

fn read_up_to(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/audio").join(name)
    }

    /// Within 60 ms of what ffprobe says of the fixtures.
    fn near(info: AudioInfo, ffprobe_millis: u64) {
        assert!(info.millis.abs_diff(ffprobe_millis) <= 60, "{} vs {ffprobe_millis}", info.millis);
        assert_eq!(info.seconds(), 2);
    }

    #[test]
    fn reads_the_duration_of_each_kind() {
        let m4a = read_audio(&fixture("speech.m4a")).unwrap();
        assert_eq!(m4a.kind, AudioKind::Mp4);
        near(m4a, 1985);
        let mp3 = read_audio(&fixture("speech.mp3")).unwrap();
        assert_eq!(mp3.kind, AudioKind::Mp3);
        near(mp3, 1939);
        let opus = read_audio(&fixture("speech.opus")).unwrap();
        assert_eq!(opus.kind, AudioKind::Ogg);
        near(opus, 1933);
        assert_eq!(AudioKind::Ogg.mime(), "audio/ogg");
    }

    fn with_bytes(name: &str, bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        (dir, path)
    }

    #[test]
    fn bad_files_are_errors_never_panics() {
        let text =
            with_bytes("x.m4a", b"this is not audio at all, only text\n".repeat(50).as_slice());
        assert!(read_audio(&text.1).unwrap_err().contains("not a readable audio file"));
        let empty = with_bytes("x.mp3", b"");
        assert!(read_audio(&empty.1).is_err());
        let png = with_bytes("x.ogg", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
        assert!(read_audio(&png.1).is_err());
        for name in ["speech.m4a", "speech.mp3", "speech.opus"] {
            let bytes = std::fs::read(fixture(name)).unwrap();
            for cut in [16, 100, bytes.len() / 3] {
                let ext = name.rsplit('.').next().unwrap();
                let (_d, path) = with_bytes(&format!("cut.{ext}"), &bytes[..cut]);
                // Either an error, or (a stream cut after its headers) a shorter duration.
                if let Ok(info) = read_audio(&path) {
                    assert!(info.millis <= 2000, "{name} cut at {cut}: {info:?}");
                }
            }
            let mut garbled = bytes.clone();
            for b in garbled.iter_mut().skip(64).step_by(7) {
                *b ^= 0x5a;
            }
            let ext = name.rsplit('.').next().unwrap();
            let (_d, path) = with_bytes(&format!("garbled.{ext}"), &garbled);
            let _ = read_audio(&path);
        }
    }

    #[test]
    fn names_and_contents_must_agree() {
        let bytes = std::fs::read(fixture("speech.mp3")).unwrap();
        let (_d, path) = with_bytes("speech.m4a", &bytes);
        assert!(read_audio(&path).unwrap_err().contains("is MP3 (.mp3) but is named .m4a"));
        let (_d, path) = with_bytes("speech.wav", &bytes);
        assert!(read_audio(&path).unwrap_err().contains("use .m4a, .mp3, .opus, .ogg"));
    }
}
