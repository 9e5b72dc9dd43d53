//! `collect` into `Result<C, E>` and `Option<C>`: the `Ok`/`Some` values into any
//! collection `C`, or the first failure met.
//!
//! The inner collection is built from an adaptor that yields the `Ok` values and, at
//! an `Err`, stores it (the first stored wins), sets a stop flag and ends its piece;
//! the other pieces end at their next item, and a stopped producer reports a minimum
//! piece length of `usize::MAX`, so nothing is split after the failure either. Then
//! the partial collection is dropped and the error returned. As in rayon, which error
//! comes back when there are several is not fixed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::leaf_stop::{self, LeafStop};

use super::plumbing::Producer;
use super::{FromParallelIterator, IntoParallelIterator, ParallelIterator};

impl<C, T, E> FromParallelIterator<Result<T, E>> for Result<C, E>
where
    C: FromParallelIterator<T>,
    T: Send,
    E: Send,
{
    fn from_par_iter<I>(iter: I) -> Self
    where
        I: IntoParallelIterator<Item = Result<T, E>>,
    {
        let failure = Failure {
            stop: Arc::new(AtomicBool::new(false)),
            first: Mutex::new(None),
        };
        let collection = C::from_par_iter(UntilErr {
            base: iter.into_par_iter(),
            failure: &failure,
        });
        let first = failure.first.into_inner();
        match first.unwrap_or_else(PoisonError::into_inner) {
            Some(error) => Err(error),
            None => Ok(collection),
        }
    }
}

impl<C, T> FromParallelIterator<Option<T>> for Option<C>
where
    C: FromParallelIterator<T>,
    T: Send,
{
    fn from_par_iter<I>(iter: I) -> Self
    where
        I: IntoParallelIterator<Item = Option<T>>,
    {
        let ok = iter.into_par_iter().map(|x| x.ok_or(()));
        Result::<C, ()>::from_par_iter(ok).ok()
    }
}

/// The first error of a run and the flag that ends it.
struct Failure<E> {
    stop: Arc<AtomicBool>,
    first: Mutex<Option<E>>,
}

impl<E> Failure<E> {
    fn stopped(&self) -> bool {
        // Relaxed: the flag only saves work; the error itself is behind the mutex.
        self.stop.load(Ordering::Relaxed)
    }

    fn record(&self, error: E) {
        self.stop.store(true, Ordering::Relaxed);
        let mut first = self.first.lock().unwrap_or_else(PoisonError::into_inner);
        first.get_or_insert(error);
    }
}

/// The `Ok` values of `base`, until an `Err`.
struct UntilErr<'f, I, E> {
    base: I,
    failure: &'f Failure<E>,
}

impl<'f, I, T, E> ParallelIterator for UntilErr<'f, I, E>
where
    I: ParallelIterator<Item = Result<T, E>>,
    T: Send,
    E: Send,
{
    type Item = T;
    type Producer = UntilErrProducer<'f, I::Producer, E>;
    fn into_producer(self) -> Self::Producer {
        UntilErrProducer {
            base: self.base.into_producer(),
            failure: self.failure,
        }
    }
}

/// The producer of [`UntilErr`].
struct UntilErrProducer<'f, P, E> {
    base: P,
    failure: &'f Failure<E>,
}

impl<'f, P, T, E> Producer for UntilErrProducer<'f, P, E>
where
    P: Producer<Item = Result<T, E>>,
    E: Send,
{
    type Item = T;
    type IntoIter = UntilErrPiece<'f, P::IntoIter, E>;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let failure = self.failure;
        (
            UntilErrProducer { base: l, failure },
            UntilErrProducer { base: r, failure },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        // The filters in `base` end their pieces once an error is met (see `leaf_stop`).
        let stop = LeafStop::Flag(Arc::clone(&self.failure.stop));
        UntilErrPiece {
            inner: leaf_stop::start(self.base, Some(stop)),
            failure: self.failure,
        }
    }
    fn min_len(&self) -> usize {
        if self.failure.stopped() {
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

/// A piece of [`UntilErr`] as a sequential iterator.
struct UntilErrPiece<'f, I, E> {
    inner: I,
    failure: &'f Failure<E>,
}

impl<I, T, E> Iterator for UntilErrPiece<'_, I, E>
where
    I: Iterator<Item = Result<T, E>>,
{
    type Item = T;
    fn next(&mut self) -> Option<T> {
        if self.failure.stopped() {
            return None;
        }
        match self.inner.next()? {
            Ok(x) => Some(x),
            Err(error) => {
                self.failure.record(error);
                None
            }
        }
    }
}
