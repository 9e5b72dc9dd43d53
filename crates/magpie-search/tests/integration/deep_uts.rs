//! Deep UTS trees (issue 24) under every coordination on 1 and 2 threads, on pools
//! whose workers have 256 KiB stacks: the exact summary of the iterative reference
//! (and so of the sequential skeleton), one node expansion per node.
//!
//! The issue's `t=1,a=3,d=20000,b=4,r=29` is no test case: a geometric tree with
//! mean branching 4 down to depth 20,000 never ends (its first levels alone grow by
//! a factor of 4 each). The CLI runs it without overflowing, which is what the issue
//! asked; these trees are deep and finish:
//!
//! * a critical geometric tree (mean branching 1 at every level), whose seed was
//!   picked among 30,000 for its depth: 1,869 levels and 415,554 nodes (a random
//!   critical tree that deep has typically about a million);
//! * a binomial tree that is a path (each node has one child with probability
//!   0.99999): 105,911 levels.

use crate::common;

use magpie_search::apps::uts::{reference, uts_count, UtsParams};
use magpie_search::SearchConfig;

/// Checks `text`'s tree under every coordination: the reference's summary, which
/// must have `max_depth` and `nodes`.
fn check_every_coordination(text: &str, max_depth: u64, nodes: u64) {
    let params: UtsParams = text.parse().expect("valid parameters");
    let expected = reference::summarise(&params);
    assert_eq!((expected.max_depth, expected.nodes), (max_depth, nodes));
    let sequential = uts_count(&params, &SearchConfig::sequential());
    assert_eq!(sequential.answer, expected, "{text}, sequential");
    for threads in [1, 2] {
        let pool = magpie::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(256 * 1024)
            .build()
            .unwrap();
        for (name, config) in common::every_coordination(&pool) {
            let start = std::time::Instant::now();
            let outcome = uts_count(&params, &config);
            assert_eq!(outcome.answer, expected, "{text}, {name}");
            assert_eq!(outcome.stats.nodes_expanded, nodes, "{text}, {name}");
            eprintln!("{text}, {name}: {:?}", start.elapsed());
        }
    }
}

#[test]
fn a_deep_critical_geometric_tree() {
    check_every_coordination("t=1,a=3,d=100000,b=1,r=5316", 1_869, 415_554);
}

#[test]
fn a_binomial_path() {
    check_every_coordination("t=0,b=1,q=0.99999,m=1,r=13", 105_911, 105_912);
}
