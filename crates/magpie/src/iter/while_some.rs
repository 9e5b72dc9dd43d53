//! `while_some`: the `Some` values of an iterator of `Option`s, halting at a `None`.
//!
//! The pieces share one flag. The piece that meets a `None` sets it and ends; every
//! other piece checks it before each item (a Relaxed load) and ends once it is set.
//! So no value after the `None` in its own piece is yielded, and of the values in
//! other pieces, those yielded before the flag was seen are kept: as in rayon, which
//! values come out before the `None` depends on timing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::plumbing::Producer;
use super::ParallelIterator;

/// The parallel iterator of [`ParallelIterator::while_some`].
#[derive(Debug)]
pub struct WhileSome<I> {
    base: I,
}

impl<I> WhileSome<I> {
    pub(super) fn new(base: I) -> Self {
        WhileSome { base }
    }
}

impl<I, T> ParallelIterator for WhileSome<I>
where
    I: ParallelIterator<Item = Option<T>>,
    T: Send,
{
    type Item = T;
    type Producer = WhileSomeProducer<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        WhileSomeProducer {
            base: self.base.into_producer(),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }
}

/// The producer of [`WhileSome`]: its pieces share the stop flag.
pub struct WhileSomeProducer<P> {
    base: P,
    stop: Arc<AtomicBool>,
}

impl<P, T> Producer for WhileSomeProducer<P>
where
    P: Producer<Item = Option<T>>,
{
    type Item = T;
    type IntoIter = WhileSomeIter<P::IntoIter>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let stop = Arc::clone(&self.stop);
        (
            WhileSomeProducer { base: l, stop },
            WhileSomeProducer {
                base: r,
                stop: self.stop,
            },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        WhileSomeIter {
            inner: self.base.into_iter(),
            stop: self.stop,
        }
    }
    fn min_len(&self) -> usize {
        // Once a piece met its `None`, what is left need not be divided any further:
        // each remaining piece ends at its first look at the flag.
        if self.stop.load(Ordering::Relaxed) {
            usize::MAX
        } else {
            self.base.min_len()
        }
    }
    fn max_len(&self) -> usize {
        self.base.max_len()
    }
    fn blocks(&self) -> super::plumbing::Blocks {
        self.base.blocks()
    }
    fn exact(&self) -> bool {
        false
    }
}

/// A piece of [`WhileSome`] as a sequential iterator.
pub struct WhileSomeIter<I> {
    inner: I,
    stop: Arc<AtomicBool>,
}

impl<I: Iterator<Item = Option<T>>, T> Iterator for WhileSomeIter<I> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        // Relaxed: the flag only saves work; the values travel through join.
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        match self.inner.next()? {
            Some(x) => Some(x),
            None => {
                self.stop.store(true, Ordering::Relaxed);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::iter::plumbing::Producer;
    use crate::prelude::*;

    #[test]
    fn no_piece_is_split_after_a_none() {
        let producer = (0..1000u32)
            .into_par_iter()
            .map(|i| (i != 3).then_some(i))
            .while_some()
            .into_producer();
        let (left, right) = producer.split_at(500);
        let unstopped = right.min_len();
        assert!(unstopped <= 1, "no None met yet: {unstopped}");
        assert_eq!(left.into_iter().collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(
            right.min_len(),
            usize::MAX,
            "the splitter cannot halve it now"
        );
        assert_eq!(right.into_iter().next(), None);
    }
}
