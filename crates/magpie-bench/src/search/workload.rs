//! The search workloads: an instance that runs under any skeleton configuration and,
//! for the overhead experiment, as a hand-written solver; every run returns a fingerprint
//! of its answer so the harness can check that all runs agree.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use magpie_search::apps::{clique, knapsack, semigroups, uts};
use magpie_search::{SearchConfig, SearchStats};

use crate::BenchError;

/// One instance of one application.
pub enum Workload {
    /// Maximum clique of a DIMACS graph.
    Clique {
        /// File stem, e.g. `brock200_4`.
        name: String,
        graph: clique::Graph,
    },
    /// Numerical semigroups counted up to a genus.
    Semigroups {
        /// The largest genus.
        genus: usize,
    },
    /// A UTS tree.
    Uts {
        /// Preset name or parameter string.
        name: String,
        /// Its parameters.
        params: uts::UtsParams,
    },
    /// A 0/1 knapsack instance.
    Knapsack {
        /// File stem.
        name: String,
        instance: knapsack::KnapsackInstance,
    },
}

/// One timed run: its answer's fingerprint, wall time and the search statistics.
pub struct RunResult {
    /// A printable summary of the answer, equal across correct runs.
    pub answer: String,
    pub time: Duration,
    /// The skeleton's statistics (`None` for a hand-written solver).
    pub stats: Option<SearchStats>,
}

impl Workload {
    /// A DIMACS graph from `dir`.
    pub fn clique(dir: &Path, stem: &str) -> Result<Self, BenchError> {
        let path = dir.join(format!("dimacs/{stem}.clq"));
        let graph = clique::read_dimacs(&path).map_err(|e| invalid(&path, e))?;
        Ok(Self::Clique {
            name: stem.into(),
            graph,
        })
    }

    /// A UTS tree from a preset name or parameter string.
    pub fn uts(tree: &str) -> Result<Self, BenchError> {
        let params = tree
            .parse()
            .map_err(|e| BenchError::Invalid(format!("UTS tree {tree}: {e}")))?;
        Ok(Self::Uts {
            name: tree.into(),
            params,
        })
    }

    /// A knapsack file below `dir`.
    pub fn knapsack(dir: &Path, relative: &str) -> Result<Self, BenchError> {
        let path = dir.join(format!("knapsack/{relative}"));
        let instance = knapsack::read_knapsack(&path).map_err(|e| invalid(&path, e))?;
        let name = Path::new(relative)
            .file_stem()
            .map_or_else(|| relative.into(), |s| s.to_string_lossy().into_owned());
        Ok(Self::Knapsack { name, instance })
    }

    /// A short label for tables, e.g. `clique brock200_4`.
    pub fn label(&self) -> String {
        match self {
            Self::Clique { name, .. } => format!("clique {name}"),
            Self::Semigroups { genus } => format!("NS genus {genus}"),
            Self::Uts { name, .. } => format!("UTS {name}"),
            Self::Knapsack { name, .. } => format!("knapsack {name}"),
        }
    }

    /// The spawn depth the depth-bounded coordination uses for this workload: deep
    /// enough for a few hundred tasks (the semigroup tree has 1, 1, 2, 4, 7 ... nodes
    /// per level, a knapsack tree is binary, a clique root has one child per vertex).
    pub fn spawn_depth(&self) -> usize {
        match self {
            Self::Clique { .. } => 2,
            Self::Semigroups { genus } => genus * 2 / 3,
            Self::Uts { .. } => 4,
            Self::Knapsack { .. } => 8,
        }
    }

    /// The answer the data README states, if any, in fingerprint form.
    pub fn known_answer(&self) -> Option<String> {
        match self {
            Self::Knapsack { instance, .. } => instance
                .stated_optimum()
                .map(|optimum| format!("profit {optimum}")),
            _ => None,
        }
    }

    /// Runs the skeleton with `config`.
    pub fn run(&self, config: &SearchConfig<'_>) -> Result<RunResult, BenchError> {
        let start = Instant::now();
        let (answer, stats) = match self {
            Self::Clique { graph, .. } => {
                let outcome = clique::maximum_clique(graph, config);
                (format!("omega {}", outcome.answer.len()), outcome.stats)
            }
            Self::Semigroups { genus } => {
                let outcome = semigroups::count_by_genus(*genus, config)
                    .map_err(|e| BenchError::Invalid(e.to_string()))?;
                (counts(&outcome.answer), outcome.stats)
            }
            Self::Uts { params, .. } => {
                let outcome = uts::uts_count(params, config);
                (tree(&outcome.answer), outcome.stats)
            }
            Self::Knapsack { instance, .. } => {
                let outcome = knapsack::knapsack(instance, config);
                (format!("profit {}", outcome.answer.profit), outcome.stats)
            }
        };
        Ok(RunResult {
            answer,
            time: start.elapsed(),
            stats: Some(stats),
        })
    }

    /// Runs the plain recursive solver of the same algorithm (no framework).
    pub fn run_handwritten(&self) -> Result<RunResult, BenchError> {
        let start = Instant::now();
        let answer = match self {
            Self::Clique { graph, .. } => {
                format!("omega {}", clique::reference::maximum_clique(graph).0.len())
            }
            Self::Semigroups { genus } => counts(
                &semigroups::reference::count_by_genus(*genus)
                    .map_err(|e| BenchError::Invalid(e.to_string()))?,
            ),
            Self::Uts { params, .. } => tree(&uts::reference::summarise(params)),
            Self::Knapsack { .. } => {
                return Err(BenchError::Invalid(format!(
                    "{}: no hand-written solver",
                    self.label()
                )))
            }
        };
        Ok(RunResult {
            answer,
            time: start.elapsed(),
            stats: None,
        })
    }
}

fn invalid(path: &Path, error: impl std::fmt::Display) -> BenchError {
    let path: PathBuf = path.into();
    BenchError::Invalid(format!(
        "{}: {error} (set MAGPIE_DATA to the shared data folder)",
        path.display()
    ))
}

fn counts(per_genus: &[u64]) -> String {
    let last = per_genus.last().copied().unwrap_or_default();
    let total: u64 = per_genus.iter().sum();
    format!("{last} of max genus, {total} in all")
}

fn tree(summary: &uts::TreeSummary) -> String {
    format!(
        "{} nodes, {} leaves, depth {}",
        summary.nodes, summary.leaves, summary.max_depth
    )
}
