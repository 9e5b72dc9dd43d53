//! Parallel iterators on the pool, rayon's `par_iter` for magpie.
//!
//! `use magpie::prelude::*;` brings `par_iter()`, `par_iter_mut()` and `into_par_iter()`
//! on slices, `Vec`s, arrays and integer ranges, `par_chunks()`/`par_chunks_mut()` and
//! `par_sort()`/`par_sort_unstable()` on slices. The adaptors and consumers carry rayon's
//! names and meaning:
//!
//! ```
//! use magpie::prelude::*;
//!
//! let v: Vec<u64> = (0..1_000).collect();
//! let squares: u64 = v.par_iter().map(|x| x * x).sum();
//! assert_eq!(squares, v.iter().map(|x| x * x).sum());
//! let evens: Vec<u64> = (0..100u64).into_par_iter().filter(|x| x % 2 == 0).collect();
//! assert_eq!(evens, (0..100).step_by(2).collect::<Vec<_>>());
//! ```
//!
//! A call runs on the pool of the calling worker (inside [`ThreadPool::install`],
//! [`join`](crate::join) or a scope task), otherwise on the global pool, and blocks
//! until done. How the input is divided is explained in [`plumbing`]: no fixed chunks,
//! more splits only where work is being stolen.
//!
//! # Same as rayon
//! `collect` keeps the input order; a panic in a closure reaches the caller after the
//! other pieces have finished, and the pool stays usable; `any`, `all` and `find_any`
//! stop the other workers' pieces soon (at their next item) once the answer is known;
//! `min_by_key` returns the first of equal minima, `max_by_key` the last of equal maxima.
//!
//! # Differences
//! * `with_min_len` is available on every parallel iterator (it bounds positions of the
//!   source, so it is meaningful after `filter` too); there is no `with_max_len`.
//! * `fold` returns one accumulator per piece as a parallel iterator (as rayon), and
//!   how many pieces there are depends on stealing (as rayon).
//! * Only the adaptors and consumers listed on [`ParallelIterator`] and
//!   [`IndexedParallelIterator`] exist; `collect` builds `Vec`s.
//!
//! [`ThreadPool::install`]: crate::ThreadPool::install

mod collect;
mod enumerate;
mod filter;
mod fold;
mod map;
mod min_len;
pub mod plumbing;
mod range;
mod slice;
mod sort;
mod vec;
mod zip;

use std::sync::atomic::{AtomicBool, Ordering};

pub use collect::FromParallelIterator;
pub use enumerate::Enumerate;
pub use filter::{Filter, FilterMap};
pub use fold::Fold;
pub use map::Map;
pub use min_len::MinLen;
pub use range::RangeIter;
pub use slice::{Chunks, ChunksMut, Iter, IterMut, ParallelSlice, ParallelSliceMut};
pub use vec::IntoIter;
pub use zip::Zip;

use plumbing::{bridge, Producer, Reducer};

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

    /// Never divides the source into pieces of fewer than `min` positions.
    fn with_min_len(self, min: usize) -> MinLen<Self> {
        MinLen::new(self, min)
    }

    /// Calls `f` on every item.
    fn for_each<F>(self, f: F)
    where
        F: Fn(Self::Item) + Sync + Send,
    {
        let leaf = |it: <Self::Producer as Producer>::IntoIter| it.for_each(&f);
        drive(self, &leaf, &|(), ()| (), None)
    }

    /// Sums the items.
    fn sum<S>(self) -> S
    where
        S: Send + std::iter::Sum<Self::Item> + std::iter::Sum<S>,
    {
        let leaf = |it: <Self::Producer as Producer>::IntoIter| it.sum::<S>();
        drive(self, &leaf, &|a: S, b: S| [a, b].into_iter().sum(), None)
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

    /// The item with the smallest key (the first of several).
    fn min_by_key<K, F>(self, f: F) -> Option<Self::Item>
    where
        K: Ord + Send,
        F: Fn(&Self::Item) -> K + Sync + Send,
    {
        let leaf = |it: <Self::Producer as Producer>::IntoIter| {
            it.map(|x| (f(&x), x)).min_by(|a, b| a.0.cmp(&b.0))
        };
        let combine = |a: Option<(K, Self::Item)>, b: Option<(K, Self::Item)>| match (a, b) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
        drive(self, &leaf, &combine, None).map(|(_, x)| x)
    }

    /// The item with the largest key (the last of several).
    fn max_by_key<K, F>(self, f: F) -> Option<Self::Item>
    where
        K: Ord + Send,
        F: Fn(&Self::Item) -> K + Sync + Send,
    {
        let leaf = |it: <Self::Producer as Producer>::IntoIter| {
            it.map(|x| (f(&x), x)).max_by(|a, b| a.0.cmp(&b.0))
        };
        let combine = |a: Option<(K, Self::Item)>, b: Option<(K, Self::Item)>| match (a, b) {
            (Some(a), Some(b)) => Some(if b.0 >= a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
        drive(self, &leaf, &combine, None).map(|(_, x)| x)
    }

    /// Some item for which `predicate` holds, not necessarily the first; the other
    /// workers stop looking soon after one is found.
    fn find_any<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        let stop = AtomicBool::new(false);
        let leaf = |it: <Self::Producer as Producer>::IntoIter| {
            for x in it {
                // Relaxed: the flag only saves work; the answer travels through join.
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                if predicate(&x) {
                    stop.store(true, Ordering::Relaxed);
                    return Some(x);
                }
            }
            None
        };
        drive(self, &leaf, &|a: Option<_>, b| a.or(b), Some(&stop))
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
}

/// A parallel iterator that yields exactly one item per position of its source, so it
/// knows its length and can be zipped and enumerated.
pub trait IndexedParallelIterator: ParallelIterator {
    /// The number of items.
    fn len(&self) -> usize;

    /// Whether there are no items.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Pairs every item with its index.
    fn enumerate(self) -> Enumerate<Self> {
        Enumerate::new(self)
    }

    /// Pairs items with those of `other`, up to the shorter length.
    fn zip<Z>(self, other: Z) -> Zip<Self, Z::Iter>
    where
        Z: IntoParallelIterator,
        Z::Iter: IndexedParallelIterator,
    {
        Zip::new(self, other.into_par_iter())
    }
}

/// A value that can become a parallel iterator (`into_par_iter`).
pub trait IntoParallelIterator {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items.
    type Item: Send;
    /// Converts into the parallel iterator.
    fn into_par_iter(self) -> Self::Iter;
}

impl<I: ParallelIterator> IntoParallelIterator for I {
    type Iter = I;
    type Item = I::Item;
    fn into_par_iter(self) -> I {
        self
    }
}

/// `par_iter()`: a parallel iterator over shared references, for any collection whose
/// reference converts (`&Vec<T>`, `&[T]`, `&[T; N]`).
pub trait IntoParallelRefIterator<'data> {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items (`&'data T`).
    type Item: Send + 'data;
    /// Iterates over `&self` in parallel.
    fn par_iter(&'data self) -> Self::Iter;
}

impl<'data, C: ?Sized + 'data> IntoParallelRefIterator<'data> for C
where
    &'data C: IntoParallelIterator,
{
    type Iter = <&'data C as IntoParallelIterator>::Iter;
    type Item = <&'data C as IntoParallelIterator>::Item;
    fn par_iter(&'data self) -> Self::Iter {
        self.into_par_iter()
    }
}

/// `par_iter_mut()`: a parallel iterator over mutable references.
pub trait IntoParallelRefMutIterator<'data> {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items (`&'data mut T`).
    type Item: Send + 'data;
    /// Iterates over `&mut self` in parallel.
    fn par_iter_mut(&'data mut self) -> Self::Iter;
}

impl<'data, C: ?Sized + 'data> IntoParallelRefMutIterator<'data> for C
where
    &'data mut C: IntoParallelIterator,
{
    type Iter = <&'data mut C as IntoParallelIterator>::Iter;
    type Item = <&'data mut C as IntoParallelIterator>::Item;
    fn par_iter_mut(&'data mut self) -> Self::Iter {
        self.into_par_iter()
    }
}

/// Runs `iter` with `leaf` on every piece and `combine` on neighbours.
fn drive<I, R>(
    iter: I,
    leaf: &(dyn Fn(<I::Producer as Producer>::IntoIter) -> R + Sync),
    combine: &(dyn Fn(R, R) -> R + Sync),
    stop: Option<&AtomicBool>,
) -> R
where
    I: ParallelIterator,
    R: Send,
{
    bridge(
        iter.into_producer(),
        &Reducer {
            leaf,
            combine,
            stop,
        },
    )
}
