//! Benchmarks of the two-lock MPMC queue (`magpie_queue::twolock`) after section V of
//! "two-lock queue optimizations": [`throughput`] (`N` items, `P` producers, `K`
//! consumers, every paper configuration and the peers), [`sides`] (push-only, pop-only)
//! and [`batch`] (`pop_batch(32)` vs 32 × `try_pop`), all on the loops of [`mod@run`].

pub mod batch;
pub mod configs;
pub mod peers;
pub mod run;
pub mod sides;
pub mod throughput;

use std::time::Duration;

use crate::stats::{CellSummaries, Summary};
use crate::svg::{BarChart, BarSeries};
use crate::table::{si, Table};
use crate::{affinity, BenchError, Outcome, RunOptions};

/// Sizes of the experiments, derived from `--quick` and `--reps`.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Items per run.
    pub items: u64,
    /// Repetitions per configuration.
    pub reps: usize,
    /// Cores available to this process.
    pub cores: usize,
    /// Time cap of one throughput run (see [`run::Limits::cap`]): about 5× the slowest
    /// normal run on a busy 2-core machine, so only collapsed configurations hit it.
    pub run_cap: Duration,
}

impl Params {
    /// Quick: 200k items, 3 repetitions; default: 2M items, 7 repetitions.
    pub fn new(opts: &RunOptions) -> Params {
        Params {
            items: if opts.quick { 200_000 } else { 2_000_000 },
            reps: opts.reps_or(3, 7),
            cores: affinity::available_cores(),
            run_cap: Duration::from_millis(if opts.quick { 250 } else { 1000 }),
        }
    }
}

/// Runs the three experiments, prints tables and writes CSV + SVG + report.txt.
pub fn run(opts: &RunOptions) -> Result<Outcome, BenchError> {
    let mut out = opts.out()?;
    let p = Params::new(opts);
    out.say(&format!(
        "twolock bench: N = {} u64 items per run, {} reps; {} core(s) available; {}\n",
        p.items,
        p.reps,
        p.cores,
        affinity::load_note(p.cores, "see spread %")
    ));
    throughput::run(&p, &mut out)?;
    sides::run(&p, &mut out)?;
    batch::run(&p, &mut out)?;
    let all = crate::table::targets(&out.targets);
    out.say(&format!("\n== twolock targets (all) ==\n{all}"));
    out.finish("report.txt")
}

/// One run of an experiment's cell: the cell, its repetition (from 1) and its timing.
struct Measured<K> {
    cell: K,
    rep: usize,
    run: run::Run,
}

/// Measures `cells` `p.reps` times, interleaved, with `run`; returns every run in run
/// order and the summaries of each cell's items/s.
fn measure<K: Copy + PartialEq>(
    p: &Params,
    experiment: &str,
    cells: &[K],
    mut run: impl FnMut(K) -> Result<run::Run, BenchError>,
) -> Result<(Vec<Measured<K>>, CellSummaries<K>), BenchError> {
    let mut runs = Vec::new();
    let mut samples = vec![Vec::new(); cells.len()];
    let what = format!("twolock {experiment}");
    crate::order::interleave(&what, cells.len(), p.reps, |rep, c| {
        let r = run(cells[c])?;
        samples[c].push(r.items_per_sec());
        runs.push(Measured {
            cell: cells[c],
            rep: rep + 1,
            run: r,
        });
        Ok::<(), BenchError>(())
    })?;
    Ok((runs, CellSummaries::new(cells, &samples)?))
}

/// A table of summaries: the `keys` columns, median, min, max (items/s), spread, `extra`.
fn summary_table(keys: &[&str], extra: &[&str]) -> Table {
    let stats = ["median items/s", "min", "max", "spread %"];
    Table::new(&[keys, &stats, extra].concat(), keys.len())
}

/// A row of a [`summary_table`]: `key`, the summary's columns and `extra`.
fn summary_row(key: Vec<String>, s: &Summary, extra: String) -> Vec<String> {
    let mut row = key;
    row.extend([si(s.median), si(s.min), si(s.max)]);
    row.extend([format!("{:.1}", s.spread_pct()), extra]);
    row
}

/// A bar chart of medians in items/s, with min..max error bars.
fn items_chart(
    title: String,
    x_label: String,
    categories: Vec<String>,
    series: Vec<BarSeries>,
) -> String {
    BarChart {
        title,
        y_label: "items / s (bars = min..max)".into(),
        x_label,
        categories,
        series,
    }
    .render()
}
