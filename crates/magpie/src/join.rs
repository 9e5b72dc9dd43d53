//! `join`: run two closures, potentially in parallel.
//!
//! The second closure is pushed on the worker's own queue (a plain store into its
//! private BWoS block: no atomic operation, no fence), the first runs at once, and then
//! the worker pops the second back and runs it inline unless a thief took it. A thief
//! can take it only after the owner *shared* its block because someone was idle
//! (`WorkerThread::push`), so uncontended joins stay as cheap as a function call plus a
//! queue slot.
//!
//! Cheaper still, as in Spice/chili: when the worker already holds at least
//! [`INLINE_DEPTH`] private jobs (LIFO pools), `join` calls both closures in turn
//! without touching the queue, unless a worker is idle: then every join pushes, and so
//! shares the private block (`WorkerThread::may_inline_join`). The pending jobs are
//! older, so (in divide and conquer) bigger, than the ones not pushed, and thieves take
//! the oldest first; a join run inline is never stealable, so inlining stops as soon as
//! anyone looks for work.
//!
//! The inline path is forced inline into the caller (`join`, `join_in_worker`,
//! `join_inline`), and the paths that push or start from outside a pool stay out of
//! line: a recursive `join` then compiles to one small frame per level, like plain
//! recursion. Memory-bound recursions (a tree walk) depend on it: with a second frame
//! per level and a 64-byte stack job in the first, the CPU overlaps fewer cache misses,
//! and a 2^20-node tree sum took 4.5x the sequential walk instead of 2.3x.

use std::panic::{self, AssertUnwindSafe};

use crate::job::StackJob;
use crate::latch::SpinLatch;
use crate::unwind::drop_payload;
use crate::worker::WorkerThread;

/// Runs `oper_a` and `oper_b`, potentially in parallel, and returns both results.
///
/// Called outside any pool, it runs in the global pool and blocks the caller. If either
/// closure panics, `join` still waits for the other, then resumes the first panic (that
/// of `oper_a` if both panic).
///
/// ```
/// fn fib(n: u64) -> u64 {
///     if n < 2 {
///         return n;
///     }
///     let (a, b) = magpie::join(|| fib(n - 1), || fib(n - 2));
///     a + b
/// }
/// assert_eq!(fib(20), 6765);
/// ```
#[inline(always)]
pub fn join<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    match WorkerThread::current() {
        Some(worker) => join_in_worker(worker, oper_a, oper_b),
        None => join_outside(oper_a, oper_b),
    }
}

/// `join` from a thread outside every pool: kept out of line so that the frame of a
/// recursive caller stays as small as a plain recursive call's.
#[cold]
#[inline(never)]
fn join_outside<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    crate::global::registry().in_worker_cold(|worker| join_in_worker(worker, oper_a, oper_b))
}

/// Private jobs a worker must hold before `join` may skip the queue (see the module
/// docs).
pub(crate) const INLINE_DEPTH: usize = 3;

#[inline(always)]
pub(crate) fn join_in_worker<A, B, RA, RB>(worker: &WorkerThread, oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    if worker.may_inline_join() {
        return join_inline(oper_a, oper_b);
    }
    join_pushed(worker, oper_a, oper_b)
}

/// Both closures in turn on this thread, with `join`'s panic rule: `b` runs even if `a`
/// panicked, then `a`'s panic resumes.
#[inline(always)]
fn join_inline<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: FnOnce() -> RB,
{
    match panic::catch_unwind(AssertUnwindSafe(oper_a)) {
        Ok(a) => (a, oper_b()),
        Err(payload) => run_after_panic(oper_b, payload),
    }
}

/// `join`'s second half after the first panicked: runs it, drops its own panic (the
/// second one), resumes the first. Out of line, so that the inline join's frame stays
/// that of plain recursion (with this arm inline, fib(32) took 1.25x as long).
#[cold]
#[inline(never)]
fn run_after_panic<B, RB>(oper_b: B, payload: Box<dyn std::any::Any + Send>) -> !
where
    B: FnOnce() -> RB,
{
    if let Err(second) = panic::catch_unwind(AssertUnwindSafe(oper_b)) {
        drop_payload(second);
    }
    panic::resume_unwind(payload)
}

fn join_pushed<A, B, RA, RB>(worker: &WorkerThread, oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    let _pushed = worker.join_pushed();
    let job_b = StackJob::new(oper_b, SpinLatch::new(worker.registry(), worker.index()));
    // SAFETY: this frame outlives the reference: below we either pop it back and run
    // it here, or wait for its latch, before returning or unwinding.
    let job_b_ref = unsafe { job_b.as_job_ref() };
    let job_b_id = job_b_ref.id();
    worker.push(job_b_ref);

    let result_a = panic::catch_unwind(AssertUnwindSafe(oper_a));

    // Take B back, or run other work until its thief finishes it. Pop before probing
    // the latch: B is almost always still on top of our own queue.
    let mut popped_back = false;
    loop {
        match worker.pop() {
            Some(job) if job.id() == job_b_id => {
                popped_back = true;
                break;
            }
            Some(job) => {
                worker.execute(job);
                if job_b.latch.core.probe() {
                    break;
                }
            }
            None => {
                worker.wait_until(&job_b.latch.core);
                break;
            }
        }
    }

    match result_a {
        Ok(a) if popped_back => {
            worker.count_task();
            (a, job_b.run_inline())
        }
        Ok(a) => (a, job_b.into_result()),
        Err(payload) => {
            if popped_back {
                // Every subtask finishes before the first panic resumes; B's own panic,
                // if any, is the second one and is dropped.
                if let Err(second) = panic::catch_unwind(AssertUnwindSafe(|| job_b.run_inline())) {
                    drop_payload(second);
                }
            }
            panic::resume_unwind(payload)
        }
    }
}
