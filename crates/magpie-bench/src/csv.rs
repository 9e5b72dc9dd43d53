//! Minimal CSV writing (RFC 4180 quoting) without an external crate.
//!
//! Benchmarks write one row per measurement so results can be re-analysed later; fields
//! that contain a comma, a quote, or a line break are quoted and inner quotes doubled.

use std::fmt::Write as _;
use std::io::{self, Write};

/// Escapes one field: quoted when it contains `,`, `"`, `\r` or `\n`.
pub fn escape(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// A table with a fixed header, rendered to CSV text.
#[derive(Clone, Debug)]
pub struct Csv {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Csv {
    /// A table with the given column names.
    pub fn new<S: AsRef<str>>(header: &[S]) -> Csv {
        Csv {
            header: header.iter().map(|s| s.as_ref().to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    ///
    /// # Panics
    /// When the number of fields differs from the header (a programming error).
    pub fn row<S: AsRef<str>>(&mut self, fields: &[S]) {
        assert_eq!(
            fields.len(),
            self.header.len(),
            "CSV row width does not match header"
        );
        self.rows
            .push(fields.iter().map(|s| s.as_ref().to_string()).collect());
    }

    /// Number of data rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there are no data rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The CSV text (header first, `\n` line endings).
    pub fn render(&self) -> String {
        let mut out = String::new();
        for line in std::iter::once(&self.header).chain(&self.rows) {
            let fields: Vec<String> = line.iter().map(|f| escape(f)).collect();
            let _ = writeln!(out, "{}", fields.join(","));
        }
        out
    }

    /// Writes the CSV text to `w`.
    pub fn write_to<W: Write>(&self, mut w: W) -> io::Result<()> {
        w.write_all(self.render().as_bytes())?;
        w.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape("plain"), "plain");
        assert_eq!(escape("a,b"), "\"a,b\"");
        assert_eq!(escape("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(escape("two\nlines"), "\"two\nlines\"");
        assert_eq!(escape(""), "");
    }

    #[test]
    fn render_with_header() {
        let mut c = Csv::new(&["name", "value"]);
        c.row(&["x,y", "1"]);
        c.row(&["z".to_string(), 2.5.to_string()]);
        assert_eq!(c.len(), 2);
        assert_eq!(c.render(), "name,value\n\"x,y\",1\nz,2.5\n");
    }

    #[test]
    #[should_panic]
    fn wrong_width_panics() {
        let mut c = Csv::new(&["a", "b"]);
        c.row(&["only one"]);
    }
}
