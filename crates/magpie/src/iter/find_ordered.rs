//! `find_first`, `find_last`, their `find_map_` forms and `position_first`/`_last`:
//! the match that comes first (last) in the input's order.
//!
//! Every piece covers a span `[start, end)` of source positions, and the spans are in
//! order, so a match in one piece beats every match in the pieces after it (before
//! it, for `_last`). The piece that finds a match publishes its span in one shared
//! atomic, its `start` with `fetch_min` (its `end` with `fetch_max` for `_last`); a
//! piece or part that lies wholly after (before) the published span can no longer
//! hold the answer, so it is not split and ends at its next item. The neighbours'
//! results combine as `left.or(right)` (`right.or(left)`). Spans are positions of the
//! source, not item counts, so this works after `filter` too.
//!
//! The search runs its own copy of the [`plumbing`](super::plumbing) recursion for two
//! reasons: a piece needs its span, and `_last` runs the *right* half first on the
//! splitting worker (the left half is the one offered to thieves), so the last match
//! is usually found early and the left pieces, which can only lose, are cut short. A
//! piece still runs forwards (its sequential iterator need not be double-ended), so a
//! `_last` piece scans to its end unless a piece to its right has found a match.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::leaf_stop::{self, LeafStop};

use super::plumbing::{in_blocks, in_pool, Blocks, Producer, Splitter};
use super::{IndexedParallelIterator, ParallelIterator};

/// Which end of the order wins.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wins {
    First,
    Last,
}

/// What every part of one search shares.
struct Search<'a, P: Producer, R> {
    wins: Wins,
    /// `First`: the smallest `start` of a piece that found a match (`usize::MAX`:
    /// none yet). `Last`: the largest `end` (0: none yet; a finder's span is not
    /// empty, so its `end` is positive).
    best: Arc<AtomicUsize>,
    /// Maps an item to the answer it gives, if any.
    f: &'a (dyn Fn(P::Item) -> Option<R> + Sync),
}

impl<P: Producer, R: Send> Search<'_, P, R> {
    /// Whether a match already found beats anything in `[start, end)`.
    fn beaten(&self, start: usize, end: usize) -> bool {
        // Relaxed: the flag only saves work; the answer travels through join.
        let best = self.best.load(Ordering::Relaxed);
        match self.wins {
            Wins::First => best < start,
            Wins::Last => best > end,
        }
    }

    /// Publishes a match found in the piece `[start, end)`.
    fn found(&self, start: usize, end: usize) {
        match self.wins {
            Wins::First => self.best.fetch_min(start, Ordering::Relaxed),
            Wins::Last => self.best.fetch_max(end, Ordering::Relaxed),
        };
    }

    /// Runs one piece sequentially: the first match for `First`; for `Last` the last
    /// one before a piece to the right beats this one.
    fn leaf(&self, piece: P::IntoIter, start: usize, end: usize) -> Option<R> {
        let mut answer = None;
        for x in piece {
            if self.beaten(start, end) {
                break;
            }
            if let Some(r) = (self.f)(x) {
                if answer.is_none() {
                    self.found(start, end);
                }
                answer = Some(r);
                if self.wins == Wins::First {
                    break;
                }
            }
        }
        answer
    }

    /// Searches `producer`, whose first position is `start`.
    fn run(&self, producer: P, start: usize, mut splitter: Splitter, migrated: bool) -> Option<R> {
        let len = producer.len();
        let end = start + len;
        if self.beaten(start, end) {
            return None;
        }
        if !splitter.split_producer(&producer, migrated) {
            let stop = LeafStop::Beaten {
                best: Arc::clone(&self.best),
                start,
                end,
                first: self.wins == Wins::First,
            };
            return self.leaf(leaf_stop::start(producer, Some(stop)), start, end);
        }
        let (left, right) = producer.split_at(len / 2);
        // From the left part's length, not `len / 2`: a string's cut moves to a
        // character boundary or separator, and the spans must not overlap.
        let mid = left.len();
        let here = crate::current_thread_index();
        let stolen = || crate::current_thread_index() != here;
        match self.wins {
            Wins::First => {
                let (a, b) = crate::join(
                    || self.run(left, start, splitter, false),
                    || self.run(right, start + mid, splitter, stolen()),
                );
                a.or(b)
            }
            Wins::Last => {
                let (b, a) = crate::join(
                    || self.run(right, start + mid, splitter, false),
                    || self.run(left, start, splitter, stolen()),
                );
                b.or(a)
            }
        }
    }
}

/// The first (`Wins::First`) or last `Some` result of `f` over `iter`, in order.
fn search<I, F, R>(iter: I, wins: Wins, f: F) -> Option<R>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> Option<R> + Sync,
    R: Send,
{
    let search = Search::<I::Producer, R> {
        wins,
        best: Arc::new(AtomicUsize::new(match wins {
            Wins::First => usize::MAX,
            Wins::Last => 0,
        })),
        f: &f,
    };
    let producer = iter.into_producer();
    in_pool(|| match producer.blocks() {
        Blocks::Whole => search.run(producer, 0, Splitter::new(), false),
        blocks => {
            // Blocks in order; once a block finds the first match, the rest is beaten
            // and returns at its first check.
            let end = producer.len();
            let combine = |a: Option<R>, b: Option<R>| match wins {
                Wins::First => a.or(b),
                Wins::Last => b.or(a),
            };
            in_blocks(
                producer,
                blocks,
                |block, start| search.run(block, start, Splitter::new(), false),
                &combine,
                |start| search.beaten(start, end),
            )
        }
    })
}

/// [`ParallelIterator::find_map_first`].
pub(super) fn find_map_first<I, F, R>(iter: I, f: F) -> Option<R>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> Option<R> + Sync,
    R: Send,
{
    search(iter, Wins::First, f)
}

/// [`ParallelIterator::find_map_last`].
pub(super) fn find_map_last<I, F, R>(iter: I, f: F) -> Option<R>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> Option<R> + Sync,
    R: Send,
{
    search(iter, Wins::Last, f)
}

/// [`IndexedParallelIterator::position_first`].
pub(super) fn position_first<I, P>(iter: I, predicate: P) -> Option<usize>
where
    I: IndexedParallelIterator,
    P: Fn(I::Item) -> bool + Sync,
{
    find_map_first(iter.enumerate(), |(i, x)| predicate(x).then_some(i))
}

/// [`IndexedParallelIterator::position_last`].
pub(super) fn position_last<I, P>(iter: I, predicate: P) -> Option<usize>
where
    I: IndexedParallelIterator,
    P: Fn(I::Item) -> bool + Sync,
{
    find_map_last(iter.enumerate(), |(i, x)| predicate(x).then_some(i))
}
