//! A hand-written depth-first counter, without the framework: the baseline that
//! measures the skeleton's overhead, and an oracle for the tests.
//!
//! It walks the same tree with the same representation and child order as
//! [`Semigroups`](super::Semigroups), building every node (leaves included) exactly as
//! the skeleton does, so the two differ only in the traversal machinery.

use super::error::SemigroupError;
use super::semigroup::{Semigroup, MAX_GENUS};

/// `counts[g]` is the number of numerical semigroups of genus `g`, for `g` in
/// `0..=max_genus`.
///
/// ```
/// use magpie_search::apps::semigroups::reference;
///
/// assert_eq!(reference::count_by_genus(5).unwrap(), vec![1, 1, 2, 4, 7, 12]);
/// ```
pub fn count_by_genus(max_genus: usize) -> Result<Vec<u64>, SemigroupError> {
    if max_genus > MAX_GENUS {
        return Err(SemigroupError::GenusTooLarge { genus: max_genus });
    }
    let mut counts = vec![0; max_genus + 1];
    count_subtree(&Semigroup::naturals(), max_genus, &mut counts);
    Ok(counts)
}

/// Adds `semigroup` and its descendants up to `max_genus` to `counts`. The recursion
/// is at most `max_genus` deep.
fn count_subtree(semigroup: &Semigroup, max_genus: usize, counts: &mut [u64]) {
    counts[semigroup.genus()] += 1;
    if semigroup.genus() < max_genus {
        for generator in semigroup.removable_generators() {
            count_subtree(&semigroup.without_generator(generator), max_genus, counts);
        }
    }
}
