//! [`UtsParamsError`]: why a tree description was rejected.

use std::fmt;

/// Why a UTS tree description could not be parsed or its parameters are invalid.
#[derive(Clone, Debug, PartialEq)]
pub enum UtsParamsError {
    /// The description is empty.
    Empty,
    /// A name without `=` that is not a preset.
    UnknownPreset(String),
    /// A key that is not one of `t a d b r q m`.
    UnknownKey(String),
    /// A key given twice.
    RepeatedKey(String),
    /// `key` or `key=` without a value.
    MissingValue(String),
    /// A value that is not a number of the key's kind.
    BadNumber {
        /// The key.
        key: String,
        /// The value as written.
        value: String,
    },
    /// A `t` code other than 0 to 3.
    UnknownTreeType(u32),
    /// An `a` code other than 0 to 3.
    UnknownShape(u32),
    /// A root branching factor `b` that is negative, infinite or NaN.
    BadBranchingFactor(f64),
    /// A geometric `expdec` tree (`t=1,a=1`) with `d=0` and this `b > 1`: infinite.
    InfiniteExpDec(f64),
    /// A probability `q` outside `[0, 1]`.
    BadProbability(f64),
}

impl fmt::Display for UtsParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "empty UTS tree description"),
            Self::UnknownPreset(name) => write!(
                f,
                "unknown UTS tree `{name}`: expected a preset (default, T1 to T5) or key=value pairs such as t=1,a=3,d=10,b=4,r=19"
            ),
            Self::UnknownKey(key) => write!(
                f,
                "unknown UTS parameter `{key}`: expected t, a, d, b, r, q or m"
            ),
            Self::RepeatedKey(key) => write!(f, "UTS parameter `{key}` is given twice"),
            Self::MissingValue(key) => write!(f, "UTS parameter `{key}` has no value"),
            Self::BadNumber { key, value } => {
                write!(f, "UTS parameter `{key}`: `{value}` is not a valid number")
            }
            Self::UnknownTreeType(code) => write!(
                f,
                "UTS tree type t={code} is not 0 (binomial), 1 (geometric), 2 (hybrid) or 3 (balanced)"
            ),
            Self::UnknownShape(code) => write!(
                f,
                "UTS shape a={code} is not 0 (linear), 1 (expdec), 2 (cyclic) or 3 (fixed)"
            ),
            Self::BadBranchingFactor(b) => write!(
                f,
                "UTS branching factor b={b} is not a finite number >= 0"
            ),
            Self::InfiniteExpDec(b) => write!(
                f,
                "UTS expdec tree with d=0 and b={b} is infinite (every level keeps b children on average): use d >= 1"
            ),
            Self::BadProbability(q) => write!(f, "UTS probability q={q} is not within [0, 1]"),
        }
    }
}

impl std::error::Error for UtsParamsError {}
