//! [`KnapsackError`]: why a knapsack instance could not be read.

use std::fmt;
use std::path::PathBuf;

/// Why a knapsack file could not be read. Line numbers are 1-based.
#[derive(Debug)]
pub enum KnapsackError {
    /// The file could not be opened or read.
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The text ends before its header (the capacity, and the item count or the
    /// stated optimum) is complete.
    MissingHeader,
    /// A line with the wrong number of fields.
    MalformedLine {
        /// The line.
        line: usize,
        /// What the line should hold.
        expected: &'static str,
    },
    /// A field that is not a decimal number (or, for the item count, not an integer).
    MalformedNumber {
        /// The line.
        line: usize,
        /// The field as written.
        token: String,
    },
    /// An item with a negative profit (or a negative stated optimum).
    NegativeProfit {
        /// The line.
        line: usize,
    },
    /// An item whose weight is zero or negative.
    NonPositiveWeight {
        /// The line.
        line: usize,
    },
    /// A negative capacity.
    NegativeCapacity {
        /// The line.
        line: usize,
    },
    /// The number of items differs from the count in the header.
    CountMismatch {
        /// The header line that declares the count.
        line: usize,
        /// The count in the header.
        declared: usize,
        /// The number of item lines.
        found: usize,
    },
    /// A row of Pisinger's format whose item number is not its position.
    ItemNumber {
        /// The line.
        line: usize,
        /// The number the row should carry (1-based).
        expected: usize,
        /// The number as written.
        found: String,
    },
    /// A value of the optimal packing stated in the file (the `x` column, or the
    /// final 0/1 line) that is not 0 or 1.
    BadSolutionValue {
        /// The line.
        line: usize,
        /// The value as written.
        token: String,
    },
    /// A final 0/1 line with a value count other than the number of items.
    SolutionLength {
        /// The line.
        line: usize,
        /// The number of items.
        items: usize,
        /// The number of values on the line.
        found: usize,
    },
    /// The optimal packing stated in the file is heavier than the capacity.
    InfeasibleSolution {
        /// Where the packing's running weight first exceeds the capacity: the row of
        /// that item (an `x` column) or the final 0/1 line.
        line: usize,
    },
    /// No items.
    EmptyInstance,
    /// A number, the capacity or a running total of profits or weights does not fit
    /// in 64 bits once scaled to the file's largest number of decimals (or has more
    /// than [`MAX_DECIMALS`](super::MAX_DECIMALS) decimals).
    Overflow {
        /// The line.
        line: usize,
    },
}

impl fmt::Display for KnapsackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, source } => write!(f, "cannot read {}: {source}", path.display()),
            Self::MissingHeader => write!(f, "the file ends before its header is complete"),
            Self::MalformedLine { line, expected } => {
                write!(f, "line {line}: expected {expected}")
            }
            Self::MalformedNumber { line, token } => {
                write!(f, "line {line}: `{token}` is not a number")
            }
            Self::NegativeProfit { line } => write!(f, "line {line}: negative profit"),
            Self::NonPositiveWeight { line } => {
                write!(f, "line {line}: weights must be positive")
            }
            Self::NegativeCapacity { line } => write!(f, "line {line}: negative capacity"),
            Self::CountMismatch {
                line,
                declared,
                found,
            } => write!(
                f,
                "line {line}: the header declares {declared} items but {found} follow"
            ),
            Self::ItemNumber {
                line,
                expected,
                found,
            } => write!(f, "line {line}: item number `{found}`, expected {expected}"),
            Self::BadSolutionValue { line, token } => write!(
                f,
                "line {line}: `{token}` in the stated optimal packing is not 0 or 1"
            ),
            Self::SolutionLength { line, items, found } => write!(
                f,
                "line {line}: the stated optimal packing has {found} values for {items} items"
            ),
            Self::InfeasibleSolution { line } => write!(
                f,
                "line {line}: the stated optimal packing is heavier than the capacity"
            ),
            Self::EmptyInstance => write!(f, "the instance has no items"),
            Self::Overflow { line } => write!(
                f,
                "line {line}: number or total too large (or too precise) for 64-bit fixed point"
            ),
        }
    }
}

impl std::error::Error for KnapsackError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
