//! Parallel iterators against rayon and the sequential iterator: `magpie bench iter`.
//!
//! The same iterator code runs on each prelude in its own 2-thread pool; answers are
//! compared. Target: magpie ≥ 1.0× rayon on every workload. `--quick` divides the sizes
//! by 10.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

use serde::Serialize;

use crate::stats::Summary;
use crate::svg::{Bar, BarChart, BarSeries};
use crate::{BenchError, Outcome, RunOptions, TargetCheck};

const THREADS: usize = 2;
const RUNTIMES: [&str; 3] = ["magpie", "rayon", "sequential"];
const WORKLOADS: [&str; 6] = [
    "sum of squares",
    "map + collect",
    "filter + count",
    "par_sort_unstable",
    "skewed map",
    "nested par_iter",
];

/// Work of the skewed map: `i / 64` rounds of xorshift, so the last items cost the most.
fn skew_cost(i: u64) -> u64 {
    let mut x = i | 1;
    for _ in 0..i / 64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    x & 0xff
}

/// A cheap, not trivially foldable item of the nested workload.
fn mix(i: u64, j: u64) -> u64 {
    (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ j).rotate_left(17) & 0xffff
}

/// The workloads written once against whichever prelude is in scope, with the given
/// names of `iter`, `into_iter` and `sort_unstable` (parallel or sequential).
macro_rules! workloads {
    ($iter:ident, $into_iter:ident, $sort:ident) => {
        pub fn sum_squares(v: &[u64]) -> u64 {
            v.$iter().map(|&x| x * x).sum()
        }
        pub fn map_collect(v: &[u64]) -> Vec<u64> {
            v.$iter().map(|&x| x * 3 + 1).collect()
        }
        pub fn filter_count(v: &[u64]) -> usize {
            v.$iter().filter(|&&x| x % 3 == 0).count()
        }
        pub fn sort(v: &mut [u32]) {
            v.$sort()
        }
        pub fn skewed(n: u64) -> u64 {
            (0..n).$into_iter().map(super::skew_cost).sum()
        }
        pub fn nested(outer: u64, inner: u64) -> u64 {
            (0..outer)
                .$into_iter()
                .map(|i| {
                    (0..inner)
                        .$into_iter()
                        .map(|j| super::mix(i, j))
                        .sum::<u64>()
                })
                .sum()
        }
    };
}

mod on_magpie {
    use magpie::prelude::*;
    workloads!(par_iter, into_par_iter, par_sort_unstable);
}

mod on_rayon {
    use rayon::prelude::*;
    workloads!(par_iter, into_par_iter, par_sort_unstable);
}

mod sequential {
    workloads!(iter, into_iter, sort_unstable);
}

/// Inputs, built once before timing.
struct Inputs {
    big: Vec<u64>,
    unsorted: Vec<u32>,
    skew_n: u64,
    nested: (u64, u64),
}

impl Inputs {
    fn new(quick: bool) -> Inputs {
        let scale = if quick { 10 } else { 1 };
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let unsorted = (0..10_000_000 / scale)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u32
            })
            .collect();
        Inputs {
            // Values below 2^16: squares and their sum stay far from overflow.
            big: (0..100_000_000 / scale as u64)
                .map(|i| i & 0xffff)
                .collect(),
            unsorted,
            skew_n: 200_000 / scale as u64,
            nested: (1_000 / scale as u64, 10_000),
        }
    }
    fn ten_million(&self) -> &[u64] {
        &self.big[..self.big.len() / 10]
    }
}

/// What a workload returns: checked by digest after the clock stops, so the time is the
/// workload's alone (a digest of 10 M items is itself a sequential pass).
enum Answer {
    Value(u64),
    Items(Vec<u64>),
    Sorted(Vec<u32>),
}

/// Runs workload `w` on runtime `r`; returns seconds and a digest of the answer.
fn measure(w: usize, r: usize, inputs: &Inputs, pools: &Pools) -> (f64, u64) {
    let ten = inputs.ten_million();
    let to_sort = (w == 3).then(|| inputs.unsorted.clone());
    let run = move || -> Answer {
        match (w, r) {
            (0, 0) => Answer::Value(on_magpie::sum_squares(&inputs.big)),
            (0, 1) => Answer::Value(on_rayon::sum_squares(&inputs.big)),
            (0, _) => Answer::Value(sequential::sum_squares(&inputs.big)),
            (1, 0) => Answer::Items(on_magpie::map_collect(ten)),
            (1, 1) => Answer::Items(on_rayon::map_collect(ten)),
            (1, _) => Answer::Items(sequential::map_collect(ten)),
            (2, 0) => Answer::Value(on_magpie::filter_count(ten) as u64),
            (2, 1) => Answer::Value(on_rayon::filter_count(ten) as u64),
            (2, _) => Answer::Value(sequential::filter_count(ten) as u64),
            (3, _) => {
                let mut v = to_sort.expect("input cloned above");
                match r {
                    0 => on_magpie::sort(&mut v),
                    1 => on_rayon::sort(&mut v),
                    _ => sequential::sort(&mut v),
                }
                Answer::Sorted(v)
            }
            (4, 0) => Answer::Value(on_magpie::skewed(inputs.skew_n)),
            (4, 1) => Answer::Value(on_rayon::skewed(inputs.skew_n)),
            (4, _) => Answer::Value(sequential::skewed(inputs.skew_n)),
            (_, 0) => Answer::Value(on_magpie::nested(inputs.nested.0, inputs.nested.1)),
            (_, 1) => Answer::Value(on_rayon::nested(inputs.nested.0, inputs.nested.1)),
            (_, _) => Answer::Value(sequential::nested(inputs.nested.0, inputs.nested.1)),
        }
    };
    let start = Instant::now();
    // black_box before the clock stops: the (inlined) sequential run cannot move past it.
    let answer = black_box(match r {
        0 => pools.magpie.install(run),
        1 => pools.rayon.install(run),
        _ => run(),
    });
    let seconds = start.elapsed().as_secs_f64();
    let digest = match answer {
        Answer::Value(value) => value,
        Answer::Items(items) => digest(&items),
        Answer::Sorted(v) => {
            assert!(
                v.windows(2).all(|w| w[0] <= w[1]),
                "{} left the input unsorted",
                RUNTIMES[r]
            );
            digest_u32(&v)
        }
    };
    (seconds, digest)
}

fn digest(v: &[u64]) -> u64 {
    v.iter().enumerate().fold(0u64, |h, (i, &x)| {
        h.rotate_left(5) ^ x.wrapping_add(i as u64)
    })
}

fn digest_u32(v: &[u32]) -> u64 {
    v.iter()
        .step_by(997)
        .fold(v.len() as u64, |h, &x| h.rotate_left(5) ^ x as u64)
}

struct Pools {
    magpie: magpie::ThreadPool,
    rayon: rayon::ThreadPool,
}

#[derive(Serialize)]
struct RunRow {
    workload: &'static str,
    runtime: &'static str,
    rep: usize,
    seconds: f64,
}

#[derive(Serialize)]
struct SummaryRow {
    workload: &'static str,
    runtime: &'static str,
    median_ms: f64,
    min_ms: f64,
    max_ms: f64,
    spread_pct: f64,
    x_rayon: f64,
    x_sequential: f64,
}

/// Runs the benchmark.
pub fn run(options: &RunOptions) -> Result<Outcome, BenchError> {
    let mut out = options.out()?;
    let reps = options.reps_or(3, 11);
    let pools = Pools {
        magpie: crate::pool::run::magpie_pool(THREADS)?,
        rayon: crate::pool::run::rayon_pool(THREADS)?,
    };
    let inputs = Inputs::new(options.quick);
    let cells = WORKLOADS.len() * RUNTIMES.len();
    let mut times = vec![Vec::new(); cells];
    let mut answers: Vec<Option<u64>> = vec![None; WORKLOADS.len()];
    let mut runs = Vec::new();
    // One untimed warm-up of every cell (pools awake, inputs in cache alike).
    for cell in 0..cells {
        measure(
            cell / RUNTIMES.len(),
            cell % RUNTIMES.len(),
            &inputs,
            &pools,
        );
    }
    crate::order::interleave("bench iter", cells, reps, |rep, cell| {
        let (w, r) = (cell / RUNTIMES.len(), cell % RUNTIMES.len());
        let (seconds, digest) = measure(w, r, &inputs, &pools);
        if *answers[w].get_or_insert(digest) != digest {
            return Err(BenchError::Worker(format!(
                "{}: {} gave a different answer",
                WORKLOADS[w], RUNTIMES[r]
            )));
        }
        times[cell].push(seconds);
        runs.push(RunRow {
            workload: WORKLOADS[w],
            runtime: RUNTIMES[r],
            rep,
            seconds,
        });
        Ok(())
    })?;
    let summaries = Summary::of_each(&times)?;
    let at = |w: usize, r: usize| summaries[w * RUNTIMES.len() + r];
    let mut rows = Vec::new();
    let mut targets = Vec::new();
    for (w, &workload) in WORKLOADS.iter().enumerate() {
        for (r, &runtime) in RUNTIMES.iter().enumerate() {
            let s = at(w, r);
            rows.push(SummaryRow {
                workload,
                runtime,
                median_ms: s.median * 1e3,
                min_ms: s.min * 1e3,
                max_ms: s.max * 1e3,
                spread_pct: s.spread_pct(),
                x_rayon: at(w, 1).median / s.median,
                x_sequential: at(w, 2).median / s.median,
            });
        }
        targets.push(TargetCheck {
            name: format!("{workload}, {THREADS} threads: rayon time / magpie time"),
            measured: Some(at(w, 1).median / at(w, 0).median),
            threshold: 1.0,
        });
    }
    out.rows("iter_runs.csv", &runs)?;
    out.rows("iter_summary.csv", &rows)?;
    out.file("iter_speedup.svg", &chart(&times, reps).render())?;
    out.say(&report(&rows, &targets, reps, options.quick));
    out.targets = targets;
    out.finish("iter_report.txt")
}

/// Speedup over the sequential iterator: the table's "x seq" (sequential median / median),
/// with the range from this runtime's min..max.
fn chart(times: &[Vec<f64>], reps: usize) -> BarChart {
    let n = RUNTIMES.len();
    BarChart {
        title: format!("Parallel iterators, {THREADS} threads, median of {reps}"),
        y_label: "sequential time / time (bars = min..max)".into(),
        x_label: "workload".into(),
        categories: WORKLOADS.iter().map(|w| w.to_string()).collect(),
        series: RUNTIMES[..2]
            .iter()
            .enumerate()
            .map(|(r, name)| {
                BarSeries::new(
                    *name,
                    (0..WORKLOADS.len()).map(|w| {
                        let seq = Summary::of(&times[w * n + 2])?;
                        let mine = Summary::of(&times[w * n + r])?;
                        Some(Bar {
                            value: seq.median / mine.median,
                            range: Some((seq.median / mine.max, seq.median / mine.min)),
                        })
                    }),
                )
            })
            .collect(),
    }
}

fn report(rows: &[SummaryRow], targets: &[TargetCheck], reps: usize, quick: bool) -> String {
    let mut text = format!(
        "parallel iterators, {THREADS} threads, {reps} interleaved repetitions{}\n\
         {:<18} {:<10} {:>10} {:>9} {:>9} {:>8} {:>7} {:>7}\n",
        if quick {
            " (QUICK: sizes / 10, not evidence)"
        } else {
            ""
        },
        "workload",
        "runtime",
        "median ms",
        "min",
        "max",
        "spread%",
        "x rayon",
        "x seq"
    );
    for r in rows {
        let _ = writeln!(
            text,
            "{:<18} {:<10} {:>10.2} {:>9.2} {:>9.2} {:>8.1} {:>7.2} {:>7.2}",
            r.workload,
            r.runtime,
            r.median_ms,
            r.min_ms,
            r.max_ms,
            r.spread_pct,
            r.x_rayon,
            r.x_sequential
        );
    }
    text + &crate::table::targets(targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chart's bars are the table's "x seq" (sequential median / median), not a
    /// median of per-repetition ratios, which can order the runtimes differently.
    #[test]
    fn chart_bars_are_the_ratio_of_medians() {
        let n = RUNTIMES.len();
        let mut times = vec![vec![1.0, 1.0, 1.0]; WORKLOADS.len() * n];
        // magpie, rayon, sequential of workload 0: per-repetition ratios 1/3, 2, 1.5
        // (median 1.5) against medians 2 / 2 = 1.
        times[0] = vec![3.0, 1.0, 2.0];
        times[1] = vec![2.0, 2.0, 2.0];
        times[2] = vec![1.0, 2.0, 3.0];
        let c = chart(&times, 3);
        let magpie = c.series[0].bars[0].unwrap();
        let rayon = c.series[1].bars[0].unwrap();
        assert_eq!(magpie.value, 1.0);
        assert_eq!(magpie.range, Some((2.0 / 3.0, 2.0)));
        assert_eq!(rayon.value, 1.0);
        assert_eq!(c.series[0].bars[1].unwrap().value, 1.0);
    }
}
