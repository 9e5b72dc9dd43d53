//! `collect` into the standard collections other than `Vec` (which is in
//! [`super::collect`]).
//!
//! * Maps, sets and `VecDeque` are built from the `Vec` collected in input order
//!   (in place when the source is exact), with the collection's own `FromIterator`:
//!   equal keys resolve exactly as in a sequential `collect` (the last one wins), and
//!   a `BTreeMap`/`BTreeSet` gets std's bulk build from sorted input. Building one map
//!   per piece and merging them would hash or compare every item twice and still
//!   merge sequentially at the top; inserting into a single map is the sequential
//!   part either way, the parallel part is computing the items.
//! * `String` and `LinkedList`: each piece builds its own, and neighbours are joined
//!   in order (a `String` copies each piece once; lists link in constant time).
//! * `Result` and `Option` are in [`super::collect_result`].

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::{BuildHasher, Hash};

use super::plumbing::Producer;
use super::{drive, IntoParallelIterator, ParallelExtend, ParallelIterator};

/// `FromParallelIterator` through a `Vec` and the collection's `FromIterator`.
macro_rules! through_vec {
    ($([$($generics:tt)*] $collection:ty, $item:ty, [$($bounds:tt)*];)*) => {$(
        impl<$($generics)*> super::FromParallelIterator<$item> for $collection
        where
            $($bounds)*
        {
            fn from_par_iter<I>(iter: I) -> Self
            where
                I: IntoParallelIterator<Item = $item>,
            {
                let items: Vec<$item> = iter.into_par_iter().collect();
                items.into_iter().collect()
            }
        }
    )*};
}

through_vec! {
    [K, V, S] HashMap<K, V, S>, (K, V), [K: Eq + Hash + Send, V: Send, S: BuildHasher + Default];
    [T, S] HashSet<T, S>, T, [T: Eq + Hash + Send, S: BuildHasher + Default];
    [K, V] BTreeMap<K, V>, (K, V), [K: Ord + Send, V: Send];
    [T] BTreeSet<T>, T, [T: Ord + Send];
}

impl<T: Send> super::FromParallelIterator<T> for VecDeque<T> {
    fn from_par_iter<I: IntoParallelIterator<Item = T>>(iter: I) -> Self {
        VecDeque::from(iter.into_par_iter().collect::<Vec<T>>())
    }
}

impl<T: Send> super::FromParallelIterator<T> for LinkedList<T> {
    fn from_par_iter<I: IntoParallelIterator<Item = T>>(iter: I) -> Self {
        let iter = iter.into_par_iter();
        let leaf = |it: <<I::Iter as ParallelIterator>::Producer as Producer>::IntoIter| {
            it.collect::<LinkedList<T>>()
        };
        let combine = |mut a: LinkedList<T>, mut b: LinkedList<T>| {
            a.append(&mut b);
            a
        };
        drive(iter, &leaf, &combine, None)
    }
}

/// `String` from characters or string slices: each piece builds its own `String`,
/// appended in order (see `par_extend`).
macro_rules! string_collect {
    ($([$($lifetime:tt)*] $item:ty),*) => {$(
        impl<$($lifetime)*> super::FromParallelIterator<$item> for String {
            fn from_par_iter<I: IntoParallelIterator<Item = $item>>(iter: I) -> Self {
                let mut out = String::new();
                out.par_extend(iter);
                out
            }
        }
    )*};
}

string_collect!([] char, ['a] &'a char, ['a] &'a str, [] String);

impl super::FromParallelIterator<()> for () {
    fn from_par_iter<I: IntoParallelIterator<Item = ()>>(iter: I) -> Self {
        iter.into_par_iter().for_each(drop);
    }
}
