//! Your own search on magpie-search: describe the tree once, then run it under any
//! skeleton and coordination.
//!
//! * N-queens, counted with `enumerate`: the nodes at depth N are the solutions.
//! * Subset sum, solved with `optimise` (branch and bound): the largest total of a
//!   subset of the numbers that stays within a capacity.
//!
//! Run: `cargo run --release -p magpie-search --example queens_and_subset_sum [N]`

use magpie::ThreadPoolBuilder;
use magpie_search::{
    enumerate, optimise, Bounded, NodesPerDepth, Objective, SearchConfig, SearchSpace,
};

/// Placing one queen per row, top to bottom.
struct Queens {
    n: usize,
}

/// The columns of the queens placed so far, one per row.
#[derive(Clone)]
struct Board(Vec<usize>);

impl SearchSpace for Queens {
    type Node = Board;
    type Children<'a> = Box<dyn Iterator<Item = Board> + 'a>;

    fn root(&self) -> Board {
        Board(Vec::new())
    }

    fn children<'a>(&'a self, board: &'a Board) -> Self::Children<'a> {
        let row = board.0.len();
        let safe = move |col: usize| {
            board.0.iter().enumerate().all(|(r, &c)| {
                c != col && row - r != col.abs_diff(c) // other column, other diagonal
            })
        };
        Box::new((0..self.n).filter(move |&col| safe(col)).map(move |col| {
            let mut next = board.0.clone();
            next.push(col);
            Board(next)
        }))
    }
}

/// Choose, number by number, whether to take it; stay within `capacity`.
struct SubsetSum {
    numbers: Vec<u64>,
    capacity: u64,
}

/// The next number to decide on, and the total taken so far.
#[derive(Clone, Copy)]
struct Partial {
    next: usize,
    total: u64,
}

impl SearchSpace for SubsetSum {
    type Node = Partial;
    type Children<'a> = std::iter::Flatten<std::array::IntoIter<Option<Partial>, 2>>;

    fn root(&self) -> Partial {
        Partial { next: 0, total: 0 }
    }

    fn children<'a>(&'a self, p: &'a Partial) -> Self::Children<'a> {
        let Some(&number) = self.numbers.get(p.next) else {
            return [None, None].into_iter().flatten();
        };
        let next = p.next + 1;
        let take = (p.total + number <= self.capacity).then_some(Partial {
            next,
            total: p.total + number,
        });
        let skip = Some(Partial {
            next,
            total: p.total,
        });
        [take, skip].into_iter().flatten() // taking first: good totals early
    }
}

impl Objective for SubsetSum {
    type Value = u64;
    fn objective(&self, p: &Partial) -> u64 {
        p.total
    }
}

impl Bounded for SubsetSum {
    /// Everything still undecided taken, but never above the capacity.
    fn upper_bound(&self, p: &Partial) -> u64 {
        let rest: u64 = self.numbers[p.next..].iter().sum();
        (p.total + rest).min(self.capacity)
    }
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(10, |a| a.parse().expect("N is a number"));
    let pool = ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a 2-thread pool");

    let queens = Queens { n };
    for (name, config) in [
        ("sequential", SearchConfig::sequential()),
        (
            "depth-bounded d=2",
            SearchConfig::depth_bounded(2).in_pool(&pool),
        ),
        (
            "stack-stealing",
            SearchConfig::stack_stealing(false).in_pool(&pool),
        ),
        ("budget b=1000", SearchConfig::budget(1000).in_pool(&pool)),
    ] {
        let outcome = enumerate(&queens, &NodesPerDepth, &config);
        let solutions = outcome.answer.counts().get(n).copied().unwrap_or(0);
        println!(
            "{n}-queens, {name}: {solutions} solutions, {} nodes, {:?}",
            outcome.stats.nodes_expanded, outcome.stats.elapsed
        );
    }

    // 40 numbers, so 2^40 subsets; the bound prunes nearly all of them.
    let numbers: Vec<u64> = (1..=40u64).map(|i| (i * 7919) % 1009 + 100).collect();
    let capacity = numbers.iter().sum::<u64>() / 3 + 1;
    // Check against dynamic programming: reachable[t] says some subset sums to t.
    let mut reachable = vec![false; capacity as usize + 1];
    reachable[0] = true;
    for &x in &numbers {
        for t in (x as usize..reachable.len()).rev() {
            reachable[t] |= reachable[t - x as usize];
        }
    }
    let by_dp = reachable.iter().rposition(|&r| r).unwrap_or(0) as u64;
    let space = SubsetSum { numbers, capacity };
    let outcome = optimise(&space, &SearchConfig::stack_stealing(false).in_pool(&pool));
    println!(
        "subset sum within {capacity}: best total {} ({} nodes, {} prunes; dynamic programming: {by_dp})",
        outcome.answer.value, outcome.stats.nodes_expanded, outcome.stats.prunes
    );
    assert_eq!(outcome.answer.value, by_dp);
}
