//! Throughput of `N` items through the queue with `P` producers and `K` consumers (paper
//! III/V), every configuration and peer in one run; without [`Params::full_matrix`] only
//! `P=1,K=1` and `P=2,K=2` run everything and the other points [`Impl::REDUCED`].

use super::configs::Impl;
use super::{table_row, Params};
use crate::csv::Csv;
use crate::output::Out;
use crate::stats::{median, CellSummaries, Summary};
use crate::svg::{Bar, BarChart, BarSeries};
use crate::table::{f2, si, Table};
use crate::{BenchError, TargetCheck};

/// The `(P, K)` points, in table order.
pub const POINTS: [(usize, usize); 6] = [(1, 1), (1, 2), (2, 1), (2, 2), (4, 1), (4, 2)];

/// Points that always run every implementation.
pub const FULL: [(usize, usize); 2] = [(1, 1), (2, 2)];

/// Oversubscription floor: no two-lock configuration below this × `Mutex<VecDeque>`.
pub const OVERSUB_FLOOR: f64 = 0.5;

/// The implementations measured at point `(p, k)`.
pub fn impls_at(pk: (usize, usize), full_matrix: bool) -> &'static [Impl] {
    if full_matrix || FULL.contains(&pk) {
        &Impl::ALL
    } else {
        &Impl::REDUCED
    }
}

/// One chart: file name, title, series, categories.
type Figure = (&'static str, &'static str, Vec<Impl>, Vec<(usize, usize)>);

fn pk_name((p, k): (usize, usize)) -> String {
    format!("P={p},K={k}")
}

/// Runs the experiment; writes `throughput_runs.csv`, `throughput_summary.csv` and one
/// SVG per paper figure into `dir`.
pub fn run(p: &Params, out: &mut Out) -> Result<(), BenchError> {
    let cells: Vec<((usize, usize), Impl)> = POINTS
        .iter()
        .flat_map(|&pk| impls_at(pk, p.full_matrix).iter().map(move |&i| (pk, i)))
        .collect();
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); cells.len()];
    let mut empties: Vec<Vec<f64>> = vec![Vec::new(); cells.len()];
    let mut truncated: Vec<usize> = vec![0; cells.len()];
    let mut runs = Csv::new(&[
        "experiment",
        "impl",
        "series",
        "config",
        "producers",
        "consumers",
        "cores",
        "oversubscribed",
        "rep",
        "items",
        "truncated",
        "seconds",
        "items_per_sec",
        "empty_polls",
    ]);
    let oversub = |(pp, k): (usize, usize)| pp + k > p.cores;
    crate::order::interleave("twolock throughput", cells.len(), p.reps, |rep, c| {
        let (pk, imp) = cells[c];
        let r = imp.run(pk.0, pk.1, p.items, Some(p.run_cap))?;
        if r.truncated {
            truncated[c] += 1;
        }
        samples[c].push(r.items_per_sec());
        empties[c].push(r.empty_per_1k());
        runs.row(&[
            "throughput".to_string(),
            imp.name().to_string(),
            imp.group().name().to_string(),
            imp.describe().to_string(),
            pk.0.to_string(),
            pk.1.to_string(),
            p.cores.to_string(),
            oversub(pk).to_string(),
            (rep + 1).to_string(),
            r.items.to_string(),
            r.truncated.to_string(),
            format!("{:.6}", r.secs),
            format!("{:.0}", r.items_per_sec()),
            r.empty_polls.to_string(),
        ]);
        Ok(())
    })?;
    let sums = CellSummaries::new(&cells, &samples)?;
    let find = |pk: (usize, usize), imp: Impl| sums.get((pk, imp));
    let ratio = |pk, a: Impl, b: Impl| sums.ratio((pk, a), (pk, b));

    let lead = [
        "impl",
        "series",
        "config",
        "producers",
        "consumers",
        "oversubscribed",
        "reps",
    ];
    let mut summary = Csv::new(
        &[
            &lead[..],
            &Summary::csv_columns("median_items_per_sec"),
            &[
                "x_mutex_vecdeque",
                "x_segqueue",
                "truncated_runs",
                "median_empty_polls_per_1k_items",
            ],
        ]
        .concat(),
    );
    let mut text = format!(
        "\n== two-lock queue throughput: N = {} u64 items, P producers, K consumers, {} reps; items/s ==\n",
        p.items, p.reps
    );
    if p.full_matrix {
        text.push_str(&format!(
            "full matrix: all {} implementations at every P,K point\n",
            Impl::ALL.len()
        ));
    } else {
        text.push_str(&format!(
            "full matrix ({} implementations) only at {}; reduced set ({}) at the other points\n",
            Impl::ALL.len(),
            FULL.map(pk_name).join(" and "),
            Impl::REDUCED.map(|i| i.name()).join(", ")
        ));
    }
    let mut below: Vec<String> = Vec::new();
    let mut total_cut = 0;
    for &pk in &POINTS {
        let threads = pk.0 + pk.1;
        text.push_str(&format!(
            "\n-- {}: {threads} threads on {} core(s){} --\n",
            pk_name(pk),
            p.cores,
            if oversub(pk) {
                ": OVERSUBSCRIBED (threads exceed cores)"
            } else {
                ""
            }
        ));
        let mut table = Table::new(
            &[
                "impl",
                "series",
                "median items/s",
                "min",
                "max",
                "spread %",
                "x Mutex",
                "x SegQueue",
                "empty/1k",
                "note",
            ],
            2,
        );
        for &imp in impls_at(pk, p.full_matrix) {
            let Some(s) = find(pk, imp) else { continue };
            let cell = cells.iter().position(|&c| c == (pk, imp));
            let cut = cell.map_or(0, |c| truncated[c]);
            let empty = cell.and_then(|c| median(&empties[c])).unwrap_or(0.0);
            total_cut += cut;
            let xm = ratio(pk, imp, Impl::MutexDeque);
            let xs = ratio(pk, imp, Impl::SegQueue);
            let low = imp.is_twolock() && oversub(pk) && xm.is_some_and(|r| r < OVERSUB_FLOOR);
            if low {
                below.push(format!(
                    "{} at {} ({:.2}x)",
                    imp.name(),
                    pk_name(pk),
                    xm.unwrap_or(0.0)
                ));
            }
            let mut row = vec![
                imp.name().to_string(),
                imp.group().name().to_string(),
                imp.describe().to_string(),
                pk.0.to_string(),
                pk.1.to_string(),
                oversub(pk).to_string(),
                s.n.to_string(),
            ];
            row.extend(s.csv_fields(0));
            row.extend([f2(xm), f2(xs), cut.to_string(), format!("{empty:.2}")]);
            summary.row(&row);
            let mut note = Vec::new();
            if low {
                note.push(format!("< {OVERSUB_FLOOR}x Mutex"));
            }
            if cut > 0 {
                note.push(format!("{cut}/{} capped", s.n));
            }
            let key = vec![imp.name().to_string(), imp.group().name().to_string()];
            let mut row = table_row(key, &s, f2(xm));
            row.extend([f2(xs), format!("{empty:.1}"), note.join(", ")]);
            table.row(&row);
        }
        text.push_str(&table.render());
    }
    text.push_str(
        "spread = (max-min)/median; x Mutex / x SegQueue = this row's median / that peer's median at the same P,K; \
         empty/1k = median times per 1000 items a consumer found the queue empty (high: consumers caught up and chase the producers)\n",
    );
    text.push_str(
        "paper-default uses SeqCst where the paper says release-acquire everywhere (the crate's DEFAULT_CONFIG); \
         DEFAULT = magpie's TwoLockQueue::new() (1024-byte nodes, bounded node cache, hybrid pop lock, TAS push lock)\n",
    );
    if total_cut > 0 {
        text.push_str(&format!(
            "NOTE: {total_cut} run(s) hit the {:.2}s time cap before all N items went through (\"capped\"): \
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

    // Targets.
    let mut targets = Vec::new();
    for pk in FULL {
        targets.push(TargetCheck {
            name: format!("{}: DEFAULT / Mutex<VecDeque>", pk_name(pk)),
            measured: ratio(pk, Impl::Default, Impl::MutexDeque),
            threshold: 2.0,
        });
        targets.push(TargetCheck {
            name: format!("{}: DEFAULT / SegQueue", pk_name(pk)),
            measured: ratio(pk, Impl::Default, Impl::SegQueue),
            threshold: 1.0,
        });
    }
    let over: Vec<(usize, usize)> = POINTS.iter().copied().filter(|&pk| oversub(pk)).collect();
    for &pk in &over {
        let worst = impls_at(pk, p.full_matrix)
            .iter()
            .filter(|i| i.is_twolock())
            .filter_map(|&i| ratio(pk, i, Impl::MutexDeque).map(|r| (i, r)))
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
    if over.is_empty() {
        text.push_str(&format!(
            "NOTE: no P,K point exceeds the {} available cores: oversubscription targets not checked\n",
            p.cores
        ));
    } else {
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
    text.push('\n');
    text.push_str(&crate::table::targets(&targets));

    // Charts: one per paper figure.
    let paper_points = if p.full_matrix {
        POINTS.to_vec()
    } else {
        FULL.to_vec()
    };
    let figures: [Figure; 5] = [
        (
            "throughput_fig1_memory_order.svg",
            "V.A memory orders, cached push index",
            vec![
                Impl::PaperDefault,
                Impl::OptimalOrder,
                Impl::CachePushIndex,
                Impl::MutexDeque,
            ],
            paper_points.clone(),
        ),
        (
            "throughput_fig2_node_size.svg",
            "V.B node size",
            vec![
                Impl::Node64,
                Impl::CachePushIndex,
                Impl::Node1024,
                Impl::MutexDeque,
            ],
            paper_points.clone(),
        ),
        (
            "throughput_fig3_node_cache.svg",
            "V.C node cache",
            vec![
                Impl::CachePushIndex,
                Impl::LimitedCache,
                Impl::UnlimitedCache,
                Impl::MutexDeque,
            ],
            paper_points.clone(),
        ),
        (
            "throughput_fig4_pop_lock.svg",
            "V.D pop lock (std = cache-push-index)",
            vec![
                Impl::CachePushIndex,
                Impl::PopTas,
                Impl::PopTicket,
                Impl::PopHybrid,
                Impl::MutexDeque,
            ],
            paper_points.clone(),
        ),
        (
            "throughput_fig5_final.svg",
            "V.E final configs, DEFAULT, peers",
            Impl::REDUCED.to_vec(),
            POINTS.to_vec(),
        ),
    ];
    out.tables("throughput", &runs, &summary)?;
    for (file, title, impls, points) in figures {
        let chart = BarChart {
            title: format!("{title}: N = {}, median of {}", si(p.items as f64), p.reps),
            y_label: "items / s (bars = min..max)".into(),
            x_label: format!(
                "producers P, consumers K ({} cores; * = oversubscribed)",
                p.cores
            ),
            categories: points
                .iter()
                .map(|&pk| format!("{}{}", pk_name(pk), if oversub(pk) { "*" } else { "" }))
                .collect(),
            series: impls
                .iter()
                .map(|&imp| {
                    BarSeries::new(
                        imp.name(),
                        points.iter().map(|&pk| find(pk, imp).map(Bar::from)),
                    )
                })
                .collect(),
        };
        out.file(file, &chart.render())?;
    }
    out.say(&text);
    out.targets.extend(targets);
    Ok(())
}
