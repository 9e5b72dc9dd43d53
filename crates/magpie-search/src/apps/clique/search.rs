//! Maximum clique as a search space: the MCS/Tomita-style algorithm, with vertices in
//! a minimum-width (degeneracy) vertex order, as MCS and BBMC, and a greedy colouring of
//! the candidates as the bound.

use crate::space::{Bounded, Objective, SearchSpace};

use super::bitset::Bitset;
use super::colouring::{colour, Adjacency, Coloured};
use super::graph::Graph;

/// The maximum-clique search space of a graph. Vertices are renumbered internally
/// in minimum-width order ([`Graph::min_width_order`]); answers use the original
/// numbers.
#[derive(Clone, Debug)]
pub struct MaxClique {
    /// The graph renumbered in minimum-width order.
    graph: Graph,
    /// The same graph's adjacency as plain words, for the colouring.
    adjacency: Adjacency,
    /// `original[i]` is the original number of internal vertex `i`.
    original: Vec<usize>,
    /// Whether the colouring bound is strengthened by the infra-chromatic rule.
    infra: bool,
}

/// The upper bound a clique search prunes with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CliqueBound {
    /// Greedy colouring with MCS's Re-NUMBER: a clique has at most one vertex per
    /// colour class.
    #[default]
    Colour,
    /// The colouring bound tightened by MaxSAT-style unit propagation over the colour
    /// classes (MaxCLQ), whose shortest proofs are BBMCX's infra-chromatic triplets: a
    /// vertex and `s` classes that cannot all give a vertex to one clique count as `s`.
    InfraChromatic,
}

impl std::str::FromStr for CliqueBound {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "colour" | "color" => Ok(CliqueBound::Colour),
            "infra-chromatic" | "infra" => Ok(CliqueBound::InfraChromatic),
            other => Err(format!(
                "unknown clique bound `{other}` (expected colour or infra-chromatic)"
            )),
        }
    }
}

impl std::fmt::Display for CliqueBound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CliqueBound::Colour => "colour",
            CliqueBound::InfraChromatic => "infra-chromatic",
        })
    }
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
        Self::with_bound(graph, CliqueBound::Colour)
    }

    /// The search space of `graph`, pruning with `bound`.
    pub fn with_bound(graph: &Graph, bound: CliqueBound) -> Self {
        let original = graph.min_width_order();
        let graph = graph.renumbered(&original);
        Self {
            adjacency: Adjacency::new(&graph),
            graph,
            original,
            infra: bound == CliqueBound::InfraChromatic,
        }
    }

    /// The clique of `node` in original vertex numbers, sorted.
    pub fn clique_of(&self, node: &CliqueNode) -> Vec<usize> {
        let mut clique: Vec<usize> = node.members.iter().map(|v| self.original[v]).collect();
        clique.sort_unstable();
        clique
    }
}

/// The children of a clique node: one per candidate, highest colour first, each
/// bounded by the clique's size plus the candidate's colour.
pub struct CliqueChildren<'a> {
    space: &'a MaxClique,
    parent: &'a CliqueNode,
    remaining: Bitset,
    /// The candidates not yet branched on with their colours, lowest colour first.
    order: Vec<Coloured>,
    /// Stop before the first child whose bound is at most this (the incumbent's size
    /// when branch and bound asked): it and its siblings would be pruned.
    stop_at_or_below: Option<usize>,
}

impl Iterator for CliqueChildren<'_> {
    type Item = CliqueNode;

    #[inline(always)]
    fn next(&mut self) -> Option<CliqueNode> {
        let &(v, colour) = self.order.last()?;
        let (v, colour) = (v as usize, colour as usize);
        let size = self.parent.size;
        if self
            .stop_at_or_below
            .is_some_and(|best| size + colour <= best)
        {
            return None;
        }
        self.order.pop();
        let mut child = CliqueNode {
            bound: size + colour,
            members: self.parent.members.clone(),
            size: size + 1,
            candidates: self.remaining.intersection(self.space.graph.neighbours(v)),
        };
        child.members.insert(v);
        self.remaining.remove(v);
        Some(child)
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
    #[inline(always)]
    fn children_from<'a>(
        &'a self,
        node: &'a CliqueNode,
        stop_at_or_below: Option<usize>,
    ) -> CliqueChildren<'a> {
        // Colours below `kmin` cannot beat the incumbent: Re-NUMBER works on them.
        let kmin = stop_at_or_below.map_or(0, |best| (best + 1).saturating_sub(node.size));
        // Vertices of colour below `kmin` are never branched on: left out.
        let mut order = colour(&self.adjacency, &node.candidates, kmin, self.infra, false);
        let nothing_to_branch = order.last().map_or(true, |&(_, colour)| {
            stop_at_or_below.is_some_and(|best| node.size + colour as usize <= best)
        });
        let remaining = if nothing_to_branch {
            // No child can beat the incumbent: skip copying the candidates.
            order.clear();
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
