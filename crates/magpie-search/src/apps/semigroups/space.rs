//! [`Semigroups`]: the Fromentin–Hivert tree of numerical semigroups as a search space,
//! cut at a maximum genus.

use std::ops::Range;

use crate::space::SearchSpace;

use super::error::SemigroupError;
use super::semigroup::{Semigroup, MAX_GENUS};

/// The tree of numerical semigroups up to a genus: the root is ℕ, the children of `S`
/// are `S \ {g}` for each minimal generator `g` above its Frobenius number, so every
/// semigroup appears once, at the depth equal to its genus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Semigroups {
    max_genus: usize,
}

impl Semigroups {
    /// The tree of semigroups of genus at most `max_genus` (at most [`MAX_GENUS`]).
    pub fn new(max_genus: usize) -> Result<Self, SemigroupError> {
        if max_genus > MAX_GENUS {
            return Err(SemigroupError::GenusTooLarge { genus: max_genus });
        }
        Ok(Self { max_genus })
    }

    /// The deepest genus of the tree.
    pub fn max_genus(&self) -> usize {
        self.max_genus
    }
}

/// The children of one semigroup, each built only when the iterator reaches it, in
/// increasing order of the removed generator.
#[derive(Clone, Debug)]
pub struct SemigroupChildren<'a> {
    parent: &'a Semigroup,
    /// The candidate generators not yet tried (none at the maximum genus).
    candidates: Range<usize>,
}

impl Iterator for SemigroupChildren<'_> {
    type Item = Semigroup;

    fn next(&mut self) -> Option<Semigroup> {
        let parent = self.parent;
        let generator = self
            .candidates
            .find(|&candidate| parent.is_removable_generator(candidate))?;
        Some(parent.without_generator(generator))
    }
}

impl SearchSpace for Semigroups {
    type Node = Semigroup;
    type Children<'a> = SemigroupChildren<'a>;

    fn root(&self) -> Semigroup {
        Semigroup::naturals()
    }

    fn children<'a>(&'a self, node: &'a Semigroup) -> SemigroupChildren<'a> {
        let candidates = if node.genus() >= self.max_genus {
            0..0
        } else {
            node.generator_candidates()
        };
        SemigroupChildren {
            parent: node,
            candidates,
        }
    }
}
