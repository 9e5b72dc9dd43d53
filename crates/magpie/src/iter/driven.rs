//! [`Driven`]: a source's producer with settings for how the driver runs it.
//!
//! `with_min_len`, `with_max_len`, `by_exponential_blocks` and `by_uniform_blocks`
//! change nothing about the items, only how [`plumbing`](super::plumbing)'s drivers
//! split and schedule the positions. They all wrap the base's producer in this one
//! type, which narrows the base's bounds and may replace its [`Blocks`]. Where a lower
//! and an upper bound conflict, the lower bound wins, as in rayon.

use super::plumbing::{Blocks, Producer};

/// The producer of [`MinLen`](super::MinLen), [`MaxLen`](super::MaxLen),
/// [`ExponentialBlocks`](super::ExponentialBlocks) and
/// [`UniformBlocks`](super::UniformBlocks): the base's, with its piece-length bounds
/// narrowed and, when set, its blocks replaced.
pub struct Driven<P> {
    base: P,
    min: usize,
    max: usize,
    blocks: Option<Blocks>,
}

impl<P> Driven<P> {
    /// `base`, with no bounds of its own, keeping its blocks.
    pub(super) fn new(base: P) -> Self {
        Driven {
            base,
            min: 1,
            max: usize::MAX,
            blocks: None,
        }
    }

    /// Pieces no shorter than `min` positions.
    pub(super) fn with_min(self, min: usize) -> Self {
        Driven { min, ..self }
    }

    /// Pieces no longer than `max` positions.
    pub(super) fn with_max(self, max: usize) -> Self {
        Driven { max, ..self }
    }

    /// Run as `blocks`, whatever the base says.
    pub(super) fn with_blocks(self, blocks: Blocks) -> Self {
        Driven {
            blocks: Some(blocks),
            ..self
        }
    }
}

impl<P: Producer> Producer for Driven<P> {
    type Item = P::Item;
    type IntoIter = P::IntoIter;
    fn len(&self) -> usize {
        self.base.len()
    }
    fn split_at(self, index: usize) -> (Self, Self) {
        let (l, r) = self.base.split_at(index);
        let (min, max, blocks) = (self.min, self.max, self.blocks);
        (
            Driven {
                base: l,
                min,
                max,
                blocks,
            },
            Driven {
                base: r,
                min,
                max,
                blocks,
            },
        )
    }
    fn into_iter(self) -> Self::IntoIter {
        self.base.into_iter()
    }
    fn min_len(&self) -> usize {
        self.min.max(self.base.min_len())
    }
    fn max_len(&self) -> usize {
        self.max.min(self.base.max_len())
    }
    fn blocks(&self) -> Blocks {
        self.blocks.unwrap_or_else(|| self.base.blocks())
    }
    fn exact(&self) -> bool {
        self.base.exact()
    }
}
