//! The standard collections other than `Vec` as parallel sources: `par_iter()` and
//! `into_par_iter()` on `HashMap`, `HashSet`, `BTreeMap`, `BTreeSet` and `VecDeque`,
//! `par_iter_mut()` on the maps (their values) and on `VecDeque`.
//!
//! * A `VecDeque` is at most two slices: by reference it is the `chain` of their
//!   parallel iterators (indexed, nothing copied); by value it becomes a `Vec` (which
//!   reuses the buffer, moving the elements only if they wrap around the end).
//! * Maps and sets cannot be split where their iterators are (a hash table's buckets
//!   or a B-tree's nodes are not reachable by index from outside std), so, as rayon
//!   does for them, their items are first collected into a `Vec` in the collection's
//!   own order (sequentially, one pass) and that `Vec` is iterated in parallel. The
//!   pass is cheap next to any per-item work worth parallelising; the items are
//!   references (or the moved entries), never clones. The iterator types are those of
//!   an owned `Vec` ([`IntoIter`]).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use super::chain::Chain;
use super::slice::{Iter, IterMut};
use super::{IntoIter, IntoParallelIterator};

/// `IntoParallelIterator` for a collection through a `Vec` of its sequential items.
macro_rules! through_vec {
    ($([$($generics:tt)*] $collection:ty => $item:ty, [$($bounds:tt)*];)*) => {$(
        impl<$($generics)*> IntoParallelIterator for $collection
        where
            $($bounds)*
        {
            type Iter = IntoIter<$item>;
            type Item = $item;
            fn into_par_iter(self) -> Self::Iter {
                self.into_iter().collect::<Vec<$item>>().into_par_iter()
            }
        }
    )*};
}

through_vec! {
    ['a, K, V, S] &'a HashMap<K, V, S> => (&'a K, &'a V), [K: Sync, V: Sync];
    ['a, K, V, S] &'a mut HashMap<K, V, S> => (&'a K, &'a mut V), [K: Sync, V: Send];
    [K, V, S] HashMap<K, V, S> => (K, V), [K: Send, V: Send];
    ['a, T, S] &'a HashSet<T, S> => &'a T, [T: Sync];
    [T, S] HashSet<T, S> => T, [T: Send];
    ['a, K, V] &'a BTreeMap<K, V> => (&'a K, &'a V), [K: Sync, V: Sync];
    ['a, K, V] &'a mut BTreeMap<K, V> => (&'a K, &'a mut V), [K: Sync, V: Send];
    [K, V] BTreeMap<K, V> => (K, V), [K: Send, V: Send];
    ['a, T] &'a BTreeSet<T> => &'a T, [T: Sync];
    [T] BTreeSet<T> => T, [T: Send];
}

impl<'a, T: Sync> IntoParallelIterator for &'a VecDeque<T> {
    type Iter = Chain<Iter<'a, T>, Iter<'a, T>>;
    type Item = &'a T;
    fn into_par_iter(self) -> Self::Iter {
        let (front, back) = self.as_slices();
        Chain::new(front.into_par_iter(), back.into_par_iter())
    }
}

impl<'a, T: Send> IntoParallelIterator for &'a mut VecDeque<T> {
    type Iter = Chain<IterMut<'a, T>, IterMut<'a, T>>;
    type Item = &'a mut T;
    fn into_par_iter(self) -> Self::Iter {
        let (front, back) = self.as_mut_slices();
        Chain::new(front.into_par_iter(), back.into_par_iter())
    }
}

impl<T: Send> IntoParallelIterator for VecDeque<T> {
    type Iter = IntoIter<T>;
    type Item = T;
    fn into_par_iter(self) -> Self::Iter {
        Vec::from(self).into_par_iter()
    }
}
