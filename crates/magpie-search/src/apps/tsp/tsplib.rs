//! The TSPLIB format for symmetric TSP instances: `KEY: value` (or `KEY : value`)
//! specification lines, then data sections, then an optional `EOF`.
//!
//! Supported: `EDGE_WEIGHT_TYPE` `EUC_2D`, `CEIL_2D`, `ATT`, `GEO` (with a
//! `NODE_COORD_SECTION`) and `EXPLICIT` (with an `EDGE_WEIGHT_SECTION` in
//! `FULL_MATRIX`, `UPPER_ROW`, `LOWER_ROW`, `UPPER_DIAG_ROW` or `LOWER_DIAG_ROW`
//! format, its numbers wrapped across lines arbitrarily). A `DISPLAY_DATA_SECTION`
//! is skipped. LF, CRLF and bare CR line endings are accepted. Bad input is a
//! [`TsplibError`], never a panic.

use std::path::Path;

use super::distance::CoordinateDistance;
use super::error::TsplibError;
use super::instance::{TspInstance, MAX_CITIES};

/// Reads the TSPLIB instance in the file at `path`.
pub fn read_tsplib(path: impl AsRef<Path>) -> Result<TspInstance, TsplibError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| TsplibError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_tsplib(&String::from_utf8_lossy(&bytes))
}

/// How explicit weights are laid out in `EDGE_WEIGHT_SECTION`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum MatrixFormat {
    Full,
    UpperRow,
    LowerRow,
    UpperDiagRow,
    LowerDiagRow,
}

impl MatrixFormat {
    fn from_keyword(value: &str) -> Option<Self> {
        Some(match value {
            "FULL_MATRIX" => Self::Full,
            "UPPER_ROW" => Self::UpperRow,
            "LOWER_ROW" => Self::LowerRow,
            "UPPER_DIAG_ROW" => Self::UpperDiagRow,
            "LOWER_DIAG_ROW" => Self::LowerDiagRow,
            _ => return None,
        })
    }

    /// How many weights the format holds for `n` cities (`n` ≤ `MAX_CITIES`).
    fn cell_count(self, n: usize) -> usize {
        match self {
            Self::Full => n * n,
            Self::UpperRow | Self::LowerRow => n * (n - 1) / 2,
            Self::UpperDiagRow | Self::LowerDiagRow => n * (n + 1) / 2,
        }
    }

    /// The `(row, column)` cells the weights fill, in order.
    fn cells(self, n: usize) -> Vec<(usize, usize)> {
        let mut cells = Vec::new();
        for i in 0..n {
            let columns = match self {
                Self::Full => 0..n,
                Self::UpperRow => i + 1..n,
                Self::LowerRow => 0..i,
                Self::UpperDiagRow => i..n,
                Self::LowerDiagRow => 0..i + 1,
            };
            cells.extend(columns.map(|j| (i, j)));
        }
        cells
    }
}

/// The edge weight type: a coordinate function or explicit weights.
#[derive(Clone, Copy)]
enum WeightType {
    Coordinates(CoordinateDistance),
    Explicit,
}

/// A keyword's value with its line.
type Spec<T> = Option<(usize, T)>;

/// Everything read before assembling the instance.
#[derive(Default)]
struct Parsed<'t> {
    name: String,
    dimension: Spec<usize>,
    weight_type: Spec<WeightType>,
    /// The `EDGE_WEIGHT_FORMAT` value (`None` inside for `FUNCTION`).
    format: Spec<Option<MatrixFormat>>,
    /// `NODE_COORD_SECTION`: its line and data lines.
    coordinates: Spec<Vec<(usize, &'t str)>>,
    /// `EDGE_WEIGHT_SECTION`: its line and data lines.
    weights: Spec<Vec<(usize, &'t str)>>,
}

/// Parses a TSPLIB instance from `text`.
///
/// ```
/// use magpie_search::apps::tsp::parse_tsplib;
///
/// let text = "NAME : square\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EUC_2D\n\
///             NODE_COORD_SECTION\n1 0 0\n2 0 10\n3 10 10\n4 10 0\nEOF\n";
/// let instance = parse_tsplib(text).unwrap();
/// assert_eq!(instance.name(), "square");
/// assert_eq!(instance.tour_length(&[0, 1, 2, 3]), Some(40));
/// ```
pub fn parse_tsplib(text: &str) -> Result<TspInstance, TsplibError> {
    let lines = numbered_lines(text);
    let mut parsed = Parsed::default();
    let mut at = 0;
    while let Some(&(line, content)) = lines.get(at) {
        at += 1;
        let content = content.trim();
        if content.is_empty() {
            continue;
        }
        let (keyword, value) = match content.split_once(':') {
            Some((keyword, value)) => (keyword.trim(), Some(value.trim())),
            None => (content, None),
        };
        match (keyword, value) {
            ("EOF", None | Some("")) => break,
            ("NODE_COORD_SECTION", None | Some("")) => {
                let (data, next) = data_lines(&lines, at);
                parsed.coordinates = Some((line, data));
                at = next;
            }
            ("EDGE_WEIGHT_SECTION", None | Some("")) => {
                let (data, next) = data_lines(&lines, at);
                parsed.weights = Some((line, data));
                at = next;
            }
            ("DISPLAY_DATA_SECTION", None | Some("")) => at = data_lines(&lines, at).1,
            (keyword, Some(value)) => specification(&mut parsed, line, keyword, value)?,
            (_, None) => return Err(TsplibError::MalformedLine { line }),
        }
    }
    assemble(parsed)
}

/// Records one `KEY: value` line.
fn specification(
    parsed: &mut Parsed<'_>,
    line: usize,
    keyword: &str,
    value: &str,
) -> Result<(), TsplibError> {
    let unsupported = || TsplibError::Unsupported {
        line,
        keyword: keyword.to_string(),
        value: value.to_string(),
    };
    match keyword {
        "NAME" => parsed.name = value.to_string(),
        "COMMENT" | "DISPLAY_DATA_TYPE" => {}
        "TYPE" if value == "TSP" => {}
        "NODE_COORD_TYPE" if value == "TWOD_COORDS" => {}
        "TYPE" | "NODE_COORD_TYPE" => return Err(unsupported()),
        "DIMENSION" => {
            let dimension = value.parse().map_err(|_| TsplibError::MalformedNumber {
                line,
                token: value.to_string(),
            })?;
            if dimension < 2 {
                return Err(TsplibError::DimensionTooSmall { line, dimension });
            }
            if dimension > MAX_CITIES {
                return Err(TsplibError::TooManyCities { line, dimension });
            }
            parsed.dimension = Some((line, dimension));
        }
        "EDGE_WEIGHT_TYPE" => {
            let weight_type = match value {
                "EXPLICIT" => WeightType::Explicit,
                _ => WeightType::Coordinates(
                    CoordinateDistance::from_keyword(value).ok_or_else(unsupported)?,
                ),
            };
            parsed.weight_type = Some((line, weight_type));
        }
        "EDGE_WEIGHT_FORMAT" => {
            let format = match value {
                "FUNCTION" => None,
                _ => Some(MatrixFormat::from_keyword(value).ok_or_else(unsupported)?),
            };
            parsed.format = Some((line, format));
        }
        _ => {
            return Err(TsplibError::UnknownKeyword {
                line,
                keyword: keyword.to_string(),
            })
        }
    }
    Ok(())
}

/// Builds the instance once every line is read.
fn assemble(parsed: Parsed<'_>) -> Result<TspInstance, TsplibError> {
    let (_, n) = parsed.dimension.ok_or(TsplibError::MissingKeyword {
        keyword: "DIMENSION",
    })?;
    let (_, weight_type) = parsed.weight_type.ok_or(TsplibError::MissingKeyword {
        keyword: "EDGE_WEIGHT_TYPE",
    })?;
    match weight_type {
        WeightType::Coordinates(distance) => {
            if let Some((line, Some(_))) = parsed.format {
                return Err(TsplibError::Unsupported {
                    line,
                    keyword: "EDGE_WEIGHT_FORMAT".to_string(),
                    value: format!("a matrix with {}", distance.keyword()),
                });
            }
            let (line, data) = parsed.coordinates.ok_or(TsplibError::MissingSection {
                section: "NODE_COORD_SECTION",
            })?;
            let points = coordinates(n, line, &data)?;
            TspInstance::from_points(parsed.name, distance, &points).map_err(|(i, j)| {
                TsplibError::DistanceOutOfRange {
                    from: i + 1,
                    to: j + 1,
                }
            })
        }
        WeightType::Explicit => {
            let format = match parsed.format {
                Some((_, Some(format))) => format,
                Some((line, None)) => {
                    return Err(TsplibError::Unsupported {
                        line,
                        keyword: "EDGE_WEIGHT_FORMAT".to_string(),
                        value: "FUNCTION with EXPLICIT".to_string(),
                    })
                }
                None => {
                    return Err(TsplibError::MissingKeyword {
                        keyword: "EDGE_WEIGHT_FORMAT",
                    })
                }
            };
            let (line, data) = parsed.weights.ok_or(TsplibError::MissingSection {
                section: "EDGE_WEIGHT_SECTION",
            })?;
            let weights = explicit_weights(n, format, line, &data)?;
            Ok(TspInstance::from_weights(parsed.name, n, weights))
        }
    }
}

/// The points of `NODE_COORD_SECTION` (header at `line`), indexed by city.
fn coordinates(
    n: usize,
    line: usize,
    data: &[(usize, &str)],
) -> Result<Vec<(f64, f64)>, TsplibError> {
    if data.len() != n {
        return Err(TsplibError::CoordinateCount {
            line,
            expected: n,
            found: data.len(),
        });
    }
    let mut points = vec![None; n];
    for &(line, text) in data {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [node, x, y] = fields.as_slice() else {
            return Err(TsplibError::MalformedLine { line });
        };
        let malformed = |token: &str| TsplibError::MalformedNumber {
            line,
            token: token.to_string(),
        };
        let node: usize = node.parse().map_err(|_| malformed(node))?;
        let coordinate = |token: &str| match token.parse::<f64>() {
            Ok(value) if value.is_finite() => Ok(value),
            _ => Err(malformed(token)),
        };
        let point = (coordinate(x)?, coordinate(y)?);
        match node.checked_sub(1).and_then(|i| points.get_mut(i)) {
            Some(slot @ None) => *slot = Some(point),
            _ => return Err(TsplibError::BadNodeNumber { line, node }),
        }
    }
    // n distinct node numbers in 1..=n: every city has its point.
    Ok(points.into_iter().flatten().collect())
}

/// The full symmetric matrix from `EDGE_WEIGHT_SECTION` (header at `line`).
fn explicit_weights(
    n: usize,
    format: MatrixFormat,
    line: usize,
    data: &[(usize, &str)],
) -> Result<Vec<u32>, TsplibError> {
    let mut values = Vec::new();
    for &(line, text) in data {
        for token in text.split_whitespace() {
            values.push(weight(token, line)?);
        }
    }
    // Counted before the cells are listed: a file claiming thousands of cities with
    // a few weights is refused without listing millions of cells first.
    let expected = format.cell_count(n);
    if values.len() != expected {
        return Err(TsplibError::WeightCount {
            line,
            expected,
            found: values.len(),
        });
    }
    let cells = format.cells(n);
    debug_assert_eq!(cells.len(), expected);
    let mut matrix = vec![0; n * n];
    for (&(i, j), &value) in cells.iter().zip(&values) {
        matrix[i * n + j] = value;
        if format != MatrixFormat::Full {
            matrix[j * n + i] = value;
        }
    }
    if format == MatrixFormat::Full {
        for i in 0..n {
            for j in 0..i {
                if matrix[i * n + j] != matrix[j * n + i] {
                    return Err(TsplibError::Asymmetric {
                        from: j + 1,
                        to: i + 1,
                    });
                }
            }
        }
    }
    Ok(matrix)
}

/// One explicit weight: a non-negative integer up to `u32::MAX`.
fn weight(token: &str, line: usize) -> Result<u32, TsplibError> {
    let digits = token.strip_prefix('+').unwrap_or(token);
    let negative = digits.strip_prefix('-');
    let digits = negative.unwrap_or(digits);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(TsplibError::MalformedNumber {
            line,
            token: token.to_string(),
        });
    }
    if negative.is_some() && digits.bytes().any(|b| b != b'0') {
        return Err(TsplibError::NegativeWeight { line });
    }
    digits
        .parse()
        .map_err(|_| TsplibError::WeightOutOfRange { line })
}

/// The data lines of a section starting at index `at` of `lines`: every line up to
/// the next one that starts with a letter (a keyword or `EOF`). Returns them and
/// the index after them.
fn data_lines<'t>(lines: &[(usize, &'t str)], mut at: usize) -> (Vec<(usize, &'t str)>, usize) {
    let mut data = Vec::new();
    while let Some(&(line, text)) = lines.get(at) {
        let text = text.trim();
        if text.starts_with(|c: char| c.is_ascii_alphabetic()) {
            break;
        }
        if !text.is_empty() {
            data.push((line, text));
        }
        at += 1;
    }
    (data, at)
}

/// The lines of `text` with their 1-based numbers; LF, CRLF and a bare CR each end
/// one line.
fn numbered_lines(text: &str) -> Vec<(usize, &str)> {
    let mut lines = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['\n', '\r']) {
        lines.push((lines.len() + 1, &rest[..at]));
        let terminator = if rest[at..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[at + terminator..];
    }
    lines.push((lines.len() + 1, rest));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text with LF, CRLF and bare CR line endings.
    fn endings(lf: &str) -> [String; 3] {
        [
            lf.to_string(),
            lf.replace('\n', "\r\n"),
            lf.replace('\n', "\r"),
        ]
    }

    #[test]
    fn every_format_counts_the_cells_it_lists() {
        use MatrixFormat::*;
        for format in [Full, UpperRow, LowerRow, UpperDiagRow, LowerDiagRow] {
            for n in 2..40 {
                assert_eq!(format.cell_count(n), format.cells(n).len());
            }
        }
    }

    #[test]
    fn a_large_dimension_with_few_weights_is_a_count_error() {
        let text = format!(
            "NAME: big\nTYPE: TSP\nDIMENSION: {MAX_CITIES}\nEDGE_WEIGHT_TYPE: EXPLICIT\n\
             EDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2\nEOF\n"
        );
        match parse_tsplib(&text) {
            Err(TsplibError::WeightCount {
                expected, found, ..
            }) => assert_eq!((expected, found), (MAX_CITIES * MAX_CITIES, 3)),
            other => panic!("{:?}", other.map(|i| i.cities())),
        }
    }

    #[test]
    fn shared_instances_read_alike_with_lf_crlf_and_cr() {
        for name in ["burma14", "gr17"] {
            let path = format!(
                "{}/../../../shared/data/tsplib/{name}.tsp",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let lf = text.replace("\r\n", "\n");
            let instances: Vec<TspInstance> = endings(&lf)
                .iter()
                .map(|t| parse_tsplib(t).unwrap_or_else(|e| panic!("{name}: {e}")))
                .collect();
            let n = instances[0].cities();
            let tour: Vec<usize> = (0..n).collect();
            for instance in &instances {
                assert_eq!(instance.name(), name);
                assert_eq!(instance.cities(), n);
                assert_eq!(instance.tour_length(&tour), instances[0].tour_length(&tour));
                for i in 0..n {
                    for j in 0..n {
                        assert_eq!(instance.distance(i, j), instances[0].distance(i, j));
                    }
                }
            }
        }
    }

    #[test]
    fn error_lines_are_the_same_with_lf_crlf_and_cr() {
        let header = "NAME: t\nTYPE: TSP\nDIMENSION: 3\n";
        let cases = [
            (
                format!("{header}EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 0 x\n3 1 1\n"),
                "line 7: `x`",
            ),
            (format!("{header}\nWHAT: 1\n"), "line 5: "),
            ("NAME: t\nDIMENSION: many\n".to_string(), "line 2: "),
            (
                format!("{header}EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 2\n-3\n"),
                "line 8: ",
            ),
        ];
        for (lf, expected) in cases {
            for text in endings(&lf) {
                let error = parse_tsplib(&text).expect_err(&lf).to_string();
                assert!(error.starts_with(expected), "{text:?}: {error}");
            }
        }
    }
}
