//! Page keys: digests of build inputs, built part by part (`stillpoint_fingerprint::Digester`).

use serde::Serialize;
use stillpoint_fingerprint::{Digest, Digester};

/// A digest built part by part (each part length-prefixed, so parts cannot run together).
pub struct Key(Digester);

impl Key {
    pub fn new(seed: &str) -> Self {
        Self(Digester::new()).part(seed.as_bytes())
    }

    pub fn part(mut self, bytes: &[u8]) -> Self {
        self.0.part(bytes);
        self
    }

    /// Adds `value` as JSON, serialised into a buffer kept per thread and hashed at once:
    /// serde writes token by token, and hashing each token apart costs more than the copy.
    pub fn json(mut self, value: &impl Serialize) -> Self {
        JSON.with_borrow_mut(|buf| {
            buf.clear();
            serde_json::to_writer(&mut *buf, value).expect("page inputs serialise");
            self.0.part(buf);
        });
        self
    }

    pub fn finish(self) -> String {
        self.digest().to_string()
    }

    /// The key as its 16 bytes (what the build cache keeps for each page).
    pub fn digest(self) -> Digest {
        self.0.finish()
    }
}

thread_local! {
    static JSON: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
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
