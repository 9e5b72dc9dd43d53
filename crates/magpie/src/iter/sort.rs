//! The parallel sorts behind `par_sort_unstable` and `par_sort`.
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

use super::plumbing::Splitter;

/// Parts below this many elements are not split further.
const SEQUENTIAL: usize = 1 << 13;

/// Parallel unstable sort (see the module docs).
pub(super) fn quicksort<T: Ord + Send>(v: &mut [T]) {
    super::plumbing::in_pool(|| quicksort_rec(v, Splitter::new(), false));
}

fn quicksort_rec<T: Ord + Send>(v: &mut [T], mut splitter: Splitter, migrated: bool) {
    if !splitter.try_split(v.len(), SEQUENTIAL, migrated) {
        v.sort_unstable();
        return;
    }
    let mid = v.len() / 2;
    let (less, _, greater) = v.select_nth_unstable(mid);
    let here = crate::current_thread_index();
    crate::join(
        || quicksort_rec(less, splitter, false),
        || quicksort_rec(greater, splitter, crate::current_thread_index() != here),
    );
}

/// Parallel stable sort (see the module docs).
pub(super) fn merge_sort<T: Ord + Send>(v: &mut [T]) {
    super::plumbing::in_pool(|| merge_sort_rec(v, Splitter::new(), false));
}

fn merge_sort_rec<T: Ord + Send>(v: &mut [T], mut splitter: Splitter, migrated: bool) {
    if !splitter.try_split(v.len(), SEQUENTIAL, migrated) {
        v.sort();
        return;
    }
    let mid = v.len() / 2;
    let (a, b) = v.split_at_mut(mid);
    let here = crate::current_thread_index();
    crate::join(
        || merge_sort_rec(a, splitter, false),
        || merge_sort_rec(b, splitter, crate::current_thread_index() != here),
    );
    // Two sorted runs: the standard stable sort finds them and merges once.
    v.sort();
}
