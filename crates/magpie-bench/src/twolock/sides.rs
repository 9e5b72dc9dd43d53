//! One side at a time: push-only and pop-only runs with one or two threads, which the
//! mixed `P`,`K` runs interleave at the scheduler's whim: each side's uncontended cost
//! and its cost under contention. No target; it explains the gains and losses against
//! `SegQueue`.

use super::configs::{Impl, Workload};
use super::run::Side;
use super::{items_chart, items_per_sec, summary_row, summary_table, Params};
use crate::output::Out;
use crate::stats::CellSummaries;
use crate::svg::{Bar, BarSeries};
use crate::table::{f2, si};
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

/// A phase and an implementation.
type Cell = ((Side, usize), Impl);

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Push => "push",
        Side::Pop => "pop",
    }
}

fn phase_name((side, threads): (Side, usize)) -> String {
    format!("{} x{threads}", side_name(side))
}

/// Runs the experiment; writes `sides_runs.csv`, `sides_summary.csv` and `sides.svg`.
pub fn run(p: &Params, out: &mut Out) -> Result<(), BenchError> {
    let cells: Vec<Cell> = PHASES
        .iter()
        .flat_map(|&ph| IMPLS.map(|i| (ph, i)))
        .collect();
    let key = |((side, threads), imp): Cell| {
        vec![
            imp.name().to_string(),
            side_name(side).to_string(),
            threads.to_string(),
        ]
    };
    let run = |((side, threads), imp): Cell| {
        let items = p.items;
        imp.run(Workload::OneSide {
            side,
            threads,
            items,
        })
    };
    let x_seg =
        |sums: &CellSummaries<Cell>, (ph, imp): Cell| sums.ratio((ph, imp), (ph, Impl::SegQueue));
    let names = ["impl", "side", "threads"];
    let extra = ("x_segqueue", &x_seg as _);
    let sums = items_per_sec(p, out, "sides", (&names, &key), &cells, run, extra)?;
    let mut table = summary_table(&["phase", "impl"], &["x SegQueue"]);
    for ((ph, imp), s) in sums.iter() {
        let key = vec![phase_name(ph), imp.name().to_string()];
        table.row(&summary_row(key, s, f2(x_seg(&sums, (ph, imp)))));
    }
    let chart = items_chart(
        format!(
            "One side at a time: push-only / pop-only, N = {}, median of {}",
            si(p.items as f64),
            p.reps
        ),
        "phase (side x threads)".into(),
        PHASES.map(phase_name).to_vec(),
        IMPLS
            .iter()
            .map(|&imp| {
                let bars = PHASES.iter().map(|&ph| sums.get((ph, imp)).map(Bar::from));
                BarSeries::new(imp.name(), bars)
            })
            .collect(),
    );
    out.file("sides.svg", &chart)?;
    out.say(&format!(
        "\n== one side at a time: push-only / pop-only, N = {} u64 items, {} reps; items/s ==\n{}{}",
        p.items,
        p.reps,
        table.render(),
        "push xT: T producers push N items into an empty queue (nobody pops); pop xT: T consumers try_pop a \
         pre-filled queue until it is empty (nobody pushes). x2 = every operation contends with the other \
         thread of its side. Informational (no target): the mixed P,K runs above are made of these phases.\n",
    ));
    Ok(())
}
