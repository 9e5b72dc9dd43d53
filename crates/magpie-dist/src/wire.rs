//! The messages ranks exchange and their encoding (postcard: compact, varint lengths).
//!
//! One message type per search: `N` is the search space's node, `R` what a rank
//! reports at the end (its share of the answer and its statistics).
//!
//! Every message is stamped with the number of the search it belongs to (the n-th
//! search on a [`Cluster`](crate::Cluster), the same on every rank), and a rank drops
//! messages of any other search. Without the stamp, a message of a search that ended
//! (a `Bound` or `Load` sent just before the end, delivered after `Exit` over another
//! route) would be read by the next search on the same cluster: a stale bound could
//! prune away its optimum.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::policy::RankLoad;
use crate::termination::Token;

/// A message between ranks.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub enum Message<N, R> {
    /// Before the search: whether this rank read its input (the error line if not).
    Ready(Result<(), String>),
    /// Rank 0's verdict on the `Ready` round: start, or the first rank's error.
    Start(Result<(), (usize, String)>),
    /// An idle rank asks for work.
    StealRequest,
    /// The reply to a steal request: unexplored subtrees with their depths, or none
    /// (a refusal).
    Work(Vec<(N, usize)>),
    /// A better incumbent value (its order-preserving bits) for everyone's pruning.
    Bound(u64),
    /// A decision search found a witness: everyone stops.
    Stop,
    /// A node policy's refresher asks for the receiver's load.
    Probe,
    /// The reply to a `Probe`.
    Load(RankLoad),
    /// Safra's termination token.
    Token(Token),
    /// Rank 0 detected termination: stop asking for work and report.
    Done,
    /// After `Done`, once this rank's own steal requests are answered: its report.
    Quiet(R),
    /// Every rank is quiet: end.
    Exit,
    /// The sender's search thread ended without a result (it panicked): every rank
    /// ends the run with [`DistError::SearchFailed`](crate::DistError::SearchFailed).
    Failed,
}

/// Why a message could not be decoded.
#[derive(Debug)]
pub struct DecodeError(postcard::Error);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "undecodable message: {}", self.0)
    }
}

impl std::error::Error for DecodeError {}

impl<N: Serialize + DeserializeOwned, R: Serialize + DeserializeOwned> Message<N, R> {
    /// The message's bytes, stamped with the number of the search it belongs to.
    pub fn encode(&self, search: u32) -> Vec<u8> {
        // Encoding into a Vec fails only if serialization itself does, which the
        // derived implementations of our node types never do.
        let body = postcard::to_allocvec(self).expect("a message always serializes");
        let mut bytes = Vec::with_capacity(4 + body.len());
        bytes.extend_from_slice(&search.to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    }

    /// The number of the search `bytes` belong to, and the message.
    pub fn decode(bytes: &[u8]) -> Result<(u32, Self), DecodeError> {
        let (search, message) = bytes
            .split_first_chunk::<4>()
            .ok_or(DecodeError(postcard::Error::DeserializeUnexpectedEnd))?;
        let message = postcard::from_bytes(message).map_err(DecodeError)?;
        Ok((u32::from_le_bytes(*search), message))
    }
}

/// Round-trips `value` through the wire encoding (for the apps' node tests).
pub fn round_trip<T: Serialize + DeserializeOwned>(value: &T) -> Result<T, DecodeError> {
    let bytes = postcard::to_allocvec(value).map_err(DecodeError)?;
    postcard::from_bytes(&bytes).map_err(DecodeError)
}
