//! Trees far deeper than a thread's stack (issue 24): a path of depth 1,000,000 and a
//! comb (the same path with a leaf hanging from every level) complete under every
//! search type × coordination on 1 and 2 threads, with exact node counts and answers.
//!
//! Sized for release builds (`cargo test --release`, as CI runs it); unoptimised
//! builds use a depth of 100,000, still far beyond a 2 MiB worker stack.

use magpie_search::{
    decide, enumerate, optimise, Bounded, NodesPerDepth, Objective, SearchConfig, SearchSpace,
};

use crate::common;

/// The depth of the deep trees.
const DEPTH: u32 = if cfg!(debug_assertions) {
    100_000
} else {
    1_000_000
};

/// A path of `depth` edges; with `teeth`, every path node above the last also has a
/// leaf child (generated first, so that every split has a sibling to take).
struct Comb {
    depth: u32,
    teeth: bool,
}

/// A node: its level, and whether it lies on the path (else it is a leaf tooth).
type Node = (u32, bool);

impl SearchSpace for Comb {
    type Node = Node;
    type Children<'a> = std::iter::Flatten<std::array::IntoIter<Option<Node>, 2>>;

    fn root(&self) -> Node {
        (0, true)
    }

    fn children<'a>(&'a self, &(level, on_path): &'a Node) -> Self::Children<'a> {
        let more = on_path && level < self.depth;
        let tooth = (more && self.teeth).then_some((level + 1, false));
        let next = more.then_some((level + 1, true));
        [tooth, next].into_iter().flatten()
    }
}

/// Objective: a path node's level, 0 for a tooth (the deepest path node is the
/// unique optimum).
impl Objective for Comb {
    type Value = u32;
    fn objective(&self, &(level, on_path): &Node) -> u32 {
        if on_path {
            level
        } else {
            0
        }
    }
}

impl Bounded for Comb {
    fn upper_bound(&self, &(_, on_path): &Node) -> u32 {
        if on_path {
            self.depth
        } else {
            0
        }
    }
}

/// Every coordination on `threads` workers. Under budget 1 the comb splits at every
/// tooth: a task per level, 1,000,000 tasks, each starting a level deeper (the
/// per-depth counts cost nothing per task: a worker's tasks share them).
fn check_every_coordination(threads: usize, teeth: bool) {
    let pool = common::pool(threads);
    let leaves_per_level = u64::from(teeth);
    for (name, config) in common::every_coordination(&pool) {
        let depth = DEPTH;
        let space = Comb { depth, teeth };
        let levels = depth as usize + 1;
        let start = std::time::Instant::now();
        let outcome = enumerate(&space, &NodesPerDepth, &config);
        let counts = outcome.answer.counts();
        assert_eq!(counts.len(), levels, "{name}");
        assert_eq!(counts[0], 1, "{name}");
        assert!(
            counts[1..].iter().all(|&n| n == 1 + leaves_per_level),
            "{name}: a level has the wrong count"
        );
        let nodes = u64::from(depth) * (1 + leaves_per_level) + 1;
        assert_eq!(outcome.answer.total(), nodes, "{name}");
        assert_eq!(outcome.stats.nodes_expanded, nodes, "{name}");

        let best = optimise(&space, &config).answer;
        assert_eq!(best.value, depth, "{name}");
        assert_eq!(best.node, (depth, true), "{name}");

        let found = decide(&space, depth, &config).answer;
        assert_eq!(found, Some((depth, true)), "{name}");
        assert_eq!(decide(&space, depth + 1, &config).answer, None, "{name}");
        eprintln!("{name}: {:?}", start.elapsed());
    }
}

#[test]
fn a_deep_path_completes_on_one_thread() {
    check_every_coordination(1, false);
}

#[test]
fn a_deep_path_completes_on_two_threads() {
    check_every_coordination(2, false);
}

#[test]
fn a_deep_comb_completes_on_one_thread() {
    check_every_coordination(1, true);
}

#[test]
fn a_deep_comb_completes_on_two_threads() {
    check_every_coordination(2, true);
}

/// The pool's worker stack size stays the user's choice: small worker stacks still
/// run deep trees (the traversal moves to heap segments when the stack runs short).
#[test]
fn small_worker_stacks_run_deep_trees() {
    let pool = magpie::ThreadPoolBuilder::new()
        .num_threads(2)
        .stack_size(256 * 1024)
        .build()
        .unwrap();
    let space = Comb {
        depth: DEPTH,
        teeth: true,
    };
    for config in [
        SearchConfig::sequential(),
        SearchConfig::stack_stealing(false),
        SearchConfig::budget(1),
        SearchConfig::budget(1_000),
    ] {
        let outcome = enumerate(&space, &NodesPerDepth, &config.in_pool(&pool));
        assert_eq!(outcome.stats.nodes_expanded, u64::from(DEPTH) * 2 + 1);
    }
}
