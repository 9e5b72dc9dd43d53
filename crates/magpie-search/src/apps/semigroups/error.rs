//! [`SemigroupError`]: why a genus or a set of gaps was rejected.

use std::fmt;

use super::semigroup::MAX_GENUS;

/// Why a semigroup search or a [`Semigroup`](super::Semigroup) could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SemigroupError {
    /// A genus above [`MAX_GENUS`], the largest the representation holds.
    GenusTooLarge {
        /// The genus asked for.
        genus: usize,
    },
    /// 0 was listed as a gap; it is always an element.
    ZeroGap,
    /// A gap listed twice.
    RepeatedGap {
        /// The gap.
        gap: usize,
    },
    /// A gap at or above twice the genus, which no numerical semigroup has.
    GapTooLarge {
        /// The gap.
        gap: usize,
        /// The number of gaps listed.
        genus: usize,
    },
    /// Two elements whose sum was listed as a gap: the complement is not closed
    /// under addition.
    NotClosed {
        /// The smaller element.
        left: usize,
        /// The larger element.
        right: usize,
    },
}

impl fmt::Display for SemigroupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::GenusTooLarge { genus } => {
                write!(f, "genus {genus} is above the supported maximum {MAX_GENUS}")
            }
            Self::ZeroGap => write!(f, "0 cannot be a gap of a numerical semigroup"),
            Self::RepeatedGap { gap } => write!(f, "gap {gap} is listed twice"),
            Self::GapTooLarge { gap, genus } => write!(
                f,
                "gap {gap} is not below twice the genus {genus}, so the gaps are not those of a numerical semigroup"
            ),
            Self::NotClosed { left, right } => write!(
                f,
                "{left} and {right} are elements but their sum {} is listed as a gap",
                left + right
            ),
        }
    }
}

impl std::error::Error for SemigroupError {}
