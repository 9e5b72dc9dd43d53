//! Aligned plain-text tables for terminal output.
//!
//! Text columns are left-aligned and numeric columns right-aligned so medians and ratios
//! line up and can be compared by eye.

/// Column alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Pad on the right.
    Left,
    /// Pad on the left.
    Right,
}

/// A table of strings with a header row.
#[derive(Clone, Debug)]
pub struct Table {
    header: Vec<String>,
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table; columns are right-aligned except the first `left_cols`.
    pub fn new<S: AsRef<str>>(header: &[S], left_cols: usize) -> Table {
        let align = (0..header.len())
            .map(|i| {
                if i < left_cols {
                    Align::Left
                } else {
                    Align::Right
                }
            })
            .collect();
        Table {
            header: header.iter().map(|s| s.as_ref().to_string()).collect(),
            align,
            rows: Vec::new(),
        }
    }

    /// Appends a row (missing cells render empty, extra cells are dropped).
    pub fn row<S: AsRef<str>>(&mut self, cells: &[S]) {
        let mut r: Vec<String> = cells.iter().map(|s| s.as_ref().to_string()).collect();
        r.resize(self.header.len(), String::new());
        self.rows.push(r);
    }

    /// Renders with two spaces between columns and a dashed rule under the header.
    pub fn render(&self) -> String {
        let width = |i: usize| {
            std::iter::once(&self.header)
                .chain(&self.rows)
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..self.header.len()).map(width).collect();
        let line = |r: &Vec<String>| {
            let cells: Vec<String> = r
                .iter()
                .zip(&widths)
                .zip(&self.align)
                .map(|((c, &w), a)| match a {
                    Align::Left => format!("{c:<w$}"),
                    Align::Right => format!("{c:>w$}"),
                })
                .collect();
            cells.join("  ").trim_end().to_string()
        };
        let mut out = line(&self.header);
        out.push('\n');
        let total: usize = widths.iter().sum::<usize>() + 2 * widths.len().saturating_sub(1);
        out.push_str(&"-".repeat(total));
        out.push('\n');
        for r in &self.rows {
            out.push_str(&line(r));
            out.push('\n');
        }
        out
    }
}

/// Formats a rate compactly with an SI suffix, e.g. `412.3M`.
pub fn si(x: f64) -> String {
    let (v, suffix) = if x.abs() >= 1e9 {
        (x / 1e9, "G")
    } else if x.abs() >= 1e6 {
        (x / 1e6, "M")
    } else if x.abs() >= 1e3 {
        (x / 1e3, "k")
    } else {
        (x, "")
    };
    format!("{v:.1}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_columns() {
        let mut t = Table::new(&["impl", "ops/s"], 1);
        t.row(&["a", "1.0M"]);
        t.row(&["longer", "12.5M"]);
        let s = t.render();
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[0], "impl    ops/s");
        assert_eq!(lines[2], "a        1.0M");
        assert_eq!(lines[3], "longer  12.5M");
    }

    #[test]
    fn si_suffixes() {
        assert_eq!(si(412_300_000.0), "412.3M");
        assert_eq!(si(1_500.0), "1.5k");
        assert_eq!(si(2.0e9), "2.0G");
        assert_eq!(si(3.0), "3.0");
    }
}
