//! The parallel sorts behind `par_sort_unstable` and `par_sort` (and their `_by`,
//! `_by_key` forms).
//!
//! Both cut the slice only as far as the adaptive splitter of [`super::plumbing`]
//! allows (about `2 × threads` parts, more where parts are stolen) and sort each part
//! with the standard library's sequential sorts, which are faster per element than any
//! partition we could run at every level:
//! * `par_sort_unstable`: `select_nth_unstable` puts the median in the middle with
//!   everything smaller before it and everything larger after (linear time, also in the
//!   worst case, and indifferent to runs of equal keys); the halves sort in parallel.
//! * `par_sort`: the halves sort in parallel, then the standard stable sort, which
//!   detects the two sorted runs, merges them in linear time.
//!
//! `par_sort_by_cached_key` computes every key once, in parallel, pairs it with the
//! element's index, sorts the pairs with `par_sort_unstable` (the index breaks ties,
//! so equal keys keep their order) and then moves the elements into that order
//! sequentially, following the permutation's cycles (as std's `sort_by_cached_key`).
//!
//! The recursion is written once, generic over an [`Order`]: [`Natural`] calls the
//! standard `sort`/`sort_unstable`/`select_nth_unstable` themselves (so `par_sort`
//! runs exactly the code it always did), [`By`] their `_by` forms with a comparator.

use std::cmp::Ordering;

use super::plumbing::Splitter;

/// Parts below this many elements are not split further.
const SEQUENTIAL: usize = 1 << 13;

/// How to order the elements: the three standard-library operations the sorts use.
pub(super) trait Order<T>: Sync {
    /// Sorts `v` keeping equal elements in order.
    fn sort_stable(&self, v: &mut [T]);
    /// Sorts `v` in any order of equal elements.
    fn sort_unstable(&self, v: &mut [T]);
    /// Puts the element of rank `index` at `index`, smaller ones before, larger after.
    fn select_nth<'a>(&self, v: &'a mut [T], index: usize) -> (&'a mut [T], &'a mut [T]);
}

/// `T`'s own `Ord`.
pub(super) struct Natural;

impl<T: Ord> Order<T> for Natural {
    fn sort_stable(&self, v: &mut [T]) {
        v.sort();
    }
    fn sort_unstable(&self, v: &mut [T]) {
        v.sort_unstable();
    }
    fn select_nth<'a>(&self, v: &'a mut [T], index: usize) -> (&'a mut [T], &'a mut [T]) {
        let (less, _, greater) = v.select_nth_unstable(index);
        (less, greater)
    }
}

/// A comparator closure.
pub(super) struct By<F>(pub F);

impl<T, F> Order<T> for By<F>
where
    F: Fn(&T, &T) -> Ordering + Sync,
{
    fn sort_stable(&self, v: &mut [T]) {
        v.sort_by(&self.0);
    }
    fn sort_unstable(&self, v: &mut [T]) {
        v.sort_unstable_by(&self.0);
    }
    fn select_nth<'a>(&self, v: &'a mut [T], index: usize) -> (&'a mut [T], &'a mut [T]) {
        let (less, _, greater) = v.select_nth_unstable_by(index, &self.0);
        (less, greater)
    }
}

/// Parallel unstable sort (see the module docs).
pub(super) fn quicksort<T: Send, O: Order<T>>(v: &mut [T], order: &O) {
    super::plumbing::in_pool(|| quicksort_rec(v, order, Splitter::new(), false));
}

fn quicksort_rec<T: Send, O: Order<T>>(
    v: &mut [T],
    order: &O,
    mut splitter: Splitter,
    migrated: bool,
) {
    if !splitter.try_split(v.len(), SEQUENTIAL, migrated) {
        order.sort_unstable(v);
        return;
    }
    let mid = v.len() / 2;
    let (less, greater) = order.select_nth(v, mid);
    let here = crate::current_thread_index();
    crate::join(
        || quicksort_rec(less, order, splitter, false),
        || {
            let migrated = crate::current_thread_index() != here;
            quicksort_rec(greater, order, splitter, migrated)
        },
    );
}

/// Parallel stable sort (see the module docs).
pub(super) fn merge_sort<T: Send, O: Order<T>>(v: &mut [T], order: &O) {
    super::plumbing::in_pool(|| merge_sort_rec(v, order, Splitter::new(), false));
}

fn merge_sort_rec<T: Send, O: Order<T>>(
    v: &mut [T],
    order: &O,
    mut splitter: Splitter,
    migrated: bool,
) {
    if !splitter.try_split(v.len(), SEQUENTIAL, migrated) {
        order.sort_stable(v);
        return;
    }
    let mid = v.len() / 2;
    let (a, b) = v.split_at_mut(mid);
    let here = crate::current_thread_index();
    crate::join(
        || merge_sort_rec(a, order, splitter, false),
        || merge_sort_rec(b, order, splitter, crate::current_thread_index() != here),
    );
    // Two sorted runs: the standard stable sort finds them and merges once.
    order.sort_stable(v);
}

/// Parallel stable sort by a key computed once per element (see the module docs).
pub(super) fn cached_key_sort<T, K, F>(v: &mut [T], f: F)
where
    T: Send,
    K: Ord + Send,
    F: Fn(&T) -> K + Sync,
{
    use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};
    if v.len() < 2 {
        return;
    }
    // `&mut T` is `Send` for `T: Send`, so the keys are computed without `T: Sync`.
    let mut keys: Vec<(K, usize)> = (&mut *v)
        .into_par_iter()
        .enumerate()
        .map(|(i, x)| (f(&*x), i))
        .collect();
    quicksort(&mut keys, &Natural);
    // `keys[i].1` is the index of the element that belongs at `i`; elements before `i`
    // are already in place, so one that was moved away is found by following where
    // it went.
    for i in 0..v.len() {
        let mut from = keys[i].1;
        while from < i {
            from = keys[from].1;
        }
        keys[i].1 = from;
        v.swap(i, from);
    }
}
