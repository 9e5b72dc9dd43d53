//! [`SearchError`]: everything that ends `magpie search` early, each shown as one line.

use std::fmt;

use magpie_search::apps::clique::DimacsError;

/// Why a search could not run.
#[derive(Debug)]
pub enum SearchError {
    /// Contradictory or unusable flags.
    Usage(String),
    /// The search's answer differs from the answer the input states (a bug, or a
    /// wrong instance file).
    WrongAnswer(String),
    /// The input (file or parameters) could not be read; `input` names it.
    Input {
        /// The file or parameter string.
        input: String,
        /// What is wrong with it (one line).
        reason: String,
    },
}

impl SearchError {
    /// An input error from any application's typed error.
    pub fn input(input: impl Into<String>, reason: impl fmt::Display) -> Self {
        Self::Input {
            input: input.into(),
            reason: reason.to_string(),
        }
    }
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage(message) => f.write_str(message),
            Self::WrongAnswer(known) => write!(f, "the answer differs from {known}"),
            // Readers that already name the file are not prefixed twice.
            Self::Input { input, reason } if reason.contains(input.as_str()) => f.write_str(reason),
            Self::Input { input, reason } => write!(f, "{input}: {reason}"),
        }
    }
}

impl std::error::Error for SearchError {}

impl From<(String, DimacsError)> for SearchError {
    fn from((input, error): (String, DimacsError)) -> Self {
        Self::input(input, error)
    }
}
