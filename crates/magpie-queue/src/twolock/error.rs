//! Error types of the two-lock queue: pushing to a closed queue, and blocking pops.

use core::fmt;

/// Push to a closed queue; carries back what could not be pushed (the item, or for
/// [`push_batch`](super::TwoLockQueue::push_batch) the untouched iterator).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PushError<T>(pub T);

impl<T> PushError<T> {
    /// The rejected item.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> fmt::Debug for PushError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PushError(..)")
    }
}

impl<T> fmt::Display for PushError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("push to a closed queue")
    }
}

impl<T> std::error::Error for PushError<T> {}

/// The queue is closed and has been drained: no item will ever arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Closed;

impl fmt::Display for Closed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("queue closed and empty")
    }
}

impl std::error::Error for Closed {}

/// Why [`pop_timeout`](super::TwoLockQueue::pop_timeout) returned without an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PopTimeoutError {
    /// The queue stayed empty for the whole timeout.
    Timeout,
    /// The queue is closed and has been drained.
    Closed,
}

impl From<Closed> for PopTimeoutError {
    fn from(_: Closed) -> Self {
        PopTimeoutError::Closed
    }
}

impl fmt::Display for PopTimeoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PopTimeoutError::Timeout => f.write_str("timed out waiting on an empty queue"),
            PopTimeoutError::Closed => Closed.fmt(f),
        }
    }
}

impl std::error::Error for PopTimeoutError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_display() {
        let e = PushError(vec![1u8]);
        assert_eq!(e.to_string(), "push to a closed queue");
        assert_eq!(format!("{e:?}"), "PushError(..)");
        assert_eq!(e.into_inner(), vec![1]);
        assert_eq!(Closed.to_string(), "queue closed and empty");
        assert_eq!(PopTimeoutError::from(Closed), PopTimeoutError::Closed);
        assert!(PopTimeoutError::Timeout.to_string().contains("timed out"));
        let _: &dyn std::error::Error = &PopTimeoutError::Closed;
    }
}
