//! The machinery under the parallel iterators: [`Producer`], a splittable source of
//! items, and the adaptive splitter that divides a producer between the workers.
//!
//! A parallel iterator becomes one producer (adaptors wrap the producer of their base).
//! `bridge` splits it in halves with [`join`](crate::join) while the splitter
//! allows, and runs every remaining piece as an ordinary sequential iterator.
//!
//! # Splitting that adapts to load
//! Rayon's adaptive splitter: a run starts with a budget of `threads` splits, halved at
//! every level, so when nobody steals there are only about `2 × threads` pieces and the
//! cost of `join` is paid a handful of times. When a half is *stolen* (it runs on
//! another worker than the one that split it), that half gets a fresh budget of at
//! least `threads` splits: work keeps being divided exactly where thieves are, and a
//! skewed input (one expensive end) ends up cut finely there and coarsely elsewhere.
//! We chose it over lazy binary splitting (which polls the local queue, a cost on every
//! chunk) and heartbeat promotion (which needs a timer in the pool) because it needs
//! nothing from the pool but `join` and the index of the current thread, and it is what
//! rayon users' code was tuned against. `with_min_len` bounds how small a piece gets;
//! `with_max_len` makes the splitter cut every piece longer than its bound, budget or
//! not, spending the budget as it goes (`with_max_len(1)`: one item per piece, for a
//! few very uneven items).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::leaf_stop::{self, LeafStop};

/// A splittable source of items: the part of a parallel iterator that can be cut.
///
/// `len` counts *positions* of the underlying source (slice elements, range values);
/// an adaptor such as `filter` yields fewer items than positions. A producer is
/// *exact* when it yields exactly one item per position; only exact producers can be
/// zipped, enumerated, reversed, cut (`take`, `skip`, `step_by`) or collected straight
/// into place.
pub trait Producer: Send + Sized {
    /// The items produced.
    type Item;
    /// The sequential iterator a piece becomes.
    type IntoIter: Iterator<Item = Self::Item>;
    /// The number of positions.
    fn len(&self) -> usize;
    /// Whether there are no positions.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Splits into positions `[0, index)` and `[index, len)`. A producer that is not
    /// exact may move the cut near `index` and leave out positions there (a string
    /// cuts at a character boundary or a separator, which neither part keeps); the
    /// parts stay in order, and `split_at(0)` and `split_at(len)` still leave one
    /// part empty. `split_at(0)` leaves the left part empty even when `len` is 0
    /// (such a producer may still yield items: an empty string's one substring).
    fn split_at(self, index: usize) -> (Self, Self);
    /// The sequential iterator over this piece, in order.
    fn into_iter(self) -> Self::IntoIter;
    /// The fewest positions a piece may have (see `with_min_len`).
    fn min_len(&self) -> usize {
        1
    }
    /// The most positions a piece may have before it is split whatever the splitter's
    /// budget (see `with_max_len`); `min_len` wins where the two conflict. An adaptor
    /// forwards its base's bounds, scaled to its own positions.
    fn max_len(&self) -> usize {
        usize::MAX
    }
    /// Whether every position yields exactly one item.
    fn exact(&self) -> bool;
    /// How a consumer runs this producer: whole, or block after block (see
    /// [`Blocks`]). Adaptors that keep their base's positions forward it.
    fn blocks(&self) -> Blocks {
        Blocks::Whole
    }
}

/// How a consumer runs a producer: at once, or as a sequence of blocks run one after
/// another, each split in parallel (`by_exponential_blocks`, `by_uniform_blocks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocks {
    /// All positions at once, divided by the adaptive splitter.
    Whole,
    /// Blocks of `threads`, `2 × threads`, `4 × threads`, ... positions.
    Exponential,
    /// Blocks of this many positions (not 0).
    Uniform(usize),
}

/// How many threads a parallel iterator called from here should plan for.
pub(crate) fn threads_here() -> usize {
    match crate::worker::WorkerThread::current() {
        Some(worker) => worker.registry().num_threads(),
        None => crate::global::registry().num_threads(),
    }
}

/// Rayon's adaptive splitter (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct Splitter {
    splits: usize,
    threads: usize,
}

impl Splitter {
    /// A fresh budget for a run on the current pool.
    pub(crate) fn new() -> Splitter {
        let threads = threads_here();
        Splitter {
            splits: threads,
            threads,
        }
    }

    /// Whether a piece of `len` positions, none smaller than `min_len`, should be
    /// split; `migrated` says it runs on another worker than the one that split it.
    pub(crate) fn try_split(&mut self, len: usize, min_len: usize, migrated: bool) -> bool {
        if len / 2 < min_len.max(1) {
            return false;
        }
        if migrated {
            self.splits = self.threads.max(self.splits / 2);
            true
        } else if self.splits > 0 {
            self.splits /= 2;
            true
        } else {
            false
        }
    }

    /// Whether `producer` should be split: it is longer than its `max_len` (and may be
    /// halved without going under its `min_len`), or the adaptive budget allows. A
    /// forced split spends the budget too, so that pieces end near `max_len` rather
    /// than a few levels below it (as rayon's length splitter, whose budget starts at
    /// `len / max_len`).
    pub(crate) fn split_producer(&mut self, producer: &impl Producer, migrated: bool) -> bool {
        let (len, min_len) = (producer.len(), producer.min_len());
        let too_long = len > producer.max_len() && len / 2 >= min_len.max(1);
        let budget = self.try_split(len, min_len, migrated);
        too_long || budget
    }
}

/// What to do with each piece and how to combine two neighbours' results.
pub(crate) struct Reducer<'a, P: Producer, R> {
    /// Runs one piece.
    pub leaf: &'a (dyn Fn(P::IntoIter) -> R + Sync),
    /// Combines the results of a left and a right neighbour, in that order.
    pub combine: &'a (dyn Fn(R, R) -> R + Sync),
    /// Set by a short-circuiting consumer; no piece is split once it is set.
    pub stop: Option<&'a Arc<AtomicBool>>,
}

/// Runs `producer` in parallel on the current pool (the global pool from outside) and
/// combines the pieces' results left to right.
pub(crate) fn bridge<P, R>(producer: P, reducer: &Reducer<'_, P, R>) -> R
where
    P: Producer,
    R: Send,
{
    in_pool(|| match producer.blocks() {
        Blocks::Whole => split(producer, Splitter::new(), false, reducer),
        blocks => in_blocks(
            producer,
            blocks,
            |block, _| split(block, Splitter::new(), false, reducer),
            reducer.combine,
            |_| reducer.stop.is_some_and(|s| s.load(Ordering::Relaxed)),
        ),
    })
}

/// Runs `producer` block by block as `blocks` says: `run` gets each block and its
/// first position, one block after another, and the results combine left to right.
/// Once `stopped` (given the next block's first position) says so, the rest runs as
/// one last block, which `run` cuts short itself; the loop never spins on a block
/// that makes no progress.
pub(crate) fn in_blocks<P: Producer, R>(
    mut producer: P,
    blocks: Blocks,
    run: impl Fn(P, usize) -> R,
    combine: &dyn Fn(R, R) -> R,
    stopped: impl Fn(usize) -> bool,
) -> R {
    let mut size = match blocks {
        Blocks::Uniform(n) => n,
        Blocks::Whole | Blocks::Exponential => threads_here(),
    }
    .max(1);
    let mut start = 0;
    let mut done: Option<R> = None;
    let then = |done: Option<R>, r: R| match done {
        Some(left) => combine(left, r),
        None => r,
    };
    loop {
        let len = producer.len();
        if len <= size || stopped(start) {
            return then(done, run(producer, start));
        }
        let (block, rest) = producer.split_at(size);
        let taken = block.len();
        done = Some(then(done, run(block, start)));
        if rest.len() == len {
            // A cut that moved to the end: nothing left to divide into blocks.
            return then(done, run(rest, start + taken));
        }
        start += taken;
        producer = rest;
        if blocks == Blocks::Exponential {
            size = size.saturating_mul(2);
        }
    }
}

/// Runs `op` on a worker: here if the caller is one, else on the global pool.
pub(crate) fn in_pool<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    if crate::worker::WorkerThread::current().is_some() {
        op()
    } else {
        crate::global::registry().in_worker_cold(|_| op())
    }
}

fn split<P, R>(
    producer: P,
    mut splitter: Splitter,
    migrated: bool,
    reducer: &Reducer<'_, P, R>,
) -> R
where
    P: Producer,
    R: Send,
{
    let len = producer.len();
    let stopped = reducer.stop.is_some_and(|s| s.load(Ordering::Relaxed));
    if stopped || !splitter.split_producer(&producer, migrated) {
        let stop = reducer.stop.map(|s| LeafStop::Flag(Arc::clone(s)));
        return (reducer.leaf)(leaf_stop::start(producer, stop));
    }
    let (left, right) = producer.split_at(len / 2);
    let here = crate::current_thread_index();
    let (a, b) = crate::join(
        || split(left, splitter, false, reducer),
        || {
            split(
                right,
                splitter,
                crate::current_thread_index() != here,
                reducer,
            )
        },
    );
    (reducer.combine)(a, b)
}
