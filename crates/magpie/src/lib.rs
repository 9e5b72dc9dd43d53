//! magpie: a work-stealing thread pool on block-based work-stealing (BWoS) queues.
//!
//! The API follows rayon-core: [`join`] two closures, open a [`scope`] and spawn
//! borrowing tasks into it, [`spawn`] detached `'static` tasks, or build a
//! [`ThreadPool`] with [`ThreadPoolBuilder`] and [`install`](ThreadPool::install) work
//! into it. The free functions use the current pool inside a worker and a lazily built
//! global pool elsewhere.
//!
//! ```
//! let pool = magpie::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
//! let v: Vec<u64> = (0..10_000).collect();
//! fn sum(xs: &[u64]) -> u64 {
//!     if xs.len() <= 1_000 {
//!         return xs.iter().sum();
//!     }
//!     let (l, r) = xs.split_at(xs.len() / 2);
//!     let (a, b) = magpie::join(|| sum(l), || sum(r));
//!     a + b
//! }
//! assert_eq!(pool.install(|| sum(&v)), 49_995_000);
//! ```
//!
//! # What is underneath
//! * Each worker owns a BWoS queue ([`magpie_queue::lifo`] by default, or
//!   [`magpie_queue::fifo`]): the owner's push and pop in its private top block are plain
//!   loads and stores, so an uncontended `join` costs no atomic read-modify-write and no
//!   fence. Thieves take from granted blocks, oldest first: by default half of the
//!   oldest block's jobs, so a lone pending `join` half moves alone and a block filled
//!   by a loop of spawns moves half a block at a time ([`StealAmount`]).
//! * Spawned jobs live in recycled per-worker slots, not one `Box` each: slots freed by
//!   a thief go back to their worker eight at a time (`src/job_cache.rs`). Slots are
//!   carved from 64 KiB regions; a burst of spawns holds its regions until the worker
//!   parks with every slot of its cache free, which gives back all but 4 MiB
//!   (`src/slab.rs`).
//! * Work from outside the pool, and the oldest block of a full worker queue, go to the
//!   two-lock injector ([`magpie_queue::twolock`]); nothing is lost when a queue fills.
//! * BWoS thieves cannot take from the owner's private block, which starves them when
//!   there are only a few tasks (paper §8). A worker that pushes while another is idle
//!   *shares* its block (grants it early), so two long tasks run on two workers. A task
//!   that blocks (a channel, a lock) until one of its queued jobs has run wraps the wait
//!   in [`block_in_place`].
//! * Idle workers search for a bounded time and then sleep; new visible work wakes one
//!   sleeper. The protocol and why it loses no wake-up: `src/sleep.rs`.
//! * Victims are chosen by a pluggable [`policy::VictimPolicy`]: random, seq, last,
//!   best-of-two, best-of-many, NUMA-aware, probabilistic (BWoS §3.4), NUMA +
//!   probabilistic and performance-driven.
//! * A panic in `join` or `scope` waits for every sibling task and then resumes in the
//!   caller; a panic in a detached `spawn` goes to a handler. The pool keeps working.
//! * [`ThreadPool::stats`] reports per-worker counters.
#![warn(missing_docs)]

mod builder;
mod global;
pub mod iter;
mod job;
mod job_cache;
mod join;
mod join_context;
mod latch;
pub mod policy;
mod pool;
mod queue;
mod registry;
mod rng;
mod scope;
mod slab;
mod sleep;
mod slot_order;
mod spawn;
mod stats;
mod sync;
mod unwind;
mod worker;
mod yield_now;

pub mod prelude;

pub use builder::{BuildError, ThreadPoolBuilder, DEFAULT_BLOCKS, DEFAULT_ENTRIES};
pub use join::join;
pub use join_context::{join_context, FnContext};
pub use pool::ThreadPool;
pub use queue::{QueueFlavour, StealAmount};
pub use rng::Rng;
pub use scope::{scope, Scope};
pub use spawn::spawn;
pub use stats::{PoolStats, WorkerStats};
pub use yield_now::{yield_local, yield_now, Yield};

/// The index of the calling thread in its pool, if it is a pool worker.
pub fn current_thread_index() -> Option<usize> {
    worker::WorkerThread::current().map(worker::WorkerThread::index)
}

/// How many workers of the calling worker's pool are idle right now (looking for work
/// or asleep); `None` when the caller is not a pool worker.
///
/// A racy hint (one Relaxed load) for schedulers built on the pool: a stack-stealing
/// search, for example, splits off work only while someone is waiting for it.
///
/// ```
/// let pool = magpie::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let idle = pool.install(magpie::current_idle_workers);
/// assert!(idle.is_some_and(|n| n <= 1));
/// assert_eq!(magpie::current_idle_workers(), None);
/// ```
pub fn current_idle_workers() -> Option<usize> {
    worker::WorkerThread::current().map(|w| w.registry().sleep.idle_count())
}

/// Makes the jobs the calling worker has queued stealable now, if other workers are
/// idle; does nothing outside a pool.
///
/// A worker's newest jobs sit in a private block of its BWoS queue until it shares
/// them, which the pool does when the worker pushes while someone is idle. A task
/// that spawned work and then runs for a long time without pushing again (a search
/// exploring a big subtree, say) calls this now and then, so that a worker that went
/// idle meanwhile can take that work instead of sleeping. Cheap when there is
/// nothing to share or nobody to share with.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
///
/// let pool = magpie::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let done = AtomicBool::new(false);
/// pool.scope(|s| {
///     s.spawn(|_| done.store(true, Ordering::Relaxed));
///     s.spawn(|_| {});
///     // A long task: until the first job has run somewhere, keep offering it.
///     while !done.load(Ordering::Relaxed) {
///         magpie::share_queued_jobs();
///         std::thread::yield_now();
///     }
/// });
/// ```
pub fn share_queued_jobs() {
    if let Some(worker) = worker::WorkerThread::current() {
        if worker.registry().sleep.anyone_idle() {
            worker.share_private();
        }
    }
}

/// Runs `f`, which may block the calling thread (on a channel, a lock, I/O), after
/// making every job the calling worker has queued reachable by the other workers;
/// outside a pool it just runs `f`.
///
/// A worker's newest jobs sit in a private block of its BWoS queue (LIFO) or in the
/// front block it pops from (FIFO) until it shares them, which the pool does when the
/// worker pushes while someone is idle, or when it waits in `join` or `scope`. A worker
/// that blocks in other ways never shares again: if every other worker was busy when it
/// pushed, a job it waits for stays out of their reach and the wait never ends (BWoS
/// §8; rayon's deques would let a thief take it). Wrap such a wait in
/// `block_in_place`: the private jobs are granted to thieves (FIFO: the front block's
/// go to the injector) and a sleeping worker is woken. Unlike tokio's function of the
/// same name, no thread takes this worker's place: the pool has one worker fewer while
/// `f` blocks, so waits in `join` or `scope` remain the better way to wait for the
/// pool's own jobs.
///
/// ```
/// let pool = magpie::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// pool.scope(|s| {
///     let (tx, rx) = std::sync::mpsc::channel();
///     s.spawn(move |_| tx.send(42).unwrap());
///     let answer = magpie::block_in_place(|| rx.recv().unwrap());
///     assert_eq!(answer, 42);
/// });
/// ```
pub fn block_in_place<R>(f: impl FnOnce() -> R) -> R {
    if let Some(worker) = worker::WorkerThread::current() {
        worker.offer_queued_jobs();
    }
    f()
}

/// Number of threads of the current pool (inside a worker) or of the global pool.
pub fn current_num_threads() -> usize {
    match worker::WorkerThread::current() {
        Some(w) => w.registry().num_threads(),
        None => global::registry().num_threads(),
    }
}
