//! Tables per `N` and flavour, the summary CSV and the target checks of the pool
//! experiment: at `N = 2`, magpie ≥ 5× crossbeam-deque and st3 at `k = 0` and at
//! `k = 100 %` (random policy on both sides, and each at its own best policy).

use std::fmt::Write as _;

use serde::Serialize;

use super::exp::{policies_at, Cell, CellColumns, RunRow, Sample, K_PCT, NO_POLICY, RANDOM};
use super::{charts, Params, WORKERS};
use crate::output::Out;
use crate::queue::{Family, Flavour, Impl};
use crate::stats::{median, ratio_of_medians, Summary};
use crate::table::{si, Table};
use crate::{BenchError, TargetCheck};

/// The ratio magpie must reach against each peer.
pub const TARGET: f64 = 5.0;

/// Peers and families in display order.
pub const PEERS: [Family; 2] = [Family::Crossbeam, Family::St3];
pub const FAMILIES: [Family; 3] = [Family::Magpie, Family::Crossbeam, Family::St3];

/// One measured cell: a sample per repetition and the summary of their ops/s.
#[derive(Clone, Debug)]
pub struct Measured {
    pub cell: Cell,
    pub samples: Vec<Sample>,
    pub ops: Summary,
}

impl Measured {
    pub fn median(&self, f: fn(&Sample) -> f64) -> Option<f64> {
        median(&self.samples.iter().map(f).collect::<Vec<_>>())
    }

    pub fn min_cpu(&self) -> Option<f64> {
        self.samples
            .iter()
            .filter_map(|s| s.min_cpu_share)
            .min_by(f64::total_cmp)
    }
}

/// Every cell measured so far.
#[derive(Clone, Debug, Default)]
pub struct Results(Vec<Measured>);

impl Results {
    /// Adds measured cells (`samples[i]` belongs to `cells[i]`).
    pub fn push(&mut self, cells: Vec<Cell>, samples: Vec<Vec<Sample>>) -> Result<(), BenchError> {
        for (cell, samples) in cells.into_iter().zip(samples) {
            let ops = Summary::try_of(&samples.iter().map(|s| s.ops_per_sec).collect::<Vec<_>>())?;
            self.0.push(Measured { cell, samples, ops });
        }
        Ok(())
    }

    /// One cell (any policy at `k = 0` means the "none" cell).
    pub fn get(&self, workers: usize, imp: Impl, k_pct: u32, policy: &str) -> Option<&Measured> {
        let policy = if k_pct == 0 { NO_POLICY } else { policy };
        self.0.iter().find(|m| {
            let c = &m.cell;
            c.workers == workers && c.imp == imp && c.k_pct == k_pct && c.policy == policy
        })
    }

    pub fn ops(&self, workers: usize, imp: Impl, k_pct: u32, policy: &str) -> Option<Summary> {
        self.get(workers, imp, k_pct, policy).map(|m| m.ops)
    }

    /// Policies measured at `workers` (k > 0), in measurement order.
    pub fn policies(&self, workers: usize) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for c in self.0.iter().map(|m| &m.cell) {
            if c.workers == workers && c.k_pct > 0 && !out.contains(&c.policy) {
                out.push(c.policy);
            }
        }
        out
    }

    /// The policy with the highest median throughput for `imp` at `k` (`k > 0`).
    pub fn best(&self, workers: usize, imp: Impl, k_pct: u32) -> Option<(&'static str, Summary)> {
        self.policies(workers)
            .into_iter()
            .filter_map(|p| self.ops(workers, imp, k_pct, p).map(|s| (p, s)))
            .max_by(|a, b| a.1.median.total_cmp(&b.1.median))
    }

    /// Policies for a reduced run: random plus magpie's best policy at `k = 100 %` for
    /// each flavour at `workers`.
    pub fn quick_policies(&self, workers: usize) -> Vec<&'static str> {
        let mut out = vec![RANDOM];
        for flavour in Flavour::ALL {
            if let Some((p, _)) = self.best(workers, imp(Family::Magpie, flavour), 100) {
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// The worker counts measured, in [`WORKERS`] order.
    pub fn workers(&self) -> Vec<usize> {
        WORKERS
            .into_iter()
            .filter(|&n| self.0.iter().any(|m| m.cell.workers == n))
            .collect()
    }
}

pub fn imp(family: Family, flavour: Flavour) -> Impl {
    Impl { family, flavour }
}

/// `median(a) / median(b)` when both are known.
fn ratio(a: Option<Summary>, b: Option<Summary>) -> Option<f64> {
    ratio_of_medians(&a?, &b?)
}

/// `v` with `d` decimals, or `missing`.
fn num(v: Option<f64>, d: usize, missing: &str) -> String {
    v.map_or(missing.to_string(), |x| format!("{x:.d$}"))
}

/// Writes the run and summary CSVs and the charts, prints the tables and checks the
/// targets. `all` = every policy magpie offers.
pub fn render(
    r: &Results,
    p: &Params,
    all: &[&str],
    runs: &[(CellColumns, RunRow)],
    out: &mut Out,
) -> Result<(), BenchError> {
    let mut text = String::new();
    for n in r.workers() {
        let pols = r.policies(n);
        for flavour in Flavour::ALL {
            let _ = writeln!(
                text,
                "\n== pool of N = {n} queues, {}: median ops/s over {} reps ({}) ==",
                flavour.name(),
                p.reps,
                if n > p.cores {
                    format!("{n} threads on {} cores: OVERSUBSCRIBED, unpinned", p.cores)
                } else {
                    "pinned, one worker per core".to_string()
                }
            );
            text.push_str(&table(r, n, flavour, &pols));
            for k in K_PCT.into_iter().filter(|&k| k > 0) {
                let bests: Vec<String> = FAMILIES
                    .iter()
                    .filter_map(|&f| {
                        r.best(n, imp(f, flavour), k)
                            .map(|(pol, s)| format!("{} {pol} ({})", f.name(), si(s.median)))
                    })
                    .collect();
                let _ = writeln!(text, "best at k = {k:>3} %: {}", bests.join("; "));
            }
        }
        if pols.len() < all.len() {
            let _ = writeln!(
                text,
                "N = {n}: {} of {} policies run (quick mode): {}",
                pols.len(),
                all.len(),
                pols.join(", ")
            );
        }
    }
    text.push_str(
        "columns: magpie / crossbeam / st3 = median (puts + gets + successful steals) per second \
         of the whole pool; x cb, x st3 = magpie's median / that peer's median with the same \
         policy and k; stolen % = stolen / put; steal ok % = successful / attempted steals; \
         ns/try = mean time of one steal attempt (policy choice + steal); \
         spread = (max - min) / median; min cpu % = lowest worker CPU share in any rep \
         (time-slicing when oversubscribed)\n",
    );
    let targets = targets(r);
    text.push('\n');
    text.push_str(&crate::table::targets(&targets));
    out.rows("poolexp_runs.csv", runs)?;
    out.rows("poolexp_summary.csv", &summary_rows(r, p))?;
    for (name, svg) in charts::render(r, p) {
        out.file(&name, &svg)?;
    }
    out.say(&text);
    out.targets.extend(targets);
    Ok(())
}

/// Columns of the table of one `N` and flavour.
const TABLE_COLUMNS: &str = "policy,k %,magpie,crossbeam,st3,x cb,x st3,stolen % m/cb/st3,\
    steal ok % m/cb/st3,ns/try m/cb/st3,spread % m/cb/st3,min cpu %";

/// The table of one `N` and flavour: a row per `k` and policy.
fn table(r: &Results, n: usize, flavour: Flavour, pols: &[&'static str]) -> String {
    let mut t = Table::new(&TABLE_COLUMNS.split(',').collect::<Vec<_>>(), 1);
    for k in K_PCT {
        for &pol in policies_at(k, pols) {
            let cells = FAMILIES.map(|f| r.get(n, imp(f, flavour), k, pol));
            let ops = cells.map(|c| c.map(|c| c.ops));
            // `a/b/c` over the families.
            let triple = |v: [Option<f64>; 3], d| v.map(|x| num(x, d, "-")).join("/");
            let med = |g: fn(&Sample) -> f64| cells.map(|c| c.and_then(|c| c.median(g)));
            let cpu = cells
                .iter()
                .flatten()
                .filter_map(|c| c.min_cpu())
                .min_by(f64::total_cmp);
            let mut row = vec![pol.to_string(), k.to_string()];
            row.extend(ops.map(|s| s.map_or("-".into(), |s| si(s.median))));
            row.extend([1, 2].map(|peer| num(ratio(ops[0], ops[peer]), 2, "-")));
            row.extend([
                triple(med(|s| s.stolen_pct), 1),
                triple(med(|s| s.success_pct), 1),
                triple(med(|s| s.ns_per_attempt), 0),
                triple(ops.map(|s| s.map(|s| s.spread_pct())), 0),
                num(cpu.map(|c| c * 100.0), 0, "-"),
            ]);
            t.row(&row);
        }
    }
    t.render()
}

/// The rest of a `poolexp_summary.csv` record: ops/s summary, medians, magpie's ratios.
#[derive(Serialize)]
struct SummaryRow {
    reps: usize,
    median_ops_per_sec: String,
    min: String,
    max: String,
    q1: String,
    q3: String,
    spread_pct: String,
    median_items_per_sec: String,
    median_stolen_pct: String,
    median_steal_success_pct: String,
    median_ns_per_steal_attempt: String,
    min_cpu_share: String,
    magpie_x_crossbeam: String,
    magpie_x_st3: String,
}

/// One record per measured cell (the ratios are empty on the peers' rows).
fn summary_rows(r: &Results, p: &Params) -> Vec<(CellColumns, SummaryRow)> {
    r.0.iter()
        .map(|m| {
            let c = m.cell;
            let x = |peer: Family| {
                let peer = r.ops(c.workers, imp(peer, c.imp.flavour), c.k_pct, c.policy);
                let magpie = (c.imp.family == Family::Magpie).then_some(m.ops);
                num(ratio(magpie, peer), 3, "")
            };
            let [median_ops_per_sec, min, max, q1, q3, spread_pct] = m.ops.csv_fields(0);
            let row = SummaryRow {
                reps: m.ops.n,
                median_ops_per_sec,
                min,
                max,
                q1,
                q3,
                spread_pct,
                median_items_per_sec: num(m.median(|s| s.items_per_sec), 0, ""),
                median_stolen_pct: num(m.median(|s| s.stolen_pct), 3, ""),
                median_steal_success_pct: num(m.median(|s| s.success_pct), 3, ""),
                median_ns_per_steal_attempt: num(m.median(|s| s.ns_per_attempt), 1, ""),
                min_cpu_share: num(m.min_cpu(), 3, ""),
                magpie_x_crossbeam: x(Family::Crossbeam),
                magpie_x_st3: x(Family::St3),
            };
            (c.columns(p.cores), row)
        })
        .collect()
}

/// The checks at `N = 2` (see the module doc).
pub fn targets(r: &Results) -> Vec<TargetCheck> {
    let n = WORKERS[0];
    let mut out = Vec::new();
    for flavour in Flavour::ALL {
        let m = imp(Family::Magpie, flavour);
        for peer in PEERS {
            let q = imp(peer, flavour);
            let (bm, bq) = (r.best(n, m, 100), r.best(n, q, 100));
            let best = format!(
                "best: magpie ({}) / {} ({})",
                bm.map_or("n/a", |b| b.0),
                peer.name(),
                bq.map_or("n/a", |b| b.0)
            );
            for (what, a, b) in [
                (
                    format!("0 % (no steals): magpie / {}", peer.name()),
                    r.ops(n, m, 0, NO_POLICY),
                    r.ops(n, q, 0, NO_POLICY),
                ),
                (
                    format!("100 % random: magpie / {}", peer.name()),
                    r.ops(n, m, 100, RANDOM),
                    r.ops(n, q, 100, RANDOM),
                ),
                (format!("100 % {best}"), bm.map(|b| b.1), bq.map(|b| b.1)),
            ] {
                out.push(TargetCheck {
                    name: format!("pool experiment N={n} {} k={what}", flavour.name()),
                    measured: ratio(a, b),
                    threshold: TARGET,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::exp::cells;
    use super::*;

    fn sample(ops: f64) -> Sample {
        Sample {
            ops_per_sec: ops,
            items_per_sec: ops / 2.0,
            stolen_pct: 1.0,
            success_pct: 50.0,
            ns_per_attempt: 10.0,
            min_cpu_share: Some(0.99),
        }
    }

    /// magpie 10× the peers, "b" the better policy: targets pass and name "b".
    fn results() -> Results {
        let c = cells(2, &[RANDOM, "b"]);
        let s = c
            .iter()
            .map(|c| {
                let base = if c.imp.family == Family::Magpie {
                    10.0
                } else {
                    1.0
                };
                let bonus = if c.policy == "b" { 2.0 } else { 1.0 };
                vec![sample(base * bonus * 1e6); 3]
            })
            .collect();
        let mut r = Results::default();
        r.push(c, s).unwrap();
        r
    }

    #[test]
    fn best_policy_and_quick_selection() {
        let r = results();
        let m = imp(Family::Magpie, Flavour::Lifo);
        assert_eq!(r.best(2, m, 100).unwrap().0, "b");
        assert_eq!(r.quick_policies(2), vec![RANDOM, "b"]);
        assert_eq!(r.policies(2), vec![RANDOM, "b"]);
        assert_eq!(r.ops(2, m, 0, "anything").unwrap().median, 10e6);
    }

    #[test]
    fn targets_pass_at_ten_x_and_name_the_best_policy() {
        let t = targets(&results());
        assert_eq!(t.len(), 12);
        assert!(t.iter().all(|c| c.passed()), "{t:?}");
        assert!(t.iter().any(|c| c.name.contains("magpie (b)")));
    }

    #[test]
    fn render_writes_tables_rows_and_charts() {
        let p = Params {
            cap: 64,
            reps: 3,
            duration: std::time::Duration::from_millis(1),
            cores: 2,
            quick: true,
        };
        let dir = std::env::temp_dir().join(format!("magpie-poolexp-{}", std::process::id()));
        let mut out = Out::new(&dir).unwrap();
        render(&results(), &p, &[RANDOM, "b", "c"], &[], &mut out).unwrap();
        assert!(out.text.contains("N = 2 queues, LIFO"));
        assert!(out.text.contains("2 of 3 policies run"));
        let summary = std::fs::read_to_string(&out.files[1]).unwrap();
        assert_eq!(summary.lines().count(), 1 + 6 * (1 + 3 * 2));
        // Two CSVs, then per flavour one line chart and three bar charts.
        assert_eq!(out.files.len(), 2 + 2 * 4);
        for svg in &out.files[2..] {
            let svg = std::fs::read_to_string(svg).unwrap();
            assert!(svg.contains("<svg") && svg.trim_end().ends_with("</svg>"));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
