//! The skeletons on small synthetic trees with known answers.

use magpie_search::{
    decide, decide_with, enumerate, optimise, optimise_with, Bounded, Coordination, Enumerator,
    Incumbent, Monoid, NodesPerDepth, Objective, SearchConfig, SearchSpace, SharedIncumbent,
    StopFlag, StopSignal,
};

/// Binary strings of length up to `depth`; a node is (bits, length).
struct BitStrings {
    depth: u32,
}

impl SearchSpace for BitStrings {
    type Node = (u64, u32);
    type Children<'a> = std::vec::IntoIter<(u64, u32)>;

    fn root(&self) -> (u64, u32) {
        (0, 0)
    }

    fn children<'a>(&'a self, &(bits, len): &'a (u64, u32)) -> Self::Children<'a> {
        if len == self.depth {
            return Vec::new().into_iter();
        }
        // Heuristic order: the 1-bit first (it gives the larger objective).
        vec![(bits << 1 | 1, len + 1), (bits << 1, len + 1)].into_iter()
    }
}

/// Objective: a signed score, +1 per 1-bit and -2 per 0-bit.
impl Objective for BitStrings {
    type Value = i64;
    fn objective(&self, &(bits, len): &(u64, u32)) -> i64 {
        let ones = i64::from(bits.count_ones());
        ones - 2 * (i64::from(len) - ones)
    }
}

impl Bounded for BitStrings {
    fn upper_bound(&self, node: &(u64, u32)) -> i64 {
        self.objective(node) + i64::from(self.depth - node.1)
    }
}

use crate::common;

/// Every coordination in `pool`, plus a depth-bounded run in the global pool.
fn configs(pool: &magpie::ThreadPool) -> Vec<SearchConfig<'_>> {
    let mut configs: Vec<_> = common::every_coordination(pool)
        .into_iter()
        .map(|(_, config)| config)
        .collect();
    configs.push(SearchConfig::depth_bounded(4).in_pool(pool));
    configs.push(SearchConfig::depth_bounded(3));
    configs.push(SearchConfig::stack_stealing(true));
    configs
}

#[test]
fn node_counts_per_depth_are_exact_under_every_coordination() {
    let pool = common::pool(2);
    let space = BitStrings { depth: 14 };
    let expected: Vec<u64> = (0..=14).map(|d| 1 << d).collect();
    for config in configs(&pool) {
        let outcome = enumerate(&space, &NodesPerDepth, &config);
        assert_eq!(outcome.answer.counts(), expected.as_slice(), "{config:?}");
        assert_eq!(outcome.stats.nodes_expanded, (1 << 15) - 1);
        assert_eq!(outcome.stats.prunes, 0);
    }
}

/// How many tasks each coordination makes: the splitting rules themselves.
#[test]
fn coordinations_split_the_tree_as_documented() {
    let one = common::pool(1);
    let two = common::pool(2);
    let space = BitStrings { depth: 12 };
    let tasks = |config: SearchConfig<'_>| {
        let outcome = enumerate(&space, &NodesPerDepth, &config);
        assert_eq!(outcome.answer.total(), (1 << 13) - 1, "{config:?}");
        outcome.stats.tasks
    };
    assert_eq!(tasks(SearchConfig::sequential()), 1);
    // The root task, its 2 children, their 4 children.
    assert_eq!(tasks(SearchConfig::depth_bounded(2).in_pool(&one)), 7);
    // Nobody is ever idle in a one-worker pool, so stack stealing never splits ...
    assert_eq!(tasks(SearchConfig::stack_stealing(false).in_pool(&one)), 1);
    assert_eq!(tasks(SearchConfig::stack_stealing(true).in_pool(&one)), 1);
    // ... while in a two-worker pool the other worker starts idle and gets work.
    assert!(tasks(SearchConfig::stack_stealing(false).in_pool(&two)) > 1);
    // A budget splits after its backtracks whether or not anyone is idle.
    assert_eq!(tasks(SearchConfig::budget(u64::MAX).in_pool(&one)), 1);
    let small_budget = tasks(SearchConfig::budget(1).in_pool(&one));
    let large_budget = tasks(SearchConfig::budget(1000).in_pool(&one));
    assert!(small_budget > large_budget && large_budget > 1);
}

/// [`BitStrings`], logging each node whose children are generated.
struct Logged {
    space: BitStrings,
    expanded: std::sync::Mutex<Vec<(u64, u32)>>,
}

impl SearchSpace for Logged {
    type Node = (u64, u32);
    type Children<'a> = std::vec::IntoIter<(u64, u32)>;
    fn root(&self) -> (u64, u32) {
        self.space.root()
    }
    fn children<'a>(&'a self, node: &'a (u64, u32)) -> Self::Children<'a> {
        self.expanded.lock().unwrap().push(*node);
        self.space.children(node)
    }
}

/// On one worker every coordination expands the nodes in the sequential order (the
/// heuristic order, which branch and bound relies on), however it splits the tree.
#[test]
fn one_worker_searches_in_the_sequential_order_under_every_coordination() {
    let order = |config: &SearchConfig<'_>| {
        let space = Logged {
            space: BitStrings { depth: 9 },
            expanded: std::sync::Mutex::new(Vec::new()),
        };
        let outcome = enumerate(&space, &NodesPerDepth, config);
        assert_eq!(outcome.answer.total(), (1 << 10) - 1, "{config:?}");
        (space.expanded.into_inner().unwrap(), outcome.stats.tasks)
    };
    let (sequential, _) = order(&SearchConfig::sequential());
    assert_eq!(sequential.len(), (1 << 10) - 1);
    let one = common::pool(1);
    for (name, config) in common::every_coordination(&one) {
        let (expanded, tasks) = order(&config);
        assert!(expanded == sequential, "{name}: expanded in another order");
        if name.starts_with("budget") || name.starts_with("depth") {
            assert!(tasks > 1, "{name}: the tree was not split");
        }
    }
}

/// A fake other process: wants `wanted` subtrees, and keeps them.
struct CollectingSink {
    wanted: std::sync::atomic::AtomicUsize,
    received: std::sync::Mutex<Vec<((u64, u32), usize)>>,
}

impl magpie_search::RemoteSink for CollectingSink {
    fn wants_work(&self) -> bool {
        self.wanted.load(std::sync::atomic::Ordering::Relaxed) > 0
    }

    fn send(&self, node: Box<dyn std::any::Any + Send>, depth: usize) {
        let node = *node.downcast::<(u64, u32)>().expect("a BitStrings node");
        assert_eq!(node.1 as usize, depth);
        self.wanted
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        self.received.lock().unwrap().push((node, depth));
    }
}

/// The subtree of one node, searched as if it were the whole tree.
struct Subtree<'a> {
    space: &'a BitStrings,
    root: (u64, u32),
}

impl SearchSpace for Subtree<'_> {
    type Node = (u64, u32);
    type Children<'a>
        = std::vec::IntoIter<(u64, u32)>
    where
        Self: 'a;
    fn root(&self) -> (u64, u32) {
        self.root
    }
    fn children<'a>(&'a self, node: &'a (u64, u32)) -> Self::Children<'a> {
        self.space.children(node)
    }
}

/// Work sent to another process is not searched here, and searching it there makes
/// up the difference exactly. With one worker nobody local is ever idle, so every
/// request is served; with two, local idle workers come first.
#[test]
fn subtrees_handed_to_a_remote_sink_complete_the_search() {
    let space = BitStrings { depth: 12 };
    for threads in [1, 2] {
        let pool = common::pool(threads);
        for (name, config) in common::every_coordination(&pool) {
            if matches!(
                config.coordination,
                Coordination::Sequential | Coordination::DepthBounded { .. }
            ) {
                continue;
            }
            let sink = CollectingSink {
                wanted: 5.into(),
                received: Default::default(),
            };
            let here = enumerate(&space, &NodesPerDepth, &config.with_remote(&sink)).answer;
            let received = sink.received.into_inner().unwrap();
            if threads == 1 {
                assert_eq!(received.len(), 5, "{name}");
            }
            assert!(received.len() <= 5, "{name}");
            let there: u64 = received
                .iter()
                .map(|&(root, _)| {
                    let subtree = Subtree {
                        space: &space,
                        root,
                    };
                    enumerate(&subtree, &NodesPerDepth, &SearchConfig::sequential())
                        .answer
                        .total()
                })
                .sum();
            assert_eq!(here.total() + there, (1 << 13) - 1, "{name}");
        }
    }
}

/// The live counter ends equal to the reported node count under every coordination.
#[test]
fn progress_counts_every_visited_node() {
    let space = BitStrings { depth: 13 };
    for (name, config) in common::every_coordination(&common::pool(2)) {
        let progress = magpie_search::Progress::new();
        let outcome = enumerate(&space, &NodesPerDepth, &config.with_progress(&progress));
        assert_eq!(progress.nodes(), outcome.stats.nodes_expanded, "{name}");
        assert_eq!(progress.nodes(), (1 << 14) - 1, "{name}");
    }
}

/// A user monoid: the sum of objectives and the number of leaves.
#[derive(Default, Debug, PartialEq)]
struct ScoreAndLeaves {
    score: i64,
    leaves: u64,
}

impl Monoid for ScoreAndLeaves {
    fn combine(&mut self, other: Self) {
        self.score += other.score;
        self.leaves += other.leaves;
    }
}

struct ScoreEnumerator;

impl Enumerator<BitStrings> for ScoreEnumerator {
    type Summary = ScoreAndLeaves;
    fn record(&self, node: &(u64, u32), depth: usize, summary: &mut ScoreAndLeaves) {
        summary.score += BitStrings { depth: 10 }.objective(node);
        summary.leaves += u64::from(depth == 10);
    }
}

#[test]
fn user_monoids_combine_identically() {
    let pool = common::pool(2);
    let space = BitStrings { depth: 10 };
    let expected = enumerate(&space, &ScoreEnumerator, &SearchConfig::sequential()).answer;
    assert_eq!(expected.leaves, 1024);
    for config in configs(&pool) {
        assert_eq!(
            enumerate(&space, &ScoreEnumerator, &config).answer,
            expected
        );
    }
}

#[test]
fn optimisation_finds_the_best_node_with_and_without_sibling_pruning() {
    let pool = common::pool(2);
    let space = BitStrings { depth: 12 };
    for config in configs(&pool) {
        for prune_siblings in [false, true] {
            let config = config.with_sibling_pruning(prune_siblings);
            let outcome = optimise(&space, &config);
            assert_eq!(outcome.answer.value, 12, "{config:?}");
            assert_eq!(outcome.answer.node, (0xfff, 12));
            assert!(outcome.stats.prunes > 0);
            assert!(outcome.stats.nodes_expanded < 1 << 13);
        }
    }
}

#[test]
fn optimisation_against_a_seeded_incumbent_prunes_everything() {
    let space = BitStrings { depth: 8 };
    let incumbent = SharedIncumbent::new((0xff, 8), 8);
    let stats = optimise_with(&space, &SearchConfig::sequential(), &incumbent);
    assert_eq!(stats.nodes_expanded, 1, "only the root is visited");
    assert_eq!(incumbent.best_value(), 8);
    assert!(
        !incumbent.offer(&(0, 0), 8),
        "ties do not replace the incumbent"
    );
}

#[test]
fn decision_finds_a_node_reaching_the_target_or_proves_none() {
    let pool = common::pool(2);
    let space = BitStrings { depth: 12 };
    for config in configs(&pool) {
        let found = decide(&space, 5, &config);
        let node = found.answer.expect("a string with score 5 exists");
        assert!(space.objective(&node) >= 5);
        assert_eq!(decide(&space, 13, &config).answer, None, "{config:?}");
    }
}

#[test]
fn decision_stops_when_the_stop_signal_is_raised() {
    let space = BitStrings { depth: 12 };
    let stop = StopFlag::new();
    stop.stop();
    let outcome = decide_with(&space, 5, &SearchConfig::sequential(), &stop);
    assert_eq!(outcome.answer, None);
    assert_eq!(outcome.stats.nodes_expanded, 0);
}
