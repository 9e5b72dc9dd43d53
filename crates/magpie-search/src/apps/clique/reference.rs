//! A hand-written maximum-clique solver, without the framework: the baseline that
//! measures the skeleton's overhead, and an oracle for the tests.
//!
//! The same algorithm as [`MaxClique`](super::MaxClique) under the sequential
//! skeleton — minimum-width order, greedy-colouring bound, children highest colour
//! first, the remaining siblings cut off at the first child whose bound cannot beat the
//! best clique, a slice of local search at the first node and after every
//! [`SLICE_NODES`] more — written as the plain recursion a
//! programmer would write, so the two visit the same nodes and differ only in the
//! traversal machinery.

use super::bitset::Bitset;
use super::colouring::{colour, Adjacency};
use super::graph::Graph;
use super::local_search::LocalSearch;
use super::search::CliqueBound;
use super::{SLICE_NODES, SLICE_STEPS};

/// A maximum clique of `graph` (sorted, 0-based) and the number of nodes visited.
///
/// ```
/// use magpie_search::apps::clique::{parse_dimacs, reference};
///
/// let graph = parse_dimacs("p edge 4 4\ne 1 2\ne 2 3\ne 1 3\ne 3 4\n").unwrap();
/// assert_eq!(reference::maximum_clique(&graph).0, vec![0, 1, 2]);
/// ```
pub fn maximum_clique(graph: &Graph) -> (Vec<usize>, u64) {
    maximum_clique_with(graph, CliqueBound::Colour)
}

/// [`maximum_clique`] pruning with `bound`.
pub fn maximum_clique_with(graph: &Graph, bound: CliqueBound) -> (Vec<usize>, u64) {
    let original = graph.min_width_order();
    let renumbered = graph.renumbered(&original);
    let mut search = Search {
        infra: bound == CliqueBound::InfraChromatic,
        adjacency: Adjacency::new(&renumbered),
        graph: renumbered,
        members: Vec::new(),
        best: Vec::new(),
        nodes: 0,
        local_search: LocalSearch::new(graph.order()),
    };
    let all = Bitset::full(graph.order());
    search.expand(&all);
    let mut clique: Vec<usize> = search.best.iter().map(|&v| original[v]).collect();
    clique.sort_unstable();
    (clique, search.nodes)
}

struct Search {
    infra: bool,
    graph: Graph,
    adjacency: Adjacency,
    members: Vec<usize>,
    best: Vec<usize>,
    nodes: u64,
    /// The local search that runs in slices between the nodes, as
    /// [`MaxClique::with_local_search`](super::MaxClique::with_local_search).
    local_search: LocalSearch,
}

impl Search {
    /// Visits the clique `members` whose common neighbours are `candidates`.
    fn expand(&mut self, candidates: &Bitset) {
        self.nodes += 1;
        if self.members.len() > self.best.len() {
            self.best.clone_from(&self.members);
        }
        if self.nodes % SLICE_NODES == 1 {
            let found = self.local_search.run(&self.graph, SLICE_STEPS);
            if found.len() > self.best.len() {
                self.best = found.to_vec();
            }
        }
        let kmin = (self.best.len() + 1).saturating_sub(self.members.len());
        // Left out: the vertices of colour below `kmin`, which would be cut off below.
        let order = colour(&self.adjacency, candidates, kmin, self.infra, false);
        let mut remaining = candidates.clone();
        for &(v, colour) in order.iter().rev() {
            let (v, colour) = (v as usize, colour as usize);
            if self.members.len() + colour <= self.best.len() {
                return; // the bounds of the remaining siblings are no larger
            }
            let mut next = remaining.clone();
            next.intersect_with(self.graph.neighbours(v));
            remaining.remove(v);
            self.members.push(v);
            self.expand(&next);
            self.members.pop();
        }
    }
}
