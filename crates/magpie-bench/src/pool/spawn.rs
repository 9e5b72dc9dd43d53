//! Spawn throughput: `N` tiny tasks each adding `i ∈ 1..=N` to one shared [`Tally`],
//! spawned all from one task (flat) or each by the previous one (chain: per-spawn
//! latency). tokio tasks are `'static`, so they add to a static tally (runs serialised)
//! whose completion wakes the waiting thread, or fail after [`STALL_LIMIT`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::Duration;

use super::run::{
    check, count_label, run_in_pool, timed, Config, ForkJoin, ForkJoinTask, RuntimePool, Sample,
    Spawner, Workload,
};
use crate::BenchError;

/// A tokio run that does not complete in this time fails.
pub const STALL_LIMIT: Duration = Duration::from_secs(60);

/// Which spawn pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// One task spawns all `N`; each task spawns the next.
    Flat,
    Chain,
}

/// The shared sum the tasks add to, and the completion signal.
#[repr(align(128))]
#[derive(Debug, Default)]
pub struct Tally {
    sum: AtomicU64,
    target: AtomicU64,
    done: Mutex<bool>,
    wake: Condvar,
}

impl Tally {
    pub const fn new() -> Tally {
        Tally {
            sum: AtomicU64::new(0),
            target: AtomicU64::new(0),
            done: Mutex::new(false),
            wake: Condvar::new(),
        }
    }

    /// Resets the sum and expects the values `1..=n`.
    pub fn reset(&self, n: u64) {
        self.sum.store(0, Ordering::Relaxed);
        self.target.store(n * (n + 1) / 2, Ordering::Relaxed);
        *self.done.lock().unwrap_or_else(PoisonError::into_inner) = false;
    }

    /// The task body: adds `v`; the addition that reaches the target signals completion.
    #[inline]
    pub fn add(&self, v: u64) {
        let now = self.sum.fetch_add(v, Ordering::AcqRel) + v;
        if now == self.target.load(Ordering::Relaxed) {
            *self.done.lock().unwrap_or_else(PoisonError::into_inner) = true;
            self.wake.notify_all();
        }
    }

    /// Waits until the target is reached; `false` after `limit`.
    pub fn wait(&self, limit: Duration) -> bool {
        let done = self.done.lock().unwrap_or_else(PoisonError::into_inner);
        let (done, _) = self
            .wake
            .wait_timeout_while(done, limit, |d| !*d)
            .unwrap_or_else(PoisonError::into_inner);
        *done
    }

    pub fn sum(&self) -> u64 {
        self.sum.load(Ordering::Acquire)
    }
}

/// Task `i` of a chain of `n`: adds `i`, then spawns task `i + 1`.
fn chain<'s, S: Spawner<'s>>(s: &S, i: u64, n: u64, tally: &'s Tally) {
    s.spawn_task(move |s| {
        tally.add(i);
        if i < n {
            chain(s, i + 1, n, tally);
        }
    });
}

/// One magpie or rayon run: a scope in which `n` tasks are spawned in `pattern`.
struct SpawnTask<'a> {
    pattern: Pattern,
    n: u64,
    tally: &'a Tally,
}

impl ForkJoinTask for SpawnTask<'_> {
    type Out = ();

    fn run<F: ForkJoin>(self) {
        let Self { pattern, n, tally } = self;
        F::scope(|s| match pattern {
            Pattern::Flat => {
                for i in 1..=n {
                    s.spawn_task(move |_| tally.add(i));
                }
            }
            Pattern::Chain => chain(s, 1, n, tally),
        });
    }
}

/// The tally of tokio runs (tokio tasks must be `'static`) and the lock serialising them.
static TOKIO_TALLY: Tally = Tally::new();
static TOKIO_LOCK: Mutex<()> = Mutex::new(());

/// Task `i` of a tokio chain of `n`.
fn tokio_chain(i: u64, n: u64) {
    tokio::spawn(async move {
        TOKIO_TALLY.add(i);
        if i < n {
            tokio_chain(i + 1, n);
        }
    });
}

/// One tokio run: a task on a worker thread spawns the first (chain) or all (flat)
/// tasks; the calling thread waits for the sum. Returns (sum, seconds); an error when the
/// sum is not complete after [`STALL_LIMIT`].
fn tokio_run(
    rt: &tokio::runtime::Runtime,
    pattern: Pattern,
    n: u64,
    label: &str,
) -> Result<(u64, f64), BenchError> {
    let _serial = TOKIO_LOCK.lock().unwrap_or_else(PoisonError::into_inner);
    TOKIO_TALLY.reset(n);
    let (complete, secs) = timed(|| {
        rt.spawn(async move {
            match pattern {
                Pattern::Flat => {
                    for i in 1..=n {
                        tokio::spawn(async move { TOKIO_TALLY.add(i) });
                    }
                }
                Pattern::Chain => tokio_chain(1, n),
            }
        });
        TOKIO_TALLY.wait(STALL_LIMIT)
    });
    let sum = TOKIO_TALLY.sum();
    if !complete {
        return Err(BenchError::Worker(format!(
            "{label} on tokio: not complete after {}s (sum {sum} of {}) — TASKS LOST",
            STALL_LIMIT.as_secs(),
            n * (n + 1) / 2
        )));
    }
    Ok((sum, secs))
}

/// `n` (≥ 1) tasks spawned in `pattern` on `configs`.
pub fn workload(pattern: Pattern, n: u64, configs: &[Config]) -> Result<Workload, BenchError> {
    if n == 0 {
        return Err(BenchError::Invalid("spawn: need at least one task".into()));
    }
    let (family, name) = match pattern {
        Pattern::Flat => ("spawn", "spawn"),
        Pattern::Chain => ("chain-spawn", "chain"),
    };
    let label = format!("{name} {}", count_label(n));
    let want = n * (n + 1) / 2;
    let mut w = Workload::new(
        family,
        format!("tasks={n}"),
        label,
        configs,
        move |c, pools, label| {
            let (got, secs) = if let RuntimePool::Tokio(rt) = pools.get(c)? {
                tokio_run(rt, pattern, n, label)?
            } else {
                let tally = Tally::new();
                tally.reset(n);
                let task = SpawnTask {
                    pattern,
                    n,
                    tally: &tally,
                };
                let ((), secs) = run_in_pool(task, c, pools, label)?;
                (tally.sum(), secs)
            };
            check(&format!("{label} (sum of 1..={n})"), c, got, want)?;
            Ok(Sample { secs, answer: got })
        },
    );
    w.info.tasks = Some(n);
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::run::{answers, SPAWN};

    #[test]
    fn tally_signals_at_the_target() {
        let t = Tally::new();
        t.reset(3);
        t.add(1);
        t.add(3);
        assert!(!t.wait(Duration::from_millis(1)));
        t.add(2);
        assert!(t.wait(Duration::from_millis(1)));
        assert_eq!(t.sum(), 6);
    }

    #[test]
    fn both_patterns_verify_on_every_runtime() {
        for pattern in [Pattern::Flat, Pattern::Chain] {
            let w = workload(pattern, 2000, &SPAWN).unwrap();
            assert_eq!(answers(w), [2000 * 2001 / 2; 3]);
        }
        assert!(workload(Pattern::Flat, 0, &SPAWN).is_err());
    }
}
