//! `par_extend`: adding the items of a parallel iterator to an existing collection.
//!
//! A `Vec` is extended as `collect` builds one: in place when the source is exact,
//! else piece by piece (see [`super::collect`]). A `String` gets one `String` per
//! piece and a `LinkedList` one list per piece, appended in order. The maps, sets and
//! `VecDeque` are extended sequentially, in input order, from one `Vec` per piece: the
//! parallel part is producing the items, and inserting into one map or set cannot be
//! divided between threads without sharding it (see [`super::collections`] for why per-piece collections would not
//! be cheaper).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::{BuildHasher, Hash};

use super::collect::{collect_pieces, extend_vec};
use super::plumbing::Producer;
use super::{drive, IntoParallelIterator, ParallelIterator};

/// A collection that can be extended by a parallel iterator (`par_extend`).
///
/// ```
/// use magpie::prelude::*;
///
/// let mut v = vec![0u32];
/// v.par_extend((1..5u32).into_par_iter().map(|x| x * 10));
/// assert_eq!(v, [0, 10, 20, 30, 40]);
/// ```
pub trait ParallelExtend<T: Send> {
    /// Adds the items of `iter`, in order where the collection has one.
    fn par_extend<I>(&mut self, iter: I)
    where
        I: IntoParallelIterator<Item = T>;
}

impl<T: Send> ParallelExtend<T> for Vec<T> {
    fn par_extend<I>(&mut self, iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        extend_vec(self, iter);
    }
}

/// Extends `target` sequentially with the items of `iter`, in order, after
/// reserving room for them with `reserve`.
fn extend_in_order<C, T, I>(target: &mut C, iter: I, reserve: impl FnOnce(&mut C, usize))
where
    C: Extend<T>,
    T: Send,
    I: IntoParallelIterator<Item = T>,
{
    let pieces = collect_pieces(iter.into_par_iter());
    reserve(target, pieces.iter().map(Vec::len).sum());
    for piece in pieces {
        target.extend(piece);
    }
}

impl<T: Send> ParallelExtend<T> for VecDeque<T> {
    fn par_extend<I: IntoParallelIterator<Item = T>>(&mut self, iter: I) {
        extend_in_order(self, iter, VecDeque::reserve);
    }
}

impl<T: Send> ParallelExtend<T> for LinkedList<T> {
    fn par_extend<I: IntoParallelIterator<Item = T>>(&mut self, iter: I) {
        let mut list: LinkedList<T> = iter.into_par_iter().collect();
        self.append(&mut list);
    }
}

impl<K, V, S> ParallelExtend<(K, V)> for HashMap<K, V, S>
where
    K: Eq + Hash + Send,
    V: Send,
    S: BuildHasher,
{
    fn par_extend<I: IntoParallelIterator<Item = (K, V)>>(&mut self, iter: I) {
        extend_in_order(self, iter, HashMap::reserve);
    }
}

impl<T, S> ParallelExtend<T> for HashSet<T, S>
where
    T: Eq + Hash + Send,
    S: BuildHasher,
{
    fn par_extend<I: IntoParallelIterator<Item = T>>(&mut self, iter: I) {
        extend_in_order(self, iter, HashSet::reserve);
    }
}

impl<K: Ord + Send, V: Send> ParallelExtend<(K, V)> for BTreeMap<K, V> {
    fn par_extend<I: IntoParallelIterator<Item = (K, V)>>(&mut self, iter: I) {
        extend_in_order(self, iter, |_, _| ());
    }
}

impl<T: Ord + Send> ParallelExtend<T> for BTreeSet<T> {
    fn par_extend<I: IntoParallelIterator<Item = T>>(&mut self, iter: I) {
        extend_in_order(self, iter, |_, _| ());
    }
}

/// The items of `iter` gathered into one `String` per piece, in order.
fn string_pieces<I>(iter: I) -> LinkedList<String>
where
    I: ParallelIterator,
    String: FromIterator<I::Item>,
{
    let leaf = |it: <I::Producer as Producer>::IntoIter| LinkedList::from([it.collect::<String>()]);
    let combine = |mut a: LinkedList<String>, mut b: LinkedList<String>| {
        a.append(&mut b);
        a
    };
    drive(iter, &leaf, &combine, None)
}

/// `String`'s `par_extend` from characters or string slices: each piece builds its
/// own `String`, then they are appended in order.
macro_rules! string_extend {
    ($([$($lifetime:tt)*] $item:ty),*) => {$(
        impl<$($lifetime)*> ParallelExtend<$item> for String {
            fn par_extend<I: IntoParallelIterator<Item = $item>>(&mut self, iter: I) {
                let pieces = string_pieces(iter.into_par_iter());
                self.reserve(pieces.iter().map(String::len).sum());
                for piece in pieces {
                    self.push_str(&piece);
                }
            }
        }
    )*};
}

string_extend!([] char, ['a] &'a char, ['a] &'a str, [] String);

impl ParallelExtend<()> for () {
    fn par_extend<I: IntoParallelIterator<Item = ()>>(&mut self, iter: I) {
        iter.into_par_iter().for_each(drop);
    }
}
