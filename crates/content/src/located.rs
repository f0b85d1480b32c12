//! Where something was written in a source file.

use serde::{Deserialize, Serialize};

/// A value with the 1-based line and column it was written at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Located<T> {
    pub value: T,
    pub line: u32,
    pub col: u32,
}
