//! Printed-table rows given as (column, value) pairs, so every value is written next to
//! its column's name and a header cannot drift from its rows.

use crate::table::Table;

/// Rows of named values; the first row's column names are the header.
#[derive(Debug, Default)]
pub struct Rows {
    header: Vec<&'static str>,
    rows: Vec<Vec<String>>,
}

impl Rows {
    /// Appends a row.
    ///
    /// # Panics
    /// When its columns differ from the first row's (a programming error).
    pub fn push(&mut self, row: impl IntoIterator<Item = (&'static str, String)>) {
        let (names, values): (Vec<_>, Vec<_>) = row.into_iter().unzip();
        if self.rows.is_empty() {
            self.header = names;
        } else {
            assert_eq!(names, self.header, "row columns differ from the header");
        }
        self.rows.push(values);
    }

    /// The rows as a printed table whose first `left_cols` columns are left-aligned.
    pub fn table(&self, left_cols: usize) -> String {
        let mut table = Table::new(&self.header, left_cols);
        self.rows.iter().for_each(|r| table.row(r));
        table.render()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_from_the_first_row() {
        let mut rows = Rows::default();
        rows.push([("impl", "a".into()), ("ops", "1".into())]);
        rows.push([("impl", "b".into()), ("ops", "2".into())]);
        let mut expected = Table::new(&["impl", "ops"], 1);
        expected.row(&["a", "1"]);
        expected.row(&["b", "2"]);
        assert_eq!(rows.table(1), expected.render());
    }

    #[test]
    #[should_panic]
    fn other_columns_panic() {
        let mut rows = Rows::default();
        rows.push([("impl", "a".into())]);
        rows.push([("name", "b".into())]);
    }
}
