//! A rank's own load, as it reports it to the others ([`RankLoad`]): its workers' work
//! rate (eq. 3.1 of the YewPar thesis) and its stealable subtrees.
//!
//! Eq. 3.1 takes one *task* as its period: the task's execution time (`workTime`) and
//! the idle gap before it (`idleTime`), so a slow rank, whose tasks take longer, gets a
//! larger rate. The pool counts each worker's tasks and idle time, so a report turns
//! the period since the last one into per-task averages: `busy / tasks` and
//! `idle / tasks`. A worker that finished no task in the period (one long task) counts
//! the whole period as the task so far.
//!
//! The average task time ([`RankLoad::task_us`]) needs longer stretches than the
//! periods between reports (every rank asks, every 1–50 ms, and a task may outlast
//! several periods): busy time and finished tasks add up over [`TASK_WINDOW`] or more,
//! then their ratio is smoothed into the estimate.

use std::time::{Duration, Instant};

use magpie::policy::estimate::{smooth, work_rate_sample};
use magpie::ThreadPool;

use crate::policy::{RankLoad, TASK_WINDOW};

/// Measures the rank's work rate from its pool's per-worker tasks and idle time.
#[derive(Debug)]
pub(crate) struct LoadMeter {
    last: Instant,
    /// Each worker's cumulative idle time and tasks run at `last`.
    marks: Vec<Mark>,
    /// Smoothed, averaged over the workers.
    rate: f64,
    /// Busy µs and finished tasks of all workers since `window_start`.
    window: (f64, u64),
    window_start: Instant,
    /// Smoothed average task time in µs (0: none measured).
    task_us: f64,
}

/// A worker's cumulative counters.
#[derive(Clone, Copy, Debug, Default)]
struct Mark {
    idle: Duration,
    tasks: u64,
}

/// Eq. (3.1)'s sample of a worker that was idle `idle_us` of a `period_us` period and
/// finished `tasks` tasks in it: per-task averages, or the whole period for none.
fn worker_sample(period_us: f64, idle_us: f64, tasks: u64) -> f64 {
    let idle_us = idle_us.min(period_us);
    let per = tasks.max(1) as f64;
    work_rate_sample((period_us - idle_us) / per, idle_us / per)
}

impl LoadMeter {
    pub(crate) fn new(pool: Option<&ThreadPool>) -> Self {
        Self {
            last: Instant::now(),
            marks: pool.map_or_else(Vec::new, marks),
            rate: 0.0,
            window: (0.0, 0),
            window_start: Instant::now(),
            task_us: 0.0,
        }
    }

    /// The load to report now: `stealable` waiting subtrees (plus one while the rank
    /// searches: its running tasks can split), and the work rate over the period since
    /// the last report. Without a pool the rank counts as busy while it searches.
    pub(crate) fn report(
        &mut self,
        pool: Option<&ThreadPool>,
        searching: bool,
        stealable: usize,
    ) -> RankLoad {
        let now = Instant::now();
        let period_us = (now - self.last).as_secs_f64() * 1e6;
        let samples: Vec<f64> = match pool {
            Some(pool) => {
                let now_marks = marks(pool);
                let mut samples = Vec::with_capacity(now_marks.len());
                for (i, now) in now_marks.iter().enumerate() {
                    let before = self.marks.get(i).copied().unwrap_or_default();
                    let idle = now.idle.saturating_sub(before.idle);
                    let idle_us = (idle.as_secs_f64() * 1e6).min(period_us);
                    let tasks = now.tasks.saturating_sub(before.tasks);
                    self.window.0 += period_us - idle_us;
                    self.window.1 += tasks;
                    samples.push(worker_sample(period_us, idle_us, tasks));
                }
                self.marks = now_marks;
                samples
            }
            None if searching => vec![work_rate_sample(period_us, 0.0)],
            None => vec![work_rate_sample(0.0, period_us)],
        };
        let average = samples.iter().sum::<f64>() / samples.len().max(1) as f64;
        self.rate = smooth(average, self.rate);
        self.last = now;
        self.close_window(now);
        RankLoad {
            work_rate: self.rate,
            stealable: stealable as u64 + u64::from(searching),
            task_us: self.task_us,
            workers: self.marks.len().max(1) as u32,
        }
    }

    /// Turns a window of [`TASK_WINDOW`] or more with a finished task into a sample of
    /// the task time.
    fn close_window(&mut self, now: Instant) {
        let (busy_us, tasks) = self.window;
        if now - self.window_start < TASK_WINDOW || tasks == 0 {
            return;
        }
        let sample = busy_us / tasks as f64;
        self.task_us = if self.task_us > 0.0 {
            smooth(sample, self.task_us)
        } else {
            sample
        };
        self.window = (0.0, 0);
        self.window_start = now;
    }
}

fn marks(pool: &ThreadPool) -> Vec<Mark> {
    pool.stats()
        .workers
        .iter()
        .map(|w| Mark {
            idle: w.idle,
            tasks: w.tasks_run,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eq31(work_us: f64, idle_us: f64) -> f64 {
        (2.72 + work_us / (work_us + idle_us)).ln() * (2.72 + work_us + idle_us).ln()
    }

    #[test]
    fn a_sample_is_per_task() {
        // 10 ms, 2 ms of it idle, 4 tasks: each task 2 ms of work after 0.5 ms idle.
        let s = worker_sample(10_000.0, 2_000.0, 4);
        assert!((s - eq31(2_000.0, 500.0)).abs() < 1e-12);
    }

    #[test]
    fn slower_tasks_give_a_larger_rate() {
        // The same busy fraction; tasks three times as long.
        let fast = worker_sample(30_000.0, 0.0, 30);
        let slow = worker_sample(30_000.0, 0.0, 10);
        assert!(slow > fast);
        assert!((slow - eq31(3_000.0, 0.0)).abs() < 1e-12);
    }

    #[test]
    fn the_task_time_is_averaged_over_a_window() {
        let mut meter = LoadMeter::new(None);
        meter.window = (30_000.0, 10);
        meter.window_start = Instant::now() - TASK_WINDOW / 2;
        meter.close_window(Instant::now());
        assert_eq!(meter.task_us, 0.0, "window too short");
        meter.window_start = Instant::now() - TASK_WINDOW;
        meter.close_window(Instant::now());
        assert!((meter.task_us - 3_000.0).abs() < 1e-9, "first sample as is");
        meter.window = (10_000.0, 10);
        meter.window_start = Instant::now() - TASK_WINDOW;
        meter.close_window(Instant::now());
        let smoothed = 0.65 * 1_000.0 + 0.35 * 3_000.0;
        assert!((meter.task_us - smoothed).abs() < 1e-9);
        assert_eq!(meter.window, (0.0, 0));
        meter.window_start = Instant::now() - TASK_WINDOW;
        meter.close_window(Instant::now());
        assert!(
            (meter.task_us - smoothed).abs() < 1e-9,
            "no task: no sample"
        );
    }

    #[test]
    fn no_finished_task_counts_the_whole_period() {
        assert!((worker_sample(5_000.0, 0.0, 0) - eq31(5_000.0, 0.0)).abs() < 1e-12);
        // Idle beyond the period (counter read after `now`) is clamped.
        assert!((worker_sample(5_000.0, 9_000.0, 0) - eq31(0.0, 5_000.0)).abs() < 1e-12);
    }
}
