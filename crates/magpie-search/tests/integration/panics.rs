//! A panic in user code ends the whole search soon: the other tasks stop at their next
//! node instead of searching on (the caller gets the panic either way).

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};

use magpie_search::{enumerate, NodesPerDepth, SearchSpace};

use crate::common;

/// A ternary tree far too big to search, cut off after `cap` generator calls; the
/// generator panics on its `panic_at`-th call, once the workers are deep in the tree.
struct Doomed {
    calls: AtomicU64,
    panic_at: u64,
    cap: u64,
}

impl SearchSpace for Doomed {
    type Node = u32;
    type Children<'a> = std::ops::Range<u32>;

    fn root(&self) -> u32 {
        0
    }

    fn children<'a>(&'a self, &depth: &'a u32) -> Self::Children<'a> {
        let call = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        assert!(call != self.panic_at, "generator panicked");
        if call > self.cap || depth >= 40 {
            return 0..0;
        }
        // Three children, each one level deeper (the node is its depth).
        depth + 1..depth + 4
    }
}

#[test]
fn a_panic_stops_the_other_tasks() {
    let pool = common::pool(2);
    for (name, config) in common::every_coordination(&pool) {
        let space = Doomed {
            calls: AtomicU64::new(0),
            panic_at: 100_000,
            cap: 20_000_000,
        };
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            enumerate(&space, &NodesPerDepth, &config)
        }));
        assert!(result.is_err(), "{name}: the panic reaches the caller");
        let calls = space.calls.load(Ordering::Relaxed);
        // Before 481dca9 the other tasks searched on to the cap after a panic.
        assert!(
            calls < space.cap / 2,
            "{name}: {calls} generator calls after a panic at call {}",
            space.panic_at
        );
    }
    // The pool still works.
    let healthy = Doomed {
        calls: AtomicU64::new(0),
        panic_at: 0,
        cap: 1_000,
    };
    let config = magpie_search::SearchConfig::stack_stealing(false).in_pool(&pool);
    assert!(
        enumerate(&healthy, &NodesPerDepth, &config)
            .stats
            .nodes_expanded
            > 1_000
    );
}
