//! 0/1 knapsack as a search space: items in non-increasing profit/weight order, a
//! binary tree (take the next item if it fits, then skip it), and the Dantzig bound
//! (the fractional relaxation of the remaining items) as the upper bound.
//!
//! Two cheap refinements keep the tree small on the hard, nearly equal-ratio
//! instances: items too heavy for the capacity left are skipped without a node and
//! left out of the relaxation, and among identical items only prefixes are taken.

use crate::space::{Bounded, Objective, SearchSpace};

use super::decimal::Decimal;
use super::instance::KnapsackInstance;

/// The knapsack search space of an instance. Items are renumbered internally by
/// non-increasing profit/weight ratio; answers use the original numbers.
#[derive(Clone, Debug)]
pub struct KnapsackSpace {
    /// Profits in ratio order (fixed-point units).
    profits: Vec<u64>,
    /// Weights in ratio order (fixed-point units).
    weights: Vec<u64>,
    /// `original[i]` is the input number of item `i` in ratio order.
    original: Vec<usize>,
    capacity: u64,
    profit_decimals: u32,
    weight_decimals: u32,
}

/// A node: the items decided so far (`0..next` in ratio order), what they leave of
/// the capacity, their profit, and a bound on the subtree.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KnapsackNode {
    /// The next item to decide on (ratio order).
    next: usize,
    /// The capacity left (weight units).
    remaining: u64,
    /// The profit of the chosen items (profit units).
    profit: u64,
    /// The chosen items as a bitset over ratio-order positions.
    chosen: Vec<u64>,
    /// No packing in this subtree has a profit above `bound` (profit units).
    bound: u64,
}

impl KnapsackNode {
    /// The profit of the chosen items in units of `10^-profit_decimals`.
    pub fn profit_units(&self) -> u64 {
        self.profit
    }

    /// The number of items decided on (taken or skipped) so far.
    pub fn depth(&self) -> usize {
        self.next
    }
}

/// A best packing: the items (input numbers, 0-based, sorted), their total profit
/// and total weight.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Solution {
    /// The chosen items, numbered from 0 in input order, ascending.
    pub items: Vec<usize>,
    /// Their total profit.
    pub profit: Decimal,
    /// Their total weight (at most the capacity).
    pub weight: Decimal,
}

impl KnapsackSpace {
    /// The search space of `instance`.
    pub fn new(instance: &KnapsackInstance) -> Self {
        let (profits, weights) = (instance.profit_units(), instance.weight_units());
        let mut original: Vec<usize> = (0..instance.item_count()).collect();
        // p_a / w_a > p_b / w_b  iff  p_a * w_b > p_b * w_a (weights are positive);
        // the stable sort keeps input order among equal ratios.
        original.sort_by(|&a, &b| {
            let left = u128::from(profits[a]) * u128::from(weights[b]);
            let right = u128::from(profits[b]) * u128::from(weights[a]);
            right.cmp(&left)
        });
        let profits: Vec<u64> = original.iter().map(|&i| profits[i]).collect();
        let weights: Vec<u64> = original.iter().map(|&i| weights[i]).collect();
        Self {
            profits,
            weights,
            original,
            capacity: instance.capacity_units(),
            profit_decimals: instance.profit_decimals(),
            weight_decimals: instance.weight_decimals(),
        }
    }

    /// The number of items.
    fn items(&self) -> usize {
        self.profits.len()
    }

    /// The Dantzig bound of items `first..` with `capacity` left: fill greedily in
    /// ratio order and take the fraction of the first item that does not fit,
    /// rounded down (the profit of an integral packing is an integer in units).
    /// Items heavier than `capacity` on their own cannot be in any packing of the
    /// subtree, so they are left out. The instance guarantees that totals fit in a
    /// `u64`, and the fraction is below the item's profit.
    fn relaxation(&self, first: usize, capacity: u64) -> u64 {
        let mut left = capacity;
        let mut profit = 0;
        for j in first..self.items() {
            let weight = self.weights[j];
            if weight > capacity {
                continue;
            }
            if weight <= left {
                left -= weight;
                profit += self.profits[j];
            } else {
                let fraction = u128::from(left) * u128::from(self.profits[j]) / u128::from(weight);
                return profit + fraction as u64;
            }
        }
        profit
    }

    /// Whether item `i` may be taken: of identical items (adjacent in ratio order),
    /// only prefixes are taken, since any choice among them gives the same packing.
    fn may_take(&self, node: &KnapsackNode, i: usize) -> bool {
        i == 0
            || self.profits[i - 1] != self.profits[i]
            || self.weights[i - 1] != self.weights[i]
            || node.chosen[(i - 1) / 64] & (1 << ((i - 1) % 64)) != 0
    }

    /// The first item at or after `first` that fits in `capacity` (or the end).
    fn next_fitting(&self, first: usize, capacity: u64) -> usize {
        (first..self.items())
            .find(|&j| self.weights[j] <= capacity)
            .unwrap_or(self.items())
    }

    /// A node that has decided items `0..next` (and skips on to the next item that
    /// fits), with its bound.
    fn node(&self, next: usize, remaining: u64, profit: u64, chosen: Vec<u64>) -> KnapsackNode {
        let next = self.next_fitting(next, remaining);
        KnapsackNode {
            next,
            remaining,
            profit,
            chosen,
            bound: profit + self.relaxation(next, remaining),
        }
    }

    /// The greedy packing (every item that still fits, in ratio order): a cheap
    /// first incumbent.
    pub fn greedy(&self) -> KnapsackNode {
        let mut chosen = vec![0u64; self.items().div_ceil(64)];
        let (mut remaining, mut profit) = (self.capacity, 0);
        for i in 0..self.items() {
            if self.weights[i] <= remaining {
                remaining -= self.weights[i];
                profit += self.profits[i];
                chosen[i / 64] |= 1 << (i % 64);
            }
        }
        self.node(self.items(), remaining, profit, chosen)
    }

    /// The packing of `node` in input numbering.
    pub fn solution_of(&self, node: &KnapsackNode) -> Solution {
        let mut items: Vec<usize> = (0..self.items())
            .filter(|&i| node.chosen[i / 64] & (1 << (i % 64)) != 0)
            .map(|i| self.original[i])
            .collect();
        items.sort_unstable();
        Solution {
            items,
            profit: Decimal::new(node.profit, self.profit_decimals),
            weight: Decimal::new(self.capacity - node.remaining, self.weight_decimals),
        }
    }
}

/// The children of a knapsack node, generated lazily: take the next item (if it
/// fits), then skip it.
pub struct KnapsackChildren<'a> {
    space: &'a KnapsackSpace,
    /// The parent; `None` once both children are out (or for a leaf).
    parent: Option<&'a KnapsackNode>,
    /// Whether the take child has been considered.
    take_done: bool,
}

impl Iterator for KnapsackChildren<'_> {
    type Item = KnapsackNode;

    fn next(&mut self) -> Option<KnapsackNode> {
        let space = self.space;
        let parent = self.parent?;
        let i = parent.next;
        if !self.take_done {
            self.take_done = true;
            if space.weights[i] <= parent.remaining && space.may_take(parent, i) {
                let mut chosen = parent.chosen.clone();
                chosen[i / 64] |= 1 << (i % 64);
                return Some(space.node(
                    i + 1,
                    parent.remaining - space.weights[i],
                    parent.profit + space.profits[i],
                    chosen,
                ));
            }
        }
        self.parent = None;
        Some(space.node(
            i + 1,
            parent.remaining,
            parent.profit,
            parent.chosen.clone(),
        ))
    }
}

impl SearchSpace for KnapsackSpace {
    type Node = KnapsackNode;
    type Children<'a> = KnapsackChildren<'a>;

    fn root(&self) -> KnapsackNode {
        self.node(0, self.capacity, 0, vec![0; self.items().div_ceil(64)])
    }

    fn children<'a>(&'a self, node: &'a KnapsackNode) -> KnapsackChildren<'a> {
        let leaf = node.next == self.items();
        KnapsackChildren {
            space: self,
            parent: (!leaf).then_some(node),
            take_done: false,
        }
    }
}

impl Objective for KnapsackSpace {
    /// The profit in fixed-point units.
    type Value = u64;

    fn objective(&self, node: &KnapsackNode) -> u64 {
        node.profit
    }
}

impl Bounded for KnapsackSpace {
    fn upper_bound(&self, node: &KnapsackNode) -> u64 {
        node.bound
    }
}
