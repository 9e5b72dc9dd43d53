//! [`Graph`]: an undirected graph as one adjacency bitset per vertex.

use std::cmp::Reverse;

use super::bitset::Bitset;

/// An undirected simple graph on vertices `0..order()`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Graph {
    adjacency: Vec<Bitset>,
}

impl Graph {
    /// The graph on `vertices` vertices with no edges.
    pub fn new(vertices: usize) -> Self {
        Self {
            adjacency: vec![Bitset::new(vertices); vertices],
        }
    }

    /// The number of vertices.
    pub fn order(&self) -> usize {
        self.adjacency.len()
    }

    /// Adds the edge `u`–`v`; self-loops are ignored. Panics if either is not below
    /// `order()`.
    pub fn add_edge(&mut self, u: usize, v: usize) {
        if u != v {
            self.adjacency[u].insert(v);
            self.adjacency[v].insert(u);
        }
    }

    /// Whether `u` and `v` are adjacent.
    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        self.adjacency.get(u).is_some_and(|row| row.contains(v))
    }

    /// The neighbours of `v` (panics if `v` is not below `order()`).
    pub fn neighbours(&self, v: usize) -> &Bitset {
        &self.adjacency[v]
    }

    /// The number of neighbours of `v` (panics if `v` is not below `order()`).
    pub fn degree(&self, v: usize) -> usize {
        self.adjacency[v].len()
    }

    /// The number of edges.
    pub fn edge_count(&self) -> usize {
        self.adjacency.iter().map(Bitset::len).sum::<usize>() / 2
    }

    /// Whether `vertices` are distinct, in range and pairwise adjacent.
    pub fn is_clique(&self, vertices: &[usize]) -> bool {
        vertices.iter().enumerate().all(|(i, &u)| {
            u < self.order() && vertices[i + 1..].iter().all(|&v| self.has_edge(u, v))
        })
    }

    /// The vertices by non-increasing degree (ties: smaller index first).
    pub fn degree_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.order()).collect();
        order.sort_by_key(|&v| std::cmp::Reverse(self.degree(v)));
        order
    }

    /// The search order of MCS (Tomita et al. 2010) and BBMC: a minimum-width
    /// (degeneracy) order. The vertex of least degree in what remains goes last,
    /// repeatedly; ties go to the smaller sum of the remaining neighbours' degrees
    /// (ex-degree), then to the smaller original degree, then the larger index.
    pub fn min_width_order(&self) -> Vec<usize> {
        // Degrees and ex-degrees within the vertices not yet removed, kept up to date as
        // vertices go (a removal touches its neighbours' rows), so that choosing the
        // next vertex is one scan however many vertices tie: recomputing each tied
        // vertex's ex-degree at every step was cubic on graphs with many ties.
        let n = self.order();
        let mut alive = Bitset::full(n);
        let original: Vec<usize> = (0..n).map(|v| self.degree(v)).collect();
        let mut degree = original.clone();
        let mut exdeg: Vec<usize> = (0..n)
            .map(|v| {
                let mut sum = 0;
                self.for_each_neighbour_in(v, &alive, |u| sum += degree[u]);
                sum
            })
            .collect();
        let mut reversed = Vec::with_capacity(n);
        for _ in 0..n {
            let v = alive
                .iter()
                .min_by_key(|&v| (degree[v], exdeg[v], original[v], Reverse(v)))
                .expect("a vertex remains");
            alive.remove(v);
            let gone = degree[v];
            self.for_each_neighbour_in(v, &alive, |u| {
                // `v` leaves `u`'s sum, and `u` loses a neighbour, which every remaining
                // neighbour of `u` sees in its own sum.
                degree[u] -= 1;
                exdeg[u] -= gone;
                self.for_each_neighbour_in(u, &alive, |x| exdeg[x] -= 1);
            });
            reversed.push(v);
        }
        reversed.reverse();
        reversed
    }

    /// Calls `f` with every neighbour of `v` in `set`, word by word over the row.
    fn for_each_neighbour_in(&self, v: usize, set: &Bitset, mut f: impl FnMut(usize)) {
        let words = self.adjacency[v].words().iter().zip(set.words());
        for (i, (row, member)) in words.enumerate() {
            let mut rest = row & member;
            while rest != 0 {
                f(i * 64 + rest.trailing_zeros() as usize);
                rest &= rest - 1;
            }
        }
    }

    /// The graph with vertex `order[i]` renamed `i`.
    pub fn renumbered(&self, order: &[usize]) -> Graph {
        let mut position = vec![0; self.order()];
        for (i, &v) in order.iter().enumerate() {
            position[v] = i;
        }
        let mut graph = Graph::new(self.order());
        for (u, row) in self.adjacency.iter().enumerate() {
            for v in row.iter().filter(|&v| v > u) {
                graph.add_edge(position[u], position[v]);
            }
        }
        graph
    }
}

#[cfg(test)]
mod tests {
    use super::Graph;
    use std::cmp::Reverse;

    #[test]
    fn min_width_order_puts_the_least_degree_last_repeatedly() {
        // A star 0-{1,2,3} plus the edge 2-3. Removed first: 1 (degree 1); then all
        // have degree 2 and ex-degree 4, 2 and 3 have the smaller original degree, the
        // larger index goes: 3; then 0 and 2 tie on degree and ex-degree, 2 has the
        // smaller original degree; then 0. The order is the removals reversed.
        let mut g = Graph::new(4);
        for (u, v) in [(0, 1), (0, 2), (0, 3), (2, 3)] {
            g.add_edge(u, v);
        }
        assert_eq!(g.min_width_order(), vec![0, 2, 3, 1]);
        assert!(Graph::new(0).min_width_order().is_empty());
    }

    /// The order by definition: at each step every remaining vertex's degree and
    /// ex-degree counted afresh.
    fn min_width_order_by_recount(g: &Graph) -> Vec<usize> {
        let n = g.order();
        let mut alive = vec![true; n];
        let mut reversed = Vec::new();
        for _ in 0..n {
            let neighbours = |v: usize| (0..n).filter(move |&u| g.has_edge(v, u));
            let degree: Vec<usize> = (0..n)
                .map(|v| neighbours(v).filter(|&u| alive[u]).count())
                .collect();
            let v = (0..n)
                .filter(|&v| alive[v])
                .min_by_key(|&v| {
                    let exdeg: usize = neighbours(v).filter(|&u| alive[u]).map(|u| degree[u]).sum();
                    (degree[v], exdeg, g.degree(v), Reverse(v))
                })
                .unwrap();
            alive[v] = false;
            reversed.push(v);
        }
        reversed.reverse();
        reversed
    }

    #[test]
    fn min_width_order_matches_its_definition_on_random_graphs() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..120 {
            // Up to 130 vertices (three words a row); densities from none (all tied)
            // to almost complete.
            let n = (next() % 131) as usize;
            let density = next() % 101;
            let mut g = Graph::new(n);
            for u in 0..n {
                for v in u + 1..n {
                    if next() % 100 < density {
                        g.add_edge(u, v);
                    }
                }
            }
            assert_eq!(
                g.min_width_order(),
                min_width_order_by_recount(&g),
                "case {case}: {n} vertices, density {density} %"
            );
        }
    }

    #[test]
    fn min_width_order_of_a_large_graph_of_ties_is_quick_to_compute() {
        // 8,000 vertices, all but a triangle isolated: every step ties thousands of
        // vertices (recounting their ex-degrees made this take minutes). Not a timing
        // assertion: a cubic order would simply not finish within the test run.
        let mut g = Graph::new(8_000);
        for (u, v) in [(0, 1), (1, 2), (0, 2)] {
            g.add_edge(u, v);
        }
        let order = g.min_width_order();
        assert_eq!(order.len(), 8_000);
        // The triangle is removed last (highest degree): it comes first.
        let mut first: Vec<usize> = order[..3].to_vec();
        first.sort_unstable();
        assert_eq!(first, vec![0, 1, 2]);
    }
}
