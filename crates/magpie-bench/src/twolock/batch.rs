//! `pop_batch(32)` vs 32 × `try_pop`: one consumer takes `N` items out of magpie's
//! default two-lock queue, either pre-filled by one producer (only the drain is timed:
//! the target) or while one producer streams them (informational: then the producer's
//! rate bounds both).

use magpie_queue::twolock::{Options, StdLock, TasLock, TwoLockQueue};

use super::run::{drain, DrainMode, Run, BATCH};
use super::{items_per_sec, table_row, Params};
use crate::output::Out;
use crate::stats::CellSummaries;
use crate::svg::{Bar, BarChart, BarSeries};
use crate::table::{f2, si, Table};
use crate::{BenchError, TargetCheck};

/// Queue configurations of the drain experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queue {
    /// magpie's default `TwoLockQueue::<u64>::new()`.
    Default,
    /// The paper's final TAS combination (see `configs::Impl::FinalTas`).
    FinalTas,
}

impl Queue {
    /// Both.
    pub const ALL: [Queue; 2] = [Queue::Default, Queue::FinalTas];

    /// Name as in the throughput tables.
    pub fn name(self) -> &'static str {
        match self {
            Queue::Default => "DEFAULT",
            Queue::FinalTas => "final-tas",
        }
    }

    fn run(self, n: u64, mode: DrainMode, prefill: bool) -> Result<Run, BenchError> {
        match self {
            Queue::Default => drain(TwoLockQueue::<u64>::new, n, mode, prefill, self.name()),
            Queue::FinalTas => drain(
                || {
                    TwoLockQueue::<u64, TasLock, 128, StdLock>::with_options(
                        Options::UNLIMITED_NODE_CACHE,
                    )
                },
                n,
                mode,
                prefill,
                self.name(),
            ),
        }
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

/// Queue, pre-filled or streaming, drain mode.
type Cell = (Queue, bool, DrainMode);

/// Runs the experiment; writes `pop_batch_runs.csv`, `pop_batch_summary.csv` and
/// `pop_batch.svg` into `dir`.
pub fn run(p: &Params, out: &mut Out) -> Result<(), BenchError> {
    let modes = [DrainMode::Batch, DrainMode::Single];
    let cells: Vec<Cell> = Queue::ALL
        .iter()
        .flat_map(|&q| {
            [true, false]
                .into_iter()
                .flat_map(move |pre| modes.into_iter().map(move |m| (q, pre, m)))
        })
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
        |(q, pre, m)| q.run(p.drain_items, m, pre),
        ("batch_over_single", &batch_x),
    )?;
    let find = |q: Queue, pre: bool, m: DrainMode| sums.get((q, pre, m));
    let head = [
        &names[..],
        &["median items/s", "min", "max", "spread %", "batch x"],
    ]
    .concat();
    let mut table = Table::new(&head, 3);
    for ((q, pre, m), s) in sums.iter() {
        table.row(&table_row(
            key((q, pre, m)),
            s,
            f2(batch_x(&sums, (q, pre, m))),
        ));
    }
    let targets = vec![TargetCheck {
        name: format!("DEFAULT pre-filled: pop_batch({BATCH}) / {BATCH} x try_pop (items/s)"),
        measured: batch_x(&sums, (Queue::Default, true, DrainMode::Batch)),
        threshold: 3.0,
    }];
    let chart = BarChart {
        title: format!(
            "Drain, one consumer: pop_batch({BATCH}) vs {BATCH} x try_pop, N = {}, median of {}",
            si(p.drain_items as f64),
            p.reps
        ),
        y_label: "items / s (bars = min..max)".into(),
        x_label: "queue, feed".into(),
        categories: Queue::ALL
            .iter()
            .flat_map(|q| [true, false].map(|pre| format!("{} {}", q.name(), feed_name(pre))))
            .collect(),
        series: modes
            .iter()
            .map(|&m| {
                BarSeries::new(
                    mode_name(m),
                    Queue::ALL
                        .iter()
                        .flat_map(|&q| [true, false].map(|pre| find(q, pre, m).map(Bar::from))),
                )
            })
            .collect(),
    };
    out.file("pop_batch.svg", &chart.render())?;
    let mut text = format!(
        "\n== pop_batch({BATCH}) vs {BATCH} x try_pop: one consumer, N = {} items, {} reps; items/s ==\n",
        p.drain_items, p.reps
    );
    text.push_str(&table.render());
    text.push_str(&format!(
        "pre-filled: one producer pushes all N first, only the drain is timed; streaming: one producer pushes while \
         the consumer drains (producer-bound, informational); batch x = pop_batch median / {BATCH} x try_pop median\n\n"
    ));
    text.push_str(&crate::table::targets(&targets));
    out.say(&text);
    out.targets.extend(targets);
    Ok(())
}
