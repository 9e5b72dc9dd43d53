//! Tables per `N` and flavour, the summary CSV, SVG plots and the target checks of the
//! pool experiment: at `N = 2`, magpie ≥ 5× crossbeam-deque and st3 at `k = 0` and at
//! `k = 100 %` (random policy on both sides, and each at its own best policy).

use std::fmt::Write as _;

use super::exp::{cell_csv, policies_at, Cell, Sample, K_PCT, NO_POLICY};
use super::policies::RANDOM;
use super::{Params, WORKERS};
use crate::csv::Csv;
use crate::output::Out;
use crate::queue::{Family, Flavour, Impl};
use crate::stats::{median, ratio_of_medians, Summary};
use crate::svg::{Bar, BarChart, BarSeries, LineChart, LineSeries, Point};
use crate::table::{si, Table};
use crate::{BenchError, TargetCheck};

/// The ratio magpie must reach against each peer.
pub const TARGET: f64 = 5.0;

/// The peers, in display order.
pub const PEERS: [Family; 2] = [Family::Crossbeam, Family::St3];

/// Families in display order.
const FAMILIES: [Family; 3] = [Family::Magpie, Family::Crossbeam, Family::St3];

/// Every cell measured so far with its samples and throughput summary.
#[derive(Clone, Debug, Default)]
pub struct Results {
    cells: Vec<Cell>,
    samples: Vec<Vec<Sample>>,
    ops: Vec<Summary>,
}

/// The policy label of a cell at `k`: [`NO_POLICY`] at `k = 0`.
fn at_k(k_pct: u32, policy: &str) -> &str {
    if k_pct == 0 {
        NO_POLICY
    } else {
        policy
    }
}

impl Results {
    /// Adds measured cells (`samples[i]` belongs to `cells[i]`).
    pub fn push(&mut self, cells: Vec<Cell>, samples: Vec<Vec<Sample>>) -> Result<(), BenchError> {
        let ops: Vec<Vec<f64>> = samples
            .iter()
            .map(|s| s.iter().map(|x| x.ops_per_sec).collect())
            .collect();
        self.ops.extend(Summary::of_each(&ops)?);
        self.cells.extend(cells);
        self.samples.extend(samples);
        Ok(())
    }

    fn index(&self, workers: usize, imp: Impl, k_pct: u32, policy: &str) -> Option<usize> {
        let policy = at_k(k_pct, policy);
        self.cells.iter().position(|c| {
            c.workers == workers && c.imp == imp && c.k_pct == k_pct && c.policy == policy
        })
    }

    /// Throughput summary of one cell (any policy at `k = 0` means the "none" cell).
    pub fn ops(&self, workers: usize, imp: Impl, k_pct: u32, policy: &str) -> Option<Summary> {
        self.index(workers, imp, k_pct, policy).map(|i| self.ops[i])
    }

    /// Median of another per-sample metric of one cell.
    fn median_of(
        &self,
        workers: usize,
        imp: Impl,
        k_pct: u32,
        policy: &str,
        f: fn(&Sample) -> f64,
    ) -> Option<f64> {
        let i = self.index(workers, imp, k_pct, policy)?;
        median(&self.samples[i].iter().map(f).collect::<Vec<_>>())
    }

    /// Smallest worker CPU share over the samples of one cell.
    fn min_cpu(&self, workers: usize, imp: Impl, k_pct: u32, policy: &str) -> Option<f64> {
        let i = self.index(workers, imp, k_pct, policy)?;
        self.samples[i]
            .iter()
            .filter_map(|s| s.min_cpu_share)
            .min_by(f64::total_cmp)
    }

    /// Policies measured at `workers` (k > 0), in measurement order.
    pub fn policies(&self, workers: usize) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for c in &self.cells {
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
            let imp = Impl {
                family: Family::Magpie,
                flavour,
            };
            if let Some((p, _)) = self.best(workers, imp, 100) {
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
        out
    }

    fn workers(&self) -> Vec<usize> {
        WORKERS
            .into_iter()
            .filter(|&n| self.cells.iter().any(|c| c.workers == n))
            .collect()
    }
}

fn imp(family: Family, flavour: Flavour) -> Impl {
    Impl { family, flavour }
}

/// Writes the run and summary CSVs and the charts, prints the tables and checks the
/// targets. `all` = every policy magpie offers.
pub fn render(
    r: &Results,
    p: &Params,
    all: &[&str],
    runs: &Csv,
    out: &mut Out,
) -> Result<(), BenchError> {
    let mut text = String::new();
    let mut summary = summary_csv();
    for n in r.workers() {
        let oversub = n > p.cores;
        let pols = r.policies(n);
        for flavour in Flavour::ALL {
            let _ = writeln!(
                text,
                "\n== pool of N = {n} queues, {}: median ops/s over {} reps ({}) ==",
                flavour.name(),
                p.reps,
                if oversub {
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
    for c in &r.cells {
        summary_row(&mut summary, r, p, c);
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
    out.tables("poolexp", runs, &summary)?;
    for (name, svg) in charts(r, p) {
        out.file(&name, &svg)?;
    }
    out.say(&text);
    out.targets.extend(targets);
    Ok(())
}

/// `a/b/c` of three optional values with `d` decimals.
fn triple(v: [Option<f64>; 3], d: usize) -> String {
    v.map(|x| x.map_or("-".to_string(), |x| format!("{x:.d$}")))
        .join("/")
}

fn table(r: &Results, n: usize, flavour: Flavour, pols: &[&'static str]) -> String {
    let mut t = Table::new(
        &[
            "policy",
            "k %",
            "magpie",
            "crossbeam",
            "st3",
            "x cb",
            "x st3",
            "stolen % m/cb/st3",
            "steal ok % m/cb/st3",
            "ns/try m/cb/st3",
            "spread % m/cb/st3",
            "min cpu %",
        ],
        1,
    );
    for k in K_PCT {
        for &pol in policies_at(k, pols) {
            let fam = |f: Family| r.ops(n, imp(f, flavour), k, pol);
            let m = fam(Family::Magpie);
            let x = |f: Family| match (m, fam(f)) {
                (Some(a), Some(b)) => {
                    ratio_of_medians(&a, &b).map_or("-".into(), |v| format!("{v:.2}"))
                }
                _ => "-".into(),
            };
            let med = |g: fn(&Sample) -> f64| {
                FAMILIES.map(|f| r.median_of(n, imp(f, flavour), k, pol, g))
            };
            let cpu = FAMILIES
                .iter()
                .filter_map(|&f| r.min_cpu(n, imp(f, flavour), k, pol))
                .min_by(f64::total_cmp);
            t.row(&[
                pol.to_string(),
                k.to_string(),
                m.map_or("-".into(), |s| si(s.median)),
                fam(Family::Crossbeam).map_or("-".into(), |s| si(s.median)),
                fam(Family::St3).map_or("-".into(), |s| si(s.median)),
                x(Family::Crossbeam),
                x(Family::St3),
                triple(med(|s| s.stolen_pct), 1),
                triple(med(|s| s.success_pct), 1),
                triple(med(|s| s.ns_per_attempt), 0),
                triple(FAMILIES.map(|f| fam(f).map(|s| s.spread_pct())), 0),
                cpu.map_or("-".into(), |c| format!("{:.0}", c * 100.0)),
            ]);
        }
    }
    t.render()
}

fn summary_csv() -> Csv {
    cell_csv(
        &[
            &["reps"][..],
            &Summary::csv_columns("median_ops_per_sec"),
            &[
                "median_items_per_sec",
                "median_stolen_pct",
                "median_steal_success_pct",
                "median_ns_per_steal_attempt",
                "min_cpu_share",
                "magpie_x_crossbeam",
                "magpie_x_st3",
            ],
        ]
        .concat(),
    )
}

fn summary_row(csv: &mut Csv, r: &Results, p: &Params, c: &Cell) {
    let (n, i, k, pol) = (c.workers, c.imp, c.k_pct, c.policy);
    let Some(s) = r.ops(n, i, k, pol) else {
        return;
    };
    let f = |v: Option<f64>, d: usize| v.map_or(String::new(), |x| format!("{x:.d$}"));
    let x = |peer: Family| {
        if i.family != Family::Magpie {
            return String::new();
        }
        f(
            r.ops(n, imp(peer, i.flavour), k, pol)
                .and_then(|b| ratio_of_medians(&s, &b)),
            3,
        )
    };
    let mut row = c.fields(p.cores);
    row.push(s.n.to_string());
    row.extend(s.csv_fields(0));
    row.extend([
        f(r.median_of(n, i, k, pol, |s| s.items_per_sec), 0),
        f(r.median_of(n, i, k, pol, |s| s.stolen_pct), 3),
        f(r.median_of(n, i, k, pol, |s| s.success_pct), 3),
        f(r.median_of(n, i, k, pol, |s| s.ns_per_attempt), 1),
        f(r.min_cpu(n, i, k, pol), 3),
        x(Family::Crossbeam),
        x(Family::St3),
    ]);
    csv.row(&row);
}

/// The checks at `N = 2` (see the module doc).
pub fn targets(r: &Results) -> Vec<TargetCheck> {
    let n = WORKERS[0];
    let mut out = Vec::new();
    for flavour in Flavour::ALL {
        let m = imp(Family::Magpie, flavour);
        for peer in PEERS {
            let q = imp(peer, flavour);
            let ratio = |a: Option<Summary>, b: Option<Summary>| match (a, b) {
                (Some(a), Some(b)) => ratio_of_medians(&a, &b),
                _ => None,
            };
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

/// Legend name short enough for the chart's legend column.
fn short_family(f: Family) -> &'static str {
    match f {
        Family::Crossbeam => "crossbeam",
        other => other.name(),
    }
}

/// Explains the abbreviations of [`policy_label`].
const POLICY_LABEL_KEY: &str =
    "best2 = best-of-two, bestN = best-of-many, prob = probabilistic, perf = performance";

/// A policy name short enough for a bar group label (nine groups share the x axis).
fn policy_label(name: &str) -> &str {
    match name {
        "best-of-two" => "best2",
        "best-of-many" => "bestN",
        "probabilistic" => "prob",
        "numa-probabilistic" => "numa+prob",
        "performance" => "perf",
        other => other,
    }
}

fn flavour_file(f: Flavour) -> &'static str {
    match f {
        Flavour::Lifo => "lifo",
        Flavour::Fifo => "fifo",
    }
}

/// Per `N` and flavour: throughput against `k` (random and best policy of each queue),
/// and one bar chart per `k > 0` with every policy.
fn charts(r: &Results, p: &Params) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for n in r.workers() {
        let note = if n > p.cores {
            format!(", {} cores: oversubscribed", p.cores)
        } else {
            ", pinned".to_string()
        };
        for flavour in Flavour::ALL {
            let mut series = Vec::new();
            for f in FAMILIES {
                let i = imp(f, flavour);
                let point = |k: u32, s: Summary| Point {
                    x: f64::from(k),
                    y: s.median,
                    range: Some((s.min, s.max)),
                };
                series.push(LineSeries {
                    name: format!("{} random", short_family(f)),
                    points: K_PCT
                        .iter()
                        .filter_map(|&k| r.ops(n, i, k, RANDOM).map(|s| point(k, s)))
                        .collect(),
                });
                series.push(LineSeries {
                    name: format!("{} best policy", short_family(f)),
                    points: K_PCT
                        .iter()
                        .filter_map(|&k| {
                            let s = if k == 0 {
                                r.ops(n, i, 0, NO_POLICY)
                            } else {
                                r.best(n, i, k).map(|b| b.1)
                            };
                            s.map(|s| point(k, s))
                        })
                        .collect(),
                });
            }
            let chart = LineChart {
                title: format!(
                    "BWoS §6.2.3 pool: N = {n}, {}{note}; median of {}",
                    flavour.name(),
                    p.reps
                ),
                x_label: "balancing factor k (% of C stolen per round, attempted)".into(),
                y_label: "pool ops / s (bars = min..max)".into(),
                series,
            };
            out.push((
                format!("poolexp_n{n}_{}_by_k.svg", flavour_file(flavour)),
                chart.render(),
            ));
            let pols = r.policies(n);
            for k in K_PCT.into_iter().filter(|&k| k > 0) {
                let chart = BarChart {
                    title: format!(
                        "pool N = {n}, {}, k = {k} %{note}: every policy",
                        flavour.name()
                    ),
                    y_label: "pool ops / s (bars = min..max)".into(),
                    x_label: format!("victim policy ({})", POLICY_LABEL_KEY),
                    categories: pols.iter().map(|s| policy_label(s).to_string()).collect(),
                    series: FAMILIES
                        .iter()
                        .map(|&f| {
                            BarSeries::new(
                                imp(f, flavour).name(),
                                pols.iter()
                                    .map(|pol| r.ops(n, imp(f, flavour), k, pol).map(Bar::from)),
                            )
                        })
                        .collect(),
                };
                out.push((
                    format!("poolexp_n{n}_{}_k{k}.svg", flavour_file(flavour)),
                    chart.render(),
                ));
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
        render(
            &results(),
            &p,
            &[RANDOM, "b", "c"],
            &Csv::new(&["x"]),
            &mut out,
        )
        .unwrap();
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
