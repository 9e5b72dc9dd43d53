//! The stop of a piece about to run, for the adaptors that skip items.
//!
//! A short-circuiting consumer (`find_any`, `any`, the `find_first` family, `try_*`,
//! `collect` into `Result`) checks its stop between the items a piece *yields*.
//! `filter` and `filter_map` can reject a long stretch of source items before they
//! yield one, so they check the stop themselves, every [`CHECK_EVERY`] rejected items
//! (rayon's consumers check after every source item): without it,
//! `(0..u64::MAX).into_par_iter().filter(|&x| x == 0).find_any(..)` never returned.
//!
//! The runner that starts a piece publishes the piece's stop in a thread-local while it
//! builds the piece's sequential iterator ([`Producer::into_iter`]), and the filters
//! take a copy there. Only while building: a piece of a nested run (one started from a
//! user closure, such as a `fold` identity that runs while its piece is built, or a job
//! the worker runs during a `join`) is built by its own runner, which publishes that
//! run's stop, or none, the same way and restores the outer one afterwards.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use super::plumbing::Producer;

/// How many items a filter rejects between two looks at the stop.
pub(crate) const CHECK_EVERY: u32 = 32;

/// When a piece may end early: its consumer's answer no longer depends on it.
#[derive(Clone, Debug)]
pub(crate) enum LeafStop {
    /// The run's flag (`find_any`, `try_*`, `collect` into `Result`): set once the
    /// answer is known.
    Flag(Arc<AtomicBool>),
    /// `find_first` / `find_last`: the piece `[start, end)` of source positions loses
    /// once the best match found lies before `start` (`first`) or after `end`.
    Beaten {
        best: Arc<AtomicUsize>,
        start: usize,
        end: usize,
        first: bool,
    },
}

impl LeafStop {
    /// Whether the piece may end now.
    #[inline]
    pub(crate) fn requested(&self) -> bool {
        // Relaxed: the flags only save work; answers travel through join.
        match self {
            LeafStop::Flag(flag) => flag.load(Ordering::Relaxed),
            LeafStop::Beaten {
                best,
                start,
                end,
                first,
            } => {
                let best = best.load(Ordering::Relaxed);
                if *first {
                    best < *start
                } else {
                    best > *end
                }
            }
        }
    }
}

thread_local! {
    /// The stop of the piece whose iterator this thread is building.
    static BUILDING: RefCell<Option<LeafStop>> = const { RefCell::new(None) };
}

/// `producer`'s sequential iterator, built with `stop` published to the filters in it.
pub(crate) fn start<P: Producer>(producer: P, stop: Option<LeafStop>) -> P::IntoIter {
    /// Puts the outer piece's stop back, also when building panics.
    struct Restore(Option<LeafStop>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            BUILDING.with(|b| *b.borrow_mut() = outer);
        }
    }
    let _restore = Restore(BUILDING.with(|b| b.replace(stop)));
    producer.into_iter()
}

/// The stop of the piece being built on this thread, if its consumer has one.
pub(crate) fn building() -> Option<LeafStop> {
    BUILDING.with(|b| b.borrow().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A producer whose `into_iter` records what a filter built then would see, and
    /// builds a nested piece the way a nested run's runner does (with no stop).
    struct Probe {
        nested: bool,
        seen: Vec<Option<bool>>,
    }

    impl Producer for Probe {
        type Item = Option<bool>;
        type IntoIter = std::vec::IntoIter<Option<bool>>;
        fn len(&self) -> usize {
            1
        }
        fn split_at(self, _: usize) -> (Self, Self) {
            unreachable!("not split")
        }
        fn into_iter(mut self) -> Self::IntoIter {
            let seen = |stop: Option<LeafStop>| stop.map(|s| s.requested());
            self.seen.push(seen(building()));
            if self.nested {
                let inner = Probe {
                    nested: false,
                    seen: Vec::new(),
                };
                self.seen.extend(start(inner, None));
                self.seen.push(seen(building()));
            }
            self.seen.into_iter()
        }
        fn exact(&self) -> bool {
            true
        }
    }

    #[test]
    fn a_piece_sees_its_own_stop_and_a_nested_piece_none() {
        let flag = Arc::new(AtomicBool::new(true));
        let outer = Probe {
            nested: true,
            seen: Vec::new(),
        };
        let seen: Vec<_> = start(outer, Some(LeafStop::Flag(flag))).collect();
        // Outer piece, nested piece, outer piece again after the nested one.
        assert_eq!(seen, [Some(true), None, Some(true)]);
        assert!(building().is_none(), "published outside a build");
    }

    #[test]
    fn a_beaten_piece_is_one_wholly_after_the_first_match_or_before_the_last() {
        let best = Arc::new(AtomicUsize::new(10));
        let piece = |start, end, first| LeafStop::Beaten {
            best: Arc::clone(&best),
            start,
            end,
            first,
        };
        assert!(piece(11, 20, true).requested());
        assert!(!piece(10, 20, true).requested());
        assert!(piece(0, 9, false).requested());
        assert!(!piece(0, 10, false).requested());
    }
}
