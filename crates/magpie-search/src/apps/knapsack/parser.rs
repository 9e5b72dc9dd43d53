//! Readers for the two knapsack formats of the shared data:
//!
//! * `.kp`: line 1 the capacity, line 2 the known optimum, then `profit weight` lines;
//! * low-dimensional `.txt`: the item count `n` and the capacity (on one line or on
//!   two), then `n` lines `profit weight`.
//!
//! Numbers are decimals (`12`, `0.125126`); blank lines, trailing spaces, tabs and
//! LF, CRLF or bare CR line endings are accepted. Bad input is a [`KnapsackError`].

use std::path::Path;

use super::decimal::{Decimal, DecimalError};
use super::error::KnapsackError;
use super::instance::{KnapsackInstance, ParsedItem};

/// The two supported file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnapsackFormat {
    /// Capacity, stated optimum, then `profit weight` lines (`.kp`).
    Kp,
    /// Item count and capacity, then `profit weight` lines (low-dimensional `.txt`).
    LowDimensional,
}

/// Reads the knapsack instance in the file at `path`. The format follows the
/// extension (`.kp` or `.txt`), or else [`detect_format`].
pub fn read_knapsack(path: impl AsRef<Path>) -> Result<KnapsackInstance, KnapsackError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| KnapsackError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let format = match path.extension().and_then(|e| e.to_str()) {
        Some("kp") => KnapsackFormat::Kp,
        Some("txt") => KnapsackFormat::LowDimensional,
        _ => detect_format(&text),
    };
    parse_as(&text, format)
}

/// Parses `text` in the format [`detect_format`] finds.
///
/// ```
/// use magpie_search::apps::knapsack::{parse_knapsack, Decimal};
///
/// let kp = parse_knapsack("10\n13\n6 4\n7 6\n5 5\n").unwrap();
/// assert_eq!(kp.stated_optimum(), Some(Decimal::integer(13)));
/// let low = parse_knapsack("2 10\n1.5 4\n7 6\n").unwrap();
/// assert_eq!(low.profit(0), "1.5".parse().unwrap());
/// ```
pub fn parse_knapsack(text: &str) -> Result<KnapsackInstance, KnapsackError> {
    parse_as(text, detect_format(text))
}

/// Parses `text` in `format`.
pub fn parse_as(text: &str, format: KnapsackFormat) -> Result<KnapsackInstance, KnapsackError> {
    match format {
        KnapsackFormat::Kp => parse_kp(text),
        KnapsackFormat::LowDimensional => parse_low_dimensional(text),
    }
}

/// Guesses the format of `text`: low-dimensional if the first line holds two
/// numbers, or holds one integer equal to the number of `profit weight` lines
/// after the second line; `.kp` otherwise.
pub fn detect_format(text: &str) -> KnapsackFormat {
    let lines = content_lines(text);
    let first: Vec<&str> = match lines.first() {
        Some((_, line)) => line.split_whitespace().collect(),
        None => return KnapsackFormat::Kp,
    };
    let items = lines.len().saturating_sub(2);
    match first.as_slice() {
        [_, _] => KnapsackFormat::LowDimensional,
        [count] if count.parse::<usize>().ok() == Some(items) => KnapsackFormat::LowDimensional,
        _ => KnapsackFormat::Kp,
    }
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
    KnapsackInstance::from_parsed(&items, capacity, capacity_line, Some(optimum))
}

/// Parses the low-dimensional format: `n capacity` (one line or two), then `n`
/// lines `profit weight`.
pub fn parse_low_dimensional(text: &str) -> Result<KnapsackInstance, KnapsackError> {
    let lines = content_lines(text);
    let mut lines = lines.iter();
    let &(count_line, header) = lines.next().ok_or(KnapsackError::MissingHeader)?;
    let fields: Vec<&str> = header.split_whitespace().collect();
    let (count, (capacity_line, capacity)) = match fields.as_slice() {
        [count, capacity] => (*count, (count_line, *capacity)),
        [count] => {
            let &(line, capacity) = lines.next().ok_or(KnapsackError::MissingHeader)?;
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
    let items = parse_items(lines)?;
    if items.len() != declared {
        return Err(KnapsackError::CountMismatch {
            declared,
            found: items.len(),
        });
    }
    KnapsackInstance::from_parsed(&items, capacity, capacity_line, None)
}

/// What a number means, for the error a bad one raises.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Capacity,
    Profit,
    Weight,
}

/// Parses one numeric field.
fn number(token: &str, line: usize, role: Role) -> Result<Decimal, KnapsackError> {
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
fn single_field<'t>(
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
fn content_lines(text: &str) -> Vec<(usize, &str)> {
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
