//! `magpie tour`: the README's first command. Runs one parallel search (maximum
//! clique of brock200_4 with stack stealing on every core, checked against its known
//! clique number) and the quick queue benchmark, printing each one's result and where
//! the files went.
//!
//! The graph is embedded in the binary (a copy in `crates/magpie-cli/data/`, with its
//! provenance beside it), so the tour runs on a bare clone or an installed `magpie`
//! with no files around it. `--data DIR` (or `MAGPIE_DATA`) reads the graph from a
//! folder laid out like `../shared/data` instead, and `--graph NAME` picks another of
//! its DIMACS instances, e.g. a bigger one.

use std::fmt;
use std::path::PathBuf;

use clap::Args;
use magpie_bench::queue::{self, QueueOptions};
use magpie_bench::{BenchError, RunOptions};
use magpie_search::apps::clique::{parse_dimacs, read_dimacs, Graph};

use crate::search::{self, SearchError};

/// The tour's default graph, embedded: DIMACS brock200_4 (200 vertices, ω = 17).
const EMBEDDED_NAME: &str = "brock200_4";
const EMBEDDED_PATH: &str = "crates/magpie-cli/data/brock200_4.clq";
const EMBEDDED_GRAPH: &str = include_str!("../data/brock200_4.clq");

/// The clique numbers of the DIMACS instances in `../shared/data/dimacs` (its README),
/// so that a tour on any of them checks its answer.
const KNOWN_CLIQUE_NUMBERS: [(&str, usize); 13] = [
    ("brock200_1", 21),
    ("brock200_2", 12),
    ("brock200_4", 17),
    ("C125.9", 34),
    ("keller4", 11),
    ("hamming8-4", 16),
    ("MANN_a27", 126),
    ("p_hat300-1", 8),
    ("p_hat300-2", 25),
    ("p_hat300-3", 36),
    ("san200_0.7_1", 30),
    ("brock400_2", 29),
    ("brock800_2", 24),
];

#[derive(Args, Debug)]
pub struct TourArgs {
    /// Read the graph from DIR/dimacs/<NAME>.clq (a folder laid out like ../shared/data)
    /// instead of the copy embedded in the binary
    #[arg(long, value_name = "DIR", env = "MAGPIE_DATA")]
    data: Option<PathBuf>,
    /// The DIMACS instance to search; only brock200_4 is embedded, any other needs --data
    #[arg(long, value_name = "NAME", default_value = EMBEDDED_NAME)]
    graph: String,
    /// Where the queue benchmark writes its CSV, SVG and report
    #[arg(long, value_name = "DIR", default_value = "bench-results/tour")]
    out: PathBuf,
}

/// Why the tour stopped: its search's error (with that error's exit status) or its
/// benchmark's.
#[derive(Debug)]
pub enum TourError {
    /// The search part: reading the graph, the pool, the search, or a wrong answer.
    Search(SearchError),
    /// The benchmark part.
    Bench(BenchError),
}

impl TourError {
    /// The exit status: the search error's (2 for a usage error), 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Search(e) => e.exit_code(),
            Self::Bench(_) => 1,
        }
    }
}

impl fmt::Display for TourError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Search(e) => e.fmt(f),
            Self::Bench(e) => e.fmt(f),
        }
    }
}

impl From<SearchError> for TourError {
    fn from(e: SearchError) -> Self {
        Self::Search(e)
    }
}

/// The graph to search and how the report names it.
fn load_graph(args: &TourArgs) -> Result<(String, Graph), SearchError> {
    match &args.data {
        Some(dir) => {
            let path = dir.join("dimacs").join(format!("{}.clq", args.graph));
            let graph = read_dimacs(&path)
                .map_err(|e| SearchError::input(path.display().to_string(), e))?;
            Ok((path.display().to_string(), graph))
        }
        None if args.graph == EMBEDDED_NAME => {
            let graph = parse_dimacs(EMBEDDED_GRAPH)
                .map_err(|e| SearchError::input(format!("the embedded {EMBEDDED_PATH}"), e))?;
            Ok((format!("{EMBEDDED_PATH} (embedded)"), graph))
        }
        None => Err(SearchError::Usage(format!(
            "only {EMBEDDED_NAME} is embedded; --graph {} needs --data DIR (or MAGPIE_DATA) \
             with DIR/dimacs/{}.clq",
            args.graph, args.graph
        ))),
    }
}

pub fn tour(args: &TourArgs) -> Result<(), TourError> {
    let (input, graph) = load_graph(args)?;
    let known = KNOWN_CLIQUE_NUMBERS
        .iter()
        .find(|(name, _)| *name == args.graph)
        .map(|&(_, omega)| omega);
    println!("== 1. search: maximum clique of {input} ==");
    let known_text = known.map_or(String::new(), |omega| format!(" ; known ω = {omega}"));
    let file = match &args.data {
        Some(_) => input.as_str(),
        None => EMBEDDED_PATH,
    };
    println!("   (magpie search clique {file}{known_text})\n");
    let mut report = search::clique_for_tour(&input, &graph)?;
    if let Some(omega) = known {
        let matches = report.answer_size() == Some(omega);
        report = report.check(
            matches,
            format!("the known clique number of {} ({omega})", args.graph),
        );
    }
    print!("{}", report.text());
    if let Some(known) = report.contradicted_known_answer() {
        return Err(SearchError::WrongAnswer(known.to_string()).into());
    }

    println!("\n== 2. benchmark: BWoS queue vs crossbeam-deque and st3, quick mode ==");
    println!("   (magpie bench queue --quick)\n");
    let options = QueueOptions {
        common: RunOptions {
            quick: true,
            reps: None,
            out_dir: args.out.join("queue"),
        },
        only: None,
    };
    let outcome = queue::run(&options).map_err(TourError::Bench)?;
    println!("\nfiles written:");
    for file in &outcome.files {
        println!("  {}", file.display());
    }
    println!(
        "\nNext: `magpie search --help`, `magpie bench all` (the full benchmarks), BENCHMARKS.md."
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_graph_is_brock200_4() {
        let graph = parse_dimacs(EMBEDDED_GRAPH).expect("the embedded copy parses");
        assert_eq!(graph.order(), 200);
        assert_eq!(graph.edge_count(), 13089);
    }

    #[test]
    fn other_graphs_need_a_data_folder() {
        let args = TourArgs {
            data: None,
            graph: "brock400_2".into(),
            out: PathBuf::from("unused"),
        };
        let error = load_graph(&args).unwrap_err();
        assert_eq!(error.exit_code(), 2, "a usage error");
        let error = error.to_string();
        assert!(error.contains("--data"), "{error}");
        let args = TourArgs {
            data: Some(PathBuf::from("/nonexistent")),
            graph: EMBEDDED_NAME.into(),
            out: PathBuf::from("unused"),
        };
        let error = load_graph(&args).unwrap_err();
        assert_eq!(error.exit_code(), 1);
        let error = error.to_string();
        assert!(
            error.contains("/nonexistent/dimacs/brock200_4.clq"),
            "{error}"
        );
    }
}
