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

/// Greedy colouring of `candidates` in vertex (search) order, class by class, then
/// MCS's Re-NUMBER (Tomita et al. 2010): a vertex of colour `kmin` or more (one that
/// would be branched on) moves into a class below `kmin` if it has no neighbour
/// there, or if its single neighbour `q` there can move up into another class below
/// `kmin` that has no neighbour of `q`. Classes left empty are dropped. Returns the
/// vertices ordered by colour class with their colours (1-based); a clique among the
/// candidates has at most as many vertices as there are colours. `kmin` ≤ 1 colours
/// without Re-NUMBER.
pub(super) fn colour(graph: &Graph, candidates: &Bitset, kmin: usize) -> (Vec<usize>, Vec<usize>) {
    let mut classes: Vec<Bitset> = Vec::new();
    let mut uncoloured = candidates.clone();
    while !uncoloured.is_empty() {
        let mut class = Bitset::new(candidates.capacity());
        let mut colourable = uncoloured.clone();
        while let Some(v) = colourable.first() {
            colourable.remove(v);
            colourable.subtract(graph.neighbours(v));
            uncoloured.remove(v);
            class.insert(v);
        }
        classes.push(class);
    }
    // Classes `0..low` (colours below `kmin`) are never branched on.
    let low = kmin.saturating_sub(1).min(classes.len());
    if low > 0 {
        for k in low..classes.len() {
            let members: Vec<usize> = classes[k].iter().collect();
            for v in members {
                if let Some(k1) = renumber(graph, &mut classes[..low], v) {
                    classes[k].remove(v);
                    classes[k1].insert(v);
                }
            }
        }
    }
    let mut order = Vec::with_capacity(candidates.len());
    let mut colours = Vec::with_capacity(candidates.len());
    for class in classes.iter().filter(|c| !c.is_empty()) {
        let colour = colours.last().map_or(1, |&c| c + 1);
        for v in class.iter() {
            order.push(v);
            colours.push(colour);
        }
    }
    (order, colours)
}

/// Finds a class of `low` that `v` can join, moving at most one vertex of it up into
/// another class of `low`; returns the class's index (the caller inserts `v`).
fn renumber(graph: &Graph, low: &mut [Bitset], v: usize) -> Option<usize> {
    let nv = graph.neighbours(v);
    for k1 in 0..low.len() {
        match low[k1].single_common(nv) {
            Err(0) => return Some(k1),
            Ok(q) => {
                let nq = graph.neighbours(q);
                if let Some(k2) = (k1 + 1..low.len()).find(|&k2| !low[k2].intersects(nq)) {
                    low[k1].remove(q);
                    low[k2].insert(q);
                    return Some(k1);
                }
            }
            Err(_) => {}
        }
    }
    None
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
        // Colours below `kmin` cannot beat the incumbent: Re-NUMBER works on them.
        let kmin = stop_at_or_below.map_or(0, |best| (best + 1).saturating_sub(node.size));
        let (mut order, mut colours) = colour(&self.graph, &node.candidates, kmin);
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

#[cfg(test)]
mod tests {
    use super::{colour, Bitset, Graph};

    /// Re-NUMBER keeps a proper colouring of exactly the candidates, with no more
    /// colours than the plain greedy colouring.
    #[test]
    fn renumbered_colourings_are_proper_and_no_larger() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..200 {
            let n = 5 + (next() % 60) as usize;
            let density = 1 + next() % 9;
            let mut g = Graph::new(n);
            for u in 0..n {
                for v in u + 1..n {
                    if next() % 10 < density {
                        g.add_edge(u, v);
                    }
                }
            }
            let mut candidates = Bitset::full(n);
            for v in 0..n {
                if next() % 5 == 0 {
                    candidates.remove(v);
                }
            }
            let (_, plain) = colour(&g, &candidates, 0);
            let kmin = (next() % (plain.last().copied().unwrap_or(0) as u64 + 2)) as usize;
            let (order, colours) = colour(&g, &candidates, kmin);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                candidates.iter().collect::<Vec<_>>(),
                "round {round}"
            );
            assert!(colours.windows(2).all(|w| w[0] <= w[1] && w[1] <= w[0] + 1));
            for (i, &u) in order.iter().enumerate() {
                for (j, &v) in order.iter().enumerate().skip(i + 1) {
                    assert!(
                        colours[i] != colours[j] || !g.has_edge(u, v),
                        "round {round}"
                    );
                }
            }
            assert!(colours.last() <= plain.last(), "round {round}");
        }
    }
}
