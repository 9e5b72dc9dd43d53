//! Pisinger's instance files as published with "Where are the hard knapsack
//! problems?" (Computers & Operations Research, 2005): `knapPI_t_n_R.csv` holds 100
//! instances, each
//!
//! ```text
//! knapPI_1_50_1000_1
//! n 50
//! c 995
//! z 8373
//! time 0.00
//! 1,94,485,0
//! 2,506,326,0
//! ...
//! -----
//! ```
//!
//! that is a name line, the item count `n`, the capacity `c`, the optimum `z` and the
//! solve time (these two optional here), then one row `i,p,w,x` per item (`x` is the
//! optimal packing, 0 or 1; rows of three fields without it are accepted too), then
//! a line of dashes before the next instance. Commas or spaces separate the fields.

use super::error::KnapsackError;
use super::instance::{KnapsackInstance, ParsedInstance, ParsedItem};
use super::parser::{content_lines, number, single_field, solution_value, KnapsackFormat, Role};

/// Parses every instance of a file in Pisinger's format, in file order (never an
/// empty vector).
///
/// ```
/// use magpie_search::apps::knapsack::{parse_pisinger, Decimal};
///
/// let text = "tiny_1\r\nn 3\r\nc 10\r\nz 13\r\ntime 0.00\r\n\
///             1,6,4,1\r\n2,7,6,1\r\n3,5,5,0\r\n-----\r\n\r\n\
///             tiny_2\nn 1\nc 5\nz 2\ntime 0.00\n1,2,5,1\n-----\n";
/// let instances = parse_pisinger(text).unwrap();
/// assert_eq!(instances.len(), 2);
/// assert_eq!(instances[0].name(), Some("tiny_1"));
/// assert_eq!(instances[0].stated_optimum(), Some(Decimal::integer(13)));
/// assert_eq!(instances[0].stated_solution(), Some(&[0, 1][..]));
/// assert_eq!(instances[1].capacity(), Decimal::integer(5));
/// ```
pub fn parse_pisinger(text: &str) -> Result<Vec<KnapsackInstance>, KnapsackError> {
    let lines = content_lines(text);
    let mut instances = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        if is_separator(lines[at].1) {
            at += 1;
            continue;
        }
        let (instance, next) = instance_at(&lines, at)?;
        instances.push(instance);
        at = next;
    }
    if instances.is_empty() {
        return Err(KnapsackError::MissingHeader);
    }
    Ok(instances)
}

/// The instance whose name is at index `at` of `lines`, and the index after it (and
/// after its separator line).
fn instance_at(
    lines: &[(usize, &str)],
    at: usize,
) -> Result<(KnapsackInstance, usize), KnapsackError> {
    let &(name_line, name) = &lines[at];
    let name = single_field(name, name_line, "the instance name")?;
    let mut at = at + 1;
    let (count_line, count) = required_header(lines, &mut at, "n", "`n N` (the item count)")?;
    let declared: usize = count.parse().map_err(|_| KnapsackError::MalformedNumber {
        line: count_line,
        token: count.to_string(),
    })?;
    let (capacity_line, capacity) = required_header(lines, &mut at, "c", "`c C` (the capacity)")?;
    let capacity = number(capacity, capacity_line, Role::Capacity)?;
    let stated_optimum = match header(lines, &mut at, "z", "`z Z` (the optimum)")? {
        Some((line, optimum)) => Some(number(optimum, line, Role::Profit)?),
        None => None,
    };
    // The solve time is information only.
    header(lines, &mut at, "time", "`time T` (the solve time)")?;

    let mut items = Vec::new();
    let mut packing = Vec::new();
    let mut with_packing = None;
    while let Some(&(line, text)) = lines.get(at) {
        if !is_row(text) {
            break;
        }
        at += 1;
        let fields: Vec<&str> = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|f| !f.is_empty())
            .collect();
        let (number_field, profit, weight, taken) = match fields.as_slice() {
            [i, p, w] => (*i, *p, *w, None),
            [i, p, w, x] => (*i, *p, *w, Some(*x)),
            _ => {
                return Err(KnapsackError::MalformedLine {
                    line,
                    expected: "`i,p,w,x` (item number, profit, weight, 0 or 1)",
                })
            }
        };
        if *with_packing.get_or_insert(taken.is_some()) != taken.is_some() {
            return Err(KnapsackError::MalformedLine {
                line,
                expected: "as many fields as the first row (with or without `x`)",
            });
        }
        let position = items.len() + 1;
        if number_field.parse::<usize>().ok() != Some(position) {
            return Err(KnapsackError::ItemNumber {
                line,
                expected: position,
                found: number_field.to_string(),
            });
        }
        if let Some(x) = taken {
            if solution_value(x, line)? {
                packing.push((items.len(), line));
            }
        }
        items.push(ParsedItem {
            profit: number(profit, line, Role::Profit)?,
            weight: number(weight, line, Role::Weight)?,
            line,
        });
    }
    if items.len() != declared {
        return Err(KnapsackError::CountMismatch {
            line: count_line,
            declared,
            found: items.len(),
        });
    }
    if lines.get(at).is_some_and(|&(_, text)| is_separator(text)) {
        at += 1;
    }
    let instance = KnapsackInstance::from_parsed(ParsedInstance {
        format: KnapsackFormat::Pisinger,
        name: Some(name.to_string()),
        items,
        capacity,
        capacity_line,
        stated_optimum,
        stated_solution: with_packing.unwrap_or(false).then_some(packing),
    })?;
    Ok((instance, at))
}

/// The value of the header line `key value` at `*at` and its line, advancing past
/// it; `None` (not advancing) at the end or if the line there does not start with
/// `key`.
fn header<'t>(
    lines: &[(usize, &'t str)],
    at: &mut usize,
    key: &str,
    expected: &'static str,
) -> Result<Option<(usize, &'t str)>, KnapsackError> {
    let Some(&(line, text)) = lines.get(*at) else {
        return Ok(None);
    };
    let mut fields = text.split_whitespace();
    if fields.next() != Some(key) {
        return Ok(None);
    }
    match (fields.next(), fields.next()) {
        (Some(value), None) => {
            *at += 1;
            Ok(Some((line, value)))
        }
        _ => Err(KnapsackError::MalformedLine { line, expected }),
    }
}

/// [`header`] for a line that must be there.
fn required_header<'t>(
    lines: &[(usize, &'t str)],
    at: &mut usize,
    key: &str,
    expected: &'static str,
) -> Result<(usize, &'t str), KnapsackError> {
    match (header(lines, at, key, expected)?, lines.get(*at)) {
        (Some(found), _) => Ok(found),
        (None, Some(&(line, _))) => Err(KnapsackError::MalformedLine { line, expected }),
        (None, None) => Err(KnapsackError::MissingHeader),
    }
}

/// Whether `text` is an item row: it holds a comma or starts with a digit.
fn is_row(text: &str) -> bool {
    let text = text.trim_start();
    text.contains(',') || text.starts_with(|c: char| c.is_ascii_digit())
}

/// Whether `text` is the line of dashes that ends an instance.
fn is_separator(text: &str) -> bool {
    let text = text.trim();
    !text.is_empty() && text.bytes().all(|b| b == b'-')
}
