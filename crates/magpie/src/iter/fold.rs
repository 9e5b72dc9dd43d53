//! `fold` and `fold_with`: one accumulator per piece, started from `identity()` or
//! from a clone of `init` (cloned when a producer splits, as `map_with`'s state).

use std::sync::Arc;

use super::plumbing::Producer;
use super::ParallelIterator;

/// The parallel iterator of [`ParallelIterator::fold`]: yields one accumulator per
/// piece the input was divided into.
#[derive(Debug)]
pub struct Fold<I, ID, F> {
    base: I,
    identity: ID,
    fold_op: F,
}

impl<I, ID, F> Fold<I, ID, F> {
    pub(super) fn new(base: I, identity: ID, fold_op: F) -> Self {
        Fold {
            base,
            identity,
            fold_op,
        }
    }
}

impl<I, ID, F, T> ParallelIterator for Fold<I, ID, F>
where
    I: ParallelIterator,
    ID: Fn() -> T + Sync + Send,
    F: Fn(T, I::Item) -> T + Sync + Send,
    T: Send,
{
    type Item = T;
    type Producer = FoldProducer<I::Producer, ID, F>;
    fn into_producer(self) -> Self::Producer {
        FoldProducer {
            base: self.base.into_producer(),
            ops: Arc::new((self.identity, self.fold_op)),
        }
    }
}

/// The producer of [`Fold`].
pub struct FoldProducer<P, ID, F> {
    base: P,
    ops: Arc<(ID, F)>,
}

impl<P, ID, F, T> Producer for FoldProducer<P, ID, F>
where
    P: Producer,
    ID: Fn() -> T + Sync + Send,
    F: Fn(T, P::Item) -> T + Sync + Send,
{
    type Item = T;
    type IntoIter = std::iter::Once<T>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let ops = Arc::clone(&self.ops);
        (
            FoldProducer { base: l, ops },
            FoldProducer {
                base: r,
                ops: self.ops,
            },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        let (identity, fold_op) = &*self.ops;
        std::iter::once(self.base.into_iter().fold(identity(), fold_op))
    }
    fn min_len(&self) -> usize {
        self.base.min_len()
    }
    fn exact(&self) -> bool {
        false
    }
}

/// The parallel iterator of [`ParallelIterator::fold_with`]: yields one accumulator per
/// piece, each started from a clone of `init`.
#[derive(Debug)]
pub struct FoldWith<I, T, F> {
    base: I,
    init: T,
    fold_op: F,
}

impl<I, T, F> FoldWith<I, T, F> {
    pub(super) fn new(base: I, init: T, fold_op: F) -> Self {
        FoldWith {
            base,
            init,
            fold_op,
        }
    }
}

impl<I, T, F> ParallelIterator for FoldWith<I, T, F>
where
    I: ParallelIterator,
    F: Fn(T, I::Item) -> T + Sync + Send,
    T: Send + Clone,
{
    type Item = T;
    type Producer = FoldWithProducer<I::Producer, T, F>;
    fn into_producer(self) -> Self::Producer {
        FoldWithProducer {
            base: self.base.into_producer(),
            init: self.init,
            fold_op: Arc::new(self.fold_op),
        }
    }
}

/// The producer of [`FoldWith`]: carries `init`, cloned at every split.
pub struct FoldWithProducer<P, T, F> {
    base: P,
    init: T,
    fold_op: Arc<F>,
}

impl<P, T, F> Producer for FoldWithProducer<P, T, F>
where
    P: Producer,
    F: Fn(T, P::Item) -> T + Sync + Send,
    T: Send + Clone,
{
    type Item = T;
    type IntoIter = std::iter::Once<T>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let left = FoldWithProducer {
            base: l,
            init: self.init.clone(),
            fold_op: Arc::clone(&self.fold_op),
        };
        let right = FoldWithProducer {
            base: r,
            init: self.init,
            fold_op: self.fold_op,
        };
        (left, right)
    }
    fn into_iter(self) -> Self::IntoIter {
        std::iter::once(self.base.into_iter().fold(self.init, &*self.fold_op))
    }
    fn min_len(&self) -> usize {
        self.base.min_len()
    }
    fn exact(&self) -> bool {
        false
    }
}
