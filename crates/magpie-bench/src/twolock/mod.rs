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

use crate::csv::Csv;
use crate::output::Out;
use crate::stats::{CellSummaries, Summary};
use crate::svg::{BarChart, BarSeries};
use crate::table::{f2, si, Table};
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

/// How an experiment names its cells in the CSVs: the key columns and a cell's values.
type CellColumns<'a, K> = (&'a [&'a str], &'a dyn Fn(K) -> Vec<String>);

/// The summary's last column: its name and a ratio computed from the summaries.
type RatioColumn<'a, K> = (&'a str, &'a dyn Fn(&CellSummaries<K>, K) -> Option<f64>);

/// Measures `cells` `p.reps` times, interleaved, as items/s of `run`; writes
/// `{stem}_runs.csv` and `{stem}_summary.csv` and returns the summaries.
fn items_per_sec<K: Copy + PartialEq>(
    p: &Params,
    out: &mut Out,
    stem: &str,
    (names, key): CellColumns<K>,
    cells: &[K],
    mut run: impl FnMut(K) -> Result<run::Run, BenchError>,
    (extra, extra_of): RatioColumn<K>,
) -> Result<CellSummaries<K>, BenchError> {
    let tail = ["rep", "items", "seconds", "items_per_sec"];
    let mut runs = Csv::new(&[&["experiment"][..], names, &tail].concat());
    let mut samples = vec![Vec::new(); cells.len()];
    crate::order::interleave(&format!("twolock {stem}"), cells.len(), p.reps, |rep, c| {
        let r = run(cells[c])?;
        samples[c].push(r.items_per_sec());
        let mut row = vec![stem.to_string()];
        row.extend(key(cells[c]));
        row.extend([(rep + 1).to_string(), r.items.to_string()]);
        row.extend([
            format!("{:.6}", r.secs),
            format!("{:.0}", r.items_per_sec()),
        ]);
        runs.row(&row);
        Ok::<(), BenchError>(())
    })?;
    let sums = CellSummaries::new(cells, &samples)?;
    let columns = Summary::csv_columns("median_items_per_sec");
    let mut summary = Csv::new(&[names, &["reps"], &columns, &[extra]].concat());
    for (k, s) in sums.iter() {
        let mut row = key(k);
        row.push(s.n.to_string());
        row.extend(s.csv_fields(0));
        row.push(f2(extra_of(&sums, k)));
        summary.row(&row);
    }
    out.tables(stem, &runs, &summary)?;
    Ok(sums)
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
