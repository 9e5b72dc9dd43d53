//! The error of [`by_name`](super::by_name).

use core::fmt;

use super::NAMES;

/// A policy name that [`by_name`](super::by_name) does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPolicy {
    name: String,
}

impl UnknownPolicy {
    pub(super) fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
        }
    }

    /// The name that was asked for.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for UnknownPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown victim policy `{}` (valid: {})",
            self.name,
            NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownPolicy {}
