//! [`Graph`]: an undirected graph as one adjacency bitset per vertex.

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
