//! Answers do not depend on the pool's victim policy: every policy, every
//! coordination, 2 threads, on one instance of each kind of search.

use magpie::ThreadPoolBuilder;
use magpie_search::apps::{clique, knapsack, semigroups, uts};

use crate::common;

#[test]
fn every_victim_policy_gives_the_same_answers() {
    let graph = clique::read_dimacs(common::data("dimacs/keller4.clq")).expect("keller4");
    let bag = knapsack::read_knapsack(common::data("knapsack/knapsackTest1.kp")).expect("kp");
    let tree: uts::UtsParams = "default".parse().expect("preset");
    for &policy in magpie::policy::NAMES {
        let pool = ThreadPoolBuilder::new()
            .num_threads(2)
            .victim_policy_boxed(magpie::policy::by_name(policy).expect("a known policy"))
            .build()
            .expect("pool");
        for (name, config) in common::every_coordination(&pool) {
            let context = format!("{policy}, {name}");
            assert_eq!(
                clique::maximum_clique(&graph, &config).answer.len(),
                11,
                "{context}"
            );
            assert_eq!(
                knapsack::knapsack(&bag, &config).answer.profit,
                "6925".parse().unwrap(),
                "{context}"
            );
            let counts = semigroups::count_by_genus(14, &config)
                .expect("genus 14")
                .answer;
            assert_eq!(counts.last(), Some(&1693), "{context}");
            let summary = uts::uts_count(&tree, &config).answer;
            assert_eq!((summary.nodes, summary.leaves), (1732, 1050), "{context}");
        }
    }
}
