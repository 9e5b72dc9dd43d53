//! `fold`: one accumulator per piece.

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
