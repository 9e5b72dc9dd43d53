//! Running the MPI build of `magpie` under `mpirun` for the distributed benchmarks
//! ([`dist`](crate::dist), [`nodepolicy`](crate::nodepolicy)), and writing their rows.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::BenchError;

/// `magpie search ARGS --threads THREADS --json` on `ranks` ranks under `mpirun
/// --bind-to none` (Open MPI binds each of up to two ranks to one core by default,
/// which would put all threads of a rank on one core); its JSON record.
pub fn search(
    magpie: &Path,
    ranks: usize,
    threads: usize,
    args: &[String],
) -> Result<Value, BenchError> {
    let output = Command::new("mpirun")
        .args([
            "--allow-run-as-root",
            "--oversubscribe",
            "--bind-to",
            "none",
            "-n",
        ])
        .arg(ranks.to_string())
        .arg(magpie)
        .arg("search")
        .args(args)
        .args(["--threads", &threads.to_string(), "--json", "--no-progress"])
        .output()
        .map_err(|e| BenchError::Invalid(format!("cannot start mpirun: {e}")))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(BenchError::Worker(format!(
            "mpirun -n {ranks} {args:?}: {}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    let record = stdout
        .lines()
        .find(|l| l.starts_with('{'))
        .ok_or_else(|| BenchError::Worker(format!("no JSON record from {args:?}: {stdout}")))?;
    serde_json::from_str(record).map_err(|e| BenchError::Worker(format!("bad JSON: {e}")))
}

/// The words of `line` (split at white space) as arguments.
pub fn args(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

/// The number at `path` in `record`; an error if it is absent (a record of another
/// version of `magpie`, whose zeros would pass for measurements).
pub fn number(record: &Value, path: &[&str]) -> Result<f64, BenchError> {
    path.iter()
        .fold(record, |v, key| &v[*key])
        .as_f64()
        .ok_or_else(|| {
            BenchError::Worker(format!(
                "no number at {} in the JSON record",
                path.join(".")
            ))
        })
}

/// The part of a search's answer that every run must agree on: a clique's size (its
/// vertices may differ), otherwise the whole answer.
pub fn exact_answer(record: &Value) -> Value {
    match record["answer"].get("size") {
        Some(size) => size.clone(),
        None => record["answer"].clone(),
    }
}

/// Checks `magpie` exists (it must be the MPI build).
pub fn check_binary(magpie: &Path) -> Result<(), BenchError> {
    if magpie.exists() {
        return Ok(());
    }
    Err(BenchError::Invalid(format!(
        "{} not found: build it with cargo build --release -p magpie-cli --features mpi",
        magpie.display()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_number_is_an_error_not_zero() {
        let record: Value = serde_json::json!({"stats": {"seconds": 1.5}});
        assert_eq!(number(&record, &["stats", "seconds"]).unwrap(), 1.5);
        let missing = number(&record, &["stats", "nodes_expanded"]).unwrap_err();
        assert!(
            missing.to_string().contains("stats.nodes_expanded"),
            "{missing}"
        );
    }
}
