//! `pop_batch(32)` vs 32 × `try_pop`: one consumer takes `N` items out of magpie's
//! default two-lock queue, either pre-filled by one producer (only the drain is timed:
//! the target) or while one producer streams them (informational: then the producer's
//! rate bounds both).

use magpie_queue::twolock::TwoLockQueue;

use super::configs::{final_tas, Impl};
use super::run::{drain, DrainMode, Run, BATCH};
use super::{items_chart, items_per_sec, summary_row, summary_table, Params};
use crate::output::Out;
use crate::stats::CellSummaries;
use crate::svg::{Bar, BarSeries};
use crate::table::{f2, si};
use crate::{BenchError, TargetCheck};

/// The queues drained (`pop_batch` is the two-lock queue's own).
pub const QUEUES: [Impl; 2] = [Impl::Default, Impl::FinalTas];

/// Queue, pre-filled (or streaming), drain mode.
type Cell = (Impl, bool, DrainMode);

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
    let key = |(q, pre, m): Cell| {
        vec![
            q.name().to_string(),
            feed_name(pre).to_string(),
            mode_name(m),
        ]
    };
    let names = ["queue", "feed", "mode"];
    let sums = items_per_sec(
        p,
        out,
        "pop_batch",
        (&names, &key),
        &cells,
        |(q, pre, m)| drain_run(q, p.items, m, pre),
        ("batch_over_single", &batch_x),
    )?;
    let mut table = summary_table(&names, &["batch x"]);
    for (cell, s) in sums.iter() {
        table.row(&summary_row(key(cell), s, f2(batch_x(&sums, cell))));
    }
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
