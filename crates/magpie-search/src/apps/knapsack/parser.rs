//! Readers for the knapsack formats as they are published:
//!
//! * `.kp` (two header lines): line 1 the capacity, line 2 the known optimum, then
//!   `profit weight` lines;
//! * large-scale and low-dimensional (Pisinger's instances as distributed by Ortega
//!   et al.): the item count `n` and the capacity (on one line or on two), then `n`
//!   lines `profit weight`, then optionally a line of `n` values 0 or 1, the optimal
//!   packing;
//! * Pisinger's instance files (`knapPI_t_n_R.csv`, also saved as single `.kp`
//!   instances): a name line, `n N`, `c C`, `z Z` (the optimum), `time T` lines, then
//!   rows `i,p,w,x` (`x` the optimal packing), several instances per file separated
//!   by `-----` lines ([`parse_pisinger`]).
//!
//! Numbers are decimals (`12`, `0.125126`); blank lines, trailing spaces, tabs and
//! LF, CRLF or bare CR line endings are accepted. Bad input is a [`KnapsackError`]
//! naming the line. The stated optimum and packing are kept on the instance
//! ([`KnapsackInstance::stated_optimum`], [`KnapsackInstance::stated_solution`]) so
//! that a search can be checked against them.

use std::path::Path;

use super::decimal::{Decimal, DecimalError};
use super::error::KnapsackError;
use super::instance::{KnapsackInstance, ParsedInstance, ParsedItem};
use super::pisinger::parse_pisinger;

/// The supported file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum KnapsackFormat {
    /// Capacity, stated optimum, then `profit weight` lines (`.kp`).
    Kp,
    /// Item count and capacity, then `profit weight` lines and optionally the optimal
    /// 0/1 vector (the large-scale and low-dimensional files).
    LowDimensional,
    /// Pisinger's files: named instances with `n`, `c`, `z`, `time` lines and
    /// `i,p,w,x` rows, possibly several per file.
    Pisinger,
}

impl KnapsackFormat {
    /// A short name for reports: `kp`, `large-scale/low-dimensional` or `knapPI`.
    ///
    /// ```
    /// use magpie_search::apps::knapsack::{parse_knapsack, KnapsackFormat};
    ///
    /// let kp = parse_knapsack("10\n13\n6 4\n7 6\n5 5\n").unwrap();
    /// assert_eq!(kp.format(), Some(KnapsackFormat::Kp));
    /// assert_eq!(KnapsackFormat::Kp.name(), "kp");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            KnapsackFormat::Kp => "kp",
            KnapsackFormat::LowDimensional => "large-scale/low-dimensional",
            KnapsackFormat::Pisinger => "knapPI",
        }
    }
}

/// Parses the names a user gives a format: `kp`, `low-dimensional` (or `large-scale`)
/// and `knappi` (or `pisinger`), any case.
///
/// ```
/// use magpie_search::apps::knapsack::KnapsackFormat;
///
/// assert_eq!("large-scale".parse(), Ok(KnapsackFormat::LowDimensional));
/// assert_eq!("knapPI".parse(), Ok(KnapsackFormat::Pisinger));
/// assert!("csv".parse::<KnapsackFormat>().is_err());
/// ```
impl std::str::FromStr for KnapsackFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "kp" => Ok(KnapsackFormat::Kp),
            "low-dimensional" | "large-scale" => Ok(KnapsackFormat::LowDimensional),
            "knappi" | "pisinger" => Ok(KnapsackFormat::Pisinger),
            _ => Err(format!(
                "unknown knapsack format `{s}` (expected kp, low-dimensional, large-scale or knappi)"
            )),
        }
    }
}

/// Reads the knapsack instance in the file at `path`: the first one of a file that
/// holds several ([`read_knapsack_instances`] reads them all). The format is
/// [detected](detect_format) from the text; where the text alone is ambiguous (a
/// single number on line 1), the extension decides (`.kp` or `.txt`).
pub fn read_knapsack(path: impl AsRef<Path>) -> Result<KnapsackInstance, KnapsackError> {
    let mut instances = read_knapsack_instances(path)?;
    // Every reader returns at least one instance or an error.
    Ok(instances.swap_remove(0))
}

/// Reads every knapsack instance in the file at `path` (one, except for Pisinger's
/// files), in file order; never an empty vector.
pub fn read_knapsack_instances(
    path: impl AsRef<Path>,
) -> Result<Vec<KnapsackInstance>, KnapsackError> {
    let path = path.as_ref();
    let text = read_text(path)?;
    let hint = match path.extension().and_then(|e| e.to_str()) {
        Some("kp") => Some(KnapsackFormat::Kp),
        Some("txt") => Some(KnapsackFormat::LowDimensional),
        _ => None,
    };
    parse_instances_as(&text, detect(&text, hint))
}

/// Reads every knapsack instance in the file at `path` in `format`, whatever its text
/// or extension suggest: for a file the detection reads wrongly (e.g. a `.kp` file
/// under another extension whose capacity equals its item count).
pub fn read_knapsack_instances_as(
    path: impl AsRef<Path>,
    format: KnapsackFormat,
) -> Result<Vec<KnapsackInstance>, KnapsackError> {
    parse_instances_as(&read_text(path.as_ref())?, format)
}

/// The text of the file at `path`; bytes that are not UTF-8 become U+FFFD, which the
/// readers then report as a bad number on their line.
fn read_text(path: &Path) -> Result<String, KnapsackError> {
    let bytes = std::fs::read(path).map_err(|source| KnapsackError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Parses `text` in the format [`detect_format`] finds; the first instance of a text
/// that holds several.
///
/// ```
/// use magpie_search::apps::knapsack::{parse_knapsack, Decimal};
///
/// let kp = parse_knapsack("10\n13\n6 4\n7 6\n5 5\n").unwrap();
/// assert_eq!(kp.stated_optimum(), Some(Decimal::integer(13)));
/// let low = parse_knapsack("2 10\n1.5 4\n7 6\n").unwrap();
/// assert_eq!(low.profit(0), "1.5".parse().unwrap());
/// // Large-scale: the last line is the optimal packing.
/// let large = parse_knapsack("3 10\r\n6 4\r\n7 6\r\n5 5\r\n1 1 0\r\n").unwrap();
/// assert_eq!(large.stated_solution(), Some(&[0, 1][..]));
/// ```
pub fn parse_knapsack(text: &str) -> Result<KnapsackInstance, KnapsackError> {
    let mut instances = parse_knapsack_instances(text)?;
    Ok(instances.swap_remove(0))
}

/// Parses every instance of `text` in the format [`detect_format`] finds; never an
/// empty vector.
pub fn parse_knapsack_instances(text: &str) -> Result<Vec<KnapsackInstance>, KnapsackError> {
    parse_instances_as(text, detect_format(text))
}

/// Parses `text` in `format` (the first instance of a text that holds several).
pub fn parse_as(text: &str, format: KnapsackFormat) -> Result<KnapsackInstance, KnapsackError> {
    let mut instances = parse_instances_as(text, format)?;
    Ok(instances.swap_remove(0))
}

/// Every instance of `text` in `format`.
fn parse_instances_as(
    text: &str,
    format: KnapsackFormat,
) -> Result<Vec<KnapsackInstance>, KnapsackError> {
    match format {
        KnapsackFormat::Kp => parse_kp(text).map(|i| vec![i]),
        KnapsackFormat::LowDimensional => parse_low_dimensional(text).map(|i| vec![i]),
        KnapsackFormat::Pisinger => parse_pisinger(text),
    }
}

/// Guesses the format of `text`: Pisinger's if line 1 is a single word that is not a
/// number (an instance name); low-dimensional if line 1 holds two numbers, or one
/// integer `n` followed, after the capacity line, by `n` item lines (or `n + 1`, the
/// last being the optimal packing); `.kp` otherwise.
pub fn detect_format(text: &str) -> KnapsackFormat {
    detect(text, None)
}

/// [`detect_format`], with `hint` deciding when line 1 is a single number.
fn detect(text: &str, hint: Option<KnapsackFormat>) -> KnapsackFormat {
    let lines = content_lines(text);
    let first: Vec<&str> = match lines.first() {
        Some((_, line)) => line.split_whitespace().collect(),
        None => return hint.unwrap_or(KnapsackFormat::Kp),
    };
    match (first.as_slice(), hint) {
        ([word], _) if word.parse::<Decimal>() == Err(DecimalError::Malformed) => {
            KnapsackFormat::Pisinger
        }
        ([_, _], _) => KnapsackFormat::LowDimensional,
        ([_], Some(hint)) => hint,
        ([count], None) => {
            let items = lines.len().saturating_sub(2);
            let with_packing = |n: usize| {
                n + 1 == items
                    && lines.last().is_some_and(|(_, last)| {
                        last.split_whitespace().count() == n && is_packing(last)
                    })
            };
            match count.parse::<usize>() {
                Ok(n) if n == items || with_packing(n) => KnapsackFormat::LowDimensional,
                _ => KnapsackFormat::Kp,
            }
        }
        _ => KnapsackFormat::Kp,
    }
}

/// Whether every field of `line` is 0 or 1.
fn is_packing(line: &str) -> bool {
    line.split_whitespace().all(|v| v == "0" || v == "1")
}

/// Parses the `.kp` format: capacity, stated optimum, then `profit weight` lines.
pub fn parse_kp(text: &str) -> Result<KnapsackInstance, KnapsackError> {
    let lines = content_lines(text);
    let mut lines = lines.iter();
    let &(capacity_line, capacity) = lines.next().ok_or(KnapsackError::MissingHeader)?;
    let capacity = single_field(capacity, capacity_line, "the capacity")?;
    let capacity = number(capacity, capacity_line, Role::Capacity)?;
    let &(optimum_line, optimum) = lines.next().ok_or(KnapsackError::MissingHeader)?;
    let optimum = single_field(optimum, optimum_line, "the optimum")?;
    let optimum = number(optimum, optimum_line, Role::Profit)?;
    let items = parse_items(lines)?;
    KnapsackInstance::from_parsed(ParsedInstance {
        format: KnapsackFormat::Kp,
        name: None,
        items,
        capacity,
        capacity_line,
        stated_optimum: Some(optimum),
        stated_solution: None,
    })
}

/// Parses the large-scale and low-dimensional format: `n capacity` (one line or
/// two), then `n` lines `profit weight`, then optionally a line of `n` values 0 or 1
/// (the optimal packing).
pub fn parse_low_dimensional(text: &str) -> Result<KnapsackInstance, KnapsackError> {
    let lines = content_lines(text);
    let mut rest = lines.as_slice();
    let (&(count_line, header), after) = rest.split_first().ok_or(KnapsackError::MissingHeader)?;
    rest = after;
    let fields: Vec<&str> = header.split_whitespace().collect();
    let (count, (capacity_line, capacity)) = match fields.as_slice() {
        [count, capacity] => (*count, (count_line, *capacity)),
        [count] => {
            let (&(line, capacity), after) =
                rest.split_first().ok_or(KnapsackError::MissingHeader)?;
            rest = after;
            (
                *count,
                (line, single_field(capacity, line, "the capacity")?),
            )
        }
        _ => {
            return Err(KnapsackError::MalformedLine {
                line: count_line,
                expected: "`n capacity` or `n`",
            })
        }
    };
    let declared: usize = count.parse().map_err(|_| KnapsackError::MalformedNumber {
        line: count_line,
        token: count.to_string(),
    })?;
    let capacity = number(capacity, capacity_line, Role::Capacity)?;
    // One line more than the count: the last is the optimal packing, unless it is
    // plainly another item (two fields, not all 0 or 1).
    let mut stated_solution = None;
    if let Some((&(line, last), items)) = rest.split_last() {
        let fields = last.split_whitespace().count();
        if items.len() == declared && (fields != 2 || is_packing(last)) {
            stated_solution = Some(packing_line(last, line, declared)?);
            rest = items;
        }
    }
    let items = parse_items(rest.iter())?;
    if items.len() != declared {
        return Err(KnapsackError::CountMismatch {
            line: count_line,
            declared,
            found: items.len(),
        });
    }
    KnapsackInstance::from_parsed(ParsedInstance {
        format: KnapsackFormat::LowDimensional,
        name: None,
        items,
        capacity,
        capacity_line,
        stated_optimum: None,
        stated_solution,
    })
}

/// The items taken by a final 0/1 line of `items` values, each paired with `line`.
fn packing_line(
    text: &str,
    line: usize,
    items: usize,
) -> Result<Vec<(usize, usize)>, KnapsackError> {
    let values: Vec<&str> = text.split_whitespace().collect();
    if values.len() != items {
        return Err(KnapsackError::SolutionLength {
            line,
            items,
            found: values.len(),
        });
    }
    let mut taken = Vec::new();
    for (item, value) in values.into_iter().enumerate() {
        if solution_value(value, line)? {
            taken.push((item, line));
        }
    }
    Ok(taken)
}

/// Whether a value of a stated packing takes its item (`1`) or not (`0`).
pub(super) fn solution_value(token: &str, line: usize) -> Result<bool, KnapsackError> {
    match token {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(KnapsackError::BadSolutionValue {
            line,
            token: token.to_string(),
        }),
    }
}

/// What a number means, for the error a bad one raises.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Capacity,
    Profit,
    Weight,
}

/// Parses one numeric field.
pub(super) fn number(token: &str, line: usize, role: Role) -> Result<Decimal, KnapsackError> {
    match token.parse::<Decimal>() {
        Ok(value) if role == Role::Weight && value.units() == 0 => {
            Err(KnapsackError::NonPositiveWeight { line })
        }
        Ok(value) => Ok(value),
        Err(DecimalError::Malformed) => Err(KnapsackError::MalformedNumber {
            line,
            token: token.to_string(),
        }),
        Err(DecimalError::Overflow) => Err(KnapsackError::Overflow { line }),
        Err(DecimalError::Negative) => Err(match role {
            Role::Capacity => KnapsackError::NegativeCapacity { line },
            Role::Profit => KnapsackError::NegativeProfit { line },
            Role::Weight => KnapsackError::NonPositiveWeight { line },
        }),
    }
}

/// The only field of `line`.
pub(super) fn single_field<'t>(
    text: &'t str,
    line: usize,
    expected: &'static str,
) -> Result<&'t str, KnapsackError> {
    let mut fields = text.split_whitespace();
    match (fields.next(), fields.next()) {
        (Some(field), None) => Ok(field),
        _ => Err(KnapsackError::MalformedLine { line, expected }),
    }
}

/// The remaining lines as `profit weight` items.
fn parse_items<'t>(
    lines: impl Iterator<Item = &'t (usize, &'t str)>,
) -> Result<Vec<ParsedItem>, KnapsackError> {
    lines
        .map(|&(line, text)| {
            let fields: Vec<&str> = text.split_whitespace().collect();
            let [profit, weight] = fields.as_slice() else {
                return Err(KnapsackError::MalformedLine {
                    line,
                    expected: "`profit weight`",
                });
            };
            Ok(ParsedItem {
                profit: number(profit, line, Role::Profit)?,
                weight: number(weight, line, Role::Weight)?,
                line,
            })
        })
        .collect()
}

/// The non-blank lines of `text` with their 1-based numbers; LF, CRLF and a bare
/// CR each end one line.
pub(super) fn content_lines(text: &str) -> Vec<(usize, &str)> {
    let mut lines = Vec::new();
    let mut rest = text;
    let mut number = 1;
    while let Some(at) = rest.find(['\n', '\r']) {
        lines.push((number, &rest[..at]));
        let terminator = if rest[at..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[at + terminator..];
        number += 1;
    }
    lines.push((number, rest));
    lines.retain(|(_, line)| !line.trim().is_empty());
    lines
}

#[cfg(test)]
mod tests {
    use super::content_lines;

    #[test]
    fn line_numbers_count_every_terminator_once() {
        let lines = content_lines("a\r\nb\rc\n\n  \nd");
        assert_eq!(lines, vec![(1, "a"), (2, "b"), (3, "c"), (6, "d")]);
    }
}
