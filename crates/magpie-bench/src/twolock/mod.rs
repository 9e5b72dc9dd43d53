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
use crate::table::{f2, si};
use crate::{affinity, BenchError, Outcome, RunOptions};

/// Sizes of the experiments, derived from `--quick` and `--reps`.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Items per throughput run.
    pub items: u64,
    /// Items per drain run (pop_batch experiment) and per one-side run.
    pub drain_items: u64,
    /// Repetitions per configuration.
    pub reps: usize,
    /// Cores available to this process.
    pub cores: usize,
    /// Run every implementation at every P,K point (else the full matrix only at
    /// P=1,K=1 and P=2,K=2; see [`throughput`]).
    pub full_matrix: bool,
    /// Time cap of one throughput run (see [`run::Limits::cap`]): about 5× the slowest
    /// normal run on a busy 2-core machine, so only collapsed configurations hit it.
    pub run_cap: Duration,
}

impl Params {
    /// Quick: 200k items, 3 repetitions; default: 2M items, 7 repetitions.
    pub fn new(quick: bool, reps: Option<usize>) -> Params {
        let cores = affinity::available_cores();
        if quick {
            Params {
                items: 200_000,
                drain_items: 200_000,
                reps: reps.unwrap_or(3),
                cores,
                full_matrix: true,
                run_cap: Duration::from_millis(250),
            }
        } else {
            Params {
                items: 2_000_000,
                drain_items: 2_000_000,
                reps: reps.unwrap_or(7),
                cores,
                full_matrix: true,
                run_cap: Duration::from_secs(1),
            }
        }
    }
}

/// Runs the three experiments, prints tables and writes CSV + SVG + report.txt.
pub fn run(opts: &RunOptions) -> Result<Outcome, BenchError> {
    let mut out = opts.out()?;
    let params = Params::new(opts.quick, opts.reps);
    out.say(&environment_note(&params));
    throughput::run(&params, &mut out)?;
    sides::run(&params, &mut out)?;
    batch::run(&params, &mut out)?;
    let all = crate::table::targets(&out.targets);
    out.say(&format!("\n== twolock targets (all) ==\n{all}"));
    out.finish("report.txt")
}

/// A ratio computed from an experiment's summaries for one cell.
type Ratio<K> = dyn Fn(&CellSummaries<K>, K) -> Option<f64>;

/// Measures `cells` (named in the CSVs by the columns `names` with the values `key`)
/// `p.reps` times, interleaved, as items/s of `run`; writes `{stem}_runs.csv` and
/// `{stem}_summary.csv`, the latter with the column `extra` from `extra_of`. Returns
/// the summaries.
fn items_per_sec<K: Copy + PartialEq>(
    p: &Params,
    out: &mut Out,
    stem: &str,
    (names, key): (&[&str], &dyn Fn(K) -> Vec<String>),
    cells: &[K],
    mut run: impl FnMut(K) -> Result<run::Run, BenchError>,
    (extra, extra_of): (&str, &Ratio<K>),
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

/// A table row of a summary: `key`, median, min, max (items/s), spread and `extra`.
fn table_row(key: Vec<String>, s: &Summary, extra: String) -> Vec<String> {
    let mut row = key;
    row.extend([si(s.median), si(s.min), si(s.max)]);
    row.extend([format!("{:.1}", s.spread_pct()), extra]);
    row
}

/// One paragraph about the machine: cores and load.
fn environment_note(p: &Params) -> String {
    format!(
        "twolock bench: N = {} u64 items per run, {} reps; {} core(s) available; {}\n",
        p.items,
        p.reps,
        p.cores,
        affinity::load_note(p.cores, "see spread %")
    )
}
