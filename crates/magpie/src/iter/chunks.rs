//! `chunks`, `fold_chunks` and `fold_chunks_with` on indexed iterators: `size`
//! consecutive items at a time, collected into a `Vec` or folded into one value.
//!
//! Chunk `i` holds positions `i × size ..` of the base, so a split at chunk `index`
//! cuts the base at `index × size` and every piece but the last holds whole chunks;
//! a piece turns the base piece's sequential iterator into chunks with its own clone
//! of the [`ChunkFold`] (the closures in it are shared; `fold_chunks_with`'s initial
//! value is cloned, so it need not be `Sync`, as in rayon).

use std::sync::Arc;

use super::plumbing::Producer;
use super::{IndexedParallelIterator, ParallelIterator};

/// What becomes of each chunk's items.
pub trait ChunkFold<T>: Send + Clone {
    /// The value a chunk becomes.
    type Out: Send;
    /// Turns the items of one chunk, in order, into its value.
    fn fold_chunk(&self, items: impl Iterator<Item = T>) -> Self::Out;
}

/// [`IndexedParallelIterator::chunks`]: each chunk into a `Vec`.
#[derive(Clone, Copy, Debug)]
pub struct IntoVec;

impl<T: Send> ChunkFold<T> for IntoVec {
    type Out = Vec<T>;
    fn fold_chunk(&self, items: impl Iterator<Item = T>) -> Vec<T> {
        items.collect()
    }
}

/// [`IndexedParallelIterator::fold_chunks`]: each chunk folded from `identity()`.
#[derive(Debug)]
pub struct FoldFrom<ID, F> {
    identity: Arc<ID>,
    fold_op: Arc<F>,
}

impl<ID, F> Clone for FoldFrom<ID, F> {
    fn clone(&self) -> Self {
        FoldFrom {
            identity: Arc::clone(&self.identity),
            fold_op: Arc::clone(&self.fold_op),
        }
    }
}

impl<T, U, ID, F> ChunkFold<T> for FoldFrom<ID, F>
where
    ID: Fn() -> U + Sync + Send,
    F: Fn(U, T) -> U + Sync + Send,
    U: Send,
{
    type Out = U;
    fn fold_chunk(&self, items: impl Iterator<Item = T>) -> U {
        items.fold((self.identity)(), &*self.fold_op)
    }
}

/// [`IndexedParallelIterator::fold_chunks_with`]: each chunk folded from a clone of
/// `init`.
#[derive(Debug)]
pub struct FoldFromClone<U, F> {
    init: U,
    fold_op: Arc<F>,
}

impl<U: Clone, F> Clone for FoldFromClone<U, F> {
    fn clone(&self) -> Self {
        FoldFromClone {
            init: self.init.clone(),
            fold_op: Arc::clone(&self.fold_op),
        }
    }
}

impl<T, U, F> ChunkFold<T> for FoldFromClone<U, F>
where
    F: Fn(U, T) -> U + Sync + Send,
    U: Send + Clone,
{
    type Out = U;
    fn fold_chunk(&self, items: impl Iterator<Item = T>) -> U {
        items.fold(self.init.clone(), &*self.fold_op)
    }
}

/// The parallel iterator of [`IndexedParallelIterator::chunks`].
pub type VecChunks<I> = Chunked<I, IntoVec>;
/// The parallel iterator of [`IndexedParallelIterator::fold_chunks`].
pub type FoldChunks<I, ID, F> = Chunked<I, FoldFrom<ID, F>>;
/// The parallel iterator of [`IndexedParallelIterator::fold_chunks_with`].
pub type FoldChunksWith<I, U, F> = Chunked<I, FoldFromClone<U, F>>;

/// The items of `base`, `size` at a time, each chunk made into a value by `C`.
#[derive(Debug)]
pub struct Chunked<I, C> {
    base: I,
    size: usize,
    fold: C,
}

impl<I, C> Chunked<I, C> {
    fn new(base: I, size: usize, fold: C) -> Self {
        assert!(size != 0, "chunk size must not be zero");
        Chunked { base, size, fold }
    }
}

impl<I> VecChunks<I> {
    pub(super) fn into_vecs(base: I, size: usize) -> Self {
        Chunked::new(base, size, IntoVec)
    }
}

impl<I, ID, F> FoldChunks<I, ID, F> {
    pub(super) fn fold_from(base: I, size: usize, identity: ID, fold_op: F) -> Self {
        let (identity, fold_op) = (Arc::new(identity), Arc::new(fold_op));
        Chunked::new(base, size, FoldFrom { identity, fold_op })
    }
}

impl<I, U, F> FoldChunksWith<I, U, F> {
    pub(super) fn fold_from_clone(base: I, size: usize, init: U, fold_op: F) -> Self {
        let fold_op = Arc::new(fold_op);
        Chunked::new(base, size, FoldFromClone { init, fold_op })
    }
}

impl<I: IndexedParallelIterator, C: ChunkFold<I::Item>> ParallelIterator for Chunked<I, C> {
    type Item = C::Out;
    type Producer = ChunksProducer<I::Producer, C>;
    fn into_producer(self) -> Self::Producer {
        ChunksProducer {
            base: self.base.into_producer(),
            size: self.size,
            fold: self.fold,
        }
    }
}

impl<I: IndexedParallelIterator, C: ChunkFold<I::Item>> IndexedParallelIterator for Chunked<I, C> {
    fn len(&self) -> usize {
        self.base.len().div_ceil(self.size)
    }
}

/// The producer of [`Chunked`]: the base, cut at multiples of `size`.
pub struct ChunksProducer<P, C> {
    base: P,
    size: usize,
    fold: C,
}

impl<P: Producer, C: ChunkFold<P::Item>> Producer for ChunksProducer<P, C> {
    type Item = C::Out;
    type IntoIter = ChunksIter<P::IntoIter, C>;
    fn len(&self) -> usize {
        self.base.len().div_ceil(self.size)
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let at = index.saturating_mul(self.size).min(self.base.len());
        let (l, r) = self.base.split_at(at);
        let (size, fold) = (self.size, self.fold.clone());
        (
            ChunksProducer {
                base: l,
                size,
                fold,
            },
            ChunksProducer {
                base: r,
                size,
                fold: self.fold,
            },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        ChunksIter {
            left: self.base.len(),
            items: self.base.into_iter(),
            size: self.size,
            fold: self.fold,
        }
    }
    fn min_len(&self) -> usize {
        self.base.min_len().div_ceil(self.size)
    }
    fn max_len(&self) -> usize {
        (self.base.max_len() / self.size).max(1)
    }
    fn exact(&self) -> bool {
        true
    }
}

/// A piece of [`Chunked`]: `size` items of the base at a time.
pub struct ChunksIter<I, C> {
    items: I,
    left: usize,
    size: usize,
    fold: C,
}

impl<I: Iterator, C: ChunkFold<I::Item>> Iterator for ChunksIter<I, C> {
    type Item = C::Out;
    fn next(&mut self) -> Option<C::Out> {
        if self.left == 0 {
            return None;
        }
        let n = self.left.min(self.size);
        self.left -= n;
        Some(self.fold.fold_chunk(self.items.by_ref().take(n)))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.left.div_ceil(self.size);
        (n, Some(n))
    }
}

impl<I: Iterator, C: ChunkFold<I::Item>> ExactSizeIterator for ChunksIter<I, C> {}
