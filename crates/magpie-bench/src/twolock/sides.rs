//! One side at a time: push-only and pop-only runs with one or two threads, which the
//! mixed `P`,`K` runs interleave at the scheduler's whim: each side's uncontended cost
//! and its cost under contention. No target; it explains the gains and losses against
//! `SegQueue`.

use serde::Serialize;

use super::configs::{Impl, Workload};
use super::run::Side;
use super::{items_chart, measure, summary_row, summary_table, Params};
use crate::output::Out;
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

/// A row of `sides_runs.csv`: one run.
#[derive(Serialize)]
struct RunRow {
    experiment: &'static str,
    #[serde(rename = "impl")]
    imp: &'static str,
    side: &'static str,
    threads: usize,
    rep: usize,
    items: u64,
    seconds: String,
    items_per_sec: String,
}

/// A row of `sides_summary.csv`: one cell over its repetitions.
#[derive(Serialize)]
struct SummaryRow {
    #[serde(rename = "impl")]
    imp: &'static str,
    side: &'static str,
    threads: usize,
    reps: usize,
    median_items_per_sec: String,
    min: String,
    max: String,
    q1: String,
    q3: String,
    spread_pct: String,
    x_segqueue: String,
}

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
    let run = |((side, threads), imp): Cell| {
        let items = p.items;
        imp.run(Workload::OneSide {
            side,
            threads,
            items,
        })
    };
    let (runs, sums) = measure(p, "sides", &cells, run)?;
    let runs: Vec<RunRow> = runs
        .iter()
        .map(|r| {
            let ((side, threads), imp) = r.cell;
            RunRow {
                experiment: "sides",
                imp: imp.name(),
                side: side_name(side),
                threads,
                rep: r.rep,
                items: r.run.items,
                seconds: format!("{:.6}", r.run.secs),
                items_per_sec: format!("{:.0}", r.run.items_per_sec()),
            }
        })
        .collect();
    let mut summary = Vec::new();
    let mut table = summary_table(&["phase", "impl"], &["x SegQueue"]);
    for ((ph, imp), s) in sums.iter() {
        let x_segqueue = f2(sums.ratio((ph, imp), (ph, Impl::SegQueue)));
        let key = vec![phase_name(ph), imp.name().to_string()];
        table.row(&summary_row(key, s, x_segqueue.clone()));
        let [median_items_per_sec, min, max, q1, q3, spread_pct] = s.csv_fields(0);
        let (side, threads) = ph;
        summary.push(SummaryRow {
            imp: imp.name(),
            side: side_name(side),
            threads,
            reps: s.n,
            median_items_per_sec,
            min,
            max,
            q1,
            q3,
            spread_pct,
            x_segqueue,
        });
    }
    out.rows("sides_runs.csv", &runs)?;
    out.rows("sides_summary.csv", &summary)?;
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
