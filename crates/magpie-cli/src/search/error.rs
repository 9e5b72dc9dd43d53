//! [`SearchError`]: everything that ends `magpie search` early, each shown as one line.

use std::fmt;

use magpie_search::apps::clique::DimacsError;

/// Why a search could not run.
#[derive(Debug)]
pub enum SearchError {
    /// Contradictory or unusable flags (exit status 2, as for clap's usage errors).
    Usage(String),
    /// The thread pool could not start (the operating system refused a thread).
    Pool(String),
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
    /// A run across ranks failed (on any rank); `print` is set on the rank that
    /// prints the line (rank 0) and has not printed it yet, so that a failure shows
    /// once.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    Distributed {
        /// The error line.
        message: String,
        /// Whether this process prints it.
        print: bool,
        /// The exit status: a usage error's 2 on the ranks that found it, 1 otherwise.
        exit_code: u8,
    },
}

impl SearchError {
    /// Whether this process should print the error (every process still fails).
    pub fn printed_here(&self) -> bool {
        !matches!(self, Self::Distributed { print: false, .. })
    }

    /// The exit status: 2 for a usage error, 1 for any other.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(_) => 2,
            Self::Distributed { exit_code, .. } => *exit_code,
            _ => 1,
        }
    }

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
            Self::Usage(message) | Self::Pool(message) => f.write_str(message),
            Self::WrongAnswer(known) => write!(f, "the answer differs from {known}"),
            // A reader's I/O error already names the file (`cannot read FILE: ...`): not
            // prefixed twice. (Any other reason is, even one that happens to contain the
            // name, as "line 3: `x` is not a number" contains a file called `n`.)
            Self::Input { input, reason }
                if reason.starts_with(&format!("cannot read {input}:")) =>
            {
                f.write_str(reason)
            }
            Self::Input { input, reason } => write!(f, "{input}: {reason}"),
            Self::Distributed { message, .. } => f.write_str(message),
        }
    }
}

impl std::error::Error for SearchError {}

impl From<(String, DimacsError)> for SearchError {
    fn from((input, error): (String, DimacsError)) -> Self {
        Self::input(input, error)
    }
}
