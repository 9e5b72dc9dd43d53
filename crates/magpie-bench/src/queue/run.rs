//! The measured loops: the owner puts until full then gets until empty, for a fixed
//! number of rounds (§6.2.1), optionally while one thief steals (§6.2.2). Only that loop
//! is timed; values pass through `black_box`.

use std::hint::{black_box, spin_loop};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Barrier;
use std::time::Instant;

use super::impls::{BenchQueue, Thief};
use crate::affinity::pin_current_thread;
use crate::BenchError;

/// Counters of one timed owner run.
#[derive(Clone, Copy, Debug, Default)]
pub struct OwnerRun {
    pub puts: u64,
    pub gets: u64,
    /// Wall time of the timed loop in seconds.
    pub secs: f64,
    /// Whether the owner thread was pinned to its core.
    pub pinned: bool,
    /// Owner thread CPU time / wall time over the timed loop (`None` if unavailable).
    /// Well below 1 means the owner was preempted: the machine was busy.
    pub cpu_share: Option<f64>,
}

impl OwnerRun {
    /// Owner throughput `(puts + gets) / s`.
    pub fn ops_per_sec(&self) -> f64 {
        (self.puts + self.gets) as f64 / self.secs
    }
}

/// Result of one run with (optionally) a thief thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct StealRun {
    pub owner: OwnerRun,
    /// Successful single-item steals during the owner's timed loop.
    pub stolen: u64,
    /// Steal attempts (successful or not).
    pub attempts: u64,
    /// Whether the thief was pinned (`false` also when there was no thief).
    pub thief_pinned: bool,
    /// Thief thread CPU time / wall time while it ran (`None` without thief or support).
    pub thief_cpu_share: Option<f64>,
}

impl StealRun {
    /// Stolen percentage: stolen / total put × 100.
    pub fn stolen_pct(&self) -> f64 {
        if self.owner.puts == 0 {
            0.0
        } else {
            self.stolen as f64 / self.owner.puts as f64 * 100.0
        }
    }

    /// The smaller of the owner's and the thief's CPU share (see [`OwnerRun::cpu_share`]).
    pub fn min_cpu_share(&self) -> Option<f64> {
        match (self.owner.cpu_share, self.thief_cpu_share) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Successful steals per second of the owner's timed loop.
    pub fn steals_per_sec(&self) -> f64 {
        self.stolen as f64 / self.owner.secs
    }
}

/// The stop flag, alone on its cache lines so the thief polling it cannot false-share
/// with anything else.
#[repr(align(128))]
struct StopFlag(AtomicBool);

/// CPU time consumed by the calling thread, in seconds (Linux only).
pub(crate) fn thread_cpu_secs() -> Option<f64> {
    #[cfg(target_os = "linux")]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// CPU share `cpu / wall` from two CPU-time readings.
pub(crate) fn share(c0: Option<f64>, c1: Option<f64>, wall: f64) -> Option<f64> {
    match (c0, c1) {
        (Some(a), Some(b)) if wall > 0.0 => Some((b - a) / wall),
        _ => None,
    }
}

/// The owner loop: `rounds` × (put until full, get until empty). Returns (puts, gets).
#[inline(never)]
fn owner_loop<Q: BenchQueue>(q: &mut Q, rounds: u64, next: &mut u64) -> (u64, u64) {
    let (mut puts, mut gets) = (0u64, 0u64);
    let mut v = *next;
    for _ in 0..rounds {
        while q.push(black_box(v)) {
            v = v.wrapping_add(1);
            puts += 1;
        }
        while let Some(x) = q.pop() {
            black_box(x);
            gets += 1;
        }
    }
    *next = v;
    (puts, gets)
}

/// Resolution of the thief pause: it is applied in 1/`PAUSE_SCALE` spin iterations.
pub const PAUSE_SCALE: f64 = 16.0;

/// Runs the owner loop on a fresh queue of capacity `cap` in a thread pinned to core 0,
/// with a thief pinned to core 1 when `pause` is `Some`. The thief spins `pause`
/// `spin_loop` iterations between steal attempts on average: fractional pauses are
/// applied through an accumulator (e.g. 0.25 = one spin every 4th attempt), since one
/// `spin_loop` can cost ~100 cycles and integer pauses are too coarse for fast queues.
/// `rounds` rounds are timed after one untimed warm-up round.
pub fn run<Q: BenchQueue>(
    cap: usize,
    rounds: u64,
    pause: Option<f64>,
) -> Result<StealRun, BenchError> {
    let mut q = Q::with_capacity(cap);
    let thief = match pause {
        Some(_) => Some(q.thief().ok_or_else(|| {
            BenchError::Invalid("implementation does not support stealing".into())
        })?),
        None => None,
    };
    let stop = StopFlag(AtomicBool::new(false));
    let parties = if thief.is_some() { 2 } else { 1 };
    let barrier = Barrier::new(parties);
    std::thread::scope(|s| {
        let (stop, barrier) = (&stop, &barrier);
        let thief_handle = thief.map(|mut t| {
            let step = (pause.unwrap_or(0.0).max(0.0) * PAUSE_SCALE).round() as u64;
            let scale = PAUSE_SCALE as u64;
            s.spawn(move || {
                let pinned = pin_current_thread(1);
                barrier.wait();
                let (t0, c0) = (Instant::now(), thread_cpu_secs());
                let (mut stolen, mut attempts, mut acc) = (0u64, 0u64, 0u64);
                while !stop.0.load(Ordering::Relaxed) {
                    attempts += 1;
                    if let Some(x) = t.steal_one() {
                        black_box(x);
                        stolen += 1;
                    }
                    acc += step;
                    for _ in 0..acc / scale {
                        spin_loop();
                    }
                    acc %= scale;
                }
                let cpu = share(c0, thread_cpu_secs(), t0.elapsed().as_secs_f64());
                (stolen, attempts, pinned, cpu)
            })
        });
        let owner = s.spawn(move || {
            let pinned = pin_current_thread(0);
            let mut next = 0u64;
            owner_loop(&mut q, 1, &mut next);
            barrier.wait();
            let (t0, c0) = (Instant::now(), thread_cpu_secs());
            let (puts, gets) = owner_loop(&mut q, rounds, &mut next);
            let secs = t0.elapsed().as_secs_f64();
            let c1 = thread_cpu_secs();
            stop.0.store(true, Ordering::Relaxed);
            OwnerRun {
                puts,
                gets,
                secs,
                pinned,
                cpu_share: share(c0, c1, secs),
            }
        });
        let owner = owner
            .join()
            .map_err(|_| BenchError::Worker("owner thread panicked".into()))?;
        let (stolen, attempts, thief_pinned, thief_cpu_share) = match thief_handle {
            Some(h) => h
                .join()
                .map_err(|_| BenchError::Worker("thief thread panicked".into()))?,
            None => (0, 0, false, None),
        };
        Ok(StealRun {
            owner,
            stolen,
            attempts,
            thief_pinned,
            thief_cpu_share,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::super::impls::{CrossbeamFifo, St3Lifo, VecStack};
    use super::*;

    #[test]
    fn owner_only_counts_are_exact() {
        let r = run::<VecStack>(64, 10, None).unwrap();
        assert_eq!((r.owner.puts, r.owner.gets, r.stolen), (640, 640, 0));
    }

    #[test]
    fn with_thief_every_item_is_got_or_stolen() {
        let r = run::<St3Lifo>(64, 50, Some(0.0)).unwrap();
        assert_eq!(r.owner.puts, r.owner.gets + r.stolen);
        let r = run::<CrossbeamFifo>(64, 50, Some(2.5)).unwrap();
        assert_eq!(r.owner.puts, r.owner.gets + r.stolen);
    }

    #[test]
    fn sequential_cannot_be_stolen_from() {
        assert!(run::<VecStack>(64, 1, Some(0.0)).is_err());
    }
}
