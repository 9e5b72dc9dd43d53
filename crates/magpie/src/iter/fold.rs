//! `fold`, `fold_with`, `try_fold` and `try_fold_with`: one accumulator per piece.
//!
//! A piece's accumulator starts from `identity()` or from a clone of `init` (cloned when
//! a producer splits, as `map_with`'s state) — the [`Seed`]. `fold` runs every item
//! through `fold_op`; `try_fold`'s `fold_op` returns a [`Try`] value, and a failure ends
//! the piece and is its item. As in rayon, only the failing piece stops: the stop
//! reaches the others through a consumer that short-circuits, such as `try_reduce`.

use std::ops::ControlFlow;
use std::sync::Arc;

use super::plumbing::Producer;
use super::{ParallelIterator, Try};

/// Where a piece's accumulator comes from.
pub trait Seed: Send + Sized {
    /// The accumulator.
    type Acc;
    /// The seed of the right part when a producer splits.
    fn split(&self) -> Self;
    /// The piece's starting accumulator.
    fn into_acc(self) -> Self::Acc;
}

/// [`Seed`] of `fold` and `try_fold`: a call of `identity`.
pub struct Identity<ID>(Arc<ID>);

/// [`Seed`] of `fold_with` and `try_fold_with`: a clone of `init`.
pub struct Init<T>(T);

impl<ID: Fn() -> T + Sync + Send, T> Seed for Identity<ID> {
    type Acc = T;
    fn split(&self) -> Self {
        Identity(Arc::clone(&self.0))
    }
    fn into_acc(self) -> T {
        (self.0)()
    }
}

impl<T: Clone + Send> Seed for Init<T> {
    type Acc = T;
    fn split(&self) -> Self {
        Init(self.0.clone())
    }
    fn into_acc(self) -> T {
        self.0
    }
}

/// How a piece folds its items into its accumulator.
pub trait Folding<Acc, Item>: Sync + Send {
    /// The piece's one item.
    type Out;
    /// Folds `items` from `acc`.
    fn fold_piece<I: Iterator<Item = Item>>(&self, acc: Acc, items: I) -> Self::Out;
}

/// [`Folding`] of `fold`: every item.
pub struct Plain<F>(F);

/// [`Folding`] of `try_fold`: items until `fold_op` fails.
pub struct Fallible<F>(F);

impl<Acc, Item, F: Fn(Acc, Item) -> Acc + Sync + Send> Folding<Acc, Item> for Plain<F> {
    type Out = Acc;
    fn fold_piece<I: Iterator<Item = Item>>(&self, acc: Acc, items: I) -> Acc {
        items.fold(acc, &self.0)
    }
}

impl<Acc, Item, R, F> Folding<Acc, Item> for Fallible<F>
where
    F: Fn(Acc, Item) -> R + Sync + Send,
    R: Try<Output = Acc>,
{
    type Out = R;
    fn fold_piece<I: Iterator<Item = Item>>(&self, mut acc: Acc, items: I) -> R {
        for item in items {
            match (self.0)(acc, item).branch() {
                ControlFlow::Continue(next) => acc = next,
                ControlFlow::Break(failure) => return R::from_residual(failure),
            }
        }
        R::from_output(acc)
    }
}

/// The producer of the folds: yields one accumulator per piece.
pub struct FoldProducer<P, S, K> {
    base: P,
    seed: S,
    folding: Arc<K>,
}

impl<P, S, K> FoldProducer<P, S, K> {
    fn new(base: P, seed: S, folding: K) -> Self {
        FoldProducer {
            base,
            seed,
            folding: Arc::new(folding),
        }
    }
}

impl<P, S, K> Producer for FoldProducer<P, S, K>
where
    P: Producer,
    S: Seed,
    K: Folding<S::Acc, P::Item>,
{
    type Item = K::Out;
    type IntoIter = std::iter::Once<K::Out>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let left = FoldProducer {
            base: l,
            seed: self.seed.split(),
            folding: Arc::clone(&self.folding),
        };
        let right = FoldProducer {
            base: r,
            seed: self.seed,
            folding: self.folding,
        };
        (left, right)
    }
    fn into_iter(self) -> Self::IntoIter {
        let acc = self.seed.into_acc();
        std::iter::once(self.folding.fold_piece(acc, self.base.into_iter()))
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

/// Declares the parallel iterator of one fold: its base, its seed (`identity` or
/// `init`) and `fold_op`.
macro_rules! fold_iterator {
    ($(#[$doc:meta])* $name:ident<$seed_param:ident>) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name<I, $seed_param, F> {
            base: I,
            seed: $seed_param,
            fold_op: F,
        }

        impl<I, $seed_param, F> $name<I, $seed_param, F> {
            pub(super) fn new(base: I, seed: $seed_param, fold_op: F) -> Self {
                $name {
                    base,
                    seed,
                    fold_op,
                }
            }
        }
    };
}

fold_iterator!(
    /// The parallel iterator of [`ParallelIterator::fold`]: yields one accumulator per
    /// piece the input was divided into.
    Fold<ID>
);
fold_iterator!(
    /// The parallel iterator of [`ParallelIterator::fold_with`]: yields one accumulator
    /// per piece, each started from a clone of `init`.
    FoldWith<T>
);
fold_iterator!(
    /// The parallel iterator of [`ParallelIterator::try_fold`]: yields one result per
    /// piece, the accumulator or the piece's first failure.
    TryFold<ID>
);
fold_iterator!(
    /// The parallel iterator of [`ParallelIterator::try_fold_with`]: `try_fold` with
    /// every piece started from a clone of `init`.
    TryFoldWith<T>
);

impl<I, ID, F, T> ParallelIterator for Fold<I, ID, F>
where
    I: ParallelIterator,
    ID: Fn() -> T + Sync + Send,
    F: Fn(T, I::Item) -> T + Sync + Send,
    T: Send,
{
    type Item = T;
    type Producer = FoldProducer<I::Producer, Identity<ID>, Plain<F>>;
    fn into_producer(self) -> Self::Producer {
        let seed = Identity(Arc::new(self.seed));
        FoldProducer::new(self.base.into_producer(), seed, Plain(self.fold_op))
    }
}

impl<I, T, F> ParallelIterator for FoldWith<I, T, F>
where
    I: ParallelIterator,
    F: Fn(T, I::Item) -> T + Sync + Send,
    T: Send + Clone,
{
    type Item = T;
    type Producer = FoldProducer<I::Producer, Init<T>, Plain<F>>;
    fn into_producer(self) -> Self::Producer {
        let seed = Init(self.seed);
        FoldProducer::new(self.base.into_producer(), seed, Plain(self.fold_op))
    }
}

impl<I, ID, F, T, R> ParallelIterator for TryFold<I, ID, F>
where
    I: ParallelIterator,
    ID: Fn() -> T + Sync + Send,
    F: Fn(T, I::Item) -> R + Sync + Send,
    R: Try<Output = T> + Send,
{
    type Item = R;
    type Producer = FoldProducer<I::Producer, Identity<ID>, Fallible<F>>;
    fn into_producer(self) -> Self::Producer {
        let seed = Identity(Arc::new(self.seed));
        FoldProducer::new(self.base.into_producer(), seed, Fallible(self.fold_op))
    }
}

impl<I, T, F, R> ParallelIterator for TryFoldWith<I, T, F>
where
    I: ParallelIterator,
    F: Fn(T, I::Item) -> R + Sync + Send,
    R: Try<Output = T> + Send,
    T: Send + Clone,
{
    type Item = R;
    type Producer = FoldProducer<I::Producer, Init<T>, Fallible<F>>;
    fn into_producer(self) -> Self::Producer {
        let seed = Init(self.seed);
        FoldProducer::new(self.base.into_producer(), seed, Fallible(self.fold_op))
    }
}
