//! Numerical semigroups by genus: OEIS A007323 under every coordination, and the
//! skeleton against the hand-written reference.

use crate::common;

use magpie_search::apps::semigroups::{
    count_by_genus, reference, SemigroupError, Semigroups, MAX_GENUS,
};
use magpie_search::{enumerate, NodesPerDepth, SearchConfig, SearchSpace};

/// OEIS A007323: the number of numerical semigroups of genus 0..=20.
const A007323: [u64; 21] = [
    1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204, 343, 592, 1001, 1693, 2857, 4806, 8045, 13467, 22464,
    37396,
];

fn check_every_coordination(threads: usize) {
    let pool = common::pool(threads);
    for (name, config) in common::every_coordination(&pool) {
        let outcome = count_by_genus(20, &config).expect("genus 20 is supported");
        assert_eq!(outcome.answer, A007323, "{name}");
        assert_eq!(
            outcome.stats.nodes_expanded,
            A007323.iter().sum::<u64>(),
            "{name}: every semigroup is one node"
        );
    }
}

#[test]
fn counts_to_genus_20_match_oeis_with_one_thread() {
    check_every_coordination(1);
}

#[test]
fn counts_to_genus_20_match_oeis_with_two_threads() {
    check_every_coordination(2);
}

#[test]
fn reference_matches_oeis_and_the_skeleton() {
    assert_eq!(reference::count_by_genus(20), Ok(A007323.to_vec()));
    let reference = reference::count_by_genus(23).expect("supported");
    let skeleton = count_by_genus(23, &SearchConfig::sequential()).expect("supported");
    assert_eq!(skeleton.answer, reference);
    assert_eq!(skeleton.stats.nodes_expanded, reference.iter().sum::<u64>());
}

#[test]
fn small_genera_have_one_entry_each() {
    for max_genus in 0..4 {
        let outcome = count_by_genus(max_genus, &SearchConfig::sequential()).expect("supported");
        assert_eq!(outcome.answer, A007323[..=max_genus]);
    }
}

#[test]
fn every_node_has_the_genus_of_its_depth_and_children_in_generator_order() {
    let space = Semigroups::new(9).expect("supported");
    let mut stack = vec![(space.root(), 0)];
    while let Some((semigroup, depth)) = stack.pop() {
        assert_eq!(semigroup.genus(), depth);
        assert_eq!(semigroup.gaps().count(), depth);
        let generators: Vec<usize> = semigroup.removable_generators().collect();
        let children: Vec<_> = space.children(&semigroup).collect();
        if depth < 9 {
            // Each child drops one generator, which becomes its Frobenius number.
            let removed: Vec<usize> = children
                .iter()
                .map(|child| child.frobenius_number().expect("a child is not ℕ"))
                .collect();
            assert_eq!(removed, generators);
        } else {
            assert!(children.is_empty());
        }
        stack.extend(children.into_iter().map(|child| (child, depth + 1)));
    }
}

#[test]
fn the_node_count_per_depth_is_the_count_per_genus() {
    let space = Semigroups::new(12).expect("supported");
    let outcome = enumerate(&space, &NodesPerDepth, &SearchConfig::sequential());
    assert_eq!(outcome.answer.counts(), &A007323[..=12]);
    assert_eq!(outcome.answer.total(), outcome.stats.nodes_expanded);
}

#[test]
fn a_genus_above_the_maximum_is_an_error() {
    let too_deep = MAX_GENUS + 1;
    let error = SemigroupError::GenusTooLarge { genus: too_deep };
    assert_eq!(Semigroups::new(too_deep), Err(error));
    assert_eq!(reference::count_by_genus(too_deep), Err(error));
    assert!(count_by_genus(too_deep, &SearchConfig::sequential()).is_err());
    let message = error.to_string();
    assert!(message.contains(&too_deep.to_string()) && !message.contains('\n'));
    assert!(Semigroups::new(MAX_GENUS).is_ok());
}
