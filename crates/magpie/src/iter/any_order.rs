//! `take_any`, `skip_any`, `take_any_while`, `skip_any_while`: rayon's cuts that are
//! not bound to the order of the items; and `panic_fuse`, built the same way.
//!
//! The pieces share one [`Gate`]: a counter or a flag that each piece consults for
//! every item it meets. `take_any(n)` lets through the first `n` items any piece asks
//! for, whichever pieces they are in; `skip_any(n)` drops that many. The `_while`
//! forms stop taking (or skipping) everywhere once any piece meets an item that fails
//! the predicate. Items keep their relative order within and between pieces, so a
//! `collect` shows them in source order; *which* items pass depends on timing. A piece
//! ends at once when the gate says nothing more can pass (`take_any` full, the
//! `take_any_while` predicate failed somewhere).
//!
//! `panic_fuse`: a panic always reaches the caller, but without the fuse the pieces
//! already running go on to their ends first (`join` waits for both halves). Its gate
//! is a flag that a piece's iterator sets when it is dropped while its thread unwinds
//! (the panic came from the item's own work upstream, or from the consumer
//! downstream); every piece ends at its next item once the flag is set.
//!
//! None of these is indexed: a piece yields fewer items than its positions.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use super::plumbing::Producer;
use super::ParallelIterator;

/// What a [`Gate`] says of one item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admit {
    /// Let it through.
    Yield,
    /// Drop it and go on.
    Skip,
    /// Drop it and end the piece: nothing after it can pass.
    End,
}

/// The state the pieces of an [`AnyOrder`] iterator share, deciding for each item.
/// Relaxed atomics throughout: the gate only decides which items pass; the items
/// themselves travel through `join`.
pub trait Gate<T>: Send + Sync {
    /// Whether no further item can pass (checked before each item).
    fn ended(&self) -> bool {
        false
    }
    /// The verdict on `item`.
    fn admit(&self, item: &T) -> Admit;
    /// Called when a piece's iterator is dropped while its thread unwinds.
    fn unwinding(&self) {}
}

/// The gate of `panic_fuse()`: every item passes until a piece unwinds.
#[derive(Debug)]
pub struct Fuse {
    blown: AtomicBool,
}

impl<T> Gate<T> for Fuse {
    fn ended(&self) -> bool {
        self.blown.load(Relaxed)
    }
    fn admit(&self, _: &T) -> Admit {
        Admit::Yield
    }
    fn unwinding(&self) {
        self.blown.store(true, Relaxed);
    }
}

/// The gate of `take_any(n)`: the first `n` items asked for pass.
#[derive(Debug)]
pub struct TakeCount {
    n: usize,
    taken: AtomicUsize,
}

impl<T> Gate<T> for TakeCount {
    fn ended(&self) -> bool {
        self.taken.load(Relaxed) >= self.n
    }
    fn admit(&self, _: &T) -> Admit {
        let ticket = self
            .taken
            .fetch_update(Relaxed, Relaxed, |t| (t < self.n).then_some(t + 1));
        if ticket.is_ok() {
            Admit::Yield
        } else {
            Admit::End
        }
    }
}

/// The gate of `skip_any(n)`: the first `n` items asked for are dropped.
#[derive(Debug)]
pub struct SkipCount {
    n: usize,
    skipped: AtomicUsize,
}

impl<T> Gate<T> for SkipCount {
    fn admit(&self, _: &T) -> Admit {
        if self.skipped.load(Relaxed) >= self.n {
            return Admit::Yield;
        }
        let ticket = self
            .skipped
            .fetch_update(Relaxed, Relaxed, |s| (s < self.n).then_some(s + 1));
        if ticket.is_ok() {
            Admit::Skip
        } else {
            Admit::Yield
        }
    }
}

/// The gate of `take_any_while(predicate)`: items pass until one fails `predicate`.
#[derive(Debug)]
pub struct TakeWhile<P> {
    predicate: P,
    failed: AtomicBool,
}

impl<T, P: Fn(&T) -> bool + Sync + Send> Gate<T> for TakeWhile<P> {
    fn ended(&self) -> bool {
        self.failed.load(Relaxed)
    }
    fn admit(&self, item: &T) -> Admit {
        if (self.predicate)(item) {
            Admit::Yield
        } else {
            self.failed.store(true, Relaxed);
            Admit::End
        }
    }
}

/// The gate of `skip_any_while(predicate)`: items are dropped until one fails
/// `predicate`; from then on every item passes.
#[derive(Debug)]
pub struct SkipWhile<P> {
    predicate: P,
    failed: AtomicBool,
}

impl<T, P: Fn(&T) -> bool + Sync + Send> Gate<T> for SkipWhile<P> {
    fn admit(&self, item: &T) -> Admit {
        if self.failed.load(Relaxed) {
            Admit::Yield
        } else if (self.predicate)(item) {
            Admit::Skip
        } else {
            self.failed.store(true, Relaxed);
            Admit::Yield
        }
    }
}

/// The parallel iterator of [`ParallelIterator::take_any`].
pub type TakeAny<I> = AnyOrder<I, TakeCount>;
/// The parallel iterator of [`ParallelIterator::skip_any`].
pub type SkipAny<I> = AnyOrder<I, SkipCount>;
/// The parallel iterator of [`ParallelIterator::take_any_while`].
pub type TakeAnyWhile<I, P> = AnyOrder<I, TakeWhile<P>>;
/// The parallel iterator of [`ParallelIterator::skip_any_while`].
pub type SkipAnyWhile<I, P> = AnyOrder<I, SkipWhile<P>>;
/// The parallel iterator of [`ParallelIterator::panic_fuse`].
pub type PanicFuse<I> = AnyOrder<I, Fuse>;

/// The items of `base` that the shared gate `G` lets through (see the module docs).
#[derive(Debug)]
pub struct AnyOrder<I, G> {
    base: I,
    gate: G,
}

impl<I> TakeAny<I> {
    pub(super) fn take(base: I, n: usize) -> Self {
        let taken = AtomicUsize::new(0);
        AnyOrder {
            base,
            gate: TakeCount { n, taken },
        }
    }
}

impl<I> SkipAny<I> {
    pub(super) fn skip(base: I, n: usize) -> Self {
        let skipped = AtomicUsize::new(0);
        AnyOrder {
            base,
            gate: SkipCount { n, skipped },
        }
    }
}

impl<I> PanicFuse<I> {
    pub(super) fn fuse(base: I) -> Self {
        let blown = AtomicBool::new(false);
        AnyOrder {
            base,
            gate: Fuse { blown },
        }
    }
}

impl<I, P> TakeAnyWhile<I, P> {
    pub(super) fn take_while(base: I, predicate: P) -> Self {
        let failed = AtomicBool::new(false);
        AnyOrder {
            base,
            gate: TakeWhile { predicate, failed },
        }
    }
}

impl<I, P> SkipAnyWhile<I, P> {
    pub(super) fn skip_while(base: I, predicate: P) -> Self {
        let failed = AtomicBool::new(false);
        AnyOrder {
            base,
            gate: SkipWhile { predicate, failed },
        }
    }
}

impl<I: ParallelIterator, G: Gate<I::Item>> ParallelIterator for AnyOrder<I, G> {
    type Item = I::Item;
    type Producer = AnyOrderProducer<I::Producer, G>;
    fn into_producer(self) -> Self::Producer {
        AnyOrderProducer {
            base: self.base.into_producer(),
            gate: Arc::new(self.gate),
        }
    }
}

/// The producer of [`AnyOrder`]: its pieces share the gate.
pub struct AnyOrderProducer<P, G> {
    base: P,
    gate: Arc<G>,
}

impl<P: Producer, G: Gate<P::Item>> Producer for AnyOrderProducer<P, G> {
    type Item = P::Item;
    type IntoIter = AnyOrderIter<P::IntoIter, G>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let gate = Arc::clone(&self.gate);
        (
            AnyOrderProducer { base: l, gate },
            AnyOrderProducer {
                base: r,
                gate: self.gate,
            },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        AnyOrderIter {
            inner: self.base.into_iter(),
            gate: self.gate,
            done: false,
        }
    }
    fn min_len(&self) -> usize {
        self.base.min_len()
    }
    fn max_len(&self) -> usize {
        self.base.max_len()
    }
    fn blocks(&self) -> super::plumbing::Blocks {
        self.base.blocks()
    }
    fn exact(&self) -> bool {
        false
    }
}

/// A piece of [`AnyOrder`] as a sequential iterator.
pub struct AnyOrderIter<I: Iterator, G: Gate<I::Item>> {
    inner: I,
    gate: Arc<G>,
    /// Set once this piece has ended, so it stays ended (fused).
    done: bool,
}

impl<I: Iterator, G: Gate<I::Item>> Iterator for AnyOrderIter<I, G> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        while !self.done && !self.gate.ended() {
            let Some(item) = self.inner.next() else {
                break;
            };
            match self.gate.admit(&item) {
                Admit::Yield => return Some(item),
                Admit::Skip => {}
                Admit::End => break,
            }
        }
        self.done = true;
        None
    }
}

impl<I: Iterator, G: Gate<I::Item>> Drop for AnyOrderIter<I, G> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.gate.unwinding();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Admit, Gate, SkipCount, SkipWhile, TakeCount, TakeWhile};
    use std::sync::atomic::{AtomicBool, AtomicUsize};

    #[test]
    fn the_count_gates_pass_and_drop_exactly_n() {
        let take = TakeCount {
            n: 2,
            taken: AtomicUsize::new(0),
        };
        let verdicts: Vec<Admit> = (0..4).map(|i| take.admit(&i)).collect();
        assert_eq!(
            verdicts,
            [Admit::Yield, Admit::Yield, Admit::End, Admit::End]
        );
        assert!(Gate::<i32>::ended(&take));
        let skip = SkipCount {
            n: 2,
            skipped: AtomicUsize::new(0),
        };
        let verdicts: Vec<Admit> = (0..4).map(|i| skip.admit(&i)).collect();
        assert_eq!(
            verdicts,
            [Admit::Skip, Admit::Skip, Admit::Yield, Admit::Yield]
        );
    }

    #[test]
    fn the_while_gates_switch_for_good_at_the_first_failure() {
        let take = TakeWhile {
            predicate: |x: &i32| *x < 2,
            failed: AtomicBool::new(false),
        };
        let verdicts: Vec<Admit> = [0, 5, 1].iter().map(|i| take.admit(i)).collect();
        assert_eq!(verdicts[..2], [Admit::Yield, Admit::End]);
        assert!(take.ended());
        let skip = SkipWhile {
            predicate: |x: &i32| *x < 2,
            failed: AtomicBool::new(false),
        };
        let verdicts: Vec<Admit> = [0, 5, 1].iter().map(|i| skip.admit(i)).collect();
        assert_eq!(verdicts, [Admit::Skip, Admit::Yield, Admit::Yield]);
    }
}
