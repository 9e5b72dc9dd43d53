//! A rank's own load, as it reports it to the others ([`RankLoad`]): its workers' work
//! rate (eq. 3.1 of the YewPar thesis) and its stealable subtrees.
//!
//! Eq. 3.1 takes one *task* as its period: the task's execution time (`workTime`) and
//! the idle gap before it (`idleTime`), so a slow rank, whose tasks take longer, gets a
//! larger rate. The pool counts each worker's tasks and idle time; a report takes each
//! worker's span since the last report that saw it finish a task, and turns it into
//! per-task averages (`busy / tasks`, `idle / tasks`), or, when no task finished since
//! (one long task), counts the whole span as the task so far — but no less than the
//! per-task sample of the last report that saw tasks run: a report soon after that one
//! sees the same task, not a new one of a few microseconds (the thesis updates the rate
//! only when a task ends; the pool counts a task when it starts it, which for a worker
//! running one task at a time moves the mark at nearly the same moments). Measuring from the last observed completion rather than from
//! the last report keeps the rate independent of how often, and by how many ranks, this
//! rank is probed. (The thesis smooths once per task; we smooth once per report.)

use std::time::{Duration, Instant};

use magpie::policy::estimate::{smooth, work_rate_sample};
use magpie::ThreadPool;

use crate::policy::RankLoad;

/// Measures the rank's work rate from its pool's per-worker tasks and idle time.
#[derive(Debug)]
pub(crate) struct LoadMeter {
    last: Instant,
    /// Each worker's counters when a report last saw it finish a task (or at the start).
    marks: Vec<Mark>,
    /// Without a pool: since when the rank has been searching without a break.
    busy_since: Option<Instant>,
    /// Smoothed, averaged over the workers.
    rate: f64,
}

/// A worker's cumulative counters, read at `at`.
#[derive(Clone, Copy, Debug)]
struct Mark {
    at: Instant,
    idle: Duration,
    tasks: u64,
    /// The per-task sample of the last span in which tasks ran (0 before any).
    last: f64,
}

impl Mark {
    /// Eq. (3.1)'s sample for the span from this mark to `now`; moves the mark to `now`
    /// if a task finished in between (else the running task keeps its start).
    fn sample_until(&mut self, now: Mark) -> f64 {
        let span_us = now.at.saturating_duration_since(self.at).as_secs_f64() * 1e6;
        let idle_us = now.idle.saturating_sub(self.idle).as_secs_f64() * 1e6;
        let tasks = now.tasks.saturating_sub(self.tasks);
        if tasks == 0 {
            // Still the task the last report saw: at least as long as that report
            // measured, whatever the time since.
            return worker_sample(span_us, idle_us, 0).max(self.last);
        }
        let sample = worker_sample(span_us, idle_us, tasks);
        *self = Mark {
            last: sample,
            ..now
        };
        sample
    }
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
        let now = Instant::now();
        Self {
            last: now,
            marks: pool.map_or_else(Vec::new, |pool| marks(pool, now)),
            busy_since: None,
            rate: 0.0,
        }
    }

    /// The load to report now: `stealable` waiting subtrees (plus one while the rank
    /// searches: its running tasks can split), and the work rate (see the module docs).
    /// Without a pool the rank's one task is its unbroken stretch of searching.
    pub(crate) fn report(
        &mut self,
        pool: Option<&ThreadPool>,
        searching: bool,
        stealable: usize,
    ) -> RankLoad {
        let now = Instant::now();
        let samples: Vec<f64> = match pool {
            Some(pool) => {
                let now_marks = marks(pool, now);
                if self.marks.len() != now_marks.len() {
                    self.marks = marks(pool, self.last);
                }
                self.marks
                    .iter_mut()
                    .zip(now_marks)
                    .map(|(mark, now)| mark.sample_until(now))
                    .collect()
            }
            None if searching => {
                let since = *self.busy_since.get_or_insert(self.last);
                vec![work_rate_sample((now - since).as_secs_f64() * 1e6, 0.0)]
            }
            None => {
                self.busy_since = None;
                vec![work_rate_sample(0.0, (now - self.last).as_secs_f64() * 1e6)]
            }
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

fn marks(pool: &ThreadPool, at: Instant) -> Vec<Mark> {
    pool.stats()
        .workers
        .iter()
        .map(|w| Mark {
            at,
            idle: w.idle,
            tasks: w.tasks_run,
            last: 0.0,
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

    #[test]
    fn parked_workers_are_idle_not_busy() {
        // Two workers with nothing to do park at once and stay parked: each report's
        // span is idle time, not one long task.
        let pool = magpie::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        std::thread::sleep(Duration::from_millis(20));
        let start = Instant::now();
        let mut meter = LoadMeter::new(Some(&pool));
        std::thread::sleep(Duration::from_millis(50));
        let load = meter.report(Some(&pool), false, 0);
        let longest = start.elapsed().as_secs_f64() * 1e6;
        // The rate of an idle span, smoothed from 0, is at most that of the longest
        // possible one; a busy 50 ms span would give ln(3.72) / ln(2.72) ≈ 1.31 times
        // as much.
        let idle = smooth(work_rate_sample(0.0, longest), 0.0);
        assert!(
            load.work_rate <= idle * 1.05,
            "idle workers reported a rate of {} (idle: at most {idle})",
            load.work_rate
        );
    }

    #[test]
    fn the_rate_does_not_depend_on_how_often_the_rank_is_probed() {
        // One worker runs 1 ms tasks back to back for 100 ms. One prober reports every
        // millisecond, mid-task; with a second prober each report is followed by
        // another 10 µs later (a second rank's probe). Both see the same worker.
        let t0 = Instant::now();
        let us = Duration::from_micros;
        let at = |t: u64| Mark {
            at: t0 + us(t),
            idle: Duration::ZERO,
            tasks: t / 1_000 + 1,
            last: 0.0,
        };
        let rate = |offsets: &[u64]| {
            let mut mark = at(0);
            let mut rate = 0.0;
            for ms in 0..100 {
                for &offset in offsets {
                    rate = smooth(mark.sample_until(at(ms * 1_000 + 500 + offset)), rate);
                }
            }
            rate
        };
        let (once, twice) = (rate(&[0]), rate(&[0, 10]));
        assert!((once - eq31(1_000.0, 0.0)).abs() < 1e-9);
        assert!(
            (twice - once).abs() < 0.05 * once,
            "probed once per task: {once}; twice: {twice}"
        );
    }

    #[test]
    fn a_long_task_is_measured_from_its_start_not_from_the_last_report() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let at = |t: u64, idle: u64, tasks: u64| Mark {
            at: t0 + ms(t),
            idle: ms(idle),
            tasks,
            last: 0.0,
        };
        let mut mark = at(0, 0, 0);
        // 4 tasks in the first 10 ms (2 ms idle): per-task averages; the mark moves.
        let s = mark.sample_until(at(10, 2, 4));
        assert!((s - eq31(2_000.0, 500.0)).abs() < 1e-9);
        // Then one task runs for a second, probed every millisecond: each report
        // measures it from its start, 10 ms, not from the previous report (and, while
        // it is younger than the last tasks were long, as long as they were).
        let mut last = 0.0;
        for t in [11, 12, 15, 500, 1_010] {
            let s = mark.sample_until(at(t, 2, 4));
            let expected = eq31((t - 10) as f64 * 1e3, 0.0).max(eq31(2_000.0, 500.0));
            assert!((s - expected).abs() < 1e-9, "at {t} ms");
            assert!(s >= last, "the rate grows with the running task's age");
            last = s;
        }
        assert!(last > eq31(2_000.0, 500.0));
        // It finishes: its rate holds until a report sees tasks run after it, and they
        // are measured from there.
        let long = mark.sample_until(at(1_020, 2, 5));
        assert!((mark.sample_until(at(1_021, 2, 5)) - long).abs() < 1e-9);
        let s = mark.sample_until(at(1_024, 2, 8));
        assert!((s - eq31(1_333.333_333_333_333_3, 0.0)).abs() < 1e-9);
    }
}
