//! Output directory handling: create it, fail early with a clear message when it is not
//! writable, and write files with the path in any error.

use std::fs;
use std::path::{Path, PathBuf};

use crate::csv::Csv;
use crate::BenchError;

/// Creates `dir` (and parents) and checks that files can be written into it.
///
/// Done before any measurement so a bad `--out` fails in milliseconds, not minutes.
pub fn prepare_dir(dir: &Path) -> Result<(), BenchError> {
    fs::create_dir_all(dir).map_err(|source| BenchError::Io {
        what: "create output directory",
        path: dir.to_path_buf(),
        source,
    })?;
    let probe = dir.join(".magpie-write-test");
    fs::write(&probe, b"").map_err(|source| BenchError::Io {
        what: "write into output directory",
        path: dir.to_path_buf(),
        source,
    })?;
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

/// Writes an experiment's two tables, one row per run and one per cell, as
/// `dir/{stem}_runs.csv` and `dir/{stem}_summary.csv`; returns both paths.
pub fn write_tables(
    dir: &Path,
    stem: &str,
    runs: &Csv,
    summary: &Csv,
) -> Result<Vec<PathBuf>, BenchError> {
    Ok(vec![
        write_file(dir, &format!("{stem}_runs.csv"), &runs.render())?,
        write_file(dir, &format!("{stem}_summary.csv"), &summary.render())?,
    ])
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
    fn write_tables_names_both_files_after_the_stem() {
        let dir = std::env::temp_dir().join(format!("magpie-tables-test-{}", std::process::id()));
        prepare_dir(&dir).unwrap();
        let mut runs = Csv::new(&["rep", "secs"]);
        runs.row(&["1", "0.5"]);
        let summary = Csv::new(&["median"]);
        let files = write_tables(&dir, "exp", &runs, &summary).unwrap();
        assert_eq!(
            files,
            [dir.join("exp_runs.csv"), dir.join("exp_summary.csv")]
        );
        assert_eq!(fs::read_to_string(&files[0]).unwrap(), runs.render());
        assert_eq!(fs::read_to_string(&files[1]).unwrap(), summary.render());
        fs::remove_dir_all(&dir).unwrap();
    }
}
