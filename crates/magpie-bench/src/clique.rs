//! Maximum clique against the Glasgow solver: `magpie bench clique`.
//!
//! Per instance and bound: the sequential skeleton on 1 thread (nodes and time beside
//! Glasgow's, measured for issue 23 in another run: only node counts compare exactly) and
//! stack stealing on 2 threads (speedup target ≥ 1.9 on brock400_2 and p_hat300-3).
//! Answers (ω) are checked against each other; `--quick` runs the small instances.

use std::fmt::Write as _;
use std::time::Instant;

use magpie_search::apps::clique::{maximum_clique_with, read_dimacs, CliqueBound, Graph};
use magpie_search::SearchConfig;
use serde::Serialize;

use crate::pool::run::magpie_pool;
use crate::stats::Summary;
use crate::svg::{Bar, BarChart, BarSeries};
use crate::{BenchError, Outcome, RunOptions, TargetCheck};

/// The Glasgow clique solver on this machine (issue 23): instance, seconds, nodes.
pub const GLASGOW: [(&str, f64, u64); 5] = [
    ("brock400_2", 105.2, 136_235_596),
    ("p_hat300-3", 0.63, 580_577),
    ("brock200_1", 0.28, 491_926),
    ("MANN_a27", 0.20, 38_019),
    ("C125.9", 0.03, 35_944),
];

const BOUNDS: [CliqueBound; 2] = [CliqueBound::Colour, CliqueBound::InfraChromatic];

/// Timings per repetition of a run that takes under a second.
const SHORT_SAMPLES: usize = 7;

#[derive(Serialize)]
struct RunRow {
    instance: &'static str,
    bound: String,
    threads: usize,
    rep: usize,
    seconds: f64,
    nodes: u64,
    omega: usize,
}

#[derive(Serialize)]
struct SummaryRow {
    instance: &'static str,
    bound: String,
    nodes: u64,
    seq_median_s: f64,
    seq_min_s: f64,
    seq_max_s: f64,
    two_threads_median_s: f64,
    speedup: f64,
    glasgow_nodes: u64,
    glasgow_s: f64,
    nodes_vs_glasgow: f64,
}

/// Runs the benchmark.
pub fn run(options: &RunOptions) -> Result<Outcome, BenchError> {
    let mut out = options.out()?;
    let quick = options.quick;
    let reps = options.reps_or(1, 3);
    let data = crate::data_dir();
    let instances: Vec<(&'static str, Graph)> = GLASGOW
        .iter()
        .filter(|(name, ..)| !quick || !matches!(*name, "brock400_2" | "p_hat300-3"))
        .map(|&(name, ..)| {
            let path = data.join(format!("dimacs/{name}.clq"));
            read_dimacs(&path).map(|g| (name, g)).map_err(|e| {
                BenchError::Invalid(format!("{}: {e} (set MAGPIE_DATA)", path.display()))
            })
        })
        .collect::<Result<_, _>>()?;
    let (one, two) = (magpie_pool(1)?, magpie_pool(2)?);
    // cells: instance × bound × {1 thread sequential, 2 threads stack stealing}
    let cells = instances.len() * BOUNDS.len() * 2;
    let mut times = vec![Vec::new(); cells];
    let mut nodes = vec![0u64; cells];
    let mut omegas: Vec<Option<usize>> = vec![None; instances.len()];
    let mut runs = Vec::new();
    crate::order::interleave("bench clique", cells, reps, |rep, cell| {
        let (i, rest) = (cell / (BOUNDS.len() * 2), cell % (BOUNDS.len() * 2));
        let (b, parallel) = (rest / 2, rest % 2 == 1);
        let (name, graph) = &instances[i];
        let config = if parallel {
            SearchConfig::stack_stealing(true).in_pool(&two)
        } else {
            SearchConfig::sequential().in_pool(&one)
        };
        // A run under a second is timed SHORT_SAMPLES times per repetition: a median of
        // three is noise for a search of 60 ms.
        for timed in 1.. {
            let start = Instant::now();
            let outcome = maximum_clique_with(graph, BOUNDS[b], &config);
            let seconds = start.elapsed().as_secs_f64();
            let omega = outcome.answer.len();
            if *omegas[i].get_or_insert(omega) != omega || !graph.is_clique(&outcome.answer) {
                return Err(BenchError::Worker(format!("{name}: runs disagree on ω")));
            }
            times[cell].push(seconds);
            nodes[cell] = outcome.stats.nodes_expanded;
            runs.push(RunRow {
                instance: name,
                bound: BOUNDS[b].to_string(),
                threads: if parallel { 2 } else { 1 },
                rep,
                seconds,
                nodes: outcome.stats.nodes_expanded,
                omega,
            });
            if seconds >= 1.0 || timed == SHORT_SAMPLES {
                break;
            }
        }
        Ok(())
    })?;
    let summaries = Summary::of_each(&times)?;
    let mut rows = Vec::new();
    let mut targets = Vec::new();
    for (i, (name, _)) in instances.iter().enumerate() {
        let &(_, glasgow_s, glasgow_nodes) = GLASGOW.iter().find(|g| g.0 == *name).expect("listed");
        for (b, bound) in BOUNDS.iter().enumerate() {
            let seq = i * BOUNDS.len() * 2 + b * 2;
            let (s1, s2) = (summaries[seq], summaries[seq + 1]);
            rows.push(SummaryRow {
                instance: name,
                bound: bound.to_string(),
                nodes: nodes[seq],
                seq_median_s: s1.median,
                seq_min_s: s1.min,
                seq_max_s: s1.max,
                two_threads_median_s: s2.median,
                speedup: s1.median / s2.median,
                glasgow_nodes,
                glasgow_s,
                nodes_vs_glasgow: nodes[seq] as f64 / glasgow_nodes as f64,
            });
            targets.push(TargetCheck {
                name: format!("{name} {bound}: Glasgow nodes / magpie nodes"),
                measured: Some(glasgow_nodes as f64 / nodes[seq] as f64),
                threshold: 1.0,
            });
            if matches!(*name, "brock400_2" | "p_hat300-3") {
                targets.push(TargetCheck {
                    name: format!("{name} {bound}: speedup 1 -> 2 threads"),
                    measured: Some(s1.median / s2.median),
                    threshold: 1.9,
                });
            }
            if *name == "brock400_2" && *bound == CliqueBound::InfraChromatic {
                targets.push(TargetCheck {
                    name:
                        "brock400_2 infra-chromatic: 0.5 x Glasgow time / magpie time (other run)"
                            .into(),
                    measured: Some(0.5 * glasgow_s / s1.median),
                    threshold: 1.0,
                });
            }
        }
    }
    out.rows("clique_runs.csv", &runs)?;
    out.rows("clique_summary.csv", &rows)?;
    out.file("clique_nodes.svg", &chart(&rows).render())?;
    out.say(&report(&rows, &targets, reps, quick));
    out.targets = targets;
    out.finish("clique_report.txt")
}

/// Nodes of each bound as a fraction of the Glasgow solver's, per instance.
fn chart(rows: &[SummaryRow]) -> BarChart {
    let mut instances: Vec<&str> = rows.iter().map(|r| r.instance).collect();
    instances.dedup();
    BarChart {
        title: "Maximum clique: nodes of the sequential search / Glasgow's nodes".into(),
        y_label: "nodes / Glasgow nodes (< 1 = fewer)".into(),
        x_label: "instance".into(),
        categories: instances.iter().map(|s| s.to_string()).collect(),
        series: BOUNDS
            .iter()
            .map(|bound| {
                BarSeries::new(
                    bound.to_string(),
                    instances.iter().map(|i| {
                        rows.iter()
                            .find(|r| r.instance == *i && r.bound == bound.to_string())
                            .map(|r| Bar {
                                value: r.nodes_vs_glasgow,
                                range: None,
                            })
                    }),
                )
            })
            .collect(),
    }
}

fn report(rows: &[SummaryRow], targets: &[TargetCheck], reps: usize, quick: bool) -> String {
    let mut text = format!(
        "maximum clique, sequential skeleton (1 thread) and stack stealing (2 threads), median of {reps} \
         repetitions ({SHORT_SAMPLES} timings each for runs under a second){}\n\
         {:<12} {:<16} {:>12} {:>22} {:>9} {:>8} {:>12} {:>9} {:>9}\n",
        if quick { " (QUICK: small instances only)" } else { "" },
        "instance", "bound", "nodes", "1 thread s [min..max]", "2 thr s", "speedup", "Glasgow nodes", "Glasgow s", "nodes/G"
    );
    for r in rows {
        let _ =
            writeln!(
            text,
            "{:<12} {:<16} {:>12} {:>8.3} [{:.3}..{:.3}] {:>9.3} {:>8.2} {:>12} {:>9.2} {:>9.2}",
            r.instance, r.bound, r.nodes, r.seq_median_s, r.seq_min_s, r.seq_max_s,
            r.two_threads_median_s, r.speedup, r.glasgow_nodes, r.glasgow_s, r.nodes_vs_glasgow
        );
    }
    text + &crate::table::targets(targets)
}
