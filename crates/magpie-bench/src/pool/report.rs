//! Tables, CSV and SVG files and target checks of the pool benchmark. Every comparison
//! is a ratio of medians from the same run: "x rayon" is rayon's median time over the
//! runtime's at the same thread count (above 1 = faster than rayon; for spawn workloads
//! the ratio of tasks/s), the speedup a runtime's 1-thread over its 2-thread median time.

use std::time::Duration;

use serde::Serialize;

pub use super::run::Info;
use super::run::{Cell, Config, RunRow, Runtime, THREADS};
use crate::output::Out;
use crate::stats::{ratio_of_medians, CellSummaries, Summary};
use crate::svg::{Bar, BarChart, BarSeries};
use crate::table::{f2, si, Table};
use crate::{BenchError, TargetCheck};

/// A stated target (issues 4 and 21) for magpie at [`THREADS`] threads.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// Peer time / magpie time reaches the threshold (the sequential bound: 1 thread).
    Vs(Runtime, f64),
    /// magpie's 1-thread time / [`THREADS`]-thread time reaches the threshold.
    Speedup(f64),
    /// magpie's slowest run is at most this many times its fastest (checked as
    /// fastest / slowest >= 1 / threshold).
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

/// Columns of the printed main table.
const TABLE_COLUMNS: &str =
    "workload,runtime,threads,median ms,min,max,spread %,max/min,x rayon,x chili,x seq,tasks/s";

/// A row of `pool_summary.csv`: one cell. Times in seconds with 6 decimals, ratios with
/// 2, tasks/s with none; empty when not measured.
#[derive(Serialize)]
struct SummaryRow {
    workload: &'static str,
    size: String,
    label: String,
    runtime: &'static str,
    threads: usize,
    reps: usize,
    median_secs: String,
    min_secs: String,
    max_secs: String,
    q1_secs: String,
    q3_secs: String,
    spread_pct: String,
    max_over_min: String,
    x_rayon: String,
    x_chili: String,
    x_seq: String,
    tasks_per_sec: String,
    speedup_1_to_2: String,
}

/// A row of `idle_runs.csv`: one idle span; CPU in % of one core with 3 decimals.
#[derive(Serialize)]
struct IdleRunRow {
    runtime: &'static str,
    threads: usize,
    rep: usize,
    idle_secs: String,
    cpu_pct_of_core: String,
}

/// A row of `idle_summary.csv`: one runtime; CPU in % of one core with 3 decimals.
#[derive(Serialize)]
struct IdleSummaryRow {
    runtime: &'static str,
    threads: usize,
    reps: usize,
    idle_secs: String,
    median_cpu_pct: String,
    min: String,
    max: String,
    q1: String,
    q3: String,
    spread_pct: String,
}

/// Everything measured in one run: workloads (indexed by [`Cell::workload`]), timed
/// cells, idle CPU samples (% of one core) per runtime over spans of `idle_span`.
pub struct Measured<'a> {
    pub infos: &'a [Info],
    pub cells: &'a [Cell],
    pub idle: &'a [(Runtime, Vec<f64>)],
    pub idle_span: Duration,
    pub reps: usize,
}

/// `base.median / s.median` with the range from `s`'s min..max: how much faster `s` is
/// than `base` (times, so lower is faster).
fn speed_bar(base: &Summary, s: &Summary) -> Option<Bar> {
    let value = ratio_of_medians(base, s)?;
    let range = (s.max > 0.0 && s.min > 0.0).then(|| (base.median / s.max, base.median / s.min));
    Some(Bar { value, range })
}

fn value(bar: Option<Bar>) -> String {
    f2(bar.map(|b| b.value))
}

fn ms(secs: f64) -> String {
    format!("{:.2}", secs * 1e3)
}

/// Summaries of every cell, looked up by workload index and config.
struct Lookup<'a> {
    m: &'a Measured<'a>,
    sums: CellSummaries<(usize, Config)>,
}

impl<'a> Lookup<'a> {
    fn new(m: &'a Measured<'a>) -> Result<Lookup<'a>, BenchError> {
        let keys: Vec<(usize, Config)> = m.cells.iter().map(|c| (c.workload, c.config)).collect();
        let samples: Vec<Vec<f64>> = m.cells.iter().map(|c| c.secs.clone()).collect();
        let sums = CellSummaries::new(&keys, &samples)?;
        Ok(Lookup { m, sums })
    }

    fn get(&self, w: usize, runtime: Runtime, threads: usize) -> Option<Summary> {
        self.sums.get((w, Config::new(runtime, threads)))
    }

    /// `peer`'s time / `c`'s time, same threads (the sequential peer: its one thread).
    fn vs(&self, w: usize, peer: Runtime, c: Config) -> Option<Bar> {
        let peer_threads = if peer == Runtime::Seq { 1 } else { c.threads };
        speed_bar(
            &self.get(w, peer, peer_threads)?,
            &self.get(w, c.runtime, c.threads)?,
        )
    }

    /// `rt`'s 1-thread time / its [`THREADS`]-thread time.
    fn speedup(&self, w: usize, rt: Runtime) -> Option<Bar> {
        speed_bar(&self.get(w, rt, 1)?, &self.get(w, rt, THREADS)?)
    }

    /// Workloads (indices) with a 1-thread cell.
    fn scaled(&self) -> Vec<usize> {
        (0..self.m.infos.len())
            .filter(|&w| self.get(w, Runtime::Magpie, 1).is_some())
            .collect()
    }
}

/// Writes `pool_{runs,summary}.csv`, `idle_{runs,summary}.csv`, `pool_vs_rayon.svg`,
/// `pool_speedup.svg` and `idle_cpu.svg`; prints the tables and checks the targets.
pub fn render(m: &Measured<'_>, runs: &[RunRow], out: &mut Out) -> Result<(), BenchError> {
    let lk = Lookup::new(m)?;
    let (table, summary) = main_table(&lk);
    let (idle_text, idle_runs, idle_summary, idle_chart) = idle_report(m)?;
    let targets = targets(&lk);
    out.rows("pool_runs.csv", runs)?;
    out.rows("pool_summary.csv", &summary)?;
    out.rows("idle_runs.csv", &idle_runs)?;
    out.rows("idle_summary.csv", &idle_summary)?;
    out.file("pool_vs_rayon.svg", &vs_rayon_chart(&lk).render())?;
    out.file("pool_speedup.svg", &speedup_chart(&lk).render())?;
    out.file("idle_cpu.svg", &idle_chart.render())?;
    out.say(&format!(
        "\n== fork-join and spawn: median time per run, {} reps ==\n{table}\
         x rayon = rayon median time / this median time, same threads (> 1 = faster than rayon; \
         for spawn = ratio of tasks/s); x chili likewise; x seq = sequential time / this time; \
         spread % = (max - min) / median; max/min = slowest / fastest run\n{}{idle_text}\
         \n-- pool targets (medians, same run, {THREADS} threads) --\n{}",
        m.reps,
        speedup_table(&lk),
        crate::table::targets(&targets),
    ));
    out.targets.extend(targets);
    Ok(())
}

/// The printed main table and `pool_summary.csv`: one row per cell.
fn main_table(lk: &Lookup<'_>) -> (String, Vec<SummaryRow>) {
    let mut table = Table::new(&TABLE_COLUMNS.split(',').collect::<Vec<_>>(), 2);
    let mut rows = Vec::new();
    for ((w, c), s) in lk.sums.iter() {
        let info = &lk.m.infos[w];
        let vs = |peer| value(lk.vs(w, peer, c));
        let (x_rayon, x_chili, x_seq) = (vs(Runtime::Rayon), vs(Runtime::Chili), vs(Runtime::Seq));
        let max_over_min = f2((s.min > 0.0).then(|| s.max / s.min));
        let tasks_per_sec = info.tasks.map(|n| n as f64 / s.median);
        let speedup = (c.threads == THREADS).then(|| lk.speedup(w, c.runtime));
        table.row(&[
            info.label.clone(),
            c.runtime.name().to_string(),
            c.threads.to_string(),
            ms(s.median),
            ms(s.min),
            ms(s.max),
            format!("{:.1}", s.spread_pct()),
            max_over_min.clone(),
            x_rayon.clone(),
            x_chili.clone(),
            x_seq.clone(),
            tasks_per_sec.map_or(String::new(), si),
        ]);
        let [median_secs, min_secs, max_secs, q1_secs, q3_secs, spread_pct] = s.csv_fields(6);
        rows.push(SummaryRow {
            workload: info.family,
            size: info.size.clone(),
            label: info.label.clone(),
            runtime: c.runtime.name(),
            threads: c.threads,
            reps: s.n,
            median_secs,
            min_secs,
            max_secs,
            q1_secs,
            q3_secs,
            spread_pct,
            max_over_min,
            x_rayon,
            x_chili,
            x_seq,
            tasks_per_sec: tasks_per_sec.map_or(String::new(), |r| format!("{r:.0}")),
            speedup_1_to_2: value(speedup.flatten()),
        });
    }
    (table.render(), rows)
}

fn speedup_table(lk: &Lookup<'_>) -> String {
    let header = "workload,runtime,1 thread ms,2 threads ms,speedup";
    let mut t = Table::new(&header.split(',').collect::<Vec<_>>(), 2);
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
                value(lk.speedup(w, rt)),
            ]);
        }
    }
    format!(
        "\n-- speedup from 1 to {THREADS} threads (1-thread median / {THREADS}-thread median) --\n{}",
        t.render()
    )
}

/// Every target of [`TARGETS`] on each workload of its family.
fn targets(lk: &Lookup<'_>) -> Vec<TargetCheck> {
    let mut checks = Vec::new();
    for (family, target) in TARGETS {
        for (w, info) in lk.m.infos.iter().enumerate() {
            if info.family == family {
                checks.push(target.check(lk, w, info));
            }
        }
    }
    checks
}

impl Target {
    /// This target measured on workload `w`.
    fn check(self, lk: &Lookup<'_>, w: usize, info: &Info) -> TargetCheck {
        let label = &info.label;
        let magpie = Config::new(Runtime::Magpie, THREADS);
        let (name, measured, threshold) = match self {
            Target::Vs(Runtime::Seq, t) => (
                format!("{label}: sequential time / magpie {THREADS}-thread time"),
                lk.vs(w, Runtime::Seq, magpie).map(|b| b.value),
                t,
            ),
            Target::Vs(peer, t) => {
                let tasks = if info.tasks.is_some() {
                    " (= tasks/s ratio)"
                } else {
                    ""
                };
                let peer_name = peer.name();
                (
                    format!("{label}, {THREADS} threads: {peer_name} time / magpie time{tasks}"),
                    lk.vs(w, peer, magpie).map(|b| b.value),
                    t,
                )
            }
            Target::Speedup(t) => (
                format!("{label}: magpie speedup 1 -> {THREADS} threads (time ratio)"),
                lk.speedup(w, Runtime::Magpie).map(|b| b.value),
                t,
            ),
            Target::Steady(t) => {
                let s = lk.get(w, Runtime::Magpie, THREADS);
                let ratio = s.filter(|s| s.max > 0.0).map(|s| s.min / s.max);
                let max_min = f2(ratio.map(|r| 1.0 / r));
                (
                    format!("{label}, {THREADS} threads: magpie fastest / slowest run (max/min {max_min} <= {t})"),
                    ratio,
                    1.0 / t,
                )
            }
        };
        TargetCheck {
            name,
            measured,
            threshold,
        }
    }
}

/// A bar chart over workloads `ws`: one series per runtime, bars from `bar(w, rt)`.
fn workload_chart(
    lk: &Lookup<'_>,
    (title, y_label): (&str, String),
    ws: &[usize],
    runtimes: &[Runtime],
    bar: impl Fn(usize, Runtime) -> Option<Bar>,
) -> BarChart {
    BarChart {
        title: format!("{title}, median of {}", lk.m.reps),
        y_label,
        x_label: "workload".into(),
        categories: ws.iter().map(|&w| lk.m.infos[w].label.clone()).collect(),
        series: (runtimes.iter())
            .map(|&rt| BarSeries::new(rt.name(), ws.iter().map(|&w| bar(w, rt))))
            .collect(),
    }
}

fn vs_rayon_chart(lk: &Lookup<'_>) -> BarChart {
    let ws: Vec<usize> = (0..lk.m.infos.len()).collect();
    let title = format!("magpie, tokio, chili and sequential vs rayon, {THREADS} threads");
    let y_label = "rayon time / time (> 1 = faster; bars = min..max)".into();
    workload_chart(lk, (&title, y_label), &ws, &Runtime::CHARTED, |w, rt| {
        let threads = if rt == Runtime::Seq { 1 } else { THREADS };
        speed_bar(
            &lk.get(w, Runtime::Rayon, THREADS)?,
            &lk.get(w, rt, threads)?,
        )
    })
}

fn speedup_chart(lk: &Lookup<'_>) -> BarChart {
    let title = format!("Speedup from 1 to {THREADS} threads");
    let y_label = format!("1-thread time / {THREADS}-thread time (bars = min..max)");
    let runtimes = [Runtime::Magpie, Runtime::Rayon];
    workload_chart(lk, (&title, y_label), &lk.scaled(), &runtimes, |w, rt| {
        lk.speedup(w, rt)
    })
}

/// The idle table text, the rows of the per-run and summary CSVs, and the chart.
fn idle_report(
    m: &Measured<'_>,
) -> Result<(String, Vec<IdleRunRow>, Vec<IdleSummaryRow>, BarChart), BenchError> {
    let span = format!("{:.3}", m.idle_span.as_secs_f64());
    let mut runs = Vec::new();
    let mut summary = Vec::new();
    let mut t = Table::new(&["runtime", "median % core", "min", "max"], 1);
    let mut bars = Vec::new();
    for (rt, samples) in m.idle {
        for (i, v) in samples.iter().enumerate() {
            runs.push(IdleRunRow {
                runtime: rt.name(),
                threads: THREADS,
                rep: i + 1,
                idle_secs: span.clone(),
                cpu_pct_of_core: format!("{v:.3}"),
            });
        }
        let s = Summary::of(samples)
            .ok_or_else(|| BenchError::Worker(format!("idle {}: no samples", rt.name())))?;
        let [median_cpu_pct, min, max, q1, q3, spread_pct] = s.csv_fields(3);
        summary.push(IdleSummaryRow {
            runtime: rt.name(),
            threads: THREADS,
            reps: s.n,
            idle_secs: span.clone(),
            median_cpu_pct,
            min,
            max,
            q1,
            q3,
            spread_pct,
        });
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
        let lk = Lookup::new(&m).unwrap();
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
