//! [`TsplibError`]: why a TSPLIB file could not be read.

use std::fmt;
use std::path::PathBuf;

/// Why a TSPLIB file could not be read. Line numbers are 1-based; cities are
/// numbered from 1 as in the file.
#[derive(Debug)]
pub enum TsplibError {
    /// The file could not be opened or read.
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A line that is neither `KEY: value`, a section name, `EOF` nor data.
    MalformedLine {
        /// The line.
        line: usize,
    },
    /// A keyword this reader does not know.
    UnknownKeyword {
        /// The line.
        line: usize,
        /// The keyword as written.
        keyword: String,
    },
    /// A `TYPE`, `EDGE_WEIGHT_TYPE`, `EDGE_WEIGHT_FORMAT` or `NODE_COORD_TYPE`
    /// value that is not supported (or contradicts the others).
    Unsupported {
        /// The line.
        line: usize,
        /// The keyword.
        keyword: String,
        /// Its value.
        value: String,
    },
    /// A required keyword (`DIMENSION`, `EDGE_WEIGHT_TYPE`, or `EDGE_WEIGHT_FORMAT`
    /// for explicit weights) is missing.
    MissingKeyword {
        /// The keyword.
        keyword: &'static str,
    },
    /// The data section the edge weight type needs is missing.
    MissingSection {
        /// The section.
        section: &'static str,
    },
    /// `DIMENSION` below 2: no tour to speak of.
    DimensionTooSmall {
        /// The line.
        line: usize,
        /// The dimension given.
        dimension: usize,
    },
    /// `DIMENSION` above [`MAX_CITIES`](super::MAX_CITIES).
    TooManyCities {
        /// The line.
        line: usize,
        /// The dimension given.
        dimension: usize,
    },
    /// A field that is not a number of the expected kind.
    MalformedNumber {
        /// The line.
        line: usize,
        /// The field as written.
        token: String,
    },
    /// A node number outside `1..=DIMENSION`, or given twice.
    BadNodeNumber {
        /// The line.
        line: usize,
        /// The number as written.
        node: usize,
    },
    /// `NODE_COORD_SECTION` does not list exactly `DIMENSION` nodes.
    CoordinateCount {
        /// The line of the section header.
        line: usize,
        /// `DIMENSION`.
        expected: usize,
        /// The nodes listed.
        found: usize,
    },
    /// `EDGE_WEIGHT_SECTION` does not hold exactly the weights its format needs.
    WeightCount {
        /// The line of the section header.
        line: usize,
        /// The number the format and dimension need.
        expected: usize,
        /// The number found.
        found: usize,
    },
    /// A negative edge weight.
    NegativeWeight {
        /// The line.
        line: usize,
    },
    /// An edge weight above `u32::MAX`.
    WeightOutOfRange {
        /// The line.
        line: usize,
    },
    /// A computed distance that is not finite or above `u32::MAX`.
    DistanceOutOfRange {
        /// One city.
        from: usize,
        /// The other.
        to: usize,
    },
    /// A `FULL_MATRIX` whose weight from `from` to `to` differs from the way back
    /// (asymmetric instances are not supported).
    Asymmetric {
        /// One city.
        from: usize,
        /// The other.
        to: usize,
    },
}

impl fmt::Display for TsplibError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, source } => write!(f, "cannot read {}: {source}", path.display()),
            Self::MalformedLine { line } => write!(
                f,
                "line {line}: expected `KEY: value`, a section name, data or EOF"
            ),
            Self::UnknownKeyword { line, keyword } => {
                write!(f, "line {line}: unknown keyword `{keyword}`")
            }
            Self::Unsupported {
                line,
                keyword,
                value,
            } => write!(f, "line {line}: {keyword} `{value}` is not supported"),
            Self::MissingKeyword { keyword } => write!(f, "the file has no {keyword}"),
            Self::MissingSection { section } => write!(f, "the file has no {section}"),
            Self::DimensionTooSmall { line, dimension } => {
                write!(f, "line {line}: DIMENSION {dimension} is below 2")
            }
            Self::TooManyCities { line, dimension } => write!(
                f,
                "line {line}: DIMENSION {dimension} is above the {} supported",
                super::MAX_CITIES
            ),
            Self::MalformedNumber { line, token } => {
                write!(f, "line {line}: `{token}` is not a valid number here")
            }
            Self::BadNodeNumber { line, node } => {
                write!(f, "line {line}: node {node} is out of range or repeated")
            }
            Self::CoordinateCount {
                line,
                expected,
                found,
            } => write!(
                f,
                "line {line}: expected {expected} node coordinates, found {found}"
            ),
            Self::WeightCount {
                line,
                expected,
                found,
            } => write!(
                f,
                "line {line}: expected {expected} edge weights, found {found}"
            ),
            Self::NegativeWeight { line } => write!(f, "line {line}: negative edge weight"),
            Self::WeightOutOfRange { line } => {
                write!(f, "line {line}: edge weight above {}", u32::MAX)
            }
            Self::DistanceOutOfRange { from, to } => write!(
                f,
                "the distance between cities {from} and {to} is not finite or above {}",
                u32::MAX
            ),
            Self::Asymmetric { from, to } => write!(
                f,
                "the weight from city {from} to {to} differs from the way back"
            ),
        }
    }
}

impl std::error::Error for TsplibError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
