//! Digests of build inputs, built part by part.

use serde::Serialize;
use sha2::{Digest, Sha256};

/// A digest built part by part (each part length-prefixed, so parts cannot run together).
pub struct Key(Sha256);

impl Key {
    pub fn new(seed: &str) -> Self {
        Self(Sha256::new()).part(seed.as_bytes())
    }
    pub fn part(mut self, bytes: &[u8]) -> Self {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }
    pub fn json(mut self, value: &impl Serialize) -> Self {
        let mut w = HashWriter(&mut self.0, 0);
        serde_json::to_writer(&mut w, value).expect("page inputs serialise");
        let n = w.1;
        self.0.update(n.to_le_bytes());
        self
    }
    pub fn finish(self) -> String {
        hex::encode(&self.0.finalize()[..16])
    }
}

struct HashWriter<'a>(&'a mut Sha256, u64);

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
