//! `pop_batch(32)` vs 32 × `try_pop`: one consumer takes `N` items out of magpie's
//! default two-lock queue, either pre-filled by one producer (only the drain is timed:
//! the target) or while one producer streams them (informational: then the producer's
//! rate bounds both).

use magpie_queue::twolock::TwoLockQueue;
use serde::Serialize;

use super::configs::{final_tas, Impl};
use super::run::{drain, DrainMode, Run, BATCH};
use super::{items_chart, measure, summary_row, summary_table, Params};
use crate::output::Out;
use crate::stats::CellSummaries;
use crate::svg::{Bar, BarSeries};
use crate::table::{f2, si};
use crate::{BenchError, TargetCheck};

/// The queues drained (`pop_batch` is the two-lock queue's own).
pub const QUEUES: [Impl; 2] = [Impl::Default, Impl::FinalTas];

/// Queue, pre-filled (or streaming), drain mode.
type Cell = (Impl, bool, DrainMode);

/// A row of `pop_batch_runs.csv`: one run.
#[derive(Serialize)]
struct RunRow {
    experiment: &'static str,
    queue: &'static str,
    feed: &'static str,
    mode: String,
    rep: usize,
    items: u64,
    seconds: String,
    items_per_sec: String,
}

/// A row of `pop_batch_summary.csv`: one cell over its repetitions.
#[derive(Serialize)]
struct SummaryRow {
    queue: &'static str,
    feed: &'static str,
    mode: String,
    reps: usize,
    median_items_per_sec: String,
    min: String,
    max: String,
    q1: String,
    q3: String,
    spread_pct: String,
    batch_over_single: String,
}

/// Both drain modes, batch first.
const MODES: [DrainMode; 2] = [DrainMode::Batch, DrainMode::Single];

/// One verified drain run of `n` items out of a fresh `queue`.
fn drain_run(queue: Impl, n: u64, mode: DrainMode, prefill: bool) -> Result<Run, BenchError> {
    let label = queue.name();
    match queue {
        Impl::Default => drain(TwoLockQueue::<u64>::new, n, mode, prefill, label),
        Impl::FinalTas => drain(final_tas(), n, mode, prefill, label),
        _ => Err(BenchError::Invalid(format!("{label}: not drained"))),
    }
}

fn mode_name(m: DrainMode) -> String {
    match m {
        DrainMode::Batch => format!("pop_batch({BATCH})"),
        DrainMode::Single => format!("{BATCH} x try_pop"),
    }
}

fn feed_name(prefill: bool) -> &'static str {
    if prefill {
        "pre-filled"
    } else {
        "streaming"
    }
}

/// `pop_batch` items/s over `try_pop` items/s, on the batch rows.
fn batch_x(sums: &CellSummaries<Cell>, (q, pre, m): Cell) -> Option<f64> {
    let single = (q, pre, DrainMode::Single);
    (m == DrainMode::Batch)
        .then(|| sums.ratio((q, pre, m), single))
        .flatten()
}

/// Runs the experiment; writes `pop_batch_runs.csv`, `pop_batch_summary.csv` and
/// `pop_batch.svg`.
pub fn run(p: &Params, out: &mut Out) -> Result<(), BenchError> {
    let feeds = |q: Impl| [true, false].map(move |pre| (q, pre));
    let cells: Vec<Cell> = QUEUES
        .into_iter()
        .flat_map(feeds)
        .flat_map(|(q, pre)| MODES.map(|m| (q, pre, m)))
        .collect();
    let run = |(q, pre, m): Cell| drain_run(q, p.items, m, pre);
    let (runs, sums) = measure(p, "pop_batch", &cells, run)?;
    let runs: Vec<RunRow> = runs
        .iter()
        .map(|r| {
            let (queue, pre, m) = r.cell;
            RunRow {
                experiment: "pop_batch",
                queue: queue.name(),
                feed: feed_name(pre),
                mode: mode_name(m),
                rep: r.rep,
                items: r.run.items,
                seconds: format!("{:.6}", r.run.secs),
                items_per_sec: format!("{:.0}", r.run.items_per_sec()),
            }
        })
        .collect();
    let mut summary = Vec::new();
    let mut table = summary_table(&["queue", "feed", "mode"], &["batch x"]);
    for (cell, s) in sums.iter() {
        let (queue, pre, m) = cell;
        let batch_over_single = f2(batch_x(&sums, cell));
        let key = vec![
            queue.name().to_string(),
            feed_name(pre).to_string(),
            mode_name(m),
        ];
        table.row(&summary_row(key, s, batch_over_single.clone()));
        let [median_items_per_sec, min, max, q1, q3, spread_pct] = s.csv_fields(0);
        summary.push(SummaryRow {
            queue: queue.name(),
            feed: feed_name(pre),
            mode: mode_name(m),
            reps: s.n,
            median_items_per_sec,
            min,
            max,
            q1,
            q3,
            spread_pct,
            batch_over_single,
        });
    }
    out.rows("pop_batch_runs.csv", &runs)?;
    out.rows("pop_batch_summary.csv", &summary)?;
    let targets = vec![TargetCheck {
        name: format!("DEFAULT pre-filled: pop_batch({BATCH}) / {BATCH} x try_pop (items/s)"),
        measured: batch_x(&sums, (Impl::Default, true, DrainMode::Batch)),
        threshold: 3.0,
    }];
    let chart = items_chart(
        format!(
            "Drain, one consumer: pop_batch({BATCH}) vs {BATCH} x try_pop, N = {}, median of {}",
            si(p.items as f64),
            p.reps
        ),
        "queue, feed".into(),
        QUEUES
            .into_iter()
            .flat_map(feeds)
            .map(|(q, pre)| format!("{} {}", q.name(), feed_name(pre)))
            .collect(),
        MODES
            .iter()
            .map(|&m| {
                let bars = QUEUES.into_iter().flat_map(feeds);
                let bars = bars.map(|(q, pre)| sums.get((q, pre, m)).map(Bar::from));
                BarSeries::new(mode_name(m), bars)
            })
            .collect(),
    );
    out.file("pop_batch.svg", &chart)?;
    out.say(&format!(
        "\n== pop_batch({BATCH}) vs {BATCH} x try_pop: one consumer, N = {} items, {} reps; items/s ==\n{}\
         pre-filled: one producer pushes all N first, only the drain is timed; streaming: one producer pushes while \
         the consumer drains (producer-bound, informational); batch x = pop_batch median / {BATCH} x try_pop median\n\n{}",
        p.items,
        p.reps,
        table.render(),
        crate::table::targets(&targets)
    ));
    out.targets.extend(targets);
    Ok(())
}
