//! CSV tables with a fixed header (the `csv` crate does the quoting); every row's width
//! is checked, since a misaligned row would shift every later column.

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

    /// The CSV text (header first).
    pub fn render(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        for line in std::iter::once(&self.header).chain(&self.rows) {
            w.write_record(line).expect("writing CSV to memory");
        }
        let bytes = w.into_inner().expect("flushing CSV to memory");
        String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_quotes_when_needed() {
        let mut c = Csv::new(&["name", "value"]);
        c.row(&["x,y", "1"]);
        c.row(&["z".to_string(), 2.5.to_string()]);
        c.row(&["say \"hi\"", ""]);
        assert_eq!(c.len(), 3);
        assert_eq!(
            c.render(),
            "name,value\n\"x,y\",1\nz,2.5\n\"say \"\"hi\"\"\",\n"
        );
    }

    #[test]
    #[should_panic]
    fn wrong_width_panics() {
        let mut c = Csv::new(&["a", "b"]);
        c.row(&["only one"]);
    }
}
