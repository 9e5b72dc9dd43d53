//! `by_exponential_blocks` and `by_uniform_blocks`: an indexed iterator run as a
//! sequence of blocks, one block after another, each divided in parallel.
//!
//! The producer is the base's in a [`Driven`], tagged with its [`Blocks`]; the drivers
//! ([`plumbing`](super::plumbing)'s bridge and the ordered search of `find_first`)
//! read the tag and run the blocks in order. A `find_first` that matches early stops
//! after the block holding the match instead of splitting the whole input at once,
//! and the blocks of a long run keep its memory footprint near the block size.
//! Adaptors that keep their base's positions (`map`, `filter`, `fold`, ...) keep the
//! blocks; a `chain` does not (its halves then run as usual).

use super::driven::Driven;
use super::plumbing::Blocks;
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
    type Producer = Driven<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        Driven::new(self.base.into_producer()).with_blocks(Blocks::Exponential)
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
    type Producer = Driven<I::Producer>;
    fn into_producer(self) -> Self::Producer {
        Driven::new(self.base.into_producer()).with_blocks(Blocks::Uniform(self.size))
    }
}
