//! `by_exponential_blocks` and `by_uniform_blocks`: an indexed iterator run as a
//! sequence of blocks, one block after another, each divided in parallel.
//!
//! The producer is the base's, tagged with its [`Blocks`]; the drivers
//! ([`plumbing`](super::plumbing)'s bridge and the ordered search of `find_first`)
//! read the tag and run the blocks in order. A `find_first` that matches early stops
//! after the block holding the match instead of splitting the whole input at once,
//! and the blocks of a long run keep its memory footprint near the block size.
//! Adaptors that keep their base's positions (`map`, `filter`, `fold`, ...) keep the
//! blocks; a `chain` does not (its halves then run as usual).

use super::plumbing::{Blocks, Producer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The parallel iterator of [`IndexedParallelIterator::by_exponential_blocks`].
#[derive(Debug)]
pub struct ExponentialBlocks<I> {
    base: I,
}

impl<I> ExponentialBlocks<I> {
    pub(super) fn new(base: I) -> Self {
        ExponentialBlocks { base }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for ExponentialBlocks<I> {
    type Item = I::Item;
    type Producer = BlockProducer<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        BlockProducer {
            base: self.base.into_producer(),
            blocks: Blocks::Exponential,
        }
    }
}

/// The parallel iterator of [`IndexedParallelIterator::by_uniform_blocks`].
#[derive(Debug)]
pub struct UniformBlocks<I> {
    base: I,
    size: usize,
}

impl<I> UniformBlocks<I> {
    pub(super) fn new(base: I, size: usize) -> Self {
        assert!(size != 0, "by_uniform_blocks: block size must not be 0");
        UniformBlocks { base, size }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for UniformBlocks<I> {
    type Item = I::Item;
    type Producer = BlockProducer<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        BlockProducer {
            base: self.base.into_producer(),
            blocks: Blocks::Uniform(self.size),
        }
    }
}

/// The producer of [`ExponentialBlocks`] and [`UniformBlocks`]: the base's, tagged.
pub struct BlockProducer<P> {
    base: P,
    blocks: Blocks,
}

impl<P: Producer> Producer for BlockProducer<P> {
    type Item = P::Item;
    type IntoIter = P::IntoIter;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let blocks = self.blocks;
        (
            BlockProducer { base: l, blocks },
            BlockProducer { base: r, blocks },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        self.base.into_iter()
    }
    fn min_len(&self) -> usize {
        self.base.min_len()
    }
    fn max_len(&self) -> usize {
        self.base.max_len()
    }
    fn exact(&self) -> bool {
        self.base.exact()
    }
    fn blocks(&self) -> Blocks {
        self.blocks
    }
}
