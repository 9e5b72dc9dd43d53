//! The output folder: created and checked before any measurement, then every CSV, SVG
//! and report written into it is recorded for the [`Outcome`].

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::{BenchError, Outcome, TargetCheck};

/// Creates `dir` (and parents) and checks that files can be written into it, so a bad
/// `--out` fails in milliseconds, not minutes.
pub fn prepare_dir(dir: &Path) -> Result<(), BenchError> {
    let io = |what| {
        move |source| BenchError::Io {
            what,
            path: dir.to_path_buf(),
            source,
        }
    };
    fs::create_dir_all(dir).map_err(io("create output directory"))?;
    let probe = dir.join(".magpie-write-test");
    fs::write(&probe, b"").map_err(io("write into output directory"))?;
    let _ = fs::remove_file(&probe);
    Ok(())
}

/// Writes `contents` to `dir/name` and returns the path.
pub fn write_file(dir: &Path, name: &str, contents: &str) -> Result<PathBuf, BenchError> {
    let path = dir.join(name);
    fs::write(&path, contents).map_err(|source| BenchError::Io {
        what: "write",
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// Serialises `rows` as CSV with a header from their field names (quoted by the `csv`
/// crate where needed); no rows give an empty text, header included.
pub fn csv_text<T: Serialize>(rows: &[T]) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row).expect("writing CSV to memory");
    }
    String::from_utf8(writer.into_inner().expect("flushing CSV")).expect("UTF-8 CSV")
}

/// An experiment's output folder, the files written into it, the report text printed
/// so far and the target checks.
#[derive(Debug)]
pub struct Out {
    /// The folder.
    pub dir: PathBuf,
    pub files: Vec<PathBuf>,
    /// The report, as printed.
    pub text: String,
    pub targets: Vec<TargetCheck>,
}

impl Out {
    /// Prepares `dir` (see [`prepare_dir`]).
    pub fn new(dir: &Path) -> Result<Out, BenchError> {
        prepare_dir(dir)?;
        Ok(Out {
            dir: dir.to_path_buf(),
            files: Vec::new(),
            text: String::new(),
            targets: Vec::new(),
        })
    }

    /// Writes `dir/name`.
    pub fn file(&mut self, name: &str, contents: &str) -> Result<(), BenchError> {
        self.files.push(write_file(&self.dir, name, contents)?);
        Ok(())
    }

    /// Writes `rows` as the CSV file `name` (see [`csv_text`]).
    pub fn rows<T: Serialize>(&mut self, name: &str, rows: &[T]) -> Result<(), BenchError> {
        self.file(name, &csv_text(rows))
    }

    /// Prints `text` and adds it to the report.
    pub fn say(&mut self, text: &str) {
        print!("{text}");
        self.text.push_str(text);
    }

    /// Writes the report as `report` and returns the outcome.
    pub fn finish(mut self, report: &str) -> Result<Outcome, BenchError> {
        let text = std::mem::take(&mut self.text);
        self.file(report, &text)?;
        Ok(Outcome {
            files: self.files,
            targets: self.targets,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unwritable_dir_is_an_error() {
        // A path below a regular file cannot be a directory.
        let file = std::env::temp_dir().join(format!("magpie-out-test-{}", std::process::id()));
        fs::write(&file, b"x").unwrap();
        let err = prepare_dir(&file.join("sub")).unwrap_err();
        assert!(err.to_string().contains("cannot create output directory"));
        fs::remove_file(&file).unwrap();
    }

    #[test]
    fn csv_header_from_field_names_and_quoting() {
        #[derive(Serialize)]
        struct Row {
            name: &'static str,
            #[serde(rename = "impl")]
            implementation: &'static str,
            value: Option<f64>,
        }
        let rows = [
            Row {
                name: "x,y",
                implementation: "a",
                value: Some(2.5),
            },
            Row {
                name: "say \"hi\"",
                implementation: "b",
                value: None,
            },
        ];
        assert_eq!(
            csv_text(&rows),
            "name,impl,value\n\"x,y\",a,2.5\n\"say \"\"hi\"\"\",b,\n"
        );
        assert_eq!(csv_text::<Row>(&[]), "");
    }
}
