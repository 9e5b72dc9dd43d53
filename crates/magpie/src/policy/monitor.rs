//! The shared estimates of the performance-driven policy and their refresh: the
//! "Performance Monitor" of chapter 3 of the YewPar thesis, run lazily by whichever
//! thief finds it due instead of by a thread of its own.
//!
//! Units: time in microseconds (as in the thesis), so a work rate is tasks per
//! microsecond and a delay is microseconds; timestamps are nanoseconds since the
//! monitor was made.

use std::sync::atomic::AtomicBool;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::time::{Duration, Instant};

use super::estimate::{next_interval, score, smooth};
use super::Victims;

/// Rates are only resampled over windows at least this long (ns): a task-count delta
/// over a shorter window (an assisted refresh right after a timed one) is noise.
const MIN_WINDOW_NS: u64 = 1_000;
const NONE: usize = usize::MAX;
const NEVER: u64 = u64::MAX;

fn load_f64(a: &AtomicU64) -> f64 {
    f64::from_bits(a.load(Relaxed))
}

/// What one worker's slot holds; every `f64` is stored as its bits.
#[derive(Debug, Default)]
struct Estimates {
    /// Smoothed tasks run per microsecond (eq. 3.1).
    work_rate: AtomicU64,
    /// `tasks_run` at the last rate sample.
    tasks_seen: AtomicU64,
    /// Smoothed latency of steals from this worker, microseconds (eq. 3.2).
    delay: AtomicU64,
    /// Whether a thief of the pool this monitor serves was made for this worker.
    claimed: AtomicBool,
}

/// Why a thief wants a refresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Trigger {
    /// The refresh interval has elapsed (the thesis's automatic refresh).
    Due,
    /// A steal from the target cached at this generation found it empty (the thesis's
    /// assisted refresh); pointless if someone refreshed since.
    Assist(u64),
}

/// Shortest time from any refresh to an assisted one (50 µs; the minimum interval if
/// that is shorter).
const ASSIST_GAP_NS: u64 = 50_000;

/// Estimates shared by all thieves of one pool, and the cached best target.
#[derive(Debug)]
pub(super) struct Monitor {
    epoch: Instant,
    min_ns: u64,
    max_ns: u64,
    interval_ns: AtomicU64,
    refreshed_ns: AtomicU64,
    /// Time of the last rate sample; written only by the refresher.
    sampled_ns: AtomicU64,
    /// Held by the one thief refreshing (Acquire/Release orders the Relaxed slot writes).
    refreshing: AtomicBool,
    best: AtomicUsize,
    generation: AtomicU64,
    workers: Box<[Estimates]>,
}

impl Monitor {
    /// Estimates for `workers` workers, refreshed every `min..=max`, starting at `min`.
    pub(super) fn new(workers: usize, min: Duration, max: Duration) -> Self {
        let ns = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        let (min_ns, max_ns) = (ns(min), ns(max).max(ns(min)));
        Self {
            epoch: Instant::now(),
            min_ns,
            max_ns,
            interval_ns: AtomicU64::new(min_ns),
            refreshed_ns: AtomicU64::new(NEVER),
            sampled_ns: AtomicU64::new(0),
            refreshing: AtomicBool::new(false),
            best: AtomicUsize::new(NONE),
            generation: AtomicU64::new(0),
            workers: (0..workers).map(|_| Estimates::default()).collect(),
        }
    }

    /// Number of workers described.
    pub(super) fn workers(&self) -> usize {
        self.workers.len()
    }

    /// Marks worker `me` as having a thief; `false` if it already had one (the policy is
    /// serving a new pool) or `me` is out of range.
    pub(super) fn claim(&self, me: usize) -> bool {
        self.workers
            .get(me)
            .is_some_and(|w| !w.claimed.swap(true, Relaxed))
    }

    /// Nanoseconds since the monitor was made.
    pub(super) fn now_ns(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(NEVER - 1)
    }

    /// The cached best target, if any had a positive score at the last refresh.
    pub(super) fn best(&self) -> Option<usize> {
        Some(self.best.load(Relaxed)).filter(|&b| b != NONE)
    }

    /// Number of refreshes so far.
    pub(super) fn generation(&self) -> u64 {
        self.generation.load(Relaxed)
    }

    /// The current refresh interval.
    #[cfg(test)]
    pub(super) fn interval(&self) -> Duration {
        Duration::from_nanos(self.interval_ns.load(Relaxed))
    }

    /// Whether `trigger` still calls for a refresh at time `now_ns`.
    pub(super) fn wants(&self, trigger: Trigger, now_ns: u64) -> bool {
        match trigger {
            Trigger::Due => {
                let last = self.refreshed_ns.load(Relaxed);
                last == NEVER || now_ns.saturating_sub(last) >= self.interval_ns.load(Relaxed)
            }
            // Assisted refreshes are rate-limited too (at most one per ASSIST_GAP_NS, or
            // per minimum interval if that is shorter): idle thieves failing on an empty
            // target would otherwise rescan every queue on every attempt.
            Trigger::Assist(generation) => {
                self.generation() == generation
                    && now_ns.saturating_sub(self.refreshed_ns.load(Relaxed))
                        >= ASSIST_GAP_NS.min(self.min_ns)
            }
        }
    }

    /// Folds one measured steal latency from `victim` into its delay (eq. 3.2 at worker
    /// granularity: `worker_count` is 1, and no logarithm, see the policy's docs).
    pub(super) fn record_delay(&self, victim: usize, latency: Duration) {
        if let Some(w) = self.workers.get(victim) {
            let sample = latency.as_secs_f64() * 1e6;
            let _ = w.delay.fetch_update(Relaxed, Relaxed, |bits| {
                Some(smooth(sample, f64::from_bits(bits)).to_bits())
            });
        }
    }

    /// Refreshes at `now_ns` if `trigger` still calls for it and no other thief is
    /// refreshing; returns whether this call refreshed.
    pub(super) fn try_refresh(&self, victims: &dyn Victims, now_ns: u64, trigger: Trigger) -> bool {
        if !self.wants(trigger, now_ns)
            || self
                .refreshing
                .compare_exchange(false, true, Acquire, Relaxed)
                .is_err()
        {
            return false;
        }
        // Re-checked under the flag: another thief may have refreshed meanwhile.
        let refreshed = self.wants(trigger, now_ns);
        if refreshed {
            self.refresh(victims, now_ns);
        }
        self.refreshing.store(false, Release);
        refreshed
    }

    /// Resamples the work rates (eq. 3.1), scores every worker (eq. 3.3), caches the best
    /// positive score and adapts the interval: halved (down to the minimum) when the best
    /// target changed or none scored positive, grown by a quarter (up to the maximum) when
    /// it stayed.
    fn refresh(&self, victims: &dyn Victims, now_ns: u64) {
        let workers = self.workers.len().min(victims.workers());
        let window_ns = now_ns.saturating_sub(self.sampled_ns.load(Relaxed));
        let resample = window_ns >= MIN_WINDOW_NS;
        let window_us = window_ns as f64 / 1e3;
        let (mut best, mut best_score) = (NONE, 0.0);
        for (v, w) in self.workers[..workers].iter().enumerate() {
            let mut rate = load_f64(&w.work_rate);
            if resample {
                let tasks = victims.tasks_run(v);
                let done = tasks.saturating_sub(w.tasks_seen.swap(tasks, Relaxed));
                rate = smooth(done as f64 / window_us, rate);
                w.work_rate.store(rate.to_bits(), Relaxed);
            }
            let tasks = victims.stealable_len(v) as f64;
            let score = score(rate, tasks, load_f64(&w.delay));
            if score > best_score {
                (best, best_score) = (v, score);
            }
        }
        if resample {
            self.sampled_ns.store(now_ns, Relaxed);
        }
        let previous = self.best.swap(best, Relaxed);
        let interval = Duration::from_nanos(self.interval_ns.load(Relaxed));
        let (min, max) = (
            Duration::from_nanos(self.min_ns),
            Duration::from_nanos(self.max_ns),
        );
        // Good only if the best target is found and unchanged (see `next_interval`).
        let kept = best != NONE && best == previous;
        let next = next_interval(interval, min, max, kept);
        self.interval_ns
            .store(u64::try_from(next.as_nanos()).unwrap_or(u64::MAX), Relaxed);
        self.refreshed_ns.store(now_ns, Relaxed);
        self.generation.fetch_add(1, Relaxed);
    }

    /// Worker `v`'s smoothed work rate, tasks per microsecond.
    #[cfg(test)]
    pub(super) fn work_rate(&self, v: usize) -> f64 {
        load_f64(&self.workers[v].work_rate)
    }

    /// Worker `v`'s smoothed steal delay, microseconds.
    #[cfg(test)]
    pub(super) fn delay(&self, v: usize) -> f64 {
        load_f64(&self.workers[v].delay)
    }
}
