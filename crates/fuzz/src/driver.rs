//! Running a fuzz target on stable Rust with proptest: the saved corpus first (every file of
//! `corpus/<target>/`), then generated inputs for the time budget (`FUZZ_SECONDS`; without it a
//! fixed, small number, so that a plain `cargo test` stays quick). An input that breaks the
//! property is shrunk by proptest and saved into the corpus as `crash-<digest>`, then the test
//! fails naming the file; `FUZZ_INPUT=<file>` replays that one file alone.

use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};
use sha2::{Digest, Sha256};

/// Generated inputs when no `FUZZ_SECONDS` is set.
const DEFAULT_CASES: u32 = 64;
/// Generated inputs per batch between looks at the clock.
const BATCH: u32 = 32;

/// How a target's inputs are stored in its corpus.
pub trait Codec<T> {
    fn encode(&self, value: &T) -> Vec<u8>;
    /// `None` when the file is not an input of this target.
    fn decode(&self, bytes: &[u8]) -> Option<T>;
}

/// Inputs that are bytes, stored as they are.
pub struct Raw;

impl Codec<Vec<u8>> for Raw {
    fn encode(&self, value: &Vec<u8>) -> Vec<u8> {
        value.clone()
    }
    fn decode(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        Some(bytes.to_vec())
    }
}

/// Inputs stored as JSON.
pub struct Json;

impl<T: serde::Serialize + serde::de::DeserializeOwned> Codec<T> for Json {
    fn encode(&self, value: &T) -> Vec<u8> {
        let mut out = serde_json::to_vec_pretty(value).expect("inputs serialise");
        out.push(b'\n');
        out
    }
    fn decode(&self, bytes: &[u8]) -> Option<T> {
        serde_json::from_slice(bytes).ok()
    }
}

/// One fuzz target: its name (the corpus folder) and how its inputs are stored.
pub struct Target<C> {
    pub name: &'static str,
    pub codec: C,
}

/// What a run did, for the summary line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub replayed: usize,
    pub generated: u64,
    pub seconds: f64,
}

impl<C> Target<C> {
    /// `crates/fuzz/corpus/<name>`.
    pub fn corpus(&self) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(self.name)
    }

    /// The corpus files, sorted by name.
    pub fn corpus_files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.corpus())
            .map(|dir| {
                dir.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_file()).collect()
            })
            .unwrap_or_default();
        files.sort();
        files
    }

    /// Every corpus input that decodes (seeds for the generators).
    pub fn seeds<T>(&self) -> Vec<T>
    where
        C: Codec<T>,
    {
        self.corpus_files()
            .iter()
            .filter_map(|p| std::fs::read(p).ok())
            .filter_map(|b| self.codec.decode(&b))
            .collect()
    }

    /// Replays the corpus, then fuzzes with `strategy` for the budget; panics on the first input
    /// that breaks `property` (a property that panics breaks it too).
    pub fn run<S>(
        &self,
        strategy: S,
        property: impl Fn(&S::Value) -> Result<(), TestCaseError>,
    ) -> Summary
    where
        S: Strategy,
        S::Value: Debug,
        C: Codec<S::Value>,
    {
        let started = Instant::now();
        let files = match std::env::var_os("FUZZ_INPUT") {
            Some(one) => vec![PathBuf::from(one)],
            None => self.corpus_files(),
        };
        let mut broken = Vec::new();
        for file in &files {
            let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let Some(input) = self.codec.decode(&bytes) else {
                broken.push(format!("{}: not an input of `{}`", file.display(), self.name));
                continue;
            };
            match catch_unwind(AssertUnwindSafe(|| property(&input))) {
                Ok(Ok(())) => {}
                Ok(Err(why)) => broken.push(format!("{}: {why}", file.display())),
                Err(_) => broken.push(format!("{}: panicked (see above)", file.display())),
            }
        }
        assert!(broken.is_empty(), "corpus inputs break `{}`:\n{}", self.name, broken.join("\n"));
        let mut generated = 0u64;
        if std::env::var_os("FUZZ_INPUT").is_none() {
            let budget = budget();
            let batch = if budget.is_some() { BATCH } else { DEFAULT_CASES };
            let config = Config {
                cases: batch,
                failure_persistence: None,
                max_shrink_iters: 4096,
                ..Config::default()
            };
            // A runner counts its successes for good: one per batch, each with its own RNG.
            let mut rngs = TestRunner::new(config.clone());
            loop {
                let mut runner = TestRunner::new_with_rng(config.clone(), rngs.new_rng());
                match runner.run(&strategy, |input| property(&input)) {
                    Ok(()) => generated += u64::from(batch),
                    Err(TestError::Fail(why, input)) => {
                        let saved = self.save(&input);
                        panic!(
                            "`{}` broken by a generated input, saved as {}:\n{why}\ninput: {input:?}",
                            self.name,
                            saved.display()
                        );
                    }
                    Err(TestError::Abort(why)) => panic!("`{}` aborted: {why}", self.name),
                }
                if budget.is_none_or(|b| started.elapsed() >= b) {
                    break;
                }
            }
        }
        let summary =
            Summary { replayed: files.len(), generated, seconds: started.elapsed().as_secs_f64() };
        eprintln!(
            "fuzz {}: {} corpus inputs, {} generated in {:.1} s ({:.0}/s)",
            self.name,
            summary.replayed,
            summary.generated,
            summary.seconds,
            summary.generated as f64 / summary.seconds.max(1e-9)
        );
        summary
    }

    /// Writes `input` into the corpus as `crash-<digest>`; returns its path.
    fn save<T>(&self, input: &T) -> PathBuf
    where
        C: Codec<T>,
    {
        let bytes = self.codec.encode(input);
        let digest = hex::encode(&Sha256::digest(&bytes)[..8]);
        let path = self.corpus().join(format!("crash-{digest}"));
        std::fs::create_dir_all(self.corpus()).expect("the corpus folder can be created");
        std::fs::write(&path, bytes).expect("the corpus is writable");
        path
    }
}

/// `FUZZ_SECONDS` (a number of seconds, fractions allowed), if set.
fn budget() -> Option<Duration> {
    let text = std::env::var("FUZZ_SECONDS").ok()?;
    let secs: f64 = text.trim().parse().unwrap_or_else(|_| panic!("FUZZ_SECONDS={text}"));
    Some(Duration::from_secs_f64(secs.max(0.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codecs_round_trip() {
        let bytes = vec![0u8, 255, b'\n'];
        assert_eq!(Raw.decode(&Raw.encode(&bytes)), Some(bytes));
        let pair = (String::from("a"), 7u32);
        let back: Option<(String, u32)> = Json.decode(&Json.encode(&pair));
        assert_eq!(back, Some(pair));
        assert_eq!(<Json as Codec<u32>>::decode(&Json, b"{not json"), None);
    }

    #[test]
    fn every_corpus_folder_exists_and_decodes() {
        let raw = |name| Target { name, codec: Raw };
        for name in ["content", "request"] {
            assert!(!raw(name).corpus_files().is_empty(), "corpus/{name} is empty");
        }
        let deploy = Target { name: "deploy", codec: Json };
        let files = deploy.corpus_files();
        assert!(!files.is_empty(), "corpus/deploy is empty");
        let decoded: Vec<serde_json::Value> = deploy.seeds();
        assert_eq!(decoded.len(), files.len(), "every deploy input is JSON");
    }
}
