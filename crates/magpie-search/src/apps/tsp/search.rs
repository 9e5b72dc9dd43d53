//! The TSP as a search space: partial tours from city 0, extended in
//! nearest-neighbour order. The rest of a partial tour is a Hamiltonian path from
//! its end through every unvisited city back to city 0; its inner edges form a
//! spanning tree of the unvisited cities, so a minimum spanning tree plus the
//! cheapest edge from each end bounds it below. Distances are penalised by
//! Held–Karp penalties computed once at the root (see `penalties.rs`), which
//! makes the bound tight near the root.
//!
//! Objectives are negated lengths (the framework maximises); incomplete tours have
//! the minimum objective. A tour and its reverse are the same, so only tours whose
//! second city is below their last one are generated.

use crate::space::{Bounded, Objective, SearchSpace};

use super::instance::TspInstance;
use super::penalties::{held_karp_penalties, spanning_tree};

/// The TSP search space of an instance.
#[derive(Clone, Debug)]
pub struct TspSpace {
    cities: usize,
    /// Row-major distances.
    weights: Vec<u64>,
    /// For each city, the other cities by non-decreasing distance.
    neighbours: Vec<Vec<usize>>,
    /// Held–Karp penalties `π` of the cities.
    penalties: Vec<i64>,
    /// Row-major penalised distances `d(i, j) + π_i + π_j`.
    penalised: Vec<i64>,
    /// The first incumbent: a 2-opt tour.
    heuristic: Tour,
    /// The penalised 1-tree bound on every tour (the root's bound).
    root_bound: u64,
}

/// A node: a path from city 0, the set it visits, its length and a lower bound on
/// every complete tour extending it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TourNode {
    /// The cities in visiting order, starting with 0.
    path: Vec<usize>,
    /// The visited cities as a bitset.
    visited: Vec<u64>,
    /// The length of the path (without the way back to city 0).
    length: u64,
    /// No complete tour in this subtree is shorter.
    bound: u64,
}

impl TourNode {
    /// The cities visited so far, in order, starting with city 0.
    pub fn path(&self) -> &[usize] {
        &self.path
    }

    /// The length of the path so far (without the way back to city 0).
    pub fn length(&self) -> u64 {
        self.length
    }
}

/// A closed tour: the cities in visiting order (0-based, starting with city 0;
/// city `i` is node `i + 1` of a TSPLIB file) and its length including the way back.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tour {
    /// Every city once, starting with city 0.
    pub cities: Vec<usize>,
    /// The length of the closed tour.
    pub length: u64,
}

fn contains(set: &[u64], city: usize) -> bool {
    set[city / 64] & (1 << (city % 64)) != 0
}

fn insert(set: &mut [u64], city: usize) {
    set[city / 64] |= 1 << (city % 64);
}

impl TspSpace {
    /// The search space of `instance`.
    pub fn new(instance: &TspInstance) -> Self {
        let n = instance.cities();
        let weights: Vec<u64> = (0..n * n)
            .map(|k| instance.distance(k / n, k % n))
            .collect();
        let neighbours = (0..n)
            .map(|i| {
                let mut others: Vec<usize> = (0..n).filter(|&j| j != i).collect();
                others.sort_by_key(|&j| (weights[i * n + j], j));
                others
            })
            .collect();
        let mut space = Self {
            cities: n,
            weights,
            neighbours,
            penalties: vec![0; n],
            penalised: Vec::new(),
            heuristic: Tour {
                cities: Vec::new(),
                length: 0,
            },
            root_bound: 0,
        };
        space.heuristic = space.two_opt_tour();
        let upper = space.heuristic.length;
        let (penalties, bound) = held_karp_penalties(n, |i, j| space.distance(i, j), upper);
        space.penalties = penalties;
        space.root_bound = u64::try_from(bound).unwrap_or(0);
        let pi = &space.penalties;
        space.penalised = (0..n * n)
            .map(|k| space.weights[k] as i64 + pi[k / n] + pi[k % n])
            .collect();
        space
    }

    fn distance(&self, i: usize, j: usize) -> u64 {
        self.weights[i * self.cities + j]
    }

    /// The closed tour of a complete node (`None` for an incomplete one).
    pub fn tour_of(&self, node: &TourNode) -> Option<Tour> {
        (node.path.len() == self.cities).then(|| Tour {
            cities: node.path.clone(),
            length: self.closed_length(node),
        })
    }

    fn closed_length(&self, node: &TourNode) -> u64 {
        let end = node.path[node.path.len() - 1];
        node.length + self.distance(end, 0)
    }

    /// The complete node of `tour` (a permutation of the cities starting with 0).
    pub(super) fn node_of(&self, tour: &[usize]) -> TourNode {
        let mut visited = vec![0; self.cities.div_ceil(64)];
        tour.iter().for_each(|&c| insert(&mut visited, c));
        let length = tour.windows(2).map(|w| self.distance(w[0], w[1])).sum();
        let mut node = TourNode {
            path: tour.to_vec(),
            visited,
            length,
            bound: 0,
        };
        node.bound = self.closed_length(&node);
        node
    }

    /// A good first tour: nearest neighbour from city 0, improved by 2-opt moves
    /// until none shortens it.
    pub fn heuristic_tour(&self) -> &Tour {
        &self.heuristic
    }

    /// The complete node of [`heuristic_tour`](Self::heuristic_tour): the first
    /// incumbent of a search.
    pub fn heuristic_node(&self) -> TourNode {
        self.node_of(&self.heuristic.cities)
    }

    /// A lower bound on the length of every tour: the minimum 1-tree under the
    /// Held–Karp penalties the search uses.
    pub fn root_bound(&self) -> u64 {
        self.root_bound
    }

    fn two_opt_tour(&self) -> Tour {
        let n = self.cities;
        let mut tour = vec![0];
        let mut visited = vec![false; n];
        visited[0] = true;
        for _ in 1..n {
            let end = tour[tour.len() - 1];
            let next = self.neighbours[end].iter().find(|&&c| !visited[c]);
            let Some(&next) = next else { break };
            visited[next] = true;
            tour.push(next);
        }
        let d = |a: usize, b: usize| self.distance(a, b);
        let mut improved = true;
        while improved {
            improved = false;
            for i in 0..n.saturating_sub(2) {
                for j in i + 2..n {
                    let (a, b, c, e) = (tour[i], tour[i + 1], tour[j], tour[(j + 1) % n]);
                    if d(a, c) + d(b, e) < d(a, b) + d(c, e) {
                        tour[i + 1..=j].reverse();
                        improved = true;
                    }
                }
            }
        }
        let node = self.node_of(&tour);
        Tour {
            length: self.closed_length(&node),
            cities: tour,
        }
    }

    /// A lower bound on every complete tour extending a path of `length` that ends
    /// at `end` (not city 0) and visits `visited`: the rest of the tour is a path
    /// from `end` through the unvisited cities to city 0, whose inner edges form a
    /// spanning tree of the unvisited cities; under penalised distances that is at
    /// least a minimum spanning tree plus the cheapest edge from each end.
    fn lower_bound(&self, end: usize, visited: &[u64], length: u64) -> u64 {
        let unvisited: Vec<usize> = (0..self.cities)
            .filter(|&c| !contains(visited, c))
            .collect();
        if unvisited.is_empty() {
            return length + self.distance(end, 0);
        }
        let n = self.cities;
        let weight = |i: usize, j: usize| self.penalised[i * n + j];
        let cheapest_from = |city: usize| {
            unvisited
                .iter()
                .map(|&u| weight(city, u))
                .min()
                .unwrap_or(0)
        };
        let tree = spanning_tree(&unvisited, weight, |_, _| {});
        let pi = &self.penalties;
        // The path's degrees: 1 at each end, 2 at every unvisited city.
        let degrees: i64 = pi[end] + pi[0] + 2 * unvisited.iter().map(|&u| pi[u]).sum::<i64>();
        let rest = tree + cheapest_from(end) + cheapest_from(0) - degrees;
        length + u64::try_from(rest).unwrap_or(0)
    }
}

/// The children of a tour node, generated lazily: the unvisited cities nearest to
/// the path's end first.
pub struct TourChildren<'a> {
    space: &'a TspSpace,
    /// The parent (`None` for a complete tour, which has no children).
    parent: Option<&'a TourNode>,
    /// The path end's neighbours still to try.
    candidates: std::slice::Iter<'a, usize>,
    /// The two highest-numbered unvisited cities, for the reversal check.
    highest: [Option<usize>; 2],
}

impl TourChildren<'_> {
    /// Whether a tour can still have its second city below its last once `city` is
    /// appended: some city above the second must remain for the end (or, appending
    /// the last city, it must be above the second).
    fn keeps_orientation(&self, parent: &TourNode, city: usize) -> bool {
        if self.space.cities < 3 {
            return true;
        }
        let second = parent.path.get(1).copied().unwrap_or(city);
        let highest_left = if self.highest[0] == Some(city) {
            self.highest[1]
        } else {
            self.highest[0]
        };
        highest_left.unwrap_or(city) > second
    }
}

impl Iterator for TourChildren<'_> {
    type Item = TourNode;

    fn next(&mut self) -> Option<TourNode> {
        let parent = self.parent?;
        let space = self.space;
        let end = parent.path[parent.path.len() - 1];
        loop {
            let city = *self.candidates.next()?;
            if contains(&parent.visited, city) || !self.keeps_orientation(parent, city) {
                continue;
            }
            let mut path = Vec::with_capacity(parent.path.len() + 1);
            path.extend_from_slice(&parent.path);
            path.push(city);
            let mut visited = parent.visited.clone();
            insert(&mut visited, city);
            let length = parent.length + space.distance(end, city);
            let bound = space.lower_bound(city, &visited, length);
            return Some(TourNode {
                path,
                visited,
                length,
                bound,
            });
        }
    }
}

impl SearchSpace for TspSpace {
    type Node = TourNode;
    type Children<'a> = TourChildren<'a>;

    /// The path `[0]`, bounded by the penalised 1-tree.
    fn root(&self) -> TourNode {
        let mut visited = vec![0; self.cities.div_ceil(64)];
        insert(&mut visited, 0);
        TourNode {
            path: vec![0],
            visited,
            length: 0,
            bound: self.root_bound,
        }
    }

    fn children<'a>(&'a self, node: &'a TourNode) -> TourChildren<'a> {
        let end = node.path[node.path.len() - 1];
        let complete = node.path.len() == self.cities;
        let mut highest = [None; 2];
        let unvisited = (0..self.cities)
            .rev()
            .filter(|&c| !contains(&node.visited, c));
        for (slot, city) in highest.iter_mut().zip(unvisited) {
            *slot = Some(city);
        }
        TourChildren {
            space: self,
            parent: (!complete).then_some(node),
            candidates: self.neighbours[end].iter(),
            highest,
        }
    }
}

impl Objective for TspSpace {
    /// The negated tour length; `i64::MIN` for incomplete tours.
    type Value = i64;

    fn objective(&self, node: &TourNode) -> i64 {
        if node.path.len() == self.cities {
            -(self.closed_length(node) as i64)
        } else {
            i64::MIN
        }
    }
}

impl Bounded for TspSpace {
    fn upper_bound(&self, node: &TourNode) -> i64 {
        -(node.bound as i64)
    }
}
