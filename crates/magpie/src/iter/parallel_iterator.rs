//! The [`ParallelIterator`] trait: every adaptor and consumer, each a thin entry
//! point into the file that implements it (a trait cannot be split across files, so
//! the bodies here stay a line or two).

use std::cmp::Ordering;
use std::collections::LinkedList;
use std::iter::{Product, Sum};

use super::any_order::{PanicFuse, SkipAny, SkipAnyWhile, TakeAny, TakeAnyWhile};
use super::chain::Chain;
use super::collect::{self, FromParallelIterator};
use super::extend::ParallelExtend;
use super::filter::{Filter, FilterMap};
use super::flat_map_iter::FlatMapIter;
use super::fold::{Fold, FoldWith, TryFold, TryFoldWith};
use super::map::Map;
use super::map_with::{MapInit, MapWith};
use super::min_len::{MaxLen, MinLen};
use super::plumbing::Producer;
use super::while_some::WhileSome;
use super::{drive, find, min_max, unzip, Either, IntoParallelIterator};

/// The sequential iterator over all items of the parallel iterable `PI`: what
/// [`ParallelIterator::flat_map`] runs for each outer item.
pub type Inner<PI> =
    <<<PI as IntoParallelIterator>::Iter as ParallelIterator>::Producer as Producer>::IntoIter;

/// A parallel iterator: a source of items, divided between the pool's workers.
pub trait ParallelIterator: Sized + Send {
    /// The items.
    type Item: Send;
    /// The splittable source behind this iterator.
    type Producer: Producer<Item = Self::Item>;

    /// Turns the iterator into its producer (used by the adaptors and consumers).
    fn into_producer(self) -> Self::Producer;

    /// Applies `f` to every item.
    fn map<F, R>(self, f: F) -> Map<Self, F>
    where
        F: Fn(Self::Item) -> R + Sync + Send,
        R: Send,
    {
        Map::new(self, f)
    }

    /// Copies the referenced items (`&T` to `T`).
    fn copied<'a, T>(self) -> Map<Self, impl Fn(&'a T) -> T + Sync + Send>
    where
        Self: ParallelIterator<Item = &'a T>,
        T: 'a + Copy + Send + Sync,
    {
        self.map(|x: &'a T| *x)
    }

    /// Clones the referenced items (`&T` to `T`).
    fn cloned<'a, T>(self) -> Map<Self, impl Fn(&'a T) -> T + Sync + Send>
    where
        Self: ParallelIterator<Item = &'a T>,
        T: 'a + Clone + Send + Sync,
    {
        self.map(|x: &'a T| x.clone())
    }

    /// Calls `f` on a reference to every item as it passes, and passes it on.
    fn inspect<F>(self, f: F) -> Map<Self, impl Fn(Self::Item) -> Self::Item + Sync + Send>
    where
        F: Fn(&Self::Item) + Sync + Send,
    {
        self.map(move |x| {
            f(&x);
            x
        })
    }

    /// Calls `f` on a mutable reference to every item as it passes, and passes it on.
    fn update<F>(self, f: F) -> Map<Self, impl Fn(Self::Item) -> Self::Item + Sync + Send>
    where
        F: Fn(&mut Self::Item) + Sync + Send,
    {
        self.map(move |mut x| {
            f(&mut x);
            x
        })
    }

    /// Keeps the items for which `predicate` holds.
    fn filter<P>(self, predicate: P) -> Filter<Self, P>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        Filter::new(self, predicate)
    }

    /// Keeps the `Some` results of `f`.
    fn filter_map<F, R>(self, f: F) -> FilterMap<Self, F>
    where
        F: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        FilterMap::new(self, f)
    }

    /// Replaces every item by the items of the sequential iterator `f` returns for it
    /// (which is not split further).
    fn flat_map_iter<F, U>(self, f: F) -> FlatMapIter<Self, F>
    where
        F: Fn(Self::Item) -> U + Sync + Send,
        U: IntoIterator,
        U::Item: Send,
    {
        FlatMapIter::new(self, f)
    }

    /// Replaces every item, itself a sequential iterable, by its items.
    fn flatten_iter(self) -> FlatMapIter<Self, impl Fn(Self::Item) -> Self::Item + Sync + Send>
    where
        Self::Item: IntoIterator,
        <Self::Item as IntoIterator>::Item: Send,
    {
        self.flat_map_iter(|x| x)
    }

    /// Replaces every item by the items of the parallel iterator `f` returns for it, in
    /// order. Unlike rayon, the inner iterator is not split: it runs sequentially in the
    /// piece that holds its outer item, so the parallelism comes from the outer items
    /// (as with [`flat_map_iter`](Self::flat_map_iter)). With few outer items and long
    /// inner ones, reduce a nested parallel iterator inside `map` instead.
    ///
    /// ```
    /// use magpie::prelude::*;
    /// let rows = vec![vec![1, 2], vec![], vec![3]];
    /// let all: Vec<i32> = rows.par_iter().flat_map(|row| row.par_iter().copied()).collect();
    /// assert_eq!(all, [1, 2, 3]);
    /// ```
    fn flat_map<F, PI>(
        self,
        f: F,
    ) -> FlatMapIter<Self, impl Fn(Self::Item) -> Inner<PI> + Sync + Send>
    where
        F: Fn(Self::Item) -> PI + Sync + Send,
        PI: IntoParallelIterator,
    {
        self.flat_map_iter(move |item| f(item).into_par_iter().into_producer().into_iter())
    }

    /// Replaces every item, itself a parallel iterable (such as a `Vec`), by its items,
    /// in order; each inner iterator runs sequentially (see [`flat_map`](Self::flat_map)).
    fn flatten(self) -> FlatMapIter<Self, impl Fn(Self::Item) -> Inner<Self::Item> + Sync + Send>
    where
        Self::Item: IntoParallelIterator,
    {
        self.flat_map(|item| item)
    }

    /// `map` with a mutable state: `init` is cloned for every piece, and `f` gets the
    /// piece's clone with each item.
    fn map_with<F, T, R>(self, init: T, f: F) -> MapWith<Self, T, F>
    where
        F: Fn(&mut T, Self::Item) -> R + Sync + Send,
        T: Send + Clone,
        R: Send,
    {
        MapWith::new(self, init, f)
    }

    /// `map` with a mutable state made by `init()` once per piece.
    fn map_init<F, INIT, T, R>(self, init: INIT, f: F) -> MapInit<Self, INIT, F>
    where
        F: Fn(&mut T, Self::Item) -> R + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
        R: Send,
    {
        MapInit::new(self, init, f)
    }

    /// The items of `self`, then those of `other` (indexed when both are).
    ///
    /// # Panics
    /// If the two together have more than `usize::MAX` positions (when the length is
    /// asked for or the items are split).
    fn chain<C>(self, other: C) -> Chain<Self, C::Iter>
    where
        C: IntoParallelIterator<Item = Self::Item>,
    {
        Chain::new(self, other.into_par_iter())
    }

    /// Folds each piece into one accumulator, starting from `identity()`; yields the
    /// accumulators (combine them with `reduce` or `sum`).
    fn fold<T, ID, F>(self, identity: ID, fold_op: F) -> Fold<Self, ID, F>
    where
        ID: Fn() -> T + Sync + Send,
        F: Fn(T, Self::Item) -> T + Sync + Send,
        T: Send,
    {
        Fold::new(self, identity, fold_op)
    }

    /// `fold` starting every piece from a clone of `init`.
    fn fold_with<F, T>(self, init: T, fold_op: F) -> FoldWith<Self, T, F>
    where
        F: Fn(T, Self::Item) -> T + Sync + Send,
        T: Send + Clone,
    {
        FoldWith::new(self, init, fold_op)
    }

    /// Folds each piece like `fold`, but `fold_op` returns a `Result`, `Option` or
    /// `ControlFlow` (see [`Try`](super::Try)) and a piece stops at its first failure,
    /// which is then its item. Other pieces go on unless a short-circuiting consumer
    /// such as `try_reduce` follows.
    fn try_fold<T, R, ID, F>(self, identity: ID, fold_op: F) -> TryFold<Self, ID, F>
    where
        ID: Fn() -> T + Sync + Send,
        F: Fn(T, Self::Item) -> R + Sync + Send,
        R: super::Try<Output = T> + Send,
    {
        TryFold::new(self, identity, fold_op)
    }

    /// `try_fold` starting every piece from a clone of `init`.
    fn try_fold_with<F, T, R>(self, init: T, fold_op: F) -> TryFoldWith<Self, T, F>
    where
        F: Fn(T, Self::Item) -> R + Sync + Send,
        R: super::Try<Output = T> + Send,
        T: Send + Clone,
    {
        TryFoldWith::new(self, init, fold_op)
    }

    /// The `Some` values of the items, until a `None`: once one is seen the other
    /// pieces stop at their next item, so which values before it are yielded is not
    /// fixed (those after it in its own piece never are).
    fn while_some<T>(self) -> WhileSome<Self>
    where
        Self: ParallelIterator<Item = Option<T>>,
        T: Send,
    {
        WhileSome::new(self)
    }

    /// `n` items from anywhere in the source (all if there are fewer): which ones
    /// depends on timing, but they keep their relative order (as rayon's). Pieces end
    /// as soon as `n` are taken.
    fn take_any(self, n: usize) -> TakeAny<Self> {
        TakeAny::take(self, n)
    }

    /// All items but `n` from anywhere in the source (none if there are fewer), in
    /// their relative order; which `n` are dropped depends on timing.
    fn skip_any(self, n: usize) -> SkipAny<Self> {
        SkipAny::skip(self, n)
    }

    /// Items from anywhere while `predicate` holds: once an item fails it, no piece
    /// yields any more (those yielded before remain, in their relative order).
    fn take_any_while<P>(self, predicate: P) -> TakeAnyWhile<Self, P>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        TakeAnyWhile::take_while(self, predicate)
    }

    /// Drops items from anywhere while `predicate` holds: once an item fails it,
    /// every piece yields all its remaining items, in their relative order.
    fn skip_any_while<P>(self, predicate: P) -> SkipAnyWhile<Self, P>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        SkipAnyWhile::skip_while(self, predicate)
    }

    /// Once any piece panics, the others stop at their next item instead of running
    /// to their ends; the panic reaches the caller either way. Not indexed.
    fn panic_fuse(self) -> PanicFuse<Self> {
        PanicFuse::fuse(self)
    }

    /// Never divides the source into pieces of fewer than `min` positions.
    fn with_min_len(self, min: usize) -> MinLen<Self> {
        MinLen::new(self, min)
    }

    /// Divides the source until no piece has more than `max` positions, however
    /// little is being stolen, unless `with_min_len` forbids it or the source cannot be
    /// cut there (a string part without a separator, a `par_chars` piece of one
    /// character, a `chunks` chunk longer than `max`).
    fn with_max_len(self, max: usize) -> MaxLen<Self> {
        MaxLen::new(self, max)
    }

    /// Calls `f` on every item.
    fn for_each<F>(self, f: F)
    where
        F: Fn(Self::Item) + Sync + Send,
    {
        let leaf = |it: <Self::Producer as Producer>::IntoIter| it.for_each(&f);
        drive(self, &leaf, &|(), ()| (), None)
    }

    /// Calls `op` on every item with a mutable state, `init` cloned for every piece
    /// (a channel `Sender`, say).
    fn for_each_with<OP, T>(self, init: T, op: OP)
    where
        OP: Fn(&mut T, Self::Item) + Sync + Send,
        T: Send + Clone,
    {
        self.map_with(init, op).for_each(|()| ());
    }

    /// Calls `op` on every item with a mutable state made by `init()` once per piece.
    fn for_each_init<OP, INIT, T>(self, init: INIT, op: OP)
    where
        OP: Fn(&mut T, Self::Item) + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
    {
        self.map_init(init, op).for_each(|()| ());
    }

    /// Calls `op` on every item until one returns an `Err` (or `None`, or
    /// `Break`), which is returned; the other workers stop soon after.
    fn try_for_each<OP, R>(self, op: OP) -> R
    where
        OP: Fn(Self::Item) -> R + Sync + Send,
        R: super::Try<Output = ()> + Send,
    {
        super::try_ops::try_for_each(self, op)
    }

    /// `try_for_each` with a mutable state: `init` is cloned for every piece, and
    /// `op` gets the piece's clone with each item (as `for_each_with`).
    fn try_for_each_with<OP, T, R>(self, init: T, op: OP) -> R
    where
        OP: Fn(&mut T, Self::Item) -> R + Sync + Send,
        T: Send + Clone,
        R: super::Try<Output = ()> + Send,
    {
        self.map_with(init, op).try_for_each(|r| r)
    }

    /// `try_for_each` with a mutable state made by `init()` once per piece (as
    /// `for_each_init`).
    fn try_for_each_init<OP, INIT, T, R>(self, init: INIT, op: OP) -> R
    where
        OP: Fn(&mut T, Self::Item) -> R + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
        R: super::Try<Output = ()> + Send,
    {
        self.map_init(init, op).try_for_each(|r| r)
    }

    /// `reduce` over fallible items: combines the `Ok` (`Some`, `Continue`)
    /// values with `op` until an item or a result of `op` fails, and returns that
    /// failure; the other workers stop soon after.
    fn try_reduce<T, OP, ID>(self, identity: ID, op: OP) -> Self::Item
    where
        OP: Fn(T, T) -> Self::Item + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        Self::Item: super::Try<Output = T>,
        T: Send,
    {
        super::try_ops::try_reduce(self, identity, op)
    }

    /// `try_reduce` without an identity: `None` if there are no items, else the
    /// combined value or a failure (the leftmost of those found; the other workers
    /// stop soon after one is found).
    fn try_reduce_with<T, OP>(self, op: OP) -> Option<Self::Item>
    where
        OP: Fn(T, T) -> Self::Item + Sync + Send,
        Self::Item: super::Try<Output = T>,
        T: Send,
    {
        super::try_ops::try_reduce_with(self, op)
    }

    /// Sums the items.
    fn sum<S>(self) -> S
    where
        S: Send + Sum<Self::Item> + Sum<S>,
    {
        let leaf = |it: <Self::Producer as Producer>::IntoIter| it.sum::<S>();
        drive(self, &leaf, &|a: S, b: S| [a, b].into_iter().sum(), None)
    }

    /// Multiplies the items.
    fn product<P>(self) -> P
    where
        P: Send + Product<Self::Item> + Product<P>,
    {
        let leaf = |it: <Self::Producer as Producer>::IntoIter| it.product::<P>();
        drive(
            self,
            &leaf,
            &|a: P, b: P| [a, b].into_iter().product(),
            None,
        )
    }

    /// Counts the items.
    fn count(self) -> usize {
        let leaf = |it: <Self::Producer as Producer>::IntoIter| it.count();
        drive(self, &leaf, &|a, b| a + b, None)
    }

    /// Combines all items with `op`, starting each piece from `identity()`; `op` must
    /// be associative, and `identity()` its neutral element.
    fn reduce<ID, OP>(self, identity: ID, op: OP) -> Self::Item
    where
        ID: Fn() -> Self::Item + Sync + Send,
        OP: Fn(Self::Item, Self::Item) -> Self::Item + Sync + Send,
    {
        let leaf = |it: <Self::Producer as Producer>::IntoIter| it.fold(identity(), &op);
        drive(self, &leaf, &op, None)
    }

    /// Combines all items with `op` (which must be associative), or `None` if there
    /// are none: `reduce` without an identity.
    fn reduce_with<OP>(self, op: OP) -> Option<Self::Item>
    where
        OP: Fn(Self::Item, Self::Item) -> Self::Item + Sync + Send,
    {
        let leaf = |it: <Self::Producer as Producer>::IntoIter| it.reduce(&op);
        let combine = |a: Option<Self::Item>, b: Option<Self::Item>| match (a, b) {
            (Some(a), Some(b)) => Some(op(a, b)),
            (a, b) => a.or(b),
        };
        drive(self, &leaf, &combine, None)
    }

    /// The smallest item (the first of several).
    fn min(self) -> Option<Self::Item>
    where
        Self::Item: Ord,
    {
        min_max::min_by(self, Ord::cmp)
    }

    /// The smallest item by `compare` (the first of several).
    fn min_by<F>(self, compare: F) -> Option<Self::Item>
    where
        F: Fn(&Self::Item, &Self::Item) -> Ordering + Sync + Send,
    {
        min_max::min_by(self, compare)
    }

    /// The item with the smallest key (the first of several).
    fn min_by_key<K, F>(self, f: F) -> Option<Self::Item>
    where
        K: Ord + Send,
        F: Fn(&Self::Item) -> K + Sync + Send,
    {
        min_max::min_by_key(self, f)
    }

    /// The largest item (the last of several).
    fn max(self) -> Option<Self::Item>
    where
        Self::Item: Ord,
    {
        min_max::max_by(self, Ord::cmp)
    }

    /// The largest item by `compare` (the last of several).
    fn max_by<F>(self, compare: F) -> Option<Self::Item>
    where
        F: Fn(&Self::Item, &Self::Item) -> Ordering + Sync + Send,
    {
        min_max::max_by(self, compare)
    }

    /// The item with the largest key (the last of several).
    fn max_by_key<K, F>(self, f: F) -> Option<Self::Item>
    where
        K: Ord + Send,
        F: Fn(&Self::Item) -> K + Sync + Send,
    {
        min_max::max_by_key(self, f)
    }

    /// Some item for which `predicate` holds, not necessarily the first; the other
    /// workers stop looking soon after one is found.
    fn find_any<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        find::find_map_any(self, |x| if predicate(&x) { Some(x) } else { None })
    }

    /// Some `Some` result of `f`, not necessarily the first item's; the other workers
    /// stop looking soon after one is found.
    fn find_map_any<F, R>(self, f: F) -> Option<R>
    where
        F: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        find::find_map_any(self, f)
    }

    /// The first item in order for which `predicate` holds; pieces after a match stop
    /// soon after it is found.
    fn find_first<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        super::find_ordered::find_map_first(self, |x| predicate(&x).then_some(x))
    }

    /// The last item in order for which `predicate` holds; pieces before a match stop
    /// soon after it is found.
    fn find_last<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        super::find_ordered::find_map_last(self, |x| predicate(&x).then_some(x))
    }

    /// The `Some` result of `f` for the first item in order that gives one.
    fn find_map_first<F, R>(self, f: F) -> Option<R>
    where
        F: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        super::find_ordered::find_map_first(self, f)
    }

    /// The `Some` result of `f` for the last item in order that gives one.
    fn find_map_last<F, R>(self, f: F) -> Option<R>
    where
        F: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        super::find_ordered::find_map_last(self, f)
    }

    /// Whether `predicate` holds for some item; stops soon after one is found.
    fn any<P>(self, predicate: P) -> bool
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.map(predicate).find_any(|&b| b).is_some()
    }

    /// Whether `predicate` holds for every item; stops soon after one fails it.
    fn all<P>(self, predicate: P) -> bool
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.map(predicate).find_any(|&b| !b).is_none()
    }

    /// Builds a collection from the items; a `Vec` keeps their order.
    fn collect<C>(self) -> C
    where
        C: FromParallelIterator<Self::Item>,
    {
        C::from_par_iter(self)
    }

    /// The items in `Vec`s, one per piece, linked in order: a collect that never
    /// copies items between pieces.
    fn collect_vec_list(self) -> LinkedList<Vec<Self::Item>> {
        collect::collect_pieces(self)
    }

    /// Splits pairs into two collections, in order where they have one.
    fn unzip<A, B, FromA, FromB>(self) -> (FromA, FromB)
    where
        Self: ParallelIterator<Item = (A, B)>,
        FromA: Default + Send + ParallelExtend<A>,
        FromB: Default + Send + ParallelExtend<B>,
        A: Send,
        B: Send,
    {
        unzip::unzip(self)
    }

    /// The items for which `predicate` holds into the first collection, the others
    /// into the second, in order where they have one.
    fn partition<A, B, P>(self, predicate: P) -> (A, B)
    where
        A: Default + Send + ParallelExtend<Self::Item>,
        B: Default + Send + ParallelExtend<Self::Item>,
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        unzip::partition(self, predicate)
    }
    /// Sends each item to the first collection if `op` maps it to `Either::Left`, to
    /// the second if to `Either::Right`, in order where they have one.
    fn partition_map<A, B, P, L, R>(self, op: P) -> (A, B)
    where
        A: Default + Send + ParallelExtend<L>,
        B: Default + Send + ParallelExtend<R>,
        P: Fn(Self::Item) -> Either<L, R> + Sync + Send,
        L: Send,
        R: Send,
    {
        unzip::partition_map(self, op)
    }
}
