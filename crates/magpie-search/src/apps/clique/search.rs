//! Maximum clique as a search space: the MCS/Tomita-style algorithm, with vertices in
//! a minimum-width (degeneracy) vertex order, as MCS and BBMC, and a greedy colouring of
//! the candidates as the bound.

use crate::space::{Bounded, Objective, SearchSpace};

use super::bitset::Bitset;
use super::graph::Graph;

/// The maximum-clique search space of a graph. Vertices are renumbered internally
/// in minimum-width order ([`Graph::min_width_order`]); answers use the original
/// numbers.
#[derive(Clone, Debug)]
pub struct MaxClique {
    /// The graph renumbered in minimum-width order.
    graph: Graph,
    /// `original[i]` is the original number of internal vertex `i`.
    original: Vec<usize>,
}

/// A node: a clique, the vertices that extend it, and a bound on its subtree.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CliqueNode {
    /// The clique's vertices (internal numbers): a bitset, so that a child's copy is
    /// a memory copy rather than an allocation for graphs of up to
    /// [`INLINE_CAPACITY`](super::bitset::INLINE_CAPACITY) vertices.
    members: Bitset,
    /// The number of members.
    size: usize,
    /// Vertices adjacent to every member and not yet branched on.
    candidates: Bitset,
    /// No clique in this subtree has more than `bound` vertices.
    bound: usize,
}

impl CliqueNode {
    /// The number of vertices in the clique.
    pub fn size(&self) -> usize {
        self.size
    }
}

impl MaxClique {
    /// The search space of `graph`.
    pub fn new(graph: &Graph) -> Self {
        let original = graph.min_width_order();
        Self {
            graph: graph.renumbered(&original),
            original,
        }
    }

    /// The clique of `node` in original vertex numbers, sorted.
    pub fn clique_of(&self, node: &CliqueNode) -> Vec<usize> {
        let mut clique: Vec<usize> = node.members.iter().map(|v| self.original[v]).collect();
        clique.sort_unstable();
        clique
    }
}

/// Greedy sequential colouring of `candidates` in vertex (search) order: returns the
/// vertices ordered by colour class, with their colours (1-based). A clique among
/// the candidates has at most as many vertices as there are colours.
pub(super) fn colour(graph: &Graph, candidates: &Bitset) -> (Vec<usize>, Vec<usize>) {
    let mut order = Vec::with_capacity(candidates.len());
    let mut colours = Vec::with_capacity(candidates.len());
    let mut uncoloured = candidates.clone();
    let mut colour = 0;
    while !uncoloured.is_empty() {
        colour += 1;
        let mut colourable = uncoloured.clone();
        while let Some(v) = colourable.first() {
            colourable.remove(v);
            colourable.subtract(graph.neighbours(v));
            uncoloured.remove(v);
            order.push(v);
            colours.push(colour);
        }
    }
    (order, colours)
}

/// The children of a clique node: one per candidate, highest colour first, each
/// bounded by the clique's size plus the candidate's colour.
pub struct CliqueChildren<'a> {
    space: &'a MaxClique,
    parent: &'a CliqueNode,
    remaining: Bitset,
    order: Vec<usize>,
    colours: Vec<usize>,
    /// Stop before the first child whose bound is at most this (the incumbent's size
    /// when branch and bound asked): it and its siblings would be pruned.
    stop_at_or_below: Option<usize>,
}

impl Iterator for CliqueChildren<'_> {
    type Item = CliqueNode;

    fn next(&mut self) -> Option<CliqueNode> {
        let colour = *self.colours.last()?;
        let size = self.parent.size;
        if self
            .stop_at_or_below
            .is_some_and(|best| size + colour <= best)
        {
            return None;
        }
        let v = self.order.pop()?;
        self.colours.pop();
        let mut candidates = self.remaining.clone();
        candidates.intersect_with(self.space.graph.neighbours(v));
        self.remaining.remove(v);
        let mut members = self.parent.members.clone();
        members.insert(v);
        Some(CliqueNode {
            bound: size + colour,
            members,
            size: size + 1,
            candidates,
        })
    }
}

impl SearchSpace for MaxClique {
    type Node = CliqueNode;
    type Children<'a> = CliqueChildren<'a>;

    fn root(&self) -> CliqueNode {
        CliqueNode {
            members: Bitset::new(self.graph.order()),
            size: 0,
            candidates: Bitset::full(self.graph.order()),
            bound: self.graph.order(),
        }
    }

    fn children<'a>(&'a self, node: &'a CliqueNode) -> CliqueChildren<'a> {
        self.children_from(node, None)
    }
}

impl MaxClique {
    fn children_from<'a>(
        &'a self,
        node: &'a CliqueNode,
        stop_at_or_below: Option<usize>,
    ) -> CliqueChildren<'a> {
        let (mut order, mut colours) = colour(&self.graph, &node.candidates);
        let first_fails = colours
            .last()
            .zip(stop_at_or_below)
            .is_some_and(|(&colour, best)| node.size + colour <= best);
        let remaining = if first_fails {
            // No child can beat the incumbent: skip copying the candidates.
            order.clear();
            colours.clear();
            Bitset::new(0)
        } else {
            node.candidates.clone()
        };
        CliqueChildren {
            stop_at_or_below,
            space: self,
            parent: node,
            remaining,
            order,
            colours,
        }
    }
}

impl Objective for MaxClique {
    type Value = usize;

    fn objective(&self, node: &CliqueNode) -> usize {
        node.size()
    }
}

impl Bounded for MaxClique {
    fn upper_bound(&self, node: &CliqueNode) -> usize {
        node.bound
    }

    /// Children come highest colour first, so their bounds never increase: stop at
    /// the first one that cannot beat `best`.
    fn children_above<'a>(&'a self, node: &'a CliqueNode, best: usize) -> CliqueChildren<'a> {
        self.children_from(node, Some(best))
    }
}
