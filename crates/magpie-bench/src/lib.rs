//! magpie-bench: the benchmark harness behind `magpie bench ...`.
//!
//! Every speed claim is a ratio of medians measured in one run against a peer or a
//! sequential bound, with repetitions and spread; the one exception is [`nodepolicy`],
//! which reproduces the YewPar thesis's evaluation and so its formula (eq. 4.1, a ratio
//! of means). Shared pieces: [`stats`], [`output`],
//! [`table`], [`svg`], [`order`], [`progress`], [`affinity`]; the experiments are listed in
//! [`registry`] (plus [`dist`] and [`nodepolicy`], which run the MPI build under `mpirun`).

pub mod affinity;
pub mod asyncrt;
pub mod clique;
pub mod dist;
pub mod http;
pub mod iter;
pub mod mpirun;
pub mod nodepolicy;
pub mod order;
pub mod output;
pub mod pool;
pub mod poolexp;
pub mod progress;
pub mod queue;
pub mod registry;
pub mod search;
pub mod stats;
pub mod svg;
pub mod table;
pub mod twolock;

use std::fmt;
use std::path::PathBuf;

/// Options every benchmark understands.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Short mode for CI: fewer rounds and repetitions, same code paths.
    pub quick: bool,
    /// Repetitions per configuration; `None` = the benchmark's default.
    pub reps: Option<usize>,
    /// Directory the CSV and SVG files are written to.
    pub out_dir: PathBuf,
}

impl RunOptions {
    /// The output folder, prepared (see [`output::Out::new`]); an error for `--reps 0`.
    pub fn out(&self) -> Result<output::Out, BenchError> {
        if self.reps == Some(0) {
            return Err(BenchError::Invalid("--reps must be at least 1".into()));
        }
        output::Out::new(&self.out_dir)
    }

    /// `--reps` if given, else `quick` or `full` repetitions.
    pub fn reps_or(&self, quick: usize, full: usize) -> usize {
        self.reps.unwrap_or(if self.quick { quick } else { full })
    }
}

/// The shared data folder: `MAGPIE_DATA`, default `../shared/data`.
pub fn data_dir() -> PathBuf {
    std::env::var_os("MAGPIE_DATA").map_or_else(|| PathBuf::from("../shared/data"), PathBuf::from)
}

/// [`data_dir`], or an error saying where it was looked for and how to point at it.
pub fn existing_data_dir() -> Result<PathBuf, BenchError> {
    let data = data_dir();
    if data.is_dir() {
        Ok(data)
    } else {
        Err(BenchError::Invalid(format!(
            "data folder {} not found: run from the repository root with ../shared \
             beside it, or set MAGPIE_DATA",
            data.display()
        )))
    }
}

/// Why a benchmark could not run or could not write its results.
#[derive(Debug)]
pub enum BenchError {
    /// A file system operation on `path` failed.
    Io {
        /// What was being done, e.g. "create output directory".
        what: &'static str,
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Invalid options or an unsupported configuration.
    Invalid(String),
    /// A benchmark thread failed.
    Worker(String),
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Io { what, path, source } => {
                write!(f, "cannot {what} {}: {source}", path.display())
            }
            BenchError::Invalid(msg) => write!(f, "{msg}"),
            BenchError::Worker(msg) => write!(f, "benchmark failed: {msg}"),
        }
    }
}

impl std::error::Error for BenchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BenchError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// What a benchmark run produced.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Files written (CSV, SVG, text report).
    pub files: Vec<PathBuf>,
    /// Target checks with their verdicts.
    pub targets: Vec<TargetCheck>,
}

/// One stated target (e.g. "magpie ≥ 0.9× sequential") and the measured ratio.
#[derive(Clone, Debug)]
pub struct TargetCheck {
    /// What is claimed.
    pub name: String,
    /// Measured ratio of medians (of means in [`nodepolicy`]); `None` when it could not be
    /// computed or the runs behind it are not valid (then the target is not met).
    pub measured: Option<f64>,
    /// The threshold the ratio must reach.
    pub threshold: f64,
}

impl TargetCheck {
    /// Whether the measured ratio reaches the threshold.
    pub fn passed(&self) -> bool {
        self.measured.is_some_and(|m| m >= self.threshold)
    }
}
