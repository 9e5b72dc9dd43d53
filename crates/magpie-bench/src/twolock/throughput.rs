//! Throughput of `N` items through the queue with `P` producers and `K` consumers (paper
//! III/V): every configuration and peer at every point.

use serde::Serialize;

use super::configs::{Impl, Workload};
use super::run::Run;
use super::{items_chart, measure, summary_row, summary_table, Params};
use crate::output::Out;
use crate::stats::{median, CellSummaries};
use crate::svg::{Bar, BarSeries};
use crate::table::{f2, si};
use crate::{BenchError, TargetCheck};

/// The `(P, K)` points, in table order.
pub const POINTS: [(usize, usize); 6] = [(1, 1), (1, 2), (2, 1), (2, 2), (4, 1), (4, 2)];

/// Points where magpie's default must beat the peers by the targets' margins.
pub const TARGET_POINTS: [(usize, usize); 2] = [(1, 1), (2, 2)];

/// Oversubscription floor: no two-lock configuration below this × `Mutex<VecDeque>`.
pub const OVERSUB_FLOOR: f64 = 0.5;

/// The charts, one per paper figure: file name, title and series.
const FIGURES: [(&str, &str, &[Impl]); 5] = [
    (
        "throughput_fig1_memory_order.svg",
        "V.A memory orders, cached push index",
        &[
            Impl::PaperDefault,
            Impl::OptimalOrder,
            Impl::CachePushIndex,
            Impl::MutexDeque,
        ],
    ),
    (
        "throughput_fig2_node_size.svg",
        "V.B node size",
        &[
            Impl::Node64,
            Impl::CachePushIndex,
            Impl::Node1024,
            Impl::MutexDeque,
        ],
    ),
    (
        "throughput_fig3_node_cache.svg",
        "V.C node cache",
        &[
            Impl::CachePushIndex,
            Impl::LimitedCache,
            Impl::UnlimitedCache,
            Impl::MutexDeque,
        ],
    ),
    (
        "throughput_fig4_pop_lock.svg",
        "V.D pop lock (std = cache-push-index)",
        &[
            Impl::CachePushIndex,
            Impl::PopTas,
            Impl::PopTicket,
            Impl::PopHybrid,
            Impl::MutexDeque,
        ],
    ),
    (
        "throughput_fig5_final.svg",
        "V.E final configs, DEFAULT, peers",
        &Impl::OVERVIEW,
    ),
];

/// A point `(P, K)` and an implementation.
type Cell = ((usize, usize), Impl);

/// A row of `throughput_runs.csv`: one run.
#[derive(Serialize)]
struct RunRow {
    experiment: &'static str,
    #[serde(rename = "impl")]
    imp: &'static str,
    series: &'static str,
    config: &'static str,
    producers: usize,
    consumers: usize,
    cores: usize,
    oversubscribed: bool,
    rep: usize,
    items: u64,
    truncated: bool,
    seconds: String,
    items_per_sec: String,
    empty_polls: u64,
}

/// A row of `throughput_summary.csv`: one cell over its repetitions.
#[derive(Serialize)]
struct SummaryRow {
    #[serde(rename = "impl")]
    imp: &'static str,
    series: &'static str,
    config: &'static str,
    producers: usize,
    consumers: usize,
    oversubscribed: bool,
    reps: usize,
    median_items_per_sec: String,
    min: String,
    max: String,
    q1: String,
    q3: String,
    spread_pct: String,
    x_mutex_vecdeque: String,
    x_segqueue: String,
    truncated_runs: usize,
    median_empty_polls_per_1k_items: String,
}

fn pk_name((p, k): (usize, usize)) -> String {
    format!("P={p},K={k}")
}

/// Runs the experiment; writes `throughput_runs.csv`, `throughput_summary.csv` and one
/// SVG per paper figure.
pub fn run(p: &Params, out: &mut Out) -> Result<(), BenchError> {
    let cells: Vec<Cell> = POINTS
        .iter()
        .flat_map(|&pk| Impl::ALL.map(|i| (pk, i)))
        .collect();
    let run = |((producers, consumers), imp): Cell| {
        imp.run(Workload::Throughput {
            producers,
            consumers,
            items: p.items,
            cap: Some(p.run_cap),
        })
    };
    let (runs, sums) = measure(p, "throughput", &cells, run)?;
    let run_rows: Vec<RunRow> = runs
        .iter()
        .map(|r| {
            let ((producers, consumers), imp) = r.cell;
            RunRow {
                experiment: "throughput",
                imp: imp.name(),
                series: imp.group().name(),
                config: imp.describe(),
                producers,
                consumers,
                cores: p.cores,
                oversubscribed: oversubscribed(p, r.cell.0),
                rep: r.rep,
                items: r.run.items,
                truncated: r.run.truncated,
                seconds: format!("{:.6}", r.run.secs),
                items_per_sec: format!("{:.0}", r.run.items_per_sec()),
                empty_polls: r.run.empty_polls,
            }
        })
        .collect();
    let mut summary = Vec::new();
    let mut text = format!(
        "\n== two-lock queue throughput: N = {} u64 items, P producers, K consumers, {} reps; items/s ==\n\
         full matrix: all {} implementations at every P,K point\n",
        p.items,
        p.reps,
        Impl::ALL.len()
    );
    let mut below: Vec<String> = Vec::new();
    let mut total_capped = 0;
    for pk in POINTS {
        text.push_str(&format!(
            "\n-- {}: {} threads on {} core(s){} --\n",
            pk_name(pk),
            pk.0 + pk.1,
            p.cores,
            if oversubscribed(p, pk) {
                ": OVERSUBSCRIBED (threads exceed cores)"
            } else {
                ""
            }
        ));
        let extra = ["x Mutex", "x SegQueue", "empty/1k", "note"];
        let mut table = summary_table(&["impl", "series"], &extra);
        for (cell, s) in sums.iter().filter(|(cell, _)| cell.0 == pk) {
            let imp = cell.1;
            let cell_runs: Vec<Run> = runs
                .iter()
                .filter(|r| r.cell == cell)
                .map(|r| r.run)
                .collect();
            let capped = cell_runs.iter().filter(|r| r.truncated).count();
            let empty_per_1k: Vec<f64> = cell_runs.iter().map(Run::empty_per_1k).collect();
            let empty = median(&empty_per_1k).unwrap_or(0.0);
            total_capped += capped;
            let x_mutex = sums.ratio(cell, (pk, Impl::MutexDeque));
            let x_seg = sums.ratio(cell, (pk, Impl::SegQueue));
            let [median_items_per_sec, min, max, q1, q3, spread_pct] = s.csv_fields(0);
            summary.push(SummaryRow {
                imp: imp.name(),
                series: imp.group().name(),
                config: imp.describe(),
                producers: pk.0,
                consumers: pk.1,
                oversubscribed: oversubscribed(p, pk),
                reps: s.n,
                median_items_per_sec,
                min,
                max,
                q1,
                q3,
                spread_pct,
                x_mutex_vecdeque: f2(x_mutex),
                x_segqueue: f2(x_seg),
                truncated_runs: capped,
                median_empty_polls_per_1k_items: format!("{empty:.2}"),
            });
            let mut note = Vec::new();
            let below_floor = x_mutex.is_some_and(|x| x < OVERSUB_FLOOR);
            if imp.is_twolock() && oversubscribed(p, pk) && below_floor {
                below.push(format!(
                    "{} at {} ({:.2}x)",
                    imp.name(),
                    pk_name(pk),
                    x_mutex.unwrap_or(0.0)
                ));
                note.push(format!("< {OVERSUB_FLOOR}x Mutex"));
            }
            if capped > 0 {
                note.push(format!("{capped}/{} capped", s.n));
            }
            let key = vec![imp.name().to_string(), imp.group().name().to_string()];
            let mut row = summary_row(key, s, f2(x_mutex));
            row.extend([f2(x_seg), format!("{empty:.1}"), note.join(", ")]);
            table.row(&row);
        }
        text.push_str(&table.render());
    }
    text.push_str(
        "spread = (max-min)/median; x Mutex / x SegQueue = this row's median / that peer's median at the same P,K; \
         empty/1k = median times per 1000 items a consumer found the queue empty (high: consumers caught up and chase the producers)\n\
         paper-default uses SeqCst where the paper says release-acquire everywhere (the crate's DEFAULT_CONFIG); \
         DEFAULT = magpie's TwoLockQueue::new() (1024-byte nodes, bounded node cache, hybrid pop lock, TAS push lock)\n",
    );
    if total_capped > 0 {
        text.push_str(&format!(
            "NOTE: {total_capped} run(s) hit the {:.2}s time cap before all N items went through (\"capped\"): \
             their rate is items consumed / elapsed, the rest was drained and verified untimed\n",
            p.run_cap.as_secs_f64()
        ));
    }
    if below.is_empty() {
        text.push_str(&format!(
            "oversubscribed: no two-lock configuration below {OVERSUB_FLOOR}x Mutex<VecDeque>\n"
        ));
    } else {
        text.push_str(&format!(
            "BELOW {OVERSUB_FLOOR}x Mutex<VecDeque> when oversubscribed: {}\n",
            below.join("; ")
        ));
    }
    if !POINTS.iter().any(|&pk| oversubscribed(p, pk)) {
        text.push_str(&format!(
            "NOTE: no P,K point exceeds the {} available cores: oversubscription targets not checked\n",
            p.cores
        ));
    }
    let targets = targets(p, &sums);
    text.push('\n');
    text.push_str(&crate::table::targets(&targets));
    out.rows("throughput_runs.csv", &run_rows)?;
    out.rows("throughput_summary.csv", &summary)?;
    for (file, title, impls) in FIGURES {
        let chart = items_chart(
            format!("{title}: N = {}, median of {}", si(p.items as f64), p.reps),
            format!(
                "producers P, consumers K ({} cores; * = oversubscribed)",
                p.cores
            ),
            POINTS
                .iter()
                .map(|&pk| {
                    format!(
                        "{}{}",
                        pk_name(pk),
                        if oversubscribed(p, pk) { "*" } else { "" }
                    )
                })
                .collect(),
            impls
                .iter()
                .map(|&imp| {
                    let bars = POINTS.iter().map(|&pk| sums.get((pk, imp)).map(Bar::from));
                    BarSeries::new(imp.name(), bars)
                })
                .collect(),
        );
        out.file(file, &chart)?;
    }
    out.say(&text);
    out.targets.extend(targets);
    Ok(())
}

/// Whether point `pk` runs more threads than there are cores.
fn oversubscribed(p: &Params, (producers, consumers): (usize, usize)) -> bool {
    producers + consumers > p.cores
}

/// The target checks: magpie's default against the peers at [`TARGET_POINTS`], and the
/// oversubscription floor at the oversubscribed points.
fn targets(p: &Params, sums: &CellSummaries<Cell>) -> Vec<TargetCheck> {
    let ratio = |pk, a: Impl, b: Impl| sums.ratio((pk, a), (pk, b));
    let mut targets = Vec::new();
    for pk in TARGET_POINTS {
        for (peer, peer_name, threshold) in [
            (Impl::MutexDeque, "Mutex<VecDeque>", 2.0),
            (Impl::SegQueue, "SegQueue", 1.0),
        ] {
            targets.push(TargetCheck {
                name: format!("{}: DEFAULT / {peer_name}", pk_name(pk)),
                measured: ratio(pk, Impl::Default, peer),
                threshold,
            });
        }
    }
    let over: Vec<(usize, usize)> = POINTS
        .into_iter()
        .filter(|&pk| oversubscribed(p, pk))
        .collect();
    for &pk in &over {
        let worst = Impl::ALL
            .into_iter()
            .filter(|i| i.is_twolock())
            .filter_map(|i| ratio(pk, i, Impl::MutexDeque).map(|r| (i, r)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        targets.push(TargetCheck {
            name: format!(
                "{} oversubscribed: worst two-lock config ({}) / Mutex<VecDeque>",
                pk_name(pk),
                worst.map_or("n/a", |w| w.0.name())
            ),
            measured: worst.map(|w| w.1),
            threshold: OVERSUB_FLOOR,
        });
    }
    if !over.is_empty() {
        let worst_default = over
            .iter()
            .filter_map(|&pk| ratio(pk, Impl::Default, Impl::MutexDeque).map(|r| (pk, r)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        targets.push(TargetCheck {
            name: format!(
                "DEFAULT / Mutex<VecDeque> at its worst oversubscribed point ({})",
                worst_default.map_or("n/a".into(), |w| pk_name(w.0))
            ),
            measured: worst_default.map(|w| w.1),
            threshold: OVERSUB_FLOOR,
        });
    }
    targets
}
