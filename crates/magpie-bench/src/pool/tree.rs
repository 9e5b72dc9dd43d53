//! Binary tree sum: a balanced tree of `2^k` heap-allocated nodes is built once
//! (untimed); each run sums it by `join` recursion, one join per node with two children.
//! The node values are `0..2^k`, so the expected sum is `2^k (2^k − 1) / 2`.

use super::run::{run_and_check, Config, ForkJoin, ForkJoinTask, Workload};
use crate::BenchError;

/// A node of the tree.
#[derive(Debug)]
pub struct Node {
    value: u64,
    left: Option<Box<Node>>,
    right: Option<Box<Node>>,
}

/// A balanced tree of `n` nodes with the values `first..first + n` in preorder
/// (`None` when `n == 0`). Recursion depth is `log2 n`.
pub fn build(first: u64, n: u64) -> Option<Box<Node>> {
    if n == 0 {
        return None;
    }
    let left = (n - 1) / 2;
    Some(Box::new(Node {
        value: first,
        left: build(first + 1, left),
        right: build(first + 1 + left, n - 1 - left),
    }))
}

/// Sum of the values below and at `node`, children forked with `F::join`.
pub fn sum<F: ForkJoin>(node: &Node) -> u64 {
    let (l, r) = match (&node.left, &node.right) {
        (Some(a), Some(b)) => F::join(|| sum::<F>(a), || sum::<F>(b)),
        (Some(a), None) => (sum::<F>(a), 0),
        (None, Some(b)) => (0, sum::<F>(b)),
        (None, None) => (0, 0),
    };
    node.value + l + r
}

struct SumTask<'a>(&'a Node);

impl ForkJoinTask for SumTask<'_> {
    type Out = u64;

    fn run<F: ForkJoin>(self) -> u64 {
        sum::<F>(self.0)
    }
}

/// The sum of a tree of `2^log2` nodes on `configs`; builds it (untimed, ~32 B a node).
pub fn workload(log2: u32, configs: &[Config]) -> Result<Workload, BenchError> {
    if !(1..=30).contains(&log2) {
        return Err(BenchError::Invalid(format!(
            "tree size 2^{log2}: need 1 <= log2 <= 30"
        )));
    }
    let n = 1u64 << log2;
    let root = build(0, n).ok_or_else(|| BenchError::Invalid("empty tree".into()))?;
    let (size, label) = (format!("nodes=2^{log2}"), format!("tree 2^{log2}"));
    let want = n * (n - 1) / 2;
    Ok(Workload::new(
        "tree-sum",
        size,
        label,
        configs,
        move |c, pools, label| run_and_check(SumTask(&root), c, pools, label, want),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::run::{answers, FORK_JOIN};

    fn count(n: &Node) -> u64 {
        1 + n.left.as_deref().map_or(0, count) + n.right.as_deref().map_or(0, count)
    }

    #[test]
    fn build_makes_exactly_n_nodes() {
        for n in [1u64, 2, 3, 7, 8, 1000] {
            assert_eq!(build(0, n).as_deref().map_or(0, count), n);
        }
        assert!(build(0, 0).is_none());
    }

    #[test]
    fn runs_and_verifies_on_both() {
        let w = workload(12, &FORK_JOIN).unwrap();
        assert_eq!(answers(w), [4096 * 4095 / 2; 2]);
        assert!(workload(0, &FORK_JOIN).is_err());
    }
}
