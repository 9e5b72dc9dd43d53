//! Knapsack instances with many items (issue 24): a level of the tree per item that
//! fits, so the search recurses far deeper than a worker's stack would allow without
//! the engine's stack growth.
//!
//! * 100,000 items and a small capacity: every coordination on 1 and 2 threads finds
//!   the optimum of a dynamic programme over the capacity (the packings are short,
//!   a few hundred items, but each node looks at all the items).
//! * 20,000 items and half the total weight as the capacity (the shape, at
//!   two fifths of its size): the first path takes about 12,500 items, one recursion
//!   level each; every coordination on 1 and 2 threads agrees with the sequential
//!   search.
//!
//! Sized for release builds (`cargo test --release`); unoptimised builds use a tenth
//! of the items.

use crate::common;

use common::SplitMix;
use magpie_search::apps::knapsack::{knapsack, KnapsackInstance, KnapsackSpace, Solution};
use magpie_search::{optimise, SearchConfig};

/// Scales the item counts down for unoptimised builds.
const SCALE: usize = if cfg!(debug_assertions) { 10 } else { 1 };

/// `items` random items, profits and weights uniform in 1..=1000 (seeded).
fn random_items(seed: u64, items: usize) -> Vec<(u32, u32)> {
    let mut rng = SplitMix(seed);
    (0..items)
        .map(|_| (rng.range(1, 1000) as u32, rng.range(1, 1000) as u32))
        .collect()
}

/// The optimum by dynamic programming over the capacity: O(items × capacity).
fn dynamic_programming(items: &[(u32, u32)], capacity: u64) -> u64 {
    let capacity = capacity as usize;
    let mut best = vec![0u64; capacity + 1];
    for &(profit, weight) in items {
        let weight = weight as usize;
        for c in (weight..=capacity).rev() {
            best[c] = best[c].max(best[c - weight] + u64::from(profit));
        }
    }
    best[capacity]
}

/// Checks that `solution` is a feasible packing of `instance` with profit `optimum`.
fn check(instance: &KnapsackInstance, solution: &Solution, optimum: u64, context: &str) {
    let (profit, weight) = instance
        .totals(&solution.items)
        .unwrap_or_else(|| panic!("{context}: items repeated or out of range"));
    assert_eq!(profit, solution.profit, "{context}: profit");
    assert_eq!(weight, solution.weight, "{context}: weight");
    assert!(weight <= instance.capacity(), "{context}: over capacity");
    assert_eq!(solution.profit.units(), optimum, "{context}: not optimal");
}

/// Every coordination on 1 and 2 threads finds `optimum`, from the greedy first
/// incumbent and (with `unseeded`) from the root alone.
fn check_every_coordination(instance: &KnapsackInstance, optimum: u64, unseeded: bool) {
    let space = KnapsackSpace::new(instance);
    for threads in [1, 2] {
        let pool = common::pool(threads);
        for (name, config) in common::every_coordination(&pool) {
            let start = std::time::Instant::now();
            let outcome = knapsack(instance, &config);
            check(instance, &outcome.answer, optimum, &name);
            if unseeded {
                let best = optimise(&space, &config).answer;
                assert_eq!(best.value, optimum, "{name}, unseeded");
                check(instance, &space.solution_of(&best.node), optimum, &name);
            }
            eprintln!(
                "{name}: {} nodes, {:?}",
                outcome.stats.nodes_expanded,
                start.elapsed()
            );
        }
    }
}

#[test]
fn many_items_and_a_small_capacity_match_dynamic_programming() {
    let items = random_items(0x6b6e_6170_0001, 100_000 / SCALE);
    let capacity = 2_000;
    let instance = KnapsackInstance::from_integers(&items, capacity).expect("positive weights");
    let optimum = dynamic_programming(&items, capacity);
    check_every_coordination(&instance, optimum, true);
}

#[test]
fn many_items_and_half_the_total_weight_agree_across_coordinations() {
    let items = random_items(0x6b6e_6170_0002, 20_000 / SCALE);
    let capacity = items.iter().map(|&(_, w)| u64::from(w)).sum::<u64>() / 2;
    let instance = KnapsackInstance::from_integers(&items, capacity).expect("positive weights");
    let sequential = knapsack(&instance, &SearchConfig::sequential()).answer;
    check_every_coordination(&instance, sequential.profit.units(), false);
}

/// The second test's instance is deep: on a pool whose workers have 256 KiB stacks
/// (a few hundred levels of an ordinary recursion), it still completes.
#[test]
fn small_worker_stacks_run_a_deep_knapsack() {
    let items = random_items(0x6b6e_6170_0002, 20_000 / SCALE);
    let capacity = items.iter().map(|&(_, w)| u64::from(w)).sum::<u64>() / 2;
    let instance = KnapsackInstance::from_integers(&items, capacity).expect("positive weights");
    let sequential = knapsack(&instance, &SearchConfig::sequential()).answer;
    let pool = magpie::ThreadPoolBuilder::new()
        .num_threads(2)
        .stack_size(256 * 1024)
        .build()
        .unwrap();
    for config in [
        SearchConfig::sequential(),
        SearchConfig::depth_bounded(8),
        SearchConfig::stack_stealing(false),
        SearchConfig::budget(1_000),
    ] {
        let answer = knapsack(&instance, &config.in_pool(&pool)).answer;
        assert_eq!(answer.profit, sequential.profit, "{config:?}");
    }
}
