//! Maximum clique as a search space: the MCS/Tomita-style algorithm, with vertices in
//! a minimum-width (degeneracy) vertex order, as MCS and BBMC, and a greedy colouring of
//! the candidates as the bound.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::space::{Bounded, Objective, SearchSpace};

use super::bitset::Bitset;
use super::colouring::{colour, Adjacency, Coloured};
use super::graph::Graph;
use super::local_search::LocalSearch;

/// With a local search beside the exact one, each thread runs a slice of
/// [`SLICE_STEPS`] steps at its first node and then after every this many nodes.
pub const SLICE_NODES: u64 = 1024;

/// Steps (vertices looked at) of one slice of the local search: about 250 moves on a
/// dense graph of a few hundred vertices, fewer where a move looks at more. A slice
/// costs at most about a tenth of the nodes between two slices (9 % on a G(1000, 0.5),
/// 5 % on brock400_2).
pub const SLICE_STEPS: u64 = 1 << 16;

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
    /// The local search that runs beside branch and bound, if any.
    heuristic: Option<Arc<Heuristic>>,
}

/// A local search ([`LocalSearch`]) run in slices between the nodes of branch and
/// bound, whose best clique prunes the search like the incumbent does.
#[derive(Debug)]
struct Heuristic {
    /// Tells this local search from others in [`EXPANDED`].
    id: u64,
    /// The size of the largest clique found (read at every node).
    best_len: AtomicUsize,
    search: Mutex<LocalSearch>,
}

/// Numbers the local searches, for [`EXPANDED`].
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// The nodes this thread expanded for the local search it last counted for: `(id,
    /// count)`. Per thread, so that workers do not contend for a shared counter at
    /// every node; a run on one thread counts exactly as the reference solver does.
    static EXPANDED: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
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
            heuristic: None,
        }
    }

    /// Runs a local search (DLS-MC, [`local_search_clique`](super::local_search_clique))
    /// in slices beside branch and bound: [`SLICE_STEPS`] steps at a thread's first
    /// node and after every [`SLICE_NODES`] more, at most about a tenth of the search's
    /// time. Its best clique prunes like the incumbent. A hard search thus gets a
    /// near-optimal incumbent early (brock400_2: about a quarter of the nodes), and an
    /// easy one pays little. For optimisation only: a decision search must not prune
    /// with it. Take the answer from [`best_clique`](Self::best_clique). Clones share
    /// the local search.
    pub fn with_local_search(mut self) -> Self {
        self.heuristic = Some(Arc::new(Heuristic {
            // Relaxed: the number only has to be unique.
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            best_len: AtomicUsize::new(0),
            search: Mutex::new(LocalSearch::new(self.graph.order())),
        }));
        self
    }

    /// The larger of `node`'s clique and the local search's best (original numbers,
    /// sorted).
    pub fn best_clique(&self, node: &CliqueNode) -> Vec<usize> {
        let found = self.heuristic.as_ref().map(|h| {
            let search = h.search.lock().unwrap_or_else(|e| e.into_inner());
            search.best().to_vec()
        });
        match found {
            Some(clique) if clique.len() > node.size => {
                let mut clique: Vec<usize> = clique.iter().map(|&v| self.original[v]).collect();
                clique.sort_unstable();
                clique
            }
            _ => self.clique_of(node),
        }
    }

    /// The size of the local search's best clique (0 without one).
    #[inline(always)]
    fn heuristic_best(&self) -> usize {
        // Relaxed: a stale size only prunes less.
        self.heuristic
            .as_ref()
            .map_or(0, |h| h.best_len.load(Ordering::Relaxed))
    }

    /// Counts a node of this thread; at its first and after every [`SLICE_NODES`] more
    /// runs a slice of the local search (skipped if another worker is running one).
    /// Returns the size of its best clique.
    #[inline(always)]
    fn heuristic_tick(&self) -> usize {
        let Some(h) = &self.heuristic else {
            return 0;
        };
        let due = EXPANDED.with(|expanded| {
            let (id, count) = expanded.get();
            let count = if id == h.id { count + 1 } else { 1 };
            expanded.set((h.id, count));
            count % SLICE_NODES == 1
        });
        if due {
            if let Ok(mut search) = h.search.try_lock() {
                let len = search.run(&self.graph, SLICE_STEPS).len();
                // Relaxed: a stale size only prunes less.
                h.best_len.fetch_max(len, Ordering::Relaxed);
            }
        }
        self.heuristic_best()
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
        // The local search may have found a larger clique since the children were
        // coloured (in a subtree of an earlier sibling).
        if self
            .stop_at_or_below
            .is_some_and(|best| size + colour <= best.max(self.space.heuristic_best()))
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
        let stop_at_or_below = stop_at_or_below.map(|best| best.max(self.heuristic_tick()));
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
