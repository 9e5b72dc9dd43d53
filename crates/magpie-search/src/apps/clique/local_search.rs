//! Large cliques for the exact search to prune with, found by local search: DLS-MC
//! (Pullan & Hoos, JAIR 2006, "Dynamic local search for the maximum clique problem"),
//! run in slices between the search's nodes ([`MaxClique::with_local_search`]). Branch
//! and bound prunes against the best clique it knows, so a search that knows the
//! optimum early only has to prove it: on brock400_2 that is about a quarter of the
//! nodes of a search that has to find it.
//!
//! [`MaxClique::with_local_search`]: super::MaxClique::with_local_search
//!
//! The local search alternates adding a vertex adjacent to the whole clique and, when
//! there is none, swapping one in for its single non-neighbour in the clique (a plateau
//! move, each vertex at most once per plateau). Each vertex carries a penalty, raised
//! while it sits in a clique where the search got stuck and decayed slowly; moves pick
//! the least penalised candidate, which steers the search away from cliques it has
//! seen. It is deterministic (a fixed seed) and bounded by a number of steps (a step is
//! one vertex looked at), so node counts of the exact search stay reproducible and its
//! cost is in proportion to its budget on sparse and dense graphs alike.

use super::graph::Graph;

/// Penalty delay: every this many penalty rounds all penalties decay by one
/// (DLS-MC's `pd`; larger values remember longer). 15 is DLS-MC's value for the brock
/// graphs, built to hide their largest clique from degree-guided heuristics; the
/// other DIMACS families we tried give up their best cliques under it as well.
const PENALTY_DELAY: u32 = 15;

/// A clique of `graph` found by a local search of about `steps` steps (vertices looked
/// at; a move on a graph of `n` vertices takes up to about `n`), sorted.
pub fn local_search_clique(graph: &Graph, steps: u64) -> Vec<usize> {
    let mut search = LocalSearch::new(graph.order());
    let mut best = search.run(graph, steps).to_vec();
    best.sort_unstable();
    best
}

/// A resumable local search: [`run`](Self::run) continues where the last call
/// stopped.
#[derive(Debug)]
pub(super) struct LocalSearch {
    clique: Vec<usize>,
    in_clique: Vec<bool>,
    /// For each vertex, how many clique members other than itself it is not adjacent
    /// to: 0 for a vertex that extends the clique, 1 for a swap candidate.
    missing: Vec<u32>,
    /// The vertices outside the clique missing 0 and 1 members.
    level: [IndexSet; 2],
    penalty: Vec<u32>,
    /// The plateau in which each vertex last left the clique.
    left_in: Vec<u64>,
    plateau: u64,
    /// Steps taken so far: vertices looked at.
    steps: u64,
    /// Penalty rounds so far.
    rounds: u32,
    best: Vec<usize>,
    rng: XorShift,
}

impl LocalSearch {
    /// A search of a graph of `n` vertices, not started.
    pub(super) fn new(n: usize) -> Self {
        let mut level = [IndexSet::new(n), IndexSet::new(n)];
        for v in 0..n {
            level[0].insert(v);
        }
        Self {
            clique: Vec::new(),
            in_clique: vec![false; n],
            missing: vec![0; n],
            level,
            penalty: vec![0; n],
            left_in: vec![u64::MAX; n],
            plateau: 0,
            steps: 0,
            rounds: 0,
            best: Vec::new(),
            rng: XorShift(0x2545_f491_4f6c_dd1d),
        }
    }

    /// The largest clique found so far.
    pub(super) fn best(&self) -> &[usize] {
        &self.best
    }

    /// About `steps` more steps on `graph` (the graph of [`new`](Self::new)); returns
    /// the largest clique found so far.
    pub(super) fn run(&mut self, graph: &Graph, steps: u64) -> &[usize] {
        let n = self.missing.len();
        if n == 0 {
            return &self.best;
        }
        let until = self.steps + steps;
        if self.clique.is_empty() {
            let first = self.rng.below(n);
            self.add(graph, first);
        }
        while self.steps < until {
            self.climb(graph, until);
            if self.clique.len() > self.best.len() {
                self.best.clone_from(&self.clique);
                debug_assert!(graph.is_clique(&self.best));
            }
            self.rounds += 1;
            self.penalise(self.rounds % PENALTY_DELAY == 0);
            self.perturb(graph);
        }
        &self.best
    }

    fn add(&mut self, graph: &Graph, v: usize) {
        self.steps += 1;
        self.level[0].remove(v);
        self.in_clique[v] = true;
        self.clique.push(v);
        self.count_non_neighbours(graph, v, true);
    }

    fn remove(&mut self, graph: &Graph, v: usize) {
        self.in_clique[v] = false;
        self.clique.retain(|&u| u != v);
        self.count_non_neighbours(graph, v, false);
        // A member misses no other member: it extends the clique it left.
        self.level[0].insert(v);
    }

    /// Counts `v` in (or out of) the `missing` of each of its non-neighbours.
    fn count_non_neighbours(&mut self, graph: &Graph, v: usize, joined: bool) {
        let n = self.missing.len();
        for (i, &word) in graph.neighbours(v).words().iter().enumerate() {
            let mut rest = !word;
            self.steps += u64::from(rest.count_ones()) + 1;
            while rest != 0 {
                let u = i * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if u >= n {
                    break;
                }
                if u == v || self.in_clique[u] {
                    continue;
                }
                let before = self.missing[u];
                let after = if joined { before + 1 } else { before - 1 };
                self.missing[u] = after;
                if let Some(set) = self.level.get_mut(before as usize) {
                    set.remove(u);
                }
                if let Some(set) = self.level.get_mut(after as usize) {
                    set.insert(u);
                }
            }
        }
    }

    /// The least penalised vertex of `level[want]` (for swaps, one not yet out of the
    /// clique in this plateau), ties broken at random.
    fn pick(&mut self, want: usize) -> Option<usize> {
        let mut chosen = None;
        let mut least = u32::MAX;
        let mut ties = 0;
        self.steps += self.level[want].items.len() as u64 + 1;
        for &v in &self.level[want].items {
            let v = v as usize;
            if want == 1 && self.left_in[v] == self.plateau {
                continue;
            }
            let p = self.penalty[v];
            if p < least {
                (least, ties, chosen) = (p, 1, Some(v));
            } else if p == least {
                ties += 1;
                if self.rng.below(ties) == 0 {
                    chosen = Some(v);
                }
            }
        }
        chosen
    }

    /// Adds while a vertex extends the clique, then swaps along the plateau while no
    /// vertex does, until neither move is left, the plateau no longer shares a vertex
    /// with the clique it started from, or the steps up to `until` run out.
    fn climb(&mut self, graph: &Graph, until: u64) {
        loop {
            while let Some(v) = self.pick(0) {
                self.add(graph, v);
            }
            self.plateau += 1;
            let start = self.clique.clone();
            let mut swapped = false;
            while self.steps < until && start.iter().any(|&u| self.in_clique[u]) {
                let Some(v) = self.pick(1) else { break };
                let row = graph.neighbours(v);
                let out = *self
                    .clique
                    .iter()
                    .find(|&&u| !row.contains(u))
                    .expect("a swap candidate misses one member");
                self.remove(graph, out);
                self.left_in[out] = self.plateau;
                self.add(graph, v);
                swapped = true;
                if !self.level[0].items.is_empty() {
                    break;
                }
            }
            if !swapped || self.steps >= until || self.level[0].items.is_empty() {
                return;
            }
        }
    }

    /// Raises the penalty of every clique member; with `decay`, first lowers every
    /// penalty by one.
    fn penalise(&mut self, decay: bool) {
        if decay {
            for p in &mut self.penalty {
                *p = p.saturating_sub(1);
            }
        }
        for &v in &self.clique {
            self.penalty[v] += 1;
        }
    }

    /// Restarts from a random vertex and the members adjacent to it. Counts as a step
    /// even when it changes nothing (the clique may already hold every vertex).
    fn perturb(&mut self, graph: &Graph) {
        self.steps += 1;
        let v = self.rng.below(self.missing.len());
        let row = graph.neighbours(v);
        let leaving: Vec<usize> = self
            .clique
            .iter()
            .copied()
            .filter(|&u| u != v && !row.contains(u))
            .collect();
        for u in leaving {
            self.remove(graph, u);
        }
        if !self.in_clique[v] {
            self.add(graph, v);
        }
    }
}

/// xorshift64: a fixed, fast generator (the search needs no more).
#[derive(Debug)]
struct XorShift(u64);

impl XorShift {
    /// A number below `n` (> 0).
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (((self.0 >> 32) * n as u64) >> 32) as usize
    }
}

/// A set of vertices with O(1) insert and remove, iterable as a slice.
#[derive(Debug)]
struct IndexSet {
    items: Vec<u32>,
    /// Each vertex's place in `items`, or `u32::MAX`.
    place: Vec<u32>,
}

impl IndexSet {
    fn new(n: usize) -> Self {
        Self {
            items: Vec::new(),
            place: vec![u32::MAX; n],
        }
    }

    fn insert(&mut self, v: usize) {
        if self.place[v] == u32::MAX {
            self.place[v] = self.items.len() as u32;
            self.items.push(v as u32);
        }
    }

    fn remove(&mut self, v: usize) {
        let at = self.place[v];
        if at != u32::MAX {
            self.place[v] = u32::MAX;
            let last = self.items.pop().expect("v is an item");
            if last as usize != v {
                self.items[at as usize] = last;
                self.place[last as usize] = at;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Graph;
    use super::local_search_clique;

    /// On random graphs with a planted clique the result is a clique, and the
    /// planted one (far larger than the graph's others) is found.
    #[test]
    fn finds_a_planted_clique() {
        let mut next = super::super::test_rng();
        for round in 0..20 {
            let n = 30 + (next() % 60) as usize;
            let mut g = Graph::new(n);
            for u in 0..n {
                for v in u + 1..n {
                    if next() % 10 < 3 {
                        g.add_edge(u, v);
                    }
                }
            }
            let planted: Vec<usize> = (0..n).filter(|_| next() % 4 == 0).take(12).collect();
            for (i, &u) in planted.iter().enumerate() {
                for &v in &planted[i + 1..] {
                    g.add_edge(u, v);
                }
            }
            let found = local_search_clique(&g, 20_000 * n as u64);
            assert!(g.is_clique(&found), "round {round}");
            assert!(found.len() >= planted.len(), "round {round}: {found:?}");
        }
        assert!(local_search_clique(&Graph::new(0), 100).is_empty());
        // Every vertex in the clique: a restart changes nothing, and must still count.
        assert_eq!(local_search_clique(&Graph::new(1), 100), vec![0]);
        let mut complete = Graph::new(5);
        for u in 0..5 {
            for v in u + 1..5 {
                complete.add_edge(u, v);
            }
        }
        assert_eq!(local_search_clique(&complete, 100), vec![0, 1, 2, 3, 4]);
    }
}
