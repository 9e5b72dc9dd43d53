//! Overhead of distribution: `magpie bench dist`.
//!
//! The same search on 2 ranks × 1 thread and on 1 rank × 2 threads of the MPI build,
//! both under `mpirun --bind-to none` (Open MPI would bind the single rank's threads to
//! one core), alternated within every repetition. Target: two ranks at ≥ 0.9× one rank's
//! speed; reported with messages and bytes per stolen task and the idle ranks' CPU.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::svg::{Bar, BarChart, BarSeries};
use serde::Serialize;
use serde_json::Value;

use crate::output;
use crate::stats::{ratio_of_medians, Summary};
use crate::{mpirun, BenchError, Outcome, RunOptions, TargetCheck};

/// `magpie bench dist`'s options.
#[derive(Clone, Debug)]
pub struct DistOptions {
    /// Quick mode, repetitions, output folder.
    pub common: RunOptions,
    /// The MPI build of `magpie` to start under `mpirun`.
    pub magpie: PathBuf,
}

/// A run layout: ranks × threads per rank.
#[derive(Clone, Copy, Debug)]
struct Layout {
    name: &'static str,
    ranks: usize,
    threads: usize,
}

const LAYOUTS: [Layout; 2] = [
    Layout {
        name: "1 rank x 2 threads",
        ranks: 1,
        threads: 2,
    },
    Layout {
        name: "2 ranks x 1 thread",
        ranks: 2,
        threads: 1,
    },
];

/// The target: two ranks at least this fraction of one rank's speed.
const TARGET: f64 = 0.9;

/// One measured run (a row of `dist_runs.csv`).
#[derive(Debug, Serialize)]
struct Run {
    workload: String,
    layout: &'static str,
    rep: usize,
    seconds: f64,
    nodes: u64,
    steals: u64,
    messages: u64,
    bytes: u64,
    work_bytes: u64,
    idle_seconds: f64,
    idle_cpu_seconds: f64,
}

/// One workload's summary (a row of `dist_summary.csv`).
#[derive(Debug, Serialize)]
struct Row {
    workload: String,
    one_rank_median_s: f64,
    one_rank_min_s: f64,
    one_rank_max_s: f64,
    two_ranks_median_s: f64,
    two_ranks_min_s: f64,
    two_ranks_max_s: f64,
    speed_ratio: f64,
    messages_per_steal: f64,
    bytes_per_steal: f64,
    work_bytes_per_steal: f64,
    idle_cpu_percent: f64,
}

fn workloads(quick: bool, out: &Path) -> Result<Vec<(String, Vec<String>)>, BenchError> {
    let (genus, tree, (n, p)) = if quick {
        ("24", "t=1,a=3,d=9,b=4,r=19", (150, 0.8))
    } else {
        ("30", "T1", (300, 0.7))
    };
    let graph = write_random_graph(out, n, p, 7)?;
    let budget = "--skeleton budget -b 1000";
    let mut clique = vec!["clique".to_string(), graph];
    clique.extend(mpirun::args("--skeleton depth-bounded -d 2"));
    Ok(vec![
        (
            format!("NS genus {genus}"),
            mpirun::args(&format!("semigroups -g {genus} {budget}")),
        ),
        (
            format!("UTS {tree}"),
            mpirun::args(&format!("uts {tree} {budget}")),
        ),
        (format!("clique G({n},{p})"), clique),
    ])
}

/// Writes G(n, p) (each edge present with probability `p`, from `seed`) as DIMACS.
fn write_random_graph(out: &Path, n: usize, p: f64, seed: u64) -> Result<String, BenchError> {
    let mut rng = magpie::Rng::new(seed);
    let mut edges = String::new();
    let mut count = 0;
    for u in 1..=n {
        for v in u + 1..=n {
            if (rng.next_bits() >> 11) as f64 / (1u64 << 53) as f64 > p {
                continue;
            }
            let _ = writeln!(edges, "e {u} {v}");
            count += 1;
        }
    }
    let name = format!("random_{n}_{}.clq", (p * 100.0).round());
    let text = format!("c G({n}, {p}), seed {seed}\np edge {n} {count}\n{edges}");
    Ok(output::write_file(out, &name, &text)?.display().to_string())
}

/// Runs the benchmark: every workload, layouts alternated within each repetition.
pub fn run(options: &DistOptions) -> Result<Outcome, BenchError> {
    let mut out = options.common.out()?;
    mpirun::check_binary(&options.magpie)?;
    let reps = options.common.reps_or(3, 11);
    let mut runs = Vec::new();
    let mut rows = Vec::new();
    for (workload, args) in workloads(options.common.quick, &out.dir)? {
        let mut answer: Option<Value> = None;
        let mut seconds: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        for rep in 0..reps {
            // Alternate which layout goes first.
            for i in [rep % 2, 1 - rep % 2] {
                let layout = LAYOUTS[i];
                let record = mpirun::search(&options.magpie, layout.ranks, layout.threads, &args)?;
                let exact = mpirun::exact_answer(&record);
                match &answer {
                    None => answer = Some(exact),
                    Some(a) if *a != exact => {
                        return Err(BenchError::Worker(format!(
                            "{workload}: answers differ: {a} and {exact}"
                        )))
                    }
                    Some(_) => {}
                }
                let total = &record["stats"]["ranks"]["total"];
                let run = Run {
                    workload: workload.clone(),
                    layout: layout.name,
                    rep,
                    seconds: mpirun::number(&record, &["stats", "seconds"])?,
                    nodes: mpirun::number(&record, &["stats", "nodes_expanded"])? as u64,
                    steals: mpirun::number(total, &["steals_succeeded"])? as u64,
                    messages: mpirun::number(total, &["messages_sent"])? as u64,
                    bytes: mpirun::number(total, &["bytes_sent"])? as u64,
                    work_bytes: mpirun::number(total, &["work_bytes_sent"])? as u64,
                    idle_seconds: mpirun::number(total, &["idle_seconds"])?,
                    idle_cpu_seconds: mpirun::number(total, &["idle_cpu_seconds"])?,
                };
                eprintln!(
                    "  {workload}, {}, rep {rep}: {:.3}s, {} steals",
                    layout.name, run.seconds, run.steals
                );
                seconds[i].push(run.seconds);
                runs.push(run);
            }
        }
        let (one, two) = (Summary::try_of(&seconds[0])?, Summary::try_of(&seconds[1])?);
        // Speed ratio: one rank's time over two ranks' (> 1: two ranks faster).
        // `None` (n/a, not met) if a median is zero: no figure is made up.
        let ratio = ratio_of_medians(&one, &two);
        let distributed: Vec<&Run> = runs
            .iter()
            .filter(|r| r.workload == workload && r.layout == LAYOUTS[1].name)
            .collect();
        let sum = |f: &dyn Fn(&Run) -> f64| distributed.iter().map(|r| f(r)).sum::<f64>();
        let steals = sum(&|r| r.steals as f64).max(1.0);
        let idle = sum(&|r| r.idle_seconds);
        rows.push(Row {
            workload: workload.clone(),
            one_rank_median_s: one.median,
            one_rank_min_s: one.min,
            one_rank_max_s: one.max,
            two_ranks_median_s: two.median,
            two_ranks_min_s: two.min,
            two_ranks_max_s: two.max,
            speed_ratio: ratio.unwrap_or(f64::NAN),
            messages_per_steal: sum(&|r| r.messages as f64) / steals,
            bytes_per_steal: sum(&|r| r.bytes as f64) / steals,
            work_bytes_per_steal: sum(&|r| r.work_bytes as f64) / steals,
            idle_cpu_percent: if idle > 0.0 {
                100.0 * sum(&|r| r.idle_cpu_seconds) / idle
            } else {
                0.0
            },
        });
        out.targets.push(TargetCheck {
            name: format!("{workload}: 2 ranks x 1 thread >= {TARGET}x 1 rank x 2 threads"),
            measured: ratio,
            threshold: TARGET,
        });
    }
    out.rows("dist_runs.csv", &runs)?;
    out.rows("dist_summary.csv", &rows)?;
    out.file("dist.svg", &chart(&rows).render())?;
    let text = report(&rows, reps) + &crate::table::targets(&out.targets);
    out.say(&text);
    out.finish("dist_report.txt")
}

fn report(rows: &[Row], reps: usize) -> String {
    let mut text = format!(
        "distribution overhead, {reps} repetitions per layout (median s [min..max])\n\
         {:<24} {:>22} {:>22} {:>7} {:>9} {:>9} {:>9} {:>7}\n",
        "workload",
        "1 rank x 2 threads",
        "2 ranks x 1 thread",
        "ratio",
        "msg/steal",
        "B/steal",
        "workB/st",
        "idleCPU"
    );
    for r in rows {
        let _ = writeln!(
            text,
            "{:<24} {:>7.3} [{:.3}..{:.3}] {:>7.3} [{:.3}..{:.3}] {:>6.2} {:>9.1} {:>9.0} {:>9.0} {:>6.1}%",
            r.workload,
            r.one_rank_median_s,
            r.one_rank_min_s,
            r.one_rank_max_s,
            r.two_ranks_median_s,
            r.two_ranks_min_s,
            r.two_ranks_max_s,
            r.speed_ratio,
            r.messages_per_steal,
            r.bytes_per_steal,
            r.work_bytes_per_steal,
            r.idle_cpu_percent
        );
    }
    text
}

/// Median seconds per workload and layout, with min–max whiskers.
fn chart(rows: &[Row]) -> BarChart {
    let bars = |one_rank: bool| -> Vec<Option<Bar>> {
        rows.iter()
            .map(|r| {
                Some(if one_rank {
                    Bar {
                        value: r.one_rank_median_s,
                        range: Some((r.one_rank_min_s, r.one_rank_max_s)),
                    }
                } else {
                    Bar {
                        value: r.two_ranks_median_s,
                        range: Some((r.two_ranks_min_s, r.two_ranks_max_s)),
                    }
                })
            })
            .collect()
    };
    BarChart {
        title: "distribution overhead: median search time".into(),
        y_label: "seconds (min..max)".into(),
        x_label: "workload".into(),
        categories: rows.iter().map(|r| r.workload.clone()).collect(),
        series: vec![
            BarSeries::new(LAYOUTS[0].name, bars(true)),
            BarSeries::new(LAYOUTS[1].name, bars(false)),
        ],
    }
}
