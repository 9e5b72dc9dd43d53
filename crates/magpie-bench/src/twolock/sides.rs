//! One side at a time: push-only and pop-only runs with one or two threads, which the
//! mixed `P`,`K` runs interleave at the scheduler's whim: each side's uncontended cost
//! and its cost under contention. No target; it explains the gains and losses against
//! `SegQueue`.

use super::configs::{Driver, Impl};
use super::peers::MpmcQueue;
use super::run::{one_side, Run, Side};
use super::{items_per_sec, table_row, Params};
use crate::output::Out;
use crate::stats::CellSummaries;
use crate::svg::{Bar, BarChart, BarSeries};
use crate::table::{f2, si, Table};
use crate::BenchError;

/// The queues compared (bounded peers cannot hold `N` items, so `ArrayQueue` is absent).
pub const IMPLS: [Impl; 6] = [
    Impl::Default,
    Impl::Default128,
    Impl::DefaultPopTas,
    Impl::SegQueue,
    Impl::Injector,
    Impl::MutexDeque,
];

/// The phases: side and thread count.
pub const PHASES: [(Side, usize); 4] = [
    (Side::Push, 1),
    (Side::Push, 2),
    (Side::Pop, 1),
    (Side::Pop, 2),
];

fn phase_name((side, threads): (Side, usize)) -> String {
    let what = match side {
        Side::Push => "push",
        Side::Pop => "pop",
    };
    format!("{what} x{threads}")
}

/// [`one_side`] as a [`Driver`].
struct OneSide<'a> {
    side: Side,
    threads: usize,
    items: u64,
    label: &'a str,
}

impl Driver for OneSide<'_> {
    fn go<Q: MpmcQueue, F: FnOnce() -> Q>(self, make: F) -> Result<Run, BenchError> {
        one_side(make, self.side, self.threads, self.items, self.label)
    }
}

/// Runs the experiment; writes `sides_runs.csv`, `sides_summary.csv` and `sides.svg`.
pub fn run(p: &Params, out: &mut Out) -> Result<(), BenchError> {
    let cells: Vec<((Side, usize), Impl)> = PHASES
        .iter()
        .flat_map(|&ph| IMPLS.iter().map(move |&i| (ph, i)))
        .collect();
    let side = |s: Side| format!("{s:?}").to_lowercase();
    let key = |((s, threads), imp): ((Side, usize), Impl)| {
        vec![imp.name().to_string(), side(s), threads.to_string()]
    };
    let run = |((side, threads), imp): ((Side, usize), Impl)| {
        let label = imp.name();
        let items = p.drain_items;
        imp.drive(OneSide {
            side,
            threads,
            items,
            label,
        })
    };
    let x_seg = |sums: &CellSummaries<_>, (ph, imp)| sums.ratio((ph, imp), (ph, Impl::SegQueue));
    let names = ["impl", "side", "threads"];
    let extra = ("x_segqueue", &x_seg as _);
    let sums = items_per_sec(p, out, "sides", (&names, &key), &cells, run, extra)?;
    let head = [
        "phase",
        "impl",
        "median items/s",
        "min",
        "max",
        "spread %",
        "x SegQueue",
    ];
    let mut table = Table::new(&head, 2);
    for ((ph, imp), s) in sums.iter() {
        let key = vec![phase_name(ph), imp.name().to_string()];
        table.row(&table_row(key, s, f2(x_seg(&sums, (ph, imp)))));
    }
    let chart = BarChart {
        title: format!(
            "One side at a time: push-only / pop-only, N = {}, median of {}",
            si(p.drain_items as f64),
            p.reps
        ),
        y_label: "items / s (bars = min..max)".into(),
        x_label: "phase (side x threads)".into(),
        categories: PHASES.iter().map(|&ph| phase_name(ph)).collect(),
        series: IMPLS
            .iter()
            .map(|&imp| {
                BarSeries::new(
                    imp.name(),
                    PHASES.iter().map(|&ph| sums.get((ph, imp)).map(Bar::from)),
                )
            })
            .collect(),
    };
    out.file("sides.svg", &chart.render())?;
    let mut text = format!(
        "\n== one side at a time: push-only / pop-only, N = {} u64 items, {} reps; items/s ==\n",
        p.drain_items, p.reps
    );
    text.push_str(&table.render());
    text.push_str(
        "push xT: T producers push N items into an empty queue (nobody pops); pop xT: T consumers try_pop a \
         pre-filled queue until it is empty (nobody pushes). x2 = every operation contends with the other \
         thread of its side. Informational (no target): the mixed P,K runs above are made of these phases.\n",
    );
    out.say(&text);
    Ok(())
}
