//! Known clique numbers of the shared DIMACS instances under every coordination.

use std::time::Instant;

use magpie_search::apps::clique::{
    clique_of_size, clique_of_size_with, maximum_clique, maximum_clique_with, read_dimacs,
    CliqueBound, Graph,
};
use magpie_search::SearchConfig;

macro_rules! instance {
    ($file:literal) => {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/data/dimacs/",
            $file
        )
    };
}

use crate::common;
use common::pool;

fn load(path: &str) -> Graph {
    read_dimacs(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Checks ω under every coordination with 1 and 2 threads.
fn check_omega(path: &str, omega: usize) {
    let graph = load(path);
    let one = pool(1);
    let two = pool(2);
    let mut configs = common::every_coordination(&one);
    configs.extend(common::every_coordination(&two).into_iter().skip(1));
    for (name, config) in configs {
        for bound in [CliqueBound::Colour, CliqueBound::InfraChromatic] {
            let start = Instant::now();
            let outcome = maximum_clique_with(&graph, bound, &config);
            assert_eq!(outcome.answer.len(), omega, "{path} {name} {bound}");
            assert!(graph.is_clique(&outcome.answer), "{path} {name} {bound}");
            eprintln!(
                "{path} {name} {bound}: {:.3}s, {} nodes, {} prunes",
                start.elapsed().as_secs_f64(),
                outcome.stats.nodes_expanded,
                outcome.stats.prunes
            );
        }
    }
}

#[test]
fn brock200_1() {
    check_omega(instance!("brock200_1.clq"), 21);
}

#[test]
fn brock200_2() {
    check_omega(instance!("brock200_2.clq"), 12);
}

#[test]
fn brock200_4() {
    check_omega(instance!("brock200_4.clq"), 17);
}

#[test]
fn c125_9() {
    check_omega(instance!("C125.9.clq"), 34);
}

#[test]
fn keller4() {
    check_omega(instance!("keller4.clq"), 11);
}

#[test]
fn hamming8_4() {
    check_omega(instance!("hamming8-4.clq"), 16);
}

#[test]
fn p_hat300_1() {
    check_omega(instance!("p_hat300-1.clq"), 8);
}

#[test]
fn p_hat300_2() {
    check_omega(instance!("p_hat300-2.clq"), 25);
}

#[test]
fn san200_0_7_1() {
    check_omega(instance!("san200_0.7_1.clq"), 30);
}

// Larger instances: seconds (p_hat300-3, MANN_a27) to hours (brock400_2, brock800_2
// under every coordination) on 2 cores. Run with `cargo test --release -- --ignored`.

#[test]
#[ignore = "slow: about a minute in release"]
fn p_hat300_3() {
    check_omega(instance!("p_hat300-3.clq"), 36);
}

#[test]
#[ignore = "slow: minutes in release"]
fn mann_a27() {
    check_omega(instance!("MANN_a27.clq"), 126);
}

#[test]
#[ignore = "benchmark-sized: about 7 minutes per sequential run"]
fn brock400_2() {
    check_omega(instance!("brock400_2.clq"), 29);
}

#[test]
#[ignore = "benchmark-sized: hours"]
fn brock800_2() {
    check_omega(instance!("brock800_2.clq"), 24);
}

/// The hand-written solver visits exactly the nodes the sequential skeleton visits.
#[test]
fn reference_solver_matches_the_sequential_skeleton() {
    for (file, omega) in [
        ("brock200_4.clq", 17),
        ("keller4.clq", 11),
        ("C125.9.clq", 34),
    ] {
        let graph = load(&common::data(&format!("dimacs/{file}")));
        let (clique, nodes) = magpie_search::apps::clique::reference::maximum_clique(&graph);
        assert_eq!(clique.len(), omega, "{file}");
        assert!(graph.is_clique(&clique));
        let skeleton = maximum_clique(&graph, &SearchConfig::sequential());
        assert_eq!(skeleton.answer, clique, "{file}");
        assert_eq!(skeleton.stats.nodes_expanded, nodes, "{file}");
        let bound = CliqueBound::InfraChromatic;
        let (clique, nodes) =
            magpie_search::apps::clique::reference::maximum_clique_with(&graph, bound);
        assert_eq!(clique.len(), omega, "{file} {bound}");
        let skeleton = maximum_clique_with(&graph, bound, &SearchConfig::sequential());
        assert_eq!(skeleton.answer, clique, "{file} {bound}");
        assert_eq!(skeleton.stats.nodes_expanded, nodes, "{file} {bound}");
    }
}

/// k = ω is found (and is a clique of that size), k = ω + 1 is not.
fn check_decision(path: &str, omega: usize) {
    let graph = load(path);
    let two = pool(2);
    for (_, config) in common::every_coordination(&two) {
        let found = clique_of_size(&graph, omega, &config).answer;
        let clique = found.unwrap_or_else(|| panic!("{path}: no clique of size ω"));
        assert_eq!(clique.len(), omega);
        assert!(graph.is_clique(&clique));
        assert_eq!(
            clique_of_size(&graph, omega + 1, &config).answer,
            None,
            "{path}"
        );
        let bound = CliqueBound::InfraChromatic;
        let found = clique_of_size_with(&graph, omega, bound, &config).answer;
        assert!(
            found.is_some_and(|c| c.len() == omega && graph.is_clique(&c)),
            "{path}"
        );
        let none = clique_of_size_with(&graph, omega + 1, bound, &config).answer;
        assert_eq!(none, None, "{path} {bound}");
    }
}

#[test]
fn decision_brock200_2() {
    check_decision(instance!("brock200_2.clq"), 12);
}

#[test]
fn decision_keller4() {
    check_decision(instance!("keller4.clq"), 11);
}

#[test]
fn pool_statistics_are_reported() {
    let graph = load(instance!("brock200_2.clq"));
    let two = pool(2);
    let outcome = maximum_clique(&graph, &SearchConfig::depth_bounded(1).in_pool(&two));
    let stats = outcome.stats.pool.expect("run in a pool");
    assert_eq!(stats.workers.len(), 2);
    assert!(stats.total().tasks_run > 0);
    assert!(outcome.stats.nodes_expanded > 0 && outcome.stats.prunes > 0);
    assert!(maximum_clique(&graph, &SearchConfig::sequential())
        .stats
        .pool
        .is_none());
}
