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
    /// The colouring bound tightened by BBMCX's infra-chromatic rule: triplets of
    /// classes that hold no triangle count as two.
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
        Self {
            graph: graph.renumbered(&original),
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

/// Greedy colouring of `candidates` in vertex (search) order, class by class, then
/// MCS's Re-NUMBER (Tomita et al. 2010): a vertex of colour `kmin` or more (one that
/// would be branched on) moves into a class below `kmin` if it has no neighbour
/// there, or if its single neighbour `q` there can move up into another class below
/// `kmin` that has no neighbour of `q`. Classes left empty are dropped.
///
/// With `infra`, a vertex `v` that Re-NUMBER cannot move is also taken out of the
/// branching classes when two classes `Ci`, `Cj` below `kmin` leave no triangle with
/// it: `v` has a single neighbour `q` in `Ci`, and `Cj` holds no common neighbour of
/// `v` and `q` (the infra-chromatic bound of BBMCX, San Segundo et al. 2015). A
/// clique then has at most two vertices in `{v} ∪ Ci ∪ Cj`, so the classes below
/// `kmin` with the absorbed vertices still hold no clique of more than `kmin - 1`
/// vertices; each class takes part in one such triplet at most and is not changed
/// afterwards.
///
/// Returns the vertices ordered by colour with their colours (1-based, absorbed
/// vertices with the colour `kmin - 1`); a clique among the candidates of colour at
/// most `c` has at most `c` vertices. `kmin` ≤ 1 colours without either rule.
pub(super) fn colour(
    graph: &Graph,
    candidates: &Bitset,
    kmin: usize,
    infra: bool,
) -> (Vec<usize>, Vec<usize>) {
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
    let mut absorbed = Vec::new();
    if low > 0 {
        let mut frozen = vec![false; low];
        for k in low..classes.len() {
            let members: Vec<usize> = classes[k].iter().collect();
            for v in members {
                let (low_classes, _) = classes.split_at_mut(low);
                if let Some(k1) = renumber(graph, low_classes, &frozen, v) {
                    classes[k].remove(v);
                    classes[k1].insert(v);
                } else if infra && absorb(graph, low_classes, &mut frozen, v) {
                    classes[k].remove(v);
                    absorbed.push(v);
                }
            }
        }
    }
    let mut order = Vec::with_capacity(candidates.len());
    let mut colours = Vec::with_capacity(candidates.len());
    for (k, class) in classes.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
        let colour = colours.last().map_or(1, |&c| c + 1);
        for v in class.iter() {
            order.push(v);
            colours.push(colour);
        }
        if k + 1 == low {
            order.extend_from_slice(&absorbed);
            colours.extend(std::iter::repeat(colour).take(absorbed.len()));
        }
    }
    (order, colours)
}

/// Finds a class of `low` that `v` can join, moving at most one vertex of it up into
/// another class of `low`; returns the class's index (the caller inserts `v`).
/// Frozen classes are left as they are.
fn renumber(graph: &Graph, low: &mut [Bitset], frozen: &[bool], v: usize) -> Option<usize> {
    let nv = graph.neighbours(v);
    for k1 in (0..low.len()).filter(|&k| !frozen[k]) {
        match low[k1].single_common(nv) {
            Err(0) => return Some(k1),
            Ok(q) => {
                let nq = graph.neighbours(q);
                let free = |k2: &usize| !frozen[*k2] && !low[*k2].intersects(nq);
                if let Some(k2) = (k1 + 1..low.len()).find(free) {
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

/// The infra-chromatic rule (see [`colour`]): finds two unfrozen classes of `low`
/// that leave no triangle with `v`, and freezes them.
fn absorb(graph: &Graph, low: &[Bitset], frozen: &mut [bool], v: usize) -> bool {
    let nv = graph.neighbours(v);
    for k1 in (0..low.len()).filter(|&k| !frozen[k]) {
        let Ok(q) = low[k1].single_common(nv) else {
            continue;
        };
        let nq = graph.neighbours(q);
        let no_triangle =
            |k2: &usize| *k2 != k1 && !frozen[*k2] && !low[*k2].intersects_both(nv, nq);
        if let Some(k2) = (0..low.len()).find(no_triangle) {
            frozen[k1] = true;
            frozen[k2] = true;
            return true;
        }
    }
    false
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
        let (mut order, mut colours) = colour(&self.graph, &node.candidates, kmin, self.infra);
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

    /// The largest clique among `vertices` (brute force for small sets).
    fn omega(g: &Graph, vertices: &[usize]) -> usize {
        fn grow(g: &Graph, clique: &mut Vec<usize>, rest: &[usize]) -> usize {
            let mut best = clique.len();
            for (i, &v) in rest.iter().enumerate() {
                if clique.iter().all(|&u| g.has_edge(u, v)) {
                    clique.push(v);
                    best = best.max(grow(g, clique, &rest[i + 1..]));
                    clique.pop();
                }
            }
            best
        }
        grow(g, &mut Vec::new(), vertices)
    }

    /// Re-NUMBER keeps a proper colouring of exactly the candidates, with no more
    /// colours than the plain greedy colouring; with the infra-chromatic rule as well,
    /// the candidates of colour at most `c` still hold no clique of more than `c`.
    #[test]
    fn colourings_bound_the_cliques_of_every_prefix() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut absorbing_rounds = 0;
        for round in 0..300 {
            let infra = round % 2 == 0;
            let n = 5 + (next() % 28) as usize;
            let density = 3 + next() % 7;
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
            let (_, plain) = colour(&g, &candidates, 0, false);
            let kmin = (next() % (plain.last().copied().unwrap_or(0) as u64 + 2)) as usize;
            let (order, colours) = colour(&g, &candidates, kmin, infra);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                candidates.iter().collect::<Vec<_>>(),
                "round {round}"
            );
            assert!(colours.windows(2).all(|w| w[0] <= w[1] && w[1] <= w[0] + 1));
            assert!(colours.last() <= plain.last(), "round {round}");
            for (i, &c) in colours.iter().enumerate() {
                if colours.get(i + 1) != Some(&c) {
                    assert!(
                        omega(&g, &order[..=i]) <= c,
                        "round {round}: prefix up to colour {c}"
                    );
                }
            }
            let mut proper = true;
            for (i, &u) in order.iter().enumerate() {
                for (j, &v) in order.iter().enumerate().skip(i + 1) {
                    proper &= colours[i] != colours[j] || !g.has_edge(u, v);
                }
            }
            // Only absorbed vertices share a colour with a neighbour.
            assert!(proper || infra, "round {round}");
            absorbing_rounds += usize::from(!proper);
        }
        assert!(absorbing_rounds > 0, "the infra-chromatic rule never fired");
    }
}
