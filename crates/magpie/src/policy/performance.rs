//! Performance-driven victim choice (chapter 3 of the YewPar thesis), at worker
//! granularity: steal from the worker with the best score, cached and refreshed lazily.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::monitor::{Monitor, Trigger};
use super::{StealOutcome, Thief, VictimPolicy, Victims};
use crate::rng::Rng;

/// Performance-driven selection (YewPar thesis, ch. 3), with the thesis's nodes replaced
/// by workers. Every thief of a pool shares one set of estimates (in an `Arc`):
///
/// * per worker a smoothed **work rate** `r`, tasks run per microsecond, from the deltas
///   of [`Victims::tasks_run`] between refreshes, smoothed as in eq. (3.1):
///   `r ← α·Δtasks/Δt + (1 − α)·r` with `α =` [`ALPHA`](Self::ALPHA) `= 0.65`;
/// * per victim a smoothed **delay** `d`, microseconds, from the latencies passed to
///   [`Thief::record`] (so [`wants_latency`](VictimPolicy::wants_latency) is `true`),
///   smoothed as in eq. (3.2): `d ← α·latency + (1 − α)·d`;
/// * the cached **best target**, in an atomic: the worker with the largest positive
///   score (eq. 3.3) `max(r, 0.0001) × stealable_len − d`, or none if no score is
///   positive (then thieves pick at random).
///
/// Deviations from the thesis, because the estimates are in-process: eq. (3.1)'s
/// `ln(2.72 + …)` damping of work/idle times is replaced by a plain rate (workers publish
/// task counts, not idle times), and eq. (3.2)'s `ln(2.72 + delay × worker_count)` by
/// the plain latency (`worker_count` is 1 at worker granularity, and a logarithm would
/// take the delay out of the rate's time unit). All estimates start at zero.
///
/// **Refresh.** There is no monitor thread (an idle pool must not burn CPU): a thief whose
/// [`choose`](Thief::choose) finds the refresh interval elapsed refreshes the estimates
/// (one thief at a time; the others use the cached target meanwhile). The interval starts
/// at its lower bound, is halved when a refresh changes the best target (or finds none)
/// and grows by a quarter when the target stays, within
/// [`DEFAULT_MIN_INTERVAL`](Self::DEFAULT_MIN_INTERVAL)`..=`[`DEFAULT_MAX_INTERVAL`](Self::DEFAULT_MAX_INTERVAL)
/// unless set by [`with_intervals`](Self::with_intervals). **Assisted refresh:** a thief
/// whose steal from the cached target found it [`Empty`](StealOutcome::Empty) refreshes
/// at its next choice, unless another thief has refreshed since, or the last refresh of
/// either kind is under 50 µs old (under the minimum interval, if that is shorter). A
/// thief reads the clock only every 16th choice, or for an assisted refresh.
///
/// Cost: between refreshes, nothing of the victims (two loads of the shared target, shared
/// among thieves only), plus one smoothing CAS on the victim's shared delay slot per
/// [`record`](Thief::record). A refresh reads every worker's task counter (the owner's
/// statistics line) and its [`stealable_len`](Victims::stealable_len) (every block's
/// thief metadata), i.e. best-of-all, amortised over the interval.
///
/// One value serves one pool: its estimates are made when the pool asks for its thieves,
/// and a second pool asking for a worker's thief again gets fresh estimates.
pub struct PerformanceDriven {
    min_interval: Duration,
    max_interval: Duration,
    monitor: Mutex<Option<Arc<Monitor>>>,
}

impl PerformanceDriven {
    /// Weight of a new sample in the exponential smoothing of rates and delays (the
    /// thesis's 0.65 / 0.35 split, eq. 3.1–3.2).
    pub const ALPHA: f64 = super::estimate::ALPHA;
    /// Floor of the work rate in the score (eq. 3.3), tasks per microsecond.
    pub const MIN_WORK_RATE: f64 = super::estimate::MIN_WORK_RATE;
    /// Default lower bound of the refresh interval (and its initial value).
    pub const DEFAULT_MIN_INTERVAL: Duration = Duration::from_micros(100);
    /// Default upper bound of the refresh interval.
    pub const DEFAULT_MAX_INTERVAL: Duration = Duration::from_millis(5);

    /// A policy whose refresh interval adapts within `min..=max` (`max` is raised to
    /// `min` if smaller; a zero `min` lets every choice refresh while targets change).
    pub fn with_intervals(min: Duration, max: Duration) -> Self {
        Self {
            min_interval: min,
            max_interval: max.max(min),
            monitor: Mutex::new(None),
        }
    }

    /// The estimates of the pool currently served, if a thief was made.
    #[cfg(test)]
    pub(super) fn monitor(&self) -> Option<Arc<Monitor>> {
        self.monitor
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Default for PerformanceDriven {
    fn default() -> Self {
        Self::with_intervals(Self::DEFAULT_MIN_INTERVAL, Self::DEFAULT_MAX_INTERVAL)
    }
}

impl fmt::Debug for PerformanceDriven {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PerformanceDriven")
            .field("min_interval", &self.min_interval)
            .field("max_interval", &self.max_interval)
            .finish_non_exhaustive()
    }
}

struct PerformanceThief {
    monitor: Arc<Monitor>,
    /// The cached target last chosen, with the generation it was read at.
    target: Option<(usize, u64)>,
    /// Set when that target was found empty: refresh at the next choice.
    assist: Option<u64>,
    /// Choices since the clock was last read: the refresh deadline is checked every
    /// [`CLOCK_EVERY`] choices (or at once for an assisted refresh), not on every one.
    calls: u32,
}

/// How often a thief reads the clock to see whether a refresh is due.
const CLOCK_EVERY: u32 = 16;

impl Thief for PerformanceThief {
    fn choose(&mut self, victims: &dyn Victims, rng: &mut Rng) -> Option<usize> {
        let (me, workers) = (victims.me(), victims.workers());
        if workers < 2 {
            return None;
        }
        let monitor = &*self.monitor;
        self.target = None;
        if monitor.workers() == workers {
            self.calls += 1;
            if self.assist.is_some() || self.calls >= CLOCK_EVERY {
                self.calls = 0;
                let now = monitor.now_ns();
                let assisted = self
                    .assist
                    .take()
                    .is_some_and(|g| monitor.try_refresh(victims, now, Trigger::Assist(g)));
                if !assisted {
                    monitor.try_refresh(victims, now, Trigger::Due);
                }
            }
            let generation = monitor.generation();
            if let Some(best) = monitor.best().filter(|&b| b != me && b < workers) {
                self.target = Some((best, generation));
                return Some(best);
            }
        }
        Some(rng.other_than(me, workers))
    }

    fn record(&mut self, victim: usize, outcome: StealOutcome, latency: Duration) {
        self.monitor.record_delay(victim, latency);
        if outcome == StealOutcome::Empty {
            if let Some((target, generation)) = self.target {
                if target == victim {
                    self.assist = Some(generation);
                }
            }
        }
    }
}

impl VictimPolicy for PerformanceDriven {
    fn name(&self) -> &str {
        "performance"
    }

    fn thief(&self, me: usize, workers: usize) -> Box<dyn Thief> {
        let mut current = self.monitor.lock().unwrap_or_else(PoisonError::into_inner);
        let monitor = match &*current {
            Some(m) if m.workers() == workers && m.claim(me) => Arc::clone(m),
            _ => {
                let m = Arc::new(Monitor::new(workers, self.min_interval, self.max_interval));
                m.claim(me);
                *current = Some(Arc::clone(&m));
                m
            }
        };
        Box::new(PerformanceThief {
            monitor,
            target: None,
            assist: None,
            calls: CLOCK_EVERY, // read the clock on the first choice
        })
    }

    fn wants_latency(&self) -> bool {
        true
    }
}
