//! `find_any`, `find_map_any` and `position_any`: some match, not necessarily the
//! first.
//!
//! The piece that finds one sets the run's stop flag: no piece is split any more and
//! the others end at their next item (a Relaxed load per item). The left neighbour's
//! find wins when two pieces both found one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::plumbing::Producer;
use super::{drive, IndexedParallelIterator, ParallelIterator};

/// [`ParallelIterator::find_map_any`].
pub(super) fn find_map_any<I, F, R>(iter: I, f: F) -> Option<R>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> Option<R> + Sync,
    R: Send,
{
    let stop = Arc::new(AtomicBool::new(false));
    let leaf = |it: <I::Producer as Producer>::IntoIter| {
        for x in it {
            // Relaxed: the flag only saves work; the answer travels through join.
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(found) = f(x) {
                stop.store(true, Ordering::Relaxed);
                return Some(found);
            }
        }
        None
    };
    drive(iter, &leaf, &|a: Option<R>, b| a.or(b), Some(&stop))
}

/// [`IndexedParallelIterator::position_any`].
pub(super) fn position_any<I, P>(iter: I, predicate: P) -> Option<usize>
where
    I: IndexedParallelIterator,
    P: Fn(I::Item) -> bool + Sync,
{
    find_map_any(iter.enumerate(), |(i, x)| predicate(x).then_some(i))
}
