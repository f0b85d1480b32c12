//! Digests of build inputs, built part by part: 128-bit XXH3, which tells inputs apart as
//! surely as the build needs (they are the site's own files, not an adversary's) at a tenth of
//! SHA-256's cost.

use serde::Serialize;
use xxhash_rust::xxh3::Xxh3;

/// A digest built part by part (each part length-prefixed, so parts cannot run together).
pub struct Key(Xxh3);

impl Key {
    pub fn new(seed: &str) -> Self {
        Self(Xxh3::new()).part(seed.as_bytes())
    }
    pub fn part(mut self, bytes: &[u8]) -> Self {
        self.0.update(&(bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }
    pub fn json(mut self, value: &impl Serialize) -> Self {
        let mut w = HashWriter(&mut self.0, 0);
        serde_json::to_writer(&mut w, value).expect("page inputs serialise");
        let n = w.1;
        self.0.update(&n.to_le_bytes());
        self
    }
    pub fn finish(self) -> String {
        format!("{:032x}", self.0.digest128())
    }
}

struct HashWriter<'a>(&'a mut Xxh3, u64);

impl std::io::Write for HashWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        self.1 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Key;

    #[test]
    fn key_parts_cannot_run_together() {
        let a = Key::new("s").part(b"ab").part(b"c").finish();
        let b = Key::new("s").part(b"a").part(b"bc").finish();
        assert_ne!(a, b);
        assert_eq!(a, Key::new("s").part(b"ab").part(b"c").finish());
        assert_ne!(Key::new("s").json(&["a"]).finish(), Key::new("t").json(&["a"]).finish());
    }
}
