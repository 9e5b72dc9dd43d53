//! The pool experiment's SVG charts, per `N` and flavour: throughput against `k`
//! (random and best policy of each queue), and one bar chart per `k > 0` with every
//! policy.

use super::exp::{K_PCT, NO_POLICY, RANDOM};
use super::report::{imp, Results, FAMILIES};
use super::Params;
use crate::queue::{Family, Flavour};
use crate::stats::Summary;
use crate::svg::{Bar, BarChart, BarSeries, LineChart, LineSeries, Point};

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

/// Legend name short enough for the chart's legend column.
fn short_family(f: Family) -> &'static str {
    match f {
        Family::Crossbeam => "crossbeam",
        other => other.name(),
    }
}

/// Every chart as (file name, SVG).
pub fn render(r: &Results, p: &Params) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for n in r.workers() {
        let note = if n > p.cores {
            format!(", {} cores: oversubscribed", p.cores)
        } else {
            ", pinned".to_string()
        };
        let pols = r.policies(n);
        for flavour in Flavour::ALL {
            let file = flavour.name().to_lowercase();
            let chart = LineChart {
                title: format!(
                    "BWoS §6.2.3 pool: N = {n}, {}{note}; median of {}",
                    flavour.name(),
                    p.reps
                ),
                x_label: "balancing factor k (% of C stolen per round, attempted)".into(),
                y_label: "pool ops / s (bars = min..max)".into(),
                series: by_k(r, n, flavour),
            };
            out.push((format!("poolexp_n{n}_{file}_by_k.svg"), chart.render()));
            for k in K_PCT.into_iter().filter(|&k| k > 0) {
                let chart = BarChart {
                    title: format!(
                        "pool N = {n}, {}, k = {k} %{note}: every policy",
                        flavour.name()
                    ),
                    y_label: "pool ops / s (bars = min..max)".into(),
                    x_label: format!("victim policy ({POLICY_LABEL_KEY})"),
                    categories: pols.iter().map(|s| policy_label(s).to_string()).collect(),
                    series: FAMILIES
                        .iter()
                        .map(|&f| {
                            let i = imp(f, flavour);
                            let bars = pols.iter().map(|pol| r.ops(n, i, k, pol).map(Bar::from));
                            BarSeries::new(i.name(), bars)
                        })
                        .collect(),
                };
                out.push((format!("poolexp_n{n}_{file}_k{k}.svg"), chart.render()));
            }
        }
    }
    out
}

/// Per family, the random policy's and the best policy's throughput against `k`.
fn by_k(r: &Results, n: usize, flavour: Flavour) -> Vec<LineSeries> {
    let line = |name: String, at: &dyn Fn(u32) -> Option<Summary>| LineSeries {
        name,
        points: K_PCT
            .iter()
            .filter_map(|&k| {
                at(k).map(|s| Point {
                    x: f64::from(k),
                    y: s.median,
                    range: Some((s.min, s.max)),
                })
            })
            .collect(),
    };
    let mut series = Vec::new();
    for f in FAMILIES {
        let i = imp(f, flavour);
        series.push(line(format!("{} random", short_family(f)), &|k| {
            r.ops(n, i, k, RANDOM)
        }));
        series.push(line(format!("{} best policy", short_family(f)), &|k| {
            if k == 0 {
                r.ops(n, i, 0, NO_POLICY)
            } else {
                r.best(n, i, k).map(|b| b.1)
            }
        }));
    }
    series
}
