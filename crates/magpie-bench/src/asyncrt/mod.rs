//! `magpie bench async`: scheduler microbenchmarks in tokio's style on magpie-async,
//! tokio and smol, 2 workers each; each measurement is the mean of a batch of
//! iterations. Target: magpie ≥ 1× tokio on every workload.

pub mod micro;
pub mod runtimes;

use std::fmt::Write as _;
use std::time::Instant;

use serde::Serialize;

use crate::stats::Summary;
use crate::svg::{Bar, BarChart, BarSeries};
use crate::{BenchError, Outcome, RunOptions, TargetCheck};
use micro::WORKLOADS;
use runtimes::{Kind, Rt, KINDS};

/// Worker threads of every runtime.
pub const WORKERS: usize = 2;

#[derive(Serialize)]
struct RunRow {
    workload: &'static str,
    runtime: &'static str,
    rep: usize,
    iterations: usize,
    us_per_iter: f64,
}

#[derive(Serialize)]
struct SummaryRow {
    workload: &'static str,
    runtime: &'static str,
    median_us: f64,
    min_us: f64,
    max_us: f64,
    spread_pct: f64,
    x_tokio: f64,
}

/// Runs the benchmark.
pub fn run(options: &RunOptions) -> Result<Outcome, BenchError> {
    let mut out = options.out()?;
    let reps = options.reps_or(3, 9);
    let iterations = if options.quick { 10 } else { 50 };
    let rts = KINDS
        .iter()
        .map(|&k| Rt::new(k, WORKERS))
        .collect::<Result<Vec<_>, _>>()?;
    let cells = WORKLOADS.len() * KINDS.len();
    // Warm-up: every cell once.
    for cell in 0..cells {
        micro::run(cell / KINDS.len(), &rts[cell % KINDS.len()]);
    }
    let mut times = vec![Vec::new(); cells];
    let mut runs = Vec::new();
    crate::order::interleave("bench async", cells, reps, |rep, cell| {
        let (w, k) = (cell / KINDS.len(), cell % KINDS.len());
        let start = Instant::now();
        for _ in 0..iterations {
            micro::run(w, &rts[k]);
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / iterations as f64;
        times[cell].push(us);
        runs.push(RunRow {
            workload: WORKLOADS[w],
            runtime: KINDS[k].name(),
            rep,
            iterations,
            us_per_iter: us,
        });
        Ok::<(), BenchError>(())
    })?;
    drop(rts);
    let summaries = Summary::of_each(&times)?;
    let tokio = KINDS.iter().position(|&k| k == Kind::Tokio).expect("tokio");
    let at = |w: usize, k: usize| summaries[w * KINDS.len() + k];
    let mut rows = Vec::new();
    let mut targets = Vec::new();
    for (w, &workload) in WORKLOADS.iter().enumerate() {
        for (k, kind) in KINDS.iter().enumerate() {
            let s = at(w, k);
            rows.push(SummaryRow {
                workload,
                runtime: kind.name(),
                median_us: s.median,
                min_us: s.min,
                max_us: s.max,
                spread_pct: s.spread_pct(),
                x_tokio: at(w, tokio).median / s.median,
            });
        }
        targets.push(TargetCheck {
            name: format!("{workload}: tokio time / magpie time"),
            measured: Some(at(w, tokio).median / at(w, 0).median),
            threshold: 1.0,
        });
    }
    out.rows("async_runs.csv", &runs)?;
    out.rows("async_summary.csv", &rows)?;
    let chart = BarChart {
        title: format!("Scheduler microbenchmarks, {WORKERS} workers, median of {reps}"),
        y_label: "tokio time / time (higher is faster; bars = min..max)".into(),
        x_label: "workload".into(),
        categories: WORKLOADS.iter().map(|w| w.to_string()).collect(),
        series: KINDS
            .iter()
            .enumerate()
            .map(|(k, kind)| {
                BarSeries::new(
                    kind.name(),
                    (0..WORKLOADS.len()).map(|w| {
                        let t = at(w, tokio).median;
                        let s = at(w, k);
                        Some(Bar {
                            value: t / s.median,
                            range: Some((t / s.max, t / s.min)),
                        })
                    }),
                )
            })
            .collect(),
    };
    out.file("async_micro.svg", &chart.render())?;
    let mut text = format!(
        "scheduler microbenchmarks, {WORKERS} workers, {reps} interleaved repetitions of \
         {iterations} iterations{}\n{:<18} {:<7} {:>11} {:>11} {:>11} {:>8} {:>8}\n",
        if options.quick {
            " (QUICK: not evidence)"
        } else {
            ""
        },
        "workload",
        "runtime",
        "median us",
        "min",
        "max",
        "spread%",
        "x tokio"
    );
    for r in &rows {
        let _ = writeln!(
            text,
            "{:<18} {:<7} {:>11.1} {:>11.1} {:>11.1} {:>8.1} {:>8.3}",
            r.workload, r.runtime, r.median_us, r.min_us, r.max_us, r.spread_pct, r.x_tokio
        );
    }
    text.push_str(&crate::table::targets(&targets));
    out.say(&text);
    out.targets = targets;
    out.finish("async_report.txt")
}
