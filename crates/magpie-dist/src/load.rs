//! A rank's own load, as it reports it to the others ([`RankLoad`]): its workers' work
//! rate (eq. 3.1 of the YewPar thesis) and its stealable subtrees.
//!
//! Eq. 3.1 takes one *task* as its period: the task's execution time (`workTime`) and
//! the idle gap before it (`idleTime`), so a slow rank, whose tasks take longer, gets a
//! larger rate. The pool counts each worker's tasks and idle time, so a report turns
//! the period since the last one into per-task averages: `busy / tasks` and
//! `idle / tasks`. A worker that finished no task in the period (one long task) counts
//! the whole period as the task so far.

use std::time::{Duration, Instant};

use magpie::policy::estimate::{smooth, work_rate_sample};
use magpie::ThreadPool;

use crate::policy::RankLoad;

/// Measures the rank's work rate from its pool's per-worker tasks and idle time.
#[derive(Debug)]
pub(crate) struct LoadMeter {
    last: Instant,
    /// Each worker's cumulative idle time and tasks run at `last`.
    marks: Vec<Mark>,
    /// Smoothed, averaged over the workers.
    rate: f64,
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
                let samples = now_marks
                    .iter()
                    .zip(self.marks.iter().chain(std::iter::repeat(&Mark::default())))
                    .map(|(now, before)| {
                        let idle = now.idle.saturating_sub(before.idle);
                        let tasks = now.tasks.saturating_sub(before.tasks);
                        worker_sample(period_us, idle.as_secs_f64() * 1e6, tasks)
                    })
                    .collect();
                self.marks = now_marks;
                samples
            }
            None if searching => vec![work_rate_sample(period_us, 0.0)],
            None => vec![work_rate_sample(0.0, period_us)],
        };
        let average = samples.iter().sum::<f64>() / samples.len().max(1) as f64;
        self.rate = smooth(average, self.rate);
        self.last = now;
        RankLoad {
            work_rate: self.rate,
            stealable: stealable as u64 + u64::from(searching),
        }
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
    fn no_finished_task_counts_the_whole_period() {
        assert!((worker_sample(5_000.0, 0.0, 0) - eq31(5_000.0, 0.0)).abs() < 1e-12);
        // Idle beyond the period (counter read after `now`) is clamped.
        assert!((worker_sample(5_000.0, 9_000.0, 0) - eq31(0.0, 5_000.0)).abs() < 1e-12);
    }
}
