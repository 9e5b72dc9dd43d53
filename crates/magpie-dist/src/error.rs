//! [`DistError`]: why a distributed run could not give an answer.

use std::fmt;

use crate::wire::DecodeError;

/// Why a distributed run failed. Every rank returns an error when any rank fails
/// before the search starts, so that all of them exit.
#[derive(Debug)]
pub enum DistError {
    /// A rank could not set up its part (typically: could not read the input).
    RankFailed {
        /// The first rank that failed.
        rank: usize,
        /// Its error line.
        message: String,
    },
    /// A message from another rank could not be decoded (ranks built from different
    /// versions, or a corrupted transport).
    Protocol(DecodeError),
    /// A rank's search thread ended without a result (it panicked), or the rank could
    /// not read a message: this rank, or another that told every rank so (`Failed`).
    SearchFailed {
        /// The rank whose search failed.
        rank: usize,
    },
    /// MPI could not be initialized (or was already).
    MpiInit,
}

impl fmt::Display for DistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DistError::RankFailed { rank, message } => write!(f, "rank {rank}: {message}"),
            DistError::Protocol(e) => write!(f, "{e}"),
            DistError::SearchFailed { rank } => write!(f, "rank {rank}: the search failed"),
            DistError::MpiInit => write!(f, "MPI could not be initialized"),
        }
    }
}

impl std::error::Error for DistError {}

impl From<DecodeError> for DistError {
    fn from(e: DecodeError) -> Self {
        DistError::Protocol(e)
    }
}
