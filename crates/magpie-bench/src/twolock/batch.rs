//! `pop_batch(32)` vs 32 × `try_pop`: one consumer takes `N` items out of magpie's
//! default two-lock queue, either pre-filled by one producer (only the drain is timed:
//! the target) or while one producer streams them (informational: then the producer's
//! rate bounds both).

use magpie_queue::twolock::{Options, StdLock, TasLock, TwoLockQueue};

use super::run::{drain, DrainMode, Run, BATCH};
use super::Params;
use crate::csv::Csv;
use crate::output::Out;
use crate::stats::{CellSummaries, Summary};
use crate::svg::{Bar, BarChart, BarSeries};
use crate::table::{si, Table};
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

/// Runs the experiment; writes `pop_batch_runs.csv`, `pop_batch_summary.csv` and
/// `pop_batch.svg` into `dir`.
pub fn run(p: &Params, out: &mut Out) -> Result<(), BenchError> {
    let modes = [DrainMode::Batch, DrainMode::Single];
    let cells: Vec<(Queue, bool, DrainMode)> = Queue::ALL
        .iter()
        .flat_map(|&q| {
            [true, false]
                .into_iter()
                .flat_map(move |pre| modes.into_iter().map(move |m| (q, pre, m)))
        })
        .collect();
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); cells.len()];
    let mut runs = Csv::new(&[
        "experiment",
        "queue",
        "feed",
        "mode",
        "rep",
        "items",
        "seconds",
        "items_per_sec",
    ]);
    crate::order::interleave("twolock pop_batch", cells.len(), p.reps, |rep, c| {
        let (q, pre, m) = cells[c];
        let r = q.run(p.drain_items, m, pre)?;
        samples[c].push(r.items_per_sec());
        runs.row(&[
            "pop_batch".to_string(),
            q.name().to_string(),
            feed_name(pre).to_string(),
            mode_name(m),
            (rep + 1).to_string(),
            r.items.to_string(),
            format!("{:.6}", r.secs),
            format!("{:.0}", r.items_per_sec()),
        ]);
        Ok(())
    })?;
    let sums = CellSummaries::new(&cells, &samples)?;
    let find = |q: Queue, pre: bool, m: DrainMode| sums.get((q, pre, m));
    let speedup =
        |q: Queue, pre: bool| sums.ratio((q, pre, DrainMode::Batch), (q, pre, DrainMode::Single));
    let mut summary = Csv::new(
        &[
            &["queue", "feed", "mode", "reps"][..],
            &Summary::csv_columns("median_items_per_sec"),
            &["batch_over_single"],
        ]
        .concat(),
    );
    let mut table = Table::new(
        &[
            "queue",
            "feed",
            "mode",
            "median items/s",
            "min",
            "max",
            "spread %",
            "batch x",
        ],
        3,
    );
    for ((q, pre, m), s) in sums.iter() {
        let x = if m == DrainMode::Batch {
            speedup(q, pre).map_or(String::new(), |v| format!("{v:.2}"))
        } else {
            String::new()
        };
        let mut row = vec![
            q.name().to_string(),
            feed_name(pre).to_string(),
            mode_name(m),
            s.n.to_string(),
        ];
        row.extend(s.csv_fields(0));
        row.push(x.clone());
        summary.row(&row);
        table.row(&[
            q.name().to_string(),
            feed_name(pre).to_string(),
            mode_name(m),
            si(s.median),
            si(s.min),
            si(s.max),
            format!("{:.1}", s.spread_pct()),
            x,
        ]);
    }
    let targets = vec![TargetCheck {
        name: format!("DEFAULT pre-filled: pop_batch({BATCH}) / {BATCH} x try_pop (items/s)"),
        measured: speedup(Queue::Default, true),
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
            .map(|&m| BarSeries {
                name: mode_name(m),
                bars: Queue::ALL
                    .iter()
                    .flat_map(|&q| [true, false].map(|pre| find(q, pre, m).map(Bar::from)))
                    .collect(),
            })
            .collect(),
    };
    out.tables("pop_batch", &runs, &summary)?;
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
