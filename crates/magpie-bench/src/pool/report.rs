//! Tables, CSV and SVG files and target checks of the pool benchmark.
//!
//! Every comparison is a ratio of medians from the same run: "x rayon" is rayon's median
//! time over the runtime's median time at the same thread count (above 1 = faster than
//! rayon; for spawn workloads it equals the ratio of tasks/s), and the speedup is the
//! 1-thread median time over the 2-thread median time of the same runtime.

use std::time::Duration;

pub use super::run::Info;
use super::run::{Cell, Config, Runtime, THREADS};
use crate::csv::Csv;
use crate::output::Out;
use crate::stats::{ratio_of_medians, Summary};
use crate::svg::{Bar, BarChart, BarSeries};
use crate::table::{f2, si, Table};
use crate::{BenchError, TargetCheck};

/// A stated target (issues 4 and 21).
#[derive(Clone, Copy, Debug)]
enum Target {
    /// magpie's speed (peer time / magpie time) at 2 threads reaches the threshold
    /// (the sequential bound is run on 1 thread).
    Vs(Runtime, f64),
    /// magpie's 1-thread time / 2-thread time reaches the threshold.
    Speedup(f64),
    /// magpie's slowest run at 2 threads is at most this many times its fastest
    /// (checked as fastest / slowest >= 1 / threshold).
    Steady(f64),
}

/// The targets, per workload family, in report order.
const TARGETS: [(&str, Target); 13] = [
    ("fib", Target::Vs(Runtime::Rayon, 2.0)),
    ("fib", Target::Vs(Runtime::Chili, 1.0)),
    ("fib", Target::Vs(Runtime::Seq, 1.0)),
    ("spawn", Target::Vs(Runtime::Rayon, 2.0)),
    ("spawn", Target::Steady(1.5)),
    ("chain-spawn", Target::Vs(Runtime::Rayon, 1.0)),
    ("chain-spawn", Target::Steady(1.5)),
    ("quicksort", Target::Vs(Runtime::Rayon, 1.0)),
    ("quicksort", Target::Vs(Runtime::Chili, 1.0)),
    ("tree-sum", Target::Vs(Runtime::Rayon, 1.0)),
    ("fib", Target::Speedup(1.8)),
    ("nqueens", Target::Speedup(1.8)),
    ("two-long-tasks", Target::Speedup(1.8)),
];

/// Everything measured in one run.
pub struct Measured<'a> {
    /// Workloads, indexed by [`Cell::workload`].
    pub infos: &'a [Info],
    /// Timed cells (seconds per repetition).
    pub cells: &'a [Cell],
    /// Idle CPU samples (% of one core) per runtime.
    pub idle: &'a [(Runtime, Vec<f64>)],
    /// Length of one idle span.
    pub idle_span: Duration,
    /// Repetitions.
    pub reps: usize,
}

/// `base.median / s.median` with the range from `s`'s min..max: how much faster `s` is
/// than `base` (times, so lower is faster).
fn speed_bar(base: &Summary, s: &Summary) -> Option<Bar> {
    let value = ratio_of_medians(base, s)?;
    let range = (s.max > 0.0 && s.min > 0.0).then(|| (base.median / s.max, base.median / s.min));
    Some(Bar { value, range })
}

fn ms(secs: f64) -> String {
    format!("{:.2}", secs * 1e3)
}

/// Summaries of every cell, looked up by workload and config.
struct Lookup<'a> {
    m: &'a Measured<'a>,
    sums: Vec<Summary>,
}

impl Lookup<'_> {
    fn get(&self, w: usize, runtime: Runtime, threads: usize) -> Option<&Summary> {
        let want = Config::new(runtime, threads);
        self.m
            .cells
            .iter()
            .position(|c| c.workload == w && c.config == want)
            .map(|i| &self.sums[i])
    }

    /// rayon time / `c`'s time, same threads.
    fn vs_rayon(&self, w: usize, c: Config) -> Option<Bar> {
        self.vs(w, Runtime::Rayon, c)
    }

    /// `peer`'s time / `c`'s time, same threads (the sequential peer: its one thread).
    fn vs(&self, w: usize, peer: Runtime, c: Config) -> Option<Bar> {
        let peer_threads = if peer == Runtime::Seq { 1 } else { c.threads };
        speed_bar(
            self.get(w, peer, peer_threads)?,
            self.get(w, c.runtime, c.threads)?,
        )
    }

    /// `rt`'s 1-thread time / its [`THREADS`]-thread time.
    fn speedup(&self, w: usize, rt: Runtime) -> Option<Bar> {
        speed_bar(self.get(w, rt, 1)?, self.get(w, rt, THREADS)?)
    }

    /// Workloads (indices) with a 1-thread cell.
    fn scaled(&self) -> Vec<usize> {
        (0..self.m.infos.len())
            .filter(|&w| self.get(w, Runtime::Magpie, 1).is_some())
            .collect()
    }
}

/// Writes `pool_runs.csv`, `pool_summary.csv`, `idle_runs.csv`, `idle_summary.csv`,
/// `pool_vs_rayon.svg`, `pool_speedup.svg` and `idle_cpu.svg`; prints the tables and
/// checks the targets.
pub fn render(m: &Measured<'_>, runs: &Csv, out: &mut Out) -> Result<(), BenchError> {
    let samples: Vec<Vec<f64>> = m.cells.iter().map(|c| c.secs.clone()).collect();
    let lk = Lookup {
        m,
        sums: Summary::of_each(&samples)?,
    };
    let mut text = String::new();
    let (table, summary) = main_table(&lk);
    text.push_str(&format!(
        "\n== fork-join and spawn: median time per run, {} reps ==\n",
        m.reps
    ));
    text.push_str(&table);
    text.push_str(
        "x rayon = rayon median time / this median time, same threads (> 1 = faster than rayon; \
         for spawn = ratio of tasks/s); x chili likewise; x seq = sequential time / this time; \
         spread % = (max - min) / median; max/min = slowest / fastest run\n",
    );
    text.push_str(&speedup_table(&lk));
    let (idle_text, idle_runs, idle_summary, idle_chart) = idle_report(m)?;
    text.push_str(&idle_text);
    let targets = targets(&lk);
    text.push_str(&format!(
        "\n-- pool targets (medians, same run, {THREADS} threads) --\n"
    ));
    text.push_str(&crate::table::targets(&targets));
    for (name, contents) in [
        ("pool_runs.csv", runs.render()),
        ("pool_summary.csv", summary.render()),
        ("idle_runs.csv", idle_runs.render()),
        ("idle_summary.csv", idle_summary.render()),
        ("pool_vs_rayon.svg", vs_rayon_chart(&lk).render()),
        ("pool_speedup.svg", speedup_chart(&lk).render()),
        ("idle_cpu.svg", idle_chart.render()),
    ] {
        out.file(name, &contents)?;
    }
    out.say(&text);
    out.targets.extend(targets);
    Ok(())
}

fn main_table(lk: &Lookup<'_>) -> (String, Csv) {
    let mut table = Table::new(
        &[
            "workload",
            "runtime",
            "threads",
            "median ms",
            "min",
            "max",
            "spread %",
            "max/min",
            "x rayon",
            "x chili",
            "x seq",
            "tasks/s",
        ],
        2,
    );
    let mut csv = Csv::new(&[
        "workload",
        "size",
        "label",
        "runtime",
        "threads",
        "reps",
        "median_secs",
        "min_secs",
        "max_secs",
        "q1_secs",
        "q3_secs",
        "spread_pct",
        "max_over_min",
        "x_rayon",
        "x_chili",
        "x_seq",
        "tasks_per_sec",
        "speedup_1_to_2",
    ]);
    for (cell, s) in lk.m.cells.iter().zip(&lk.sums) {
        let info = &lk.m.infos[cell.workload];
        let c = cell.config;
        let x = f2(lk.vs_rayon(cell.workload, c).map(|b| b.value));
        let xc = f2(lk.vs(cell.workload, Runtime::Chili, c).map(|b| b.value));
        let xs = f2(lk.vs(cell.workload, Runtime::Seq, c).map(|b| b.value));
        let max_min = f2((s.min > 0.0).then(|| s.max / s.min));
        let rate = info
            .tasks
            .map_or(String::new(), |n| si(n as f64 / s.median));
        let speedup = if c.threads == THREADS {
            f2(lk.speedup(cell.workload, c.runtime).map(|b| b.value))
        } else {
            String::new()
        };
        table.row(&[
            info.label.clone(),
            c.runtime.name().to_string(),
            c.threads.to_string(),
            ms(s.median),
            ms(s.min),
            ms(s.max),
            format!("{:.1}", s.spread_pct()),
            max_min.clone(),
            x.clone(),
            xc.clone(),
            xs.clone(),
            rate.clone(),
        ]);
        let mut row = vec![
            info.family.to_string(),
            info.size.clone(),
            info.label.clone(),
            c.runtime.name().to_string(),
            c.threads.to_string(),
            s.n.to_string(),
        ];
        row.extend(s.csv_fields(6));
        row.extend([
            max_min,
            x,
            xc,
            xs,
            info.tasks
                .map_or(String::new(), |n| format!("{:.0}", n as f64 / s.median)),
            speedup,
        ]);
        csv.row(&row);
    }
    (table.render(), csv)
}

fn speedup_table(lk: &Lookup<'_>) -> String {
    let mut t = Table::new(
        &[
            "workload",
            "runtime",
            "1 thread ms",
            "2 threads ms",
            "speedup",
        ],
        2,
    );
    for w in lk.scaled() {
        for rt in [Runtime::Magpie, Runtime::Rayon] {
            let (Some(a), Some(b)) = (lk.get(w, rt, 1), lk.get(w, rt, THREADS)) else {
                continue;
            };
            t.row(&[
                lk.m.infos[w].label.clone(),
                rt.name().to_string(),
                ms(a.median),
                ms(b.median),
                f2(lk.speedup(w, rt).map(|b| b.value)),
            ]);
        }
    }
    format!(
        "\n-- speedup from 1 to {THREADS} threads (1-thread median / {THREADS}-thread median) --\n{}",
        t.render()
    )
}

fn targets(lk: &Lookup<'_>) -> Vec<TargetCheck> {
    let mut out = Vec::new();
    let magpie = Config::new(Runtime::Magpie, THREADS);
    for (family, target) in TARGETS {
        for (w, info) in lk.m.infos.iter().enumerate() {
            if info.family != family {
                continue;
            }
            out.push(match target {
                Target::Vs(peer, t) => TargetCheck {
                    name: match peer {
                        Runtime::Seq => format!(
                            "{}: sequential time / magpie {THREADS}-thread time",
                            info.label
                        ),
                        _ => format!(
                            "{}, {THREADS} threads: {} time / magpie time{}",
                            info.label,
                            peer.name(),
                            if info.tasks.is_some() {
                                " (= tasks/s ratio)"
                            } else {
                                ""
                            }
                        ),
                    },
                    measured: lk.vs(w, peer, magpie).map(|b| b.value),
                    threshold: t,
                },
                Target::Speedup(t) => TargetCheck {
                    name: format!(
                        "{}: magpie speedup 1 -> {THREADS} threads (time ratio)",
                        info.label
                    ),
                    measured: lk.speedup(w, Runtime::Magpie).map(|b| b.value),
                    threshold: t,
                },
                Target::Steady(t) => {
                    let s = lk.get(w, Runtime::Magpie, THREADS);
                    let ratio = s.filter(|s| s.max > 0.0).map(|s| s.min / s.max);
                    TargetCheck {
                        name: format!(
                            "{}, {THREADS} threads: magpie fastest / slowest run (max/min {} <= {t})",
                            info.label,
                            f2(ratio.map(|r| 1.0 / r)),
                        ),
                        measured: ratio,
                        threshold: 1.0 / t,
                    }
                }
            });
        }
    }
    out
}

fn vs_rayon_chart(lk: &Lookup<'_>) -> BarChart {
    let ws: Vec<usize> = (0..lk.m.infos.len()).collect();
    BarChart {
        title: format!(
            "magpie, tokio, chili and sequential vs rayon, {THREADS} threads, median of {}",
            lk.m.reps
        ),
        y_label: "rayon time / time (> 1 = faster; bars = min..max)".into(),
        x_label: "workload".into(),
        categories: ws.iter().map(|&w| lk.m.infos[w].label.clone()).collect(),
        series: Runtime::CHARTED
            .iter()
            .map(|&rt| {
                BarSeries::new(
                    rt.name(),
                    ws.iter().map(|&w| {
                        let threads = if rt == Runtime::Seq { 1 } else { THREADS };
                        speed_bar(lk.get(w, Runtime::Rayon, THREADS)?, lk.get(w, rt, threads)?)
                    }),
                )
            })
            .collect(),
    }
}

fn speedup_chart(lk: &Lookup<'_>) -> BarChart {
    let ws = lk.scaled();
    BarChart {
        title: format!(
            "Speedup from 1 to {THREADS} threads, median of {}",
            lk.m.reps
        ),
        y_label: format!("1-thread time / {THREADS}-thread time (bars = min..max)"),
        x_label: "workload".into(),
        categories: ws.iter().map(|&w| lk.m.infos[w].label.clone()).collect(),
        series: [Runtime::Magpie, Runtime::Rayon]
            .iter()
            .map(|&rt| BarSeries::new(rt.name(), ws.iter().map(|&w| lk.speedup(w, rt))))
            .collect(),
    }
}

/// Idle table text, per-run and summary CSVs, and chart.
fn idle_report(m: &Measured<'_>) -> Result<(String, Csv, Csv, BarChart), BenchError> {
    let span = format!("{:.3}", m.idle_span.as_secs_f64());
    let mut runs = Csv::new(&["runtime", "threads", "rep", "idle_secs", "cpu_pct_of_core"]);
    let mut summary = Csv::new(
        &[
            &["runtime", "threads", "reps", "idle_secs"][..],
            &Summary::csv_columns("median_cpu_pct"),
        ]
        .concat(),
    );
    let mut t = Table::new(&["runtime", "median % core", "min", "max"], 1);
    let mut bars = Vec::new();
    for (rt, samples) in m.idle {
        for (i, v) in samples.iter().enumerate() {
            runs.row(&[
                rt.name().to_string(),
                THREADS.to_string(),
                (i + 1).to_string(),
                span.clone(),
                format!("{v:.3}"),
            ]);
        }
        let s = Summary::of(samples)
            .ok_or_else(|| BenchError::Worker(format!("idle {}: no samples", rt.name())))?;
        let mut row = vec![
            rt.name().to_string(),
            THREADS.to_string(),
            s.n.to_string(),
            span.clone(),
        ];
        row.extend(s.csv_fields(3));
        summary.row(&row);
        t.row(&[
            rt.name().to_string(),
            format!("{:.2}", s.median),
            format!("{:.2}", s.min),
            format!("{:.2}", s.max),
        ]);
        // % of a core × 10^4 = CPU µs per second: readable ticks for near-zero values.
        let us: Vec<f64> = samples.iter().map(|v| v * 1e4).collect();
        bars.push(Summary::of(&us).map(Bar::from));
    }
    let text = format!(
        "\n-- idle CPU: process CPU time over {span} s right after a tiny job, {THREADS} workers, % of one core --\n{}\
         (magpie's bound in issue 4: <= 1 % of a core)\n",
        t.render()
    );
    let chart = BarChart {
        title: format!("Idle CPU over {span} s after a tiny job, {THREADS} workers"),
        y_label: "CPU µs per second (100 µs/s = 0.01 % of a core; bars = min..max)".into(),
        x_label: "runtime".into(),
        categories: m.idle.iter().map(|(rt, _)| rt.name().to_string()).collect(),
        series: vec![BarSeries::new("idle CPU", bars)],
    };
    Ok((text, runs, summary, chart))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_bar_is_base_over_value() {
        let base = Summary::of(&[2.0, 2.0, 2.0]).unwrap();
        let s = Summary::of(&[0.5, 1.0, 2.0]).unwrap();
        let b = speed_bar(&base, &s).unwrap();
        assert_eq!(b.value, 2.0);
        assert_eq!(b.range, Some((1.0, 4.0)));
    }

    #[test]
    fn targets_cover_each_matching_workload() {
        let info = |family: &'static str, label: &str| Info {
            family,
            size: String::new(),
            label: label.into(),
            tasks: None,
        };
        let infos = [
            info("fib", "fib(5)"),
            info("nqueens", "q4"),
            info("nqueens", "q5"),
        ];
        let cell = |w, rt, threads, v: f64| Cell {
            workload: w,
            config: Config::new(rt, threads),
            secs: vec![v],
        };
        let cells = [
            cell(0, Runtime::Magpie, 1, 4.0),
            cell(0, Runtime::Magpie, 2, 2.0),
            cell(0, Runtime::Rayon, 2, 3.0),
            cell(1, Runtime::Magpie, 1, 1.0),
            cell(1, Runtime::Magpie, 2, 1.0),
        ];
        let m = Measured {
            infos: &infos,
            cells: &cells,
            idle: &[],
            idle_span: Duration::from_secs(1),
            reps: 1,
        };
        let lk = Lookup {
            m: &m,
            sums: cells
                .iter()
                .map(|c| Summary::of(&c.secs).unwrap())
                .collect(),
        };
        let t = targets(&lk);
        let names: Vec<&str> = t.iter().map(|c| c.name.as_str()).collect();
        // fib vs rayon, chili (absent), seq (absent), fib and both queens speedups.
        assert_eq!(t.len(), 6, "{names:?}");
        assert_eq!(t[0].measured, Some(1.5));
        assert!(!t[0].passed());
        assert_eq!((t[1].measured, t[2].measured), (None, None));
        assert_eq!(t[3].measured, Some(2.0));
        assert!(t[3].passed());
        assert_eq!(t[4].measured, Some(1.0));
        assert_eq!(t[5].measured, None);
    }
}
