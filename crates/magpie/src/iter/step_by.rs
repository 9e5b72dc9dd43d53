//! `step_by`: every `step`-th item of an indexed iterator, starting with the first.
//!
//! Position `i` is the base's position `i × step`, so a split at `i` cuts the base at
//! `i × step` (a multiple of the step: every piece starts on an item it keeps) and a
//! piece runs the standard `StepBy` over its base piece.

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// The parallel iterator of [`IndexedParallelIterator::step_by`].
#[derive(Debug)]
pub struct StepBy<I> {
    base: I,
    step: usize,
}

impl<I> StepBy<I> {
    pub(super) fn new(base: I, step: usize) -> Self {
        assert!(step != 0, "step_by: the step must not be zero");
        StepBy { base, step }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for StepBy<I> {
    type Item = I::Item;
    type Producer = StepByProducer<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        StepByProducer {
            base: self.base.into_producer(),
            step: self.step,
        }
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for StepBy<I> {
    fn len(&self) -> usize {
        self.base.len().div_ceil(self.step)
    }
}

/// The producer of [`StepBy`].
pub struct StepByProducer<P> {
    base: P,
    step: usize,
}

impl<P: Producer> Producer for StepByProducer<P> {
    type Item = P::Item;
    type IntoIter = std::iter::StepBy<P::IntoIter>;
    fn len(&self) -> usize {
        self.base.len().div_ceil(self.step)
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let at = index.saturating_mul(self.step).min(self.base.len());
        let (l, r) = self.base.split_at(at);
        let step = self.step;
        (
            StepByProducer { base: l, step },
            StepByProducer { base: r, step },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        self.base.into_iter().step_by(self.step)
    }
    fn min_len(&self) -> usize {
        self.base.min_len().div_ceil(self.step)
    }
    fn max_len(&self) -> usize {
        (self.base.max_len() / self.step).max(1)
    }
    fn exact(&self) -> bool {
        self.base.exact()
    }
}
