//! The measured loops: [`throughput`] (`P` producers push `1..=N`, `K` consumers
//! `try_pop` until `N` are consumed), [`one_side`] and [`drain`].
//!
//! All implementations run the same monomorphised loop and backoff (`spin_loop` doubling
//! to 64, then `yield_now`); only start signal to last item is timed. Every run is
//! verified (count, sum and sum of squares of `1..=N`, queue empty after); a run that
//! stalls for [`STALL_LIMIT`] is aborted, and one that hits its cap ([`Limits::cap`]) is
//! marked truncated, drained untimed and verified against what was pushed.

use std::hint::{black_box, spin_loop};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::peers::MpmcQueue;
use crate::BenchError;

mod phases;
#[cfg(test)]
mod tests;

pub use phases::{drain, one_side, DrainMode, Side};

/// A run whose consumers see no item for this long is aborted as failed.
pub const STALL_LIMIT: Duration = Duration::from_secs(30);

/// Items per `pop_batch` call in the drain experiment.
pub const BATCH: usize = 32;

/// Spin-then-yield backoff, identical for every implementation.
struct Backoff {
    step: u32,
}

impl Backoff {
    /// Spin rounds (1, 2, 4, … 64 hints) before falling back to `yield_now`.
    const SPIN_ROUNDS: u32 = 7;

    #[inline]
    fn new() -> Self {
        Backoff { step: 0 }
    }

    #[inline]
    fn reset(&mut self) {
        self.step = 0;
    }

    /// Whether the spin phase is over (the cheap moment to look at the clock).
    #[inline]
    fn yielding(&self) -> bool {
        self.step >= Self::SPIN_ROUNDS
    }

    #[inline]
    fn snooze(&mut self) {
        if self.step < Self::SPIN_ROUNDS {
            for _ in 0..1u32 << self.step {
                spin_loop();
            }
            self.step += 1;
        } else {
            thread::yield_now();
        }
    }
}

/// Shared flags of one run, each on its own cache lines.
#[repr(align(128))]
struct Padded<T>(T);

/// Sets the abort flag if the owning thread unwinds, so the other threads stop waiting.
struct AbortOnPanic<'a>(&'a AtomicBool);

impl Drop for AbortOnPanic<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// What one consumer took out of the queue.
#[derive(Clone, Copy, Debug, Default)]
struct Taken {
    count: u64,
    sum: u64,
    sum_sq: u64,
    /// `try_pop` calls that found the queue empty (diagnostic; not verified).
    empty_polls: u64,
}

impl Taken {
    #[inline]
    fn add(&mut self, v: u64) {
        self.count += 1;
        self.sum = self.sum.wrapping_add(v);
        self.sum_sq = self.sum_sq.wrapping_add(v.wrapping_mul(v));
    }

    fn merge(&mut self, o: Taken) {
        self.empty_polls += o.empty_polls;
        self.count += o.count;
        self.sum = self.sum.wrapping_add(o.sum);
        self.sum_sq = self.sum_sq.wrapping_add(o.sum_sq);
    }

    /// The expected totals for the values in `ranges` (half-open).
    fn expected(ranges: &[(u64, u64)]) -> Taken {
        let mut t = Taken::default();
        for &(lo, hi) in ranges {
            for v in lo..hi {
                t.add(v);
            }
        }
        t
    }

    /// `Ok` if `self` is exactly the values pushed (`ranges`), else a loud error naming
    /// `what`.
    fn verify(&self, ranges: &[(u64, u64)], what: &str) -> Result<(), BenchError> {
        let want = Taken::expected(ranges);
        if self.count != want.count || self.sum != want.sum || self.sum_sq != want.sum_sq {
            return Err(BenchError::Worker(format!(
                "{what}: ITEMS LOST OR DUPLICATED: consumed {} of {} pushed items (checksum {} \
                 vs {}, sum of squares {} vs {})",
                self.count, want.count, self.sum, want.sum, self.sum_sq, want.sum_sq
            )));
        }
        Ok(())
    }
}

/// Timing of one verified throughput run.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// Items that passed through the queue in the timed phase (`N`, or fewer when the
    /// run was truncated at its time cap).
    pub items: u64,
    /// Whether the run hit its time cap before all `N` items were consumed.
    pub truncated: bool,
    /// Wall time from the start signal to the last consumed item, seconds.
    pub secs: f64,
    /// How many times the consumers found the queue empty in the timed phase (throughput
    /// runs; drain runs do not count it and report 0).
    pub empty_polls: u64,
}

impl Run {
    /// Items per second.
    pub fn items_per_sec(&self) -> f64 {
        self.items as f64 / self.secs
    }

    /// Empty polls per 1000 items: near 0 when consumers drain a backlog, high when they
    /// have caught up with the producers.
    pub fn empty_per_1k(&self) -> f64 {
        self.empty_polls as f64 * 1000.0 / self.items.max(1) as f64
    }
}

/// Prefixes a worker thread's error with the run it belongs to (other errors pass).
fn name_worker_error(e: BenchError, what: &str) -> BenchError {
    match e {
        BenchError::Worker(m) => BenchError::Worker(format!("{what}: {m}")),
        other => other,
    }
}

/// Producer `p` of `producers` pushes its contiguous share of `1..=n`.
fn share(n: u64, producers: usize, p: usize) -> (u64, u64) {
    let lo = n * p as u64 / producers as u64;
    let hi = n * (p as u64 + 1) / producers as u64;
    (lo + 1, hi + 1)
}

/// Pushes `lo..hi` (or a prefix of it, if `stop` is raised); returns how many.
#[inline(never)]
fn produce<Q: MpmcQueue>(q: &Q, lo: u64, hi: u64, abort: &AtomicBool, stop: &AtomicBool) -> u64 {
    for v in lo..hi {
        if (v - lo) % 1024 == 0 && stop.load(Ordering::Relaxed) {
            return v - lo;
        }
        let mut v = black_box(v);
        let mut backoff = Backoff::new();
        while let Err(back) = q.try_push(v) {
            v = back;
            if abort.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
                return v - lo;
            }
            backoff.snooze();
        }
    }
    hi - lo
}

#[inline(never)]
fn consume<Q: MpmcQueue>(
    q: &Q,
    n: u64,
    consumed: &AtomicU64,
    abort: &AtomicBool,
    stop: &AtomicBool,
    limits: Limits,
) -> (Taken, Instant) {
    let stall = limits.stall;
    let deadline = limits.cap.map(|c| Instant::now() + c);
    let past = |now: Instant| deadline.is_some_and(|d| now > d);
    let mut taken = Taken::default();
    let mut pending = 0u64;
    let mut backoff = Backoff::new();
    let mut idle_since: Option<Instant> = None;
    loop {
        match q.try_pop() {
            Some(v) => {
                taken.add(black_box(v));
                pending += 1;
                backoff.reset();
                idle_since = None;
                if taken.count % 4096 == 0
                    && deadline.is_some()
                    && (stop.load(Ordering::Relaxed) || past(Instant::now()))
                {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            None => {
                taken.empty_polls += 1;
                if pending != 0 {
                    consumed.fetch_add(pending, Ordering::AcqRel);
                    pending = 0;
                }
                if consumed.load(Ordering::Acquire) >= n
                    || abort.load(Ordering::Relaxed)
                    || stop.load(Ordering::Relaxed)
                {
                    break;
                }
                if backoff.yielding() {
                    let now = Instant::now();
                    if past(now) {
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    match idle_since {
                        None => idle_since = Some(now),
                        Some(t) if now - t > stall => {
                            abort.store(true, Ordering::Relaxed);
                            break;
                        }
                        Some(_) => {}
                    }
                }
                backoff.snooze();
            }
        }
    }
    (taken, Instant::now())
}

/// Waits (yielding) until `ready` reaches `want`.
fn wait_ready(ready: &AtomicUsize, want: usize) {
    while ready.load(Ordering::Acquire) < want {
        thread::yield_now();
    }
}

/// Waits (spin, then yield) for the start signal.
fn wait_go(go: &AtomicBool) {
    let mut backoff = Backoff::new();
    while !go.load(Ordering::Acquire) {
        backoff.snooze();
    }
}

/// Joins a scoped thread, turning a panic into a [`BenchError`].
fn join<T>(h: thread::ScopedJoinHandle<'_, T>, what: &str) -> Result<T, BenchError> {
    h.join().map_err(|e| {
        let msg = e
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| e.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        BenchError::Worker(format!("{what} thread panicked: {msg}"))
    })
}

/// Joins every one of `handles`, then returns their results or the first error.
fn join_all<T>(
    handles: Vec<thread::ScopedJoinHandle<'_, T>>,
    what: &str,
) -> Result<Vec<T>, BenchError> {
    let results: Vec<_> = handles.into_iter().map(|h| join(h, what)).collect();
    results.into_iter().collect()
}

/// Time limits of one throughput run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// No item for this long: the run fails (items were lost).
    pub stall: Duration,
    /// Stop the timed phase after this long even if fewer than `N` items went through
    /// (a collapsed configuration, e.g. a ticket lock whose next holder is preempted,
    /// would otherwise dominate the run time); throughput is then the items consumed so
    /// far over the elapsed time, and the rest is drained and verified untimed.
    pub cap: Option<Duration>,
}

/// One verified run of `n` items through a fresh `make()` queue with `producers`
/// producer and `consumers` consumer threads. `label` names the run in errors.
pub fn throughput<Q: MpmcQueue, F: FnOnce() -> Q>(
    make: F,
    producers: usize,
    consumers: usize,
    n: u64,
    cap: Option<Duration>,
    label: &str,
) -> Result<Run, BenchError> {
    let limits = Limits {
        stall: STALL_LIMIT,
        cap,
    };
    throughput_with(make, producers, consumers, n, label, limits)
}

/// [`throughput`] with explicit limits (tests use a short stall limit).
fn throughput_with<Q: MpmcQueue, F: FnOnce() -> Q>(
    make: F,
    producers: usize,
    consumers: usize,
    n: u64,
    label: &str,
    limits: Limits,
) -> Result<Run, BenchError> {
    if producers == 0 || consumers == 0 || n == 0 {
        return Err(BenchError::Invalid(format!(
            "{label}: need producers, consumers and items > 0"
        )));
    }
    let what = format!("{label} (P={producers}, K={consumers})");
    let q = make();
    let ready = Padded(AtomicUsize::new(0));
    let go = Padded(AtomicBool::new(false));
    let abort = Padded(AtomicBool::new(false));
    let stop = Padded(AtomicBool::new(false));
    let consumed = Padded(AtomicU64::new(0));
    let (start, pushed, results) = thread::scope(|s| -> Result<_, BenchError> {
        let (q, ready, go, abort, stop, consumed) =
            (&q, &ready.0, &go.0, &abort.0, &stop.0, &consumed.0);
        let (lows, prods): (Vec<u64>, Vec<_>) = (0..producers)
            .map(|p| {
                let (lo, hi) = share(n, producers, p);
                let h = s.spawn(move || {
                    let _guard = AbortOnPanic(abort);
                    ready.fetch_add(1, Ordering::AcqRel);
                    wait_go(go);
                    produce(q, lo, hi, abort, stop)
                });
                (lo, h)
            })
            .unzip();
        let cons: Vec<_> = (0..consumers)
            .map(|_| {
                s.spawn(move || {
                    let _guard = AbortOnPanic(abort);
                    ready.fetch_add(1, Ordering::AcqRel);
                    wait_go(go);
                    consume(q, n, consumed, abort, stop, limits)
                })
            })
            .collect();
        wait_ready(ready, producers + consumers);
        let start = Instant::now();
        go.store(true, Ordering::Release);
        // Join every thread before reporting the first error.
        let counts = join_all(prods, "producer");
        let results = join_all(cons, "consumer");
        let pushed: Vec<_> = lows
            .into_iter()
            .zip(counts?)
            .map(|(lo, k)| (lo, lo + k))
            .collect();
        Ok((start, pushed, results?))
    })
    .map_err(|e| name_worker_error(e, label))?;
    let mut total = Taken::default();
    let mut end = start;
    for (t, e) in &results {
        total.merge(*t);
        end = end.max(*e);
    }
    if abort.0.load(Ordering::Relaxed) {
        return Err(BenchError::Worker(format!(
            "{what}: run aborted after no progress for {:.1}s: consumed {} of {n} items — \
             ITEMS LOST",
            limits.stall.as_secs_f64(),
            total.count
        )));
    }
    let timed = total.count;
    let empty_polls = total.empty_polls;
    let truncated = stop.0.load(Ordering::Relaxed);
    // Untimed: whatever a truncated run left in the queue must be exactly the rest of
    // what the producers pushed; a complete run must leave nothing.
    let mut rest = Taken::default();
    while let Some(v) = q.try_pop() {
        rest.add(v);
    }
    if !truncated && rest.count != 0 {
        return Err(BenchError::Worker(format!(
            "{what}: {} item(s) still in the queue after {n} items were consumed — \
             ITEMS DUPLICATED",
            rest.count
        )));
    }
    total.merge(rest);
    total.verify(&pushed, &what)?;
    if !truncated && total.count != n {
        return Err(BenchError::Worker(format!(
            "{what}: consumed {} of {n} items — ITEMS LOST",
            total.count
        )));
    }
    Ok(Run {
        items: timed,
        truncated,
        secs: (end - start).as_secs_f64(),
        empty_polls,
    })
}
