//! Aligned plain-text tables for terminal output, laid out by `comfy-table`.
//!
//! Text columns are left-aligned and numeric columns right-aligned so medians and ratios
//! line up and can be compared by eye.

use comfy_table::{CellAlignment, Table as Comfy};

/// A table of strings with a header row.
#[derive(Debug)]
pub struct Table {
    inner: Comfy,
    columns: usize,
}

impl Table {
    /// A table; columns are right-aligned except the first `left_cols`.
    pub fn new<S: AsRef<str>>(header: &[S], left_cols: usize) -> Table {
        let mut inner = Comfy::new();
        // Only the rule under the header; two spaces between columns.
        inner.load_preset("     --            ");
        inner.set_header(header.iter().map(|s| s.as_ref().to_string()));
        for (i, column) in inner.column_iter_mut().enumerate() {
            let last = i + 1 == header.len();
            column.set_padding((0, if last { 0 } else { 1 }));
            if i >= left_cols {
                column.set_cell_alignment(CellAlignment::Right);
            }
        }
        Table {
            inner,
            columns: header.len(),
        }
    }

    /// Appends a row (missing cells render empty, extra cells are dropped).
    pub fn row<S: AsRef<str>>(&mut self, cells: &[S]) {
        let mut r: Vec<String> = cells.iter().map(|s| s.as_ref().to_string()).collect();
        r.resize(self.columns, String::new());
        self.inner.add_row(r);
    }

    /// Renders with two spaces between columns and a dashed rule under the header.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for line in self.inner.lines() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// The target checks as a table with a `PASS`/`MISS` verdict each.
pub fn targets(targets: &[crate::TargetCheck]) -> String {
    let mut t = Table::new(&["target", "measured", "need", "verdict"], 1);
    for c in targets {
        t.row(&[
            c.name.clone(),
            c.measured.map_or("n/a".into(), |m| format!("{m:.2}x")),
            format!(">= {:.2}x", c.threshold),
            if c.passed() { "PASS" } else { "MISS" }.to_string(),
        ]);
    }
    t.render()
}

/// Two decimals, or empty for `None`.
pub fn f2(x: Option<f64>) -> String {
    x.map_or(String::new(), |v| format!("{v:.2}"))
}

/// `x` scaled to its SI prefix (G, M, k or none) and that prefix.
pub fn si_parts(x: f64) -> (f64, &'static str) {
    [(1e9, "G"), (1e6, "M"), (1e3, "k")]
        .into_iter()
        .find(|&(scale, _)| x.abs() >= scale)
        .map_or((x, ""), |(scale, suffix)| (x / scale, suffix))
}

/// Formats a rate compactly with an SI suffix, e.g. `412.3M`.
pub fn si(x: f64) -> String {
    let (v, suffix) = si_parts(x);
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
        assert_eq!(lines[1], "-".repeat(13), "{s}");
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
