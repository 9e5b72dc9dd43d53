//! A rank's own load, as it reports it to the others ([`RankLoad`]): its workers' work
//! rate (eq. 3.1 of the YewPar thesis, over the period since the last report) and its
//! stealable subtrees.

use std::time::{Duration, Instant};

use magpie::policy::estimate::{smooth, work_rate_sample};
use magpie::ThreadPool;

use crate::policy::RankLoad;

/// Measures the rank's work rate from its pool's per-worker idle time.
#[derive(Debug)]
pub(crate) struct LoadMeter {
    last: Instant,
    /// Each worker's cumulative idle time at `last`.
    idle: Vec<Duration>,
    /// Smoothed, averaged over the workers.
    rate: f64,
}

impl LoadMeter {
    pub(crate) fn new(pool: Option<&ThreadPool>) -> Self {
        Self {
            last: Instant::now(),
            idle: pool.map_or_else(Vec::new, idle_times),
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
                let idle = idle_times(pool);
                let samples = idle
                    .iter()
                    .zip(self.idle.iter().chain(std::iter::repeat(&Duration::ZERO)))
                    .map(|(now, before)| {
                        let idle_us =
                            (now.saturating_sub(*before).as_secs_f64() * 1e6).min(period_us);
                        work_rate_sample(period_us - idle_us, idle_us)
                    })
                    .collect();
                self.idle = idle;
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

fn idle_times(pool: &ThreadPool) -> Vec<Duration> {
    pool.stats().workers.iter().map(|w| w.idle).collect()
}
