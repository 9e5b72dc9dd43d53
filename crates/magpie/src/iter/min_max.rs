//! `min`, `max` and their `_by` and `_by_key` forms.
//!
//! Every piece finds its own extreme with the standard iterator's `min_by`/`max_by`,
//! and neighbours are combined left to right keeping std's tie rules: of equal
//! minima the first (the left one wins a tie), of equal maxima the last (the right one
//! wins).

use std::cmp::Ordering;

use super::plumbing::Producer;
use super::{drive, ParallelIterator};

/// The left one unless the right one is strictly smaller.
fn first_min<T>(a: T, b: T, cmp: impl Fn(&T, &T) -> Ordering) -> T {
    if cmp(&b, &a) == Ordering::Less {
        b
    } else {
        a
    }
}

/// The right one unless the left one is strictly larger.
fn last_max<T>(a: T, b: T, cmp: impl Fn(&T, &T) -> Ordering) -> T {
    if cmp(&a, &b) == Ordering::Greater {
        a
    } else {
        b
    }
}

/// Both present: `pick` chooses; otherwise whichever is.
fn either<T>(a: Option<T>, b: Option<T>, pick: impl FnOnce(T, T) -> T) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(pick(a, b)),
        (a, b) => a.or(b),
    }
}

/// [`ParallelIterator::min_by`].
pub(super) fn min_by<I, F>(iter: I, cmp: F) -> Option<I::Item>
where
    I: ParallelIterator,
    F: Fn(&I::Item, &I::Item) -> Ordering + Sync,
{
    let leaf = |it: <I::Producer as Producer>::IntoIter| it.min_by(&cmp);
    let combine = |a, b| either(a, b, |a, b| first_min(a, b, &cmp));
    drive(iter, &leaf, &combine, None)
}

/// [`ParallelIterator::max_by`].
pub(super) fn max_by<I, F>(iter: I, cmp: F) -> Option<I::Item>
where
    I: ParallelIterator,
    F: Fn(&I::Item, &I::Item) -> Ordering + Sync,
{
    let leaf = |it: <I::Producer as Producer>::IntoIter| it.max_by(&cmp);
    let combine = |a, b| either(a, b, |a, b| last_max(a, b, &cmp));
    drive(iter, &leaf, &combine, None)
}

/// [`ParallelIterator::min_by_key`]: the key is computed once per item.
pub(super) fn min_by_key<I, K, F>(iter: I, key: F) -> Option<I::Item>
where
    I: ParallelIterator,
    K: Ord + Send,
    F: Fn(&I::Item) -> K + Sync,
{
    let by_key = |a: &(K, I::Item), b: &(K, I::Item)| a.0.cmp(&b.0);
    let leaf = |it: <I::Producer as Producer>::IntoIter| it.map(|x| (key(&x), x)).min_by(by_key);
    let combine = |a, b| either(a, b, |a, b| first_min(a, b, by_key));
    drive(iter, &leaf, &combine, None).map(|(_, x)| x)
}

/// [`ParallelIterator::max_by_key`]: the key is computed once per item.
pub(super) fn max_by_key<I, K, F>(iter: I, key: F) -> Option<I::Item>
where
    I: ParallelIterator,
    K: Ord + Send,
    F: Fn(&I::Item) -> K + Sync,
{
    let by_key = |a: &(K, I::Item), b: &(K, I::Item)| a.0.cmp(&b.0);
    let leaf = |it: <I::Producer as Producer>::IntoIter| it.map(|x| (key(&x), x)).max_by(by_key);
    let combine = |a, b| either(a, b, |a, b| last_max(a, b, by_key));
    drive(iter, &leaf, &combine, None).map(|(_, x)| x)
}
