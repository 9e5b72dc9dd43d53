//! The one-side and drain loops: [`one_side`] (only producers or only consumers busy)
//! and [`drain`] (`pop_batch` against `try_pop`). They share the verification and the
//! thread start-up of the parent module, which re-exports them.

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::Instant;

use magpie_queue::twolock::{PopLock, TwoLockQueue};

use super::*;
/// Which side of the queue a [`one_side`] run exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Producers push into an empty queue; nobody pops.
    Push,
    /// Consumers pop a pre-filled queue until it is empty; nobody pushes.
    Pop,
}

/// One verified run with only one side of the queue busy: `threads` producers push their
/// shares of `1..=n` into an empty queue ([`Side::Push`]; an untimed drain afterwards
/// verifies them), or `threads` consumers `try_pop` a queue pre-filled (untimed) with
/// `1..=n` until it is empty ([`Side::Pop`]). Timed from the start signal to the last
/// thread's last operation. With two threads, every operation contends with the other
/// thread of the same side, which the mixed throughput runs cannot isolate.
pub fn one_side<Q: MpmcQueue, F: FnOnce() -> Q>(
    make: F,
    side: Side,
    threads: usize,
    n: u64,
    label: &str,
) -> Result<Run, BenchError> {
    if threads == 0 || n == 0 {
        return Err(BenchError::Invalid(format!(
            "{label}: need threads and items > 0"
        )));
    }
    let what = format!("{label} ({side:?} side, {threads} thread(s))");
    let q = make();
    if side == Side::Pop {
        for v in 1..=n {
            if q.try_push(v).is_err() {
                return Err(BenchError::Invalid(format!(
                    "{what}: a bounded queue cannot hold {n} items"
                )));
            }
        }
    }
    let ready = Padded(AtomicUsize::new(0));
    let go = Padded(AtomicBool::new(false));
    let full = Padded(AtomicBool::new(false));
    let (q, ready, go, full) = (&q, &ready.0, &go.0, &full.0);
    let (start, ends) = thread::scope(|s| -> Result<_, BenchError> {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (lo, hi) = share(n, threads, t);
                s.spawn(move || {
                    ready.fetch_add(1, Ordering::AcqRel);
                    wait_go(go);
                    let mut taken = Taken::default();
                    match side {
                        Side::Push => {
                            for v in lo..hi {
                                if q.try_push(black_box(v)).is_err() {
                                    full.store(true, Ordering::Relaxed);
                                    break;
                                }
                            }
                        }
                        Side::Pop => {
                            while let Some(v) = q.try_pop() {
                                taken.add(black_box(v));
                            }
                        }
                    }
                    (Instant::now(), taken)
                })
            })
            .collect();
        wait_ready(ready, threads);
        let start = Instant::now();
        go.store(true, Ordering::Release);
        Ok((start, join_all(handles, "worker")?))
    })
    .map_err(|e| name_worker_error(e, &what))?;
    if full.load(Ordering::Relaxed) {
        return Err(BenchError::Invalid(format!(
            "{what}: a bounded queue cannot hold {n} items"
        )));
    }
    let mut total = Taken::default();
    let mut end = start;
    for (e, t) in &ends {
        end = end.max(*e);
        total.merge(*t);
    }
    // Untimed: pushed items are drained here; after a pop run nothing may be left.
    let mut rest = Taken::default();
    while let Some(v) = q.try_pop() {
        rest.add(v);
    }
    if side == Side::Pop && rest.count != 0 {
        return Err(BenchError::Worker(format!(
            "{what}: {} item(s) left after the consumers found the queue empty — ITEMS LOST",
            rest.count
        )));
    }
    total.merge(rest);
    total.verify(&[(1, n + 1)], &what)?;
    Ok(Run {
        items: n,
        truncated: false,
        secs: (end - start).as_secs_f64(),
        empty_polls: 0,
    })
}

/// A stop flag that is never raised (the drain experiment is not time-capped).
static NEVER: AtomicBool = AtomicBool::new(false);

/// How the drain experiment's consumer takes items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrainMode {
    /// `pop_batch(BATCH, &mut buf)` per call.
    Batch,
    /// `BATCH` × `try_pop` per round.
    Single,
}

/// Consumer of the drain experiment: takes `n` items with `mode`.
#[inline(never)]
fn drain_loop<L: PopLock, const NB: usize, P: PopLock>(
    q: &TwoLockQueue<u64, L, NB, P>,
    n: u64,
    mode: DrainMode,
    abort: &AtomicBool,
) -> Taken {
    let mut taken = Taken::default();
    let mut buf: Vec<u64> = Vec::with_capacity(BATCH);
    let mut backoff = Backoff::new();
    let mut idle_since: Option<Instant> = None;
    while taken.count < n {
        let got = match mode {
            DrainMode::Batch => {
                buf.clear();
                let got = q.pop_batch(BATCH, &mut buf);
                for &v in &buf {
                    taken.add(black_box(v));
                }
                got
            }
            DrainMode::Single => {
                let mut got = 0;
                for _ in 0..BATCH {
                    match q.try_pop() {
                        Some(v) => {
                            taken.add(black_box(v));
                            got += 1;
                        }
                        None => break,
                    }
                }
                got
            }
        };
        if got != 0 {
            backoff.reset();
            idle_since = None;
            continue;
        }
        if abort.load(Ordering::Relaxed) {
            break;
        }
        if backoff.yielding() {
            let now = Instant::now();
            match idle_since {
                None => idle_since = Some(now),
                Some(t) if now - t > STALL_LIMIT => {
                    abort.store(true, Ordering::Relaxed);
                    break;
                }
                Some(_) => {}
            }
        }
        backoff.snooze();
    }
    taken
}

/// One verified drain run of `n` items out of a fresh `make()` queue. `prefill`: the
/// producer fills all `n` items before the consumer starts (only the drain is timed);
/// otherwise it streams them while the consumer drains (both timed).
pub fn drain<
    L: PopLock,
    const NB: usize,
    P: PopLock,
    F: FnOnce() -> TwoLockQueue<u64, L, NB, P>,
>(
    make: F,
    n: u64,
    mode: DrainMode,
    prefill: bool,
    label: &str,
) -> Result<Run, BenchError> {
    let q = make();
    let abort = Padded(AtomicBool::new(false));
    let go = Padded(AtomicBool::new(false));
    let ready = Padded(AtomicUsize::new(0));
    let (q, abort, go, ready) = (&q, &abort.0, &go.0, &ready.0);
    let (secs, taken) = thread::scope(|s| -> Result<_, BenchError> {
        if prefill {
            join(
                s.spawn(move || produce(q, 1, n + 1, abort, &NEVER)),
                "producer",
            )?;
        }
        let prod = (!prefill).then(|| {
            s.spawn(move || {
                let _guard = AbortOnPanic(abort);
                ready.fetch_add(1, Ordering::AcqRel);
                wait_go(go);
                produce(q, 1, n + 1, abort, &NEVER);
            })
        });
        let cons = s.spawn(move || {
            let _guard = AbortOnPanic(abort);
            ready.fetch_add(1, Ordering::AcqRel);
            wait_go(go);
            let t0 = Instant::now();
            let taken = drain_loop(q, n, mode, abort);
            (t0.elapsed().as_secs_f64(), taken)
        });
        wait_ready(ready, if prefill { 1 } else { 2 });
        go.store(true, Ordering::Release);
        if let Some(p) = prod {
            join(p, "producer")?;
        }
        let (consumer_secs, taken) = join(cons, "consumer")?;
        // The consumer's clock: from the start signal to its last item (pre-filled: the
        // drain alone; streaming: while the producer pushes).
        Ok((consumer_secs, taken))
    })
    .map_err(|e| name_worker_error(e, label))?;
    if abort.load(Ordering::Relaxed) {
        return Err(BenchError::Worker(format!(
            "{label}: drain aborted after no progress for {}s: consumed {} of {n} items — \
             ITEMS LOST",
            STALL_LIMIT.as_secs(),
            taken.count
        )));
    }
    taken.verify(&[(1, n + 1)], label)?;
    if q.try_pop().is_some() {
        return Err(BenchError::Worker(format!(
            "{label}: queue not empty after draining {n} items — ITEMS DUPLICATED"
        )));
    }
    Ok(Run {
        items: n,
        truncated: false,
        secs,
        empty_polls: 0,
    })
}
