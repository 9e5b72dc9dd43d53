//! Tables with target checks, CSV of every run and of the summaries, SVG charts and
//! report.txt for `magpie bench search`.

use std::fmt::Write as _;

use serde::Serialize;

use super::measure::{coordination_name, for_workload, Sample};
use super::Params;
use crate::output::Out;
use crate::stats::{ratio_of_medians, Summary};
use crate::svg::{Bar, BarChart, BarSeries};
use crate::table::Table;
use crate::{BenchError, Outcome, TargetCheck};

/// Wanted: the sequential skeleton at most 5 % slower than the hand-written solver,
/// i.e. hand-written time / skeleton time at least 1 / 1.05.
const OVERHEAD_THRESHOLD: f64 = 1.0 / 1.05;
/// Wanted speedup from 1 to 2 threads.
const SPEEDUP_THRESHOLD: f64 = 1.8;

/// The samples of one cell.
fn cell<'s>(
    samples: &'s [Sample],
    workload: usize,
    variant: &str,
    threads: usize,
    policy: &str,
) -> Vec<&'s Sample> {
    samples
        .iter()
        .filter(|s| {
            s.workload == workload
                && s.variant == variant
                && s.threads == threads
                && s.policy == policy
        })
        .collect()
}

fn summary(samples: &[&Sample]) -> Option<Summary> {
    Summary::of(&samples.iter().map(|s| s.seconds).collect::<Vec<_>>())
}

fn median_of(values: impl Iterator<Item = f64>) -> f64 {
    crate::stats::median(&values.collect::<Vec<_>>()).unwrap_or(0.0)
}

/// `a / b` as a bar: the ratio of medians, with the extreme ratios as range.
fn ratio_bar(a: &Summary, b: &Summary) -> Option<Bar> {
    Some(Bar {
        value: ratio_of_medians(a, b)?,
        range: Some((a.min / b.max, a.max / b.min)),
    })
}

fn secs(s: &Summary) -> String {
    format!("{:.3} ({:.3}..{:.3})", s.median, s.min, s.max)
}

fn ratio(check: &TargetCheck) -> String {
    check.measured.map_or("n/a".into(), |m| format!("{m:.2}"))
}

/// Writes every file and prints the tables.
pub fn write(
    params: &Params,
    overhead: &[Sample],
    speedup: &[Sample],
    policies: &[Sample],
    mut out: Out,
) -> Result<Outcome, BenchError> {
    let mut text = String::new();
    let (table, chart) = overhead_table(params, overhead, &mut out.targets);
    let _ = writeln!(
        text,
        "Skeleton overhead: sequential skeleton vs hand-written solver, no pool, median (min..max) of {} s",
        params.overhead_reps()
    );
    text.push_str(&table);
    out.file("overhead.svg", &chart.render())?;

    let (table, chart) = speedup_table(params, speedup, &mut out.targets);
    let _ = writeln!(
        text,
        "\nSpeedup from 1 to 2 threads (random victims), median (min..max) s of {}",
        params.reps
    );
    text.push_str(&table);
    out.file("speedup.svg", &chart.render())?;

    let (table, chart) = policy_table(params, policies);
    let _ = writeln!(
        text,
        "\nVictim policies, 2 threads, median (min..max) s of {}; stolen = tasks stolen / tasks run",
        params.reps
    );
    text.push_str(&table);
    out.file("policies.svg", &chart.render())?;

    text.push('\n');
    text.push_str(&crate::table::targets(&out.targets));
    if params.quick {
        text.push_str("\nQUICK mode: small instances; the targets are not meaningful here.\n");
    }
    out.say(&text);
    out.rows("runs.csv", &run_rows(params, [overhead, speedup, policies]))?;
    out.finish("report.txt")
}

fn overhead_table(
    params: &Params,
    samples: &[Sample],
    targets: &mut Vec<TargetCheck>,
) -> (String, BarChart) {
    let mut table = Table::new(
        &[
            "workload",
            "hand-written s",
            "skeleton s",
            "nodes",
            "hand/skeleton ≥ 0.952",
        ],
        1,
    );
    let mut bars = Vec::new();
    for (w, workload) in params.overhead.iter().enumerate() {
        let hand = summary(&cell(samples, w, "hand-written", 0, ""));
        let skeleton_samples = cell(samples, w, "sequential", 0, "");
        let skeleton = summary(&skeleton_samples);
        let (Some(hand), Some(skeleton)) = (hand, skeleton) else {
            continue;
        };
        let check = TargetCheck {
            name: format!(
                "{}: skeleton ≤ 5% slower than hand-written",
                workload.label()
            ),
            measured: ratio_of_medians(&hand, &skeleton),
            threshold: OVERHEAD_THRESHOLD,
        };
        table.row(&[
            workload.label(),
            secs(&hand),
            secs(&skeleton),
            skeleton_samples.first().map_or(0, |s| s.nodes).to_string(),
            ratio(&check),
        ]);
        bars.push(ratio_bar(&hand, &skeleton));
        targets.push(check);
    }
    let chart = BarChart {
        title: format!(
            "Sequential skeleton vs hand-written, median of {}",
            params.overhead_reps()
        ),
        y_label: "hand-written time / skeleton time (1 = no overhead; bars = extremes)".into(),
        x_label: "workload".into(),
        categories: params.overhead.iter().map(|w| w.label()).collect(),
        series: vec![BarSeries::new("skeleton", bars)],
    };
    (table.render(), chart)
}

fn speedup_table(
    params: &Params,
    samples: &[Sample],
    targets: &mut Vec<TargetCheck>,
) -> (String, BarChart) {
    let mut table = Table::new(
        &[
            "workload",
            "coordination",
            "1 thread s",
            "2 threads s",
            "tasks",
            "stolen %",
            "speedup ≥ 1.8",
        ],
        2,
    );
    let mut series: Vec<BarSeries> = params
        .coordinations
        .iter()
        .map(|(name, _)| BarSeries::new(*name, Vec::new()))
        .collect();
    for (w, workload) in params.speedup.iter().enumerate() {
        for (c, &(_, coordination)) in params.coordinations.iter().enumerate() {
            let variant = coordination_name(for_workload(coordination, workload.spawn_depth()));
            let one = summary(&cell(samples, w, &variant, 1, "random"));
            let two_samples = cell(samples, w, &variant, 2, "random");
            let two = summary(&two_samples);
            let (Some(one), Some(two)) = (one, two) else {
                series[c].bars.push(None);
                continue;
            };
            let check = TargetCheck {
                name: format!("{} {variant}: speedup 1 -> 2 threads", workload.label()),
                measured: ratio_of_medians(&one, &two),
                threshold: SPEEDUP_THRESHOLD,
            };
            table.row(&[
                workload.label(),
                variant,
                secs(&one),
                secs(&two),
                format!(
                    "{:.0}",
                    median_of(two_samples.iter().map(|s| s.tasks as f64))
                ),
                format!(
                    "{:.1}",
                    median_of(two_samples.iter().map(|s| s.stolen_percent))
                ),
                ratio(&check),
            ]);
            series[c].bars.push(ratio_bar(&one, &two));
            targets.push(check);
        }
    }
    let chart = BarChart {
        title: format!("Speedup from 1 to 2 threads, median of {}", params.reps),
        y_label: "1-thread time / 2-thread time (bars = extremes)".into(),
        x_label: "workload".into(),
        categories: params.speedup.iter().map(|w| w.label()).collect(),
        series,
    };
    (table.render(), chart)
}

fn policy_table(params: &Params, samples: &[Sample]) -> (String, BarChart) {
    let mut table = Table::new(
        &[
            "workload",
            "coordination",
            "policy",
            "2 threads s",
            "vs random",
            "tasks",
            "stolen %",
        ],
        3,
    );
    let mut series: Vec<BarSeries> = params
        .policies
        .iter()
        .map(|name| BarSeries::new(*name, Vec::new()))
        .collect();
    let mut categories = Vec::new();
    for (w, workload) in params.speedup.iter().enumerate() {
        for &(_, coordination) in &params.policy_coordinations {
            let variant = coordination_name(for_workload(coordination, workload.spawn_depth()));
            categories.push(format!("{} {variant}", workload.label()));
            let random = summary(&cell(samples, w, &variant, 2, "random"));
            for (p, policy) in params.policies.iter().enumerate() {
                let runs = cell(samples, w, &variant, 2, policy);
                let Some(time) = summary(&runs) else {
                    series[p].bars.push(None);
                    continue;
                };
                let vs_random = random.as_ref().and_then(|r| ratio_of_medians(r, &time));
                table.row(&[
                    workload.label(),
                    variant.clone(),
                    (*policy).into(),
                    secs(&time),
                    vs_random.map_or("n/a".into(), |r| format!("{r:.2}")),
                    format!("{:.0}", median_of(runs.iter().map(|s| s.tasks as f64))),
                    format!("{:.1}", median_of(runs.iter().map(|s| s.stolen_percent))),
                ]);
                series[p]
                    .bars
                    .push(random.as_ref().and_then(|r| ratio_bar(r, &time)));
            }
        }
    }
    let chart = BarChart {
        title: format!("Victim policies, 2 threads, median of {}", params.reps),
        y_label: "random's time / policy's time (> 1 = faster; bars = extremes)".into(),
        x_label: "workload and coordination".into(),
        categories,
        series,
    };
    (table.render(), chart)
}

/// One row of runs.csv: one timed run (seconds to six decimals, stolen % to two).
#[derive(Serialize)]
struct RunRow<'s> {
    experiment: &'static str,
    workload: String,
    variant: &'s str,
    threads: usize,
    policy: &'s str,
    rep: usize,
    seconds: String,
    nodes: u64,
    tasks: u64,
    stolen_percent: String,
}

fn run_rows<'s>(params: &Params, experiments: [&'s [Sample]; 3]) -> Vec<RunRow<'s>> {
    experiments
        .into_iter()
        .flatten()
        .map(|s| {
            let workloads = if s.experiment == "overhead" {
                &params.overhead
            } else {
                &params.speedup
            };
            RunRow {
                experiment: s.experiment,
                workload: workloads[s.workload].label(),
                variant: &s.variant,
                threads: s.threads,
                policy: &s.policy,
                rep: s.rep,
                seconds: format!("{:.6}", s.seconds),
                nodes: s.nodes,
                tasks: s.tasks,
                stolen_percent: format!("{:.2}", s.stolen_percent),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::workload::Workload;

    fn sample(variant: &str, rep: usize, seconds: f64) -> Sample {
        Sample {
            experiment: "overhead",
            workload: 0,
            variant: variant.into(),
            threads: 0,
            policy: String::new(),
            rep,
            seconds,
            nodes: 0,
            tasks: 0,
            stolen_percent: 0.0,
        }
    }

    /// The overhead experiment runs `overhead_reps()` (3 × reps) pairs; its chart must
    /// say so, as its table header does.
    #[test]
    fn overhead_chart_names_the_overhead_repetitions() {
        let params = Params {
            quick: true,
            reps: 2,
            data: std::path::PathBuf::new(),
            overhead: vec![Workload::Semigroups { genus: 3 }],
            speedup: Vec::new(),
            coordinations: Vec::new(),
            policy_coordinations: Vec::new(),
            policies: Vec::new(),
        };
        let samples: Vec<Sample> = (0..params.overhead_reps())
            .flat_map(|rep| {
                [
                    sample("hand-written", rep, 1.0),
                    sample("sequential", rep, 1.0),
                ]
            })
            .collect();
        let mut targets = Vec::new();
        let (_, chart) = overhead_table(&params, &samples, &mut targets);
        assert_eq!(targets.len(), 1);
        assert!(
            chart
                .title
                .ends_with(&format!("median of {}", params.overhead_reps())),
            "{}",
            chart.title
        );
    }
}
