//! The outcome of a steal attempt.

/// What a steal attempt found.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Steal<T> {
    /// Nothing could be stolen: no granted block holds an item.
    Empty,
    /// Another thief or the owner won a race for the same entries; trying again may succeed.
    Retry,
    /// The stolen value (an item, or for batch steals the number of items moved).
    Success(T),
}

impl<T> Steal<T> {
    /// `true` for [`Steal::Empty`].
    pub fn is_empty(&self) -> bool {
        matches!(self, Steal::Empty)
    }

    /// `true` for [`Steal::Retry`].
    pub fn is_retry(&self) -> bool {
        matches!(self, Steal::Retry)
    }

    /// `true` for [`Steal::Success`].
    pub fn is_success(&self) -> bool {
        matches!(self, Steal::Success(_))
    }

    /// The stolen value, if any.
    pub fn success(self) -> Option<T> {
        match self {
            Steal::Success(v) => Some(v),
            _ => None,
        }
    }

    /// Maps the stolen value.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Steal<U> {
        match self {
            Steal::Empty => Steal::Empty,
            Steal::Retry => Steal::Retry,
            Steal::Success(v) => Steal::Success(f(v)),
        }
    }

    /// If this is not a success, tries `f`; keeps `Retry` if either attempt asked for one,
    /// like `crossbeam_deque::Steal::or_else`.
    pub fn or_else(self, f: impl FnOnce() -> Steal<T>) -> Steal<T> {
        match self {
            Steal::Success(v) => Steal::Success(v),
            Steal::Empty => f(),
            Steal::Retry => match f() {
                Steal::Success(v) => Steal::Success(v),
                _ => Steal::Retry,
            },
        }
    }
}
