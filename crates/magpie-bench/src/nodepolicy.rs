//! Node-level victim policies (YewPar thesis §4): `magpie bench nodepolicy`.
//!
//! Clique and numerical semigroups on 2, 4 and 8 single-thread ranks under the `random`,
//! `depthpool` and `performance` policies, alternated run by run; scenarios *balanced*,
//! *imbalanced* (odd ranks [`SLOWDOWN`] times slower) and *single* (1 rank: the policy's
//! own cost). Reported: mean, sd, min..max, eq. (4.1) speedup and eq. (4.2) max-difference;
//! targets of issue 18 in `target`.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use crate::stats::{mean_sd, Summary};
use crate::svg::{Bar, BarChart, BarSeries};
use crate::{mpirun, BenchError, Outcome, RunOptions, TargetCheck};

/// How much slower the slow ranks of the imbalanced scenario are.
pub const SLOWDOWN: f64 = 3.0;

/// The policies compared, in the order of the first run.
const POLICIES: [&str; 3] = ["random", "depthpool", "performance"];

/// `magpie bench nodepolicy`'s options.
#[derive(Clone, Debug)]
pub struct NodePolicyOptions {
    /// Quick mode, repetitions, output folder.
    pub common: RunOptions,
    /// The MPI build of `magpie`.
    pub magpie: PathBuf,
    /// The shared data folder.
    pub data: PathBuf,
}

#[derive(Debug, Serialize)]
struct Run {
    app: String,
    ranks: usize,
    scenario: &'static str,
    policy: &'static str,
    rep: usize,
    seconds: f64,
    nodes: u64,
    steals: u64,
    refused: u64,
    messages: u64,
}

#[derive(Debug, Serialize)]
struct Cell {
    app: String,
    ranks: usize,
    scenario: &'static str,
    policy: &'static str,
    runs: usize,
    mean_s: f64,
    sd_s: f64,
    min_s: f64,
    max_s: f64,
    /// Eq. (4.2).
    max_difference_percent: f64,
    /// Eq. (4.1) against random (performance rows only; 0 elsewhere).
    speedup_vs_random_percent: f64,
    /// Eq. (4.1) against depthpool (performance rows only; 0 elsewhere).
    speedup_vs_depthpool_percent: f64,
}

/// Runs the evaluation.
pub fn run(options: &NodePolicyOptions) -> Result<Outcome, BenchError> {
    let mut out = options.common.out()?;
    mpirun::check_binary(&options.magpie)?;
    let quick = options.common.quick;
    let reps = options.common.reps_or(2, 10);
    let (graph, genus, rank_counts): (&str, &str, &[usize]) = if quick {
        ("brock200_4", "26", &[2, 4])
    } else {
        ("brock200_1", "35", &[2, 4, 8])
    };
    let graph_path = options.data.join(format!("dimacs/{graph}.clq"));
    let mut clique = vec!["clique".to_string(), graph_path.display().to_string()];
    clique.extend(mpirun::args("--skeleton depth-bounded -d 2"));
    let semigroups = format!("semigroups -g {genus} --skeleton budget -b 1000000");
    let apps = [
        (format!("clique {graph}"), clique),
        (format!("NS genus {genus}"), mpirun::args(&semigroups)),
    ];
    let mut runs = Vec::new();
    let mut cells = Vec::new();
    for (app, args) in &apps {
        let times = measure_cell(options, app, 1, "single", args, reps, &mut runs)?;
        cells.extend(summarise(app, 1, "single", &times));
        for &ranks in rank_counts {
            for scenario in ["balanced", "imbalanced"] {
                let mut args = args.clone();
                if scenario == "imbalanced" {
                    let slow: Vec<String> = (1..ranks).step_by(2).map(|r| r.to_string()).collect();
                    args.extend(["--slow-ranks".into(), slow.join(",")]);
                    args.extend(["--slowdown".into(), SLOWDOWN.to_string()]);
                }
                let times = measure_cell(options, app, ranks, scenario, &args, reps, &mut runs)?;
                cells.extend(summarise(app, ranks, scenario, &times));
            }
        }
    }
    out.rows("nodepolicy_runs.csv", &runs)?;
    out.rows("nodepolicy_summary.csv", &cells)?;
    for (app, _) in &apps {
        let file: String = app
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        out.file(
            &format!("nodepolicy_{file}.svg"),
            &chart(app, &cells).render(),
        )?;
    }
    out.targets = targets(&cells);
    out.say(&(report(&cells, reps) + &crate::table::targets(&out.targets)));
    out.finish("nodepolicy_report.txt")
}

/// `reps` runs of every policy on one cell, policies alternated (rotated per
/// repetition); their times in [`POLICIES`] order.
fn measure_cell(
    options: &NodePolicyOptions,
    app: &str,
    ranks: usize,
    scenario: &'static str,
    args: &[String],
    reps: usize,
    runs: &mut Vec<Run>,
) -> Result<[Vec<f64>; 3], BenchError> {
    let mut times: [Vec<f64>; 3] = Default::default();
    let mut answer = None;
    for rep in 0..reps {
        for k in 0..POLICIES.len() {
            let p = (k + rep) % POLICIES.len();
            let mut args = args.to_vec();
            args.extend(["--node-policy".into(), POLICIES[p].into()]);
            let record = mpirun::search(&options.magpie, ranks, 1, &args)?;
            let exact = mpirun::exact_answer(&record);
            if *answer.get_or_insert_with(|| exact.clone()) != exact {
                return Err(BenchError::Worker(format!(
                    "{app}: answers differ: {exact}"
                )));
            }
            let total = &record["stats"]["ranks"]["total"];
            let run = Run {
                app: app.to_string(),
                ranks,
                scenario,
                policy: POLICIES[p],
                rep,
                seconds: mpirun::number(&record, &["stats", "seconds"])?,
                nodes: mpirun::number(&record, &["stats", "nodes_expanded"])? as u64,
                steals: mpirun::number(total, &["steals_succeeded"])? as u64,
                refused: mpirun::number(total, &["steals_refused"])? as u64,
                messages: mpirun::number(total, &["messages_sent"])? as u64,
            };
            eprintln!(
                "  {app}, {ranks} ranks, {scenario}, {}, run {rep}: {:.3}s",
                run.policy, run.seconds
            );
            times[p].push(run.seconds);
            runs.push(run);
        }
    }
    Ok(times)
}

fn summarise(app: &str, ranks: usize, scenario: &'static str, times: &[Vec<f64>; 3]) -> Vec<Cell> {
    let random_mean = mean_sd(&times[0]).0;
    let depthpool_mean = mean_sd(&times[1]).0;
    POLICIES
        .iter()
        .zip(times)
        .map(|(&policy, t)| {
            let (mean, sd) = mean_sd(t);
            let (min, max) = Summary::of(t).map_or((f64::INFINITY, 0.0), |s| (s.min, s.max));
            Cell {
                app: app.to_string(),
                ranks,
                scenario,
                policy,
                runs: t.len(),
                mean_s: mean,
                sd_s: sd,
                min_s: min,
                max_s: max,
                max_difference_percent: (max - min) / min * 100.0,
                speedup_vs_random_percent: eq_4_1(policy, random_mean, mean),
                speedup_vs_depthpool_percent: eq_4_1(policy, depthpool_mean, mean),
            }
        })
        .collect()
}

/// Eq. (4.1), the performance-driven policy's speedup over another policy's mean time
/// `other`, in percent; 0 for the other policies' rows.
fn eq_4_1(policy: &str, other: f64, performance: f64) -> f64 {
    if policy == "performance" {
        (other - performance) / performance * 100.0
    } else {
        0.0
    }
}

/// The target for one (app, ranks, scenario) group as a ratio of mean times,
/// random / performance, and the threshold it must reach.
fn target(group: &[&Cell]) -> Option<TargetCheck> {
    let find = |p: &str| group.iter().find(|c| c.policy == p);
    let (random, performance) = (find("random")?, find("performance")?);
    let (claim, threshold) = match performance.scenario {
        "imbalanced" => ("performance >= 1.10x random".to_string(), 1.10),
        // Not slower than random beyond random's standard deviation.
        "balanced" => (
            format!(
                "performance not slower than random + sd ({:.3} s)",
                random.sd_s
            ),
            random.mean_s / (random.mean_s + random.sd_s),
        ),
        // At most 2 % overhead: performance <= 1.02 x random.
        _ => ("performance overhead <= 2 %".to_string(), 1.0 / 1.02),
    };
    Some(TargetCheck {
        name: format!(
            "nodepolicy {} {} ranks {}: {claim}",
            performance.app, performance.ranks, performance.scenario
        ),
        measured: Some(random.mean_s / performance.mean_s),
        threshold,
    })
}

/// The target of every (app, ranks, scenario) group.
fn targets(cells: &[Cell]) -> Vec<TargetCheck> {
    cells
        .chunks(POLICIES.len())
        .filter_map(|group| target(&group.iter().collect::<Vec<_>>()))
        .collect()
}

fn report(cells: &[Cell], reps: usize) -> String {
    let mut text = format!(
        "node policies, {reps} runs each (mean s ± sd [min..max], eq. 4.2 max-diff %)\n\
         {:<18} {:>5} {:<10} {:<12} {:>30} {:>8} {:>12} {:>11}\n",
        "app", "ranks", "scenario", "policy", "time", "maxdiff", "eq4.1 vs rnd", "eq4.1 vs dp"
    );
    for c in cells {
        let (vs_random, vs_depthpool) = if c.policy == "performance" {
            (
                format!("{:+.1}%", c.speedup_vs_random_percent),
                format!("{:+.1}%", c.speedup_vs_depthpool_percent),
            )
        } else {
            (String::new(), String::new())
        };
        let _ = writeln!(
            text,
            "{:<18} {:>5} {:<10} {:<12} {:>8.3} ± {:>6.3} [{:.3}..{:.3}] {:>7.1}% {:>12} {:>11}",
            c.app,
            c.ranks,
            c.scenario,
            c.policy,
            c.mean_s,
            c.sd_s,
            c.min_s,
            c.max_s,
            c.max_difference_percent,
            vs_random,
            vs_depthpool
        );
    }
    text.push_str("targets (random / performance mean time, threshold):\n");
    text
}

/// Mean time per (ranks, scenario) group, one bar per policy, with min–max whiskers.
fn chart(app: &str, cells: &[Cell]) -> BarChart {
    let cells: Vec<&Cell> = cells.iter().filter(|c| c.app == app).collect();
    BarChart {
        title: format!("{app}: mean time by node policy"),
        y_label: "seconds (min..max)".into(),
        x_label: "ranks, scenario".into(),
        categories: cells
            .iter()
            .filter(|c| c.policy == POLICIES[0])
            .map(|c| format!("{} ranks, {}", c.ranks, c.scenario))
            .collect(),
        series: POLICIES
            .iter()
            .map(|policy| {
                BarSeries::new(
                    *policy,
                    cells.iter().filter(|c| c.policy == *policy).map(|c| {
                        Some(Bar {
                            value: c.mean_s,
                            range: Some((c.min_s, c.max_s)),
                        })
                    }),
                )
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(scenario: &'static str, policy: &'static str, mean: f64, sd: f64) -> Cell {
        let times = [vec![2.0], vec![2.0], vec![2.0]];
        let mut c = summarise("app", 2, scenario, &times).remove(0);
        c.policy = policy;
        c.mean_s = mean;
        c.sd_s = sd;
        c.speedup_vs_random_percent = eq_4_1(policy, 2.0, mean);
        c
    }

    #[test]
    fn eq_4_1_is_the_gain_over_the_performance_time() {
        assert_eq!(eq_4_1("performance", 1.5, 1.0), 50.0);
        assert_eq!(eq_4_1("performance", 1.0, 1.25), -20.0);
        assert_eq!(eq_4_1("random", 3.0, 1.0), 0.0);
    }

    #[test]
    fn summaries_hold_the_eq_4_2_spread_and_the_gains() {
        let times = [vec![3.0, 3.0], vec![2.0, 2.5], vec![1.0, 2.0]];
        let cells = summarise("app", 4, "imbalanced", &times);
        assert_eq!(cells[2].mean_s, 1.5);
        assert_eq!(cells[2].max_difference_percent, 100.0);
        assert_eq!(cells[2].speedup_vs_random_percent, 100.0);
        assert_eq!(cells[2].speedup_vs_depthpool_percent, 50.0);
        assert_eq!(cells[0].speedup_vs_random_percent, 0.0);
    }

    #[test]
    fn targets_apply_each_scenarios_threshold() {
        let passes =
            |random: &Cell, performance: &Cell| target(&[random, performance]).unwrap().passed();
        let random = cell("imbalanced", "random", 2.0, 0.1);
        assert!(passes(
            &random,
            &cell("imbalanced", "performance", 1.8, 0.1)
        )); // 1.11x
        assert!(!passes(
            &random,
            &cell("imbalanced", "performance", 1.9, 0.1)
        )); // 1.05x

        let random = cell("balanced", "random", 2.0, 0.1);
        assert!(passes(&random, &cell("balanced", "performance", 2.09, 0.1)));
        assert!(!passes(
            &random,
            &cell("balanced", "performance", 2.11, 0.1)
        ));

        let random = cell("single", "random", 2.0, 0.1);
        assert!(passes(&random, &cell("single", "performance", 2.03, 0.1)));
        assert!(!passes(&random, &cell("single", "performance", 2.05, 0.1)));
    }
}
