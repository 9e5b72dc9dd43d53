//! Per-worker statistics: counters each worker bumps on its own cache line, and the
//! snapshot [`PoolStats`] that [`ThreadPool::stats`](crate::ThreadPool::stats) returns.
//!
//! Only the owning worker writes its counters, so a bump is a Relaxed load and store
//! (no read-modify-write, no shared line); readers see values at most a moment old.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

#[repr(align(128))]
#[derive(Default)]
pub(crate) struct WorkerCounters {
    pub(crate) tasks: AtomicU64,
    pub(crate) steal_attempts: AtomicU64,
    pub(crate) steals: AtomicU64,
    pub(crate) items_stolen: AtomicU64,
    pub(crate) spills: AtomicU64,
    pub(crate) shares: AtomicU64,
    pub(crate) parks: AtomicU64,
    pub(crate) wakes: AtomicU64,
    pub(crate) idle_ns: AtomicU64,
    /// When the worker's current idle stretch began, in nanoseconds since the pool's
    /// epoch plus one; 0 while it is not idle. A snapshot adds the stretch so far to
    /// `idle_ns`, which only grows when a stretch ends: a worker parked for long would
    /// otherwise look busy all that time.
    pub(crate) idle_since_ns: AtomicU64,
}

/// Adds `n` to a counter only its owner writes.
#[inline(always)]
pub(crate) fn bump(counter: &AtomicU64, n: u64) {
    counter.store(counter.load(Relaxed).wrapping_add(n), Relaxed);
}

impl WorkerCounters {
    /// The counters at `now_ns` (nanoseconds since the pool's epoch). A stretch that ends
    /// while they are read may be counted twice or not at all in this snapshot (two
    /// Relaxed words); the next one is right again.
    fn snapshot(&self, now_ns: u64) -> WorkerStats {
        let since = self.idle_since_ns.load(Relaxed);
        let ongoing = if since == 0 {
            0
        } else {
            now_ns.saturating_sub(since - 1)
        };
        WorkerStats {
            tasks_run: self.tasks.load(Relaxed),
            steal_attempts: self.steal_attempts.load(Relaxed),
            steals: self.steals.load(Relaxed),
            items_stolen: self.items_stolen.load(Relaxed),
            spills: self.spills.load(Relaxed),
            shares: self.shares.load(Relaxed),
            parks: self.parks.load(Relaxed),
            wakes: self.wakes.load(Relaxed),
            idle: Duration::from_nanos(self.idle_ns.load(Relaxed).saturating_add(ongoing)),
        }
    }
}

/// One worker's counters since the pool was built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerStats {
    /// Jobs this worker took from a queue (its own, a victim's or the injector) and ran.
    pub tasks_run: u64,
    /// Victims looked at while searching for work: every choice of the victim policy,
    /// including those that found nothing to take (then no steal is tried).
    pub steal_attempts: u64,
    /// Attempts that took at least one job.
    pub steals: u64,
    /// Jobs taken by those steals.
    pub items_stolen: u64,
    /// Times a full queue spilled its oldest block to the injector.
    pub spills: u64,
    /// Times the worker made its private top block stealable for idle workers.
    pub shares: u64,
    /// Times the worker went to sleep.
    pub parks: u64,
    /// Sleeping workers this worker woke because it made work visible (a share, or the
    /// last searcher's hand-off).
    pub wakes: u64,
    /// Time spent searching for work or asleep.
    pub idle: Duration,
}

impl WorkerStats {
    fn add(&mut self, o: &WorkerStats) {
        self.tasks_run += o.tasks_run;
        self.steal_attempts += o.steal_attempts;
        self.steals += o.steals;
        self.items_stolen += o.items_stolen;
        self.spills += o.spills;
        self.shares += o.shares;
        self.parks += o.parks;
        self.wakes += o.wakes;
        self.idle += o.idle;
    }
}

/// A snapshot of every worker's statistics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolStats {
    /// The victim policy's name.
    pub policy: String,
    /// Per worker, by index.
    pub workers: Vec<WorkerStats>,
}

impl PoolStats {
    pub(crate) fn collect<'a>(
        policy: &str,
        counters: impl Iterator<Item = &'a WorkerCounters>,
        now_ns: u64,
    ) -> Self {
        Self {
            policy: policy.to_owned(),
            workers: counters.map(|c| c.snapshot(now_ns)).collect(),
        }
    }

    /// The sum over all workers.
    pub fn total(&self) -> WorkerStats {
        let mut t = WorkerStats::default();
        for w in &self.workers {
            t.add(w);
        }
        t
    }

    /// Percentage of run tasks that were stolen (0 when nothing ran).
    pub fn stolen_percent(&self) -> f64 {
        let t = self.total();
        if t.tasks_run == 0 {
            0.0
        } else {
            100.0 * t.items_stolen as f64 / t.tasks_run as f64
        }
    }
}

impl fmt::Display for PoolStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:>6} {:>12} {:>10} {:>10} {:>10} {:>7} {:>7} {:>7} {:>7} {:>10}",
            "worker",
            "tasks",
            "attempts",
            "steals",
            "stolen",
            "spills",
            "shares",
            "parks",
            "wakes",
            "idle"
        )?;
        let row = |f: &mut fmt::Formatter<'_>, name: &str, w: &WorkerStats| {
            writeln!(
                f,
                "{:>6} {:>12} {:>10} {:>10} {:>10} {:>7} {:>7} {:>7} {:>7} {:>9.3}s",
                name,
                w.tasks_run,
                w.steal_attempts,
                w.steals,
                w.items_stolen,
                w.spills,
                w.shares,
                w.parks,
                w.wakes,
                w.idle.as_secs_f64()
            )
        };
        for (i, w) in self.workers.iter().enumerate() {
            row(f, &i.to_string(), w)?;
        }
        row(f, "total", &self.total())?;
        write!(
            f,
            "policy {}, {:.1}% of tasks stolen",
            self.policy,
            self.stolen_percent()
        )
    }
}
