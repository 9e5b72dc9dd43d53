//! Every app's node survives the wire: encoded, decoded and encoded again it gives the
//! same bytes, and the decoded node's subtree is the original's (same node counts).

use magpie_dist::wire::{round_trip, Message};
use magpie_search::apps::{clique, knapsack, semigroups, tsp, uts};
use magpie_search::{enumerate_subtrees, NodesPerDepth, SearchConfig, SearchSpace};
use serde::de::DeserializeOwned;
use serde::Serialize;

fn data(relative: &str) -> String {
    format!(
        "{}/../../../shared/data/{relative}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The nodes of `space` down to depth 2 (at most 40 of them).
fn some_nodes<S: SearchSpace>(space: &S) -> Vec<(S::Node, usize)> {
    let mut nodes = vec![(space.root(), 0)];
    let mut next = 0;
    while next < nodes.len() && nodes.len() < 40 {
        let depth = nodes[next].1;
        if depth < 2 {
            let children: Vec<S::Node> = space.children(&nodes[next].0).take(6).collect();
            nodes.extend(children.into_iter().map(|c| (c, depth + 1)));
        }
        next += 1;
    }
    nodes
}

/// Round-trips every node; returns the largest encoding in bytes.
fn check<S>(name: &str, space: &S, count_subtrees: bool) -> usize
where
    S: SearchSpace,
    S::Node: Serialize + DeserializeOwned,
{
    let mut largest = 0;
    for (node, depth) in some_nodes(space) {
        let bytes = postcard::to_allocvec(&node).unwrap();
        let back = round_trip(&node).unwrap();
        assert_eq!(
            postcard::to_allocvec(&back).unwrap(),
            bytes,
            "{name} at depth {depth}"
        );
        if count_subtrees {
            let config = SearchConfig::sequential();
            let original = enumerate_subtrees(space, &NodesPerDepth, &config, vec![(node, depth)]);
            let decoded = enumerate_subtrees(space, &NodesPerDepth, &config, vec![(back, depth)]);
            assert_eq!(original.answer, decoded.answer, "{name} at depth {depth}");
        }
        largest = largest.max(bytes.len());
    }
    largest
}

#[test]
fn every_apps_nodes_round_trip() {
    let graph = clique::read_dimacs(data("dimacs/brock200_4.clq")).unwrap();
    let bytes = check("clique", &clique::MaxClique::new(&graph), false);
    assert!(
        bytes <= 2 * 200 / 8 + 16,
        "two 200-bit sets and two counts: {bytes} bytes"
    );

    let genus = semigroups::Semigroups::new(10).unwrap();
    check("semigroups", &genus, true);

    let tree = uts::Uts::new("default".parse().unwrap());
    let bytes = check("uts", &tree, true);
    assert!(bytes <= 32, "a 20-byte state and a height: {bytes} bytes");

    let items = knapsack::read_knapsack(data("knapsack/knapPI_1_50_1000_1.kp")).unwrap();
    check("knapsack", &knapsack::KnapsackSpace::new(&items), false);

    let cities = tsp::read_tsplib(data("tsplib/burma14.tsp")).unwrap();
    check("tsp", &tsp::TspSpace::new(&cities), false);
}

#[test]
fn messages_round_trip() {
    let work: Message<u32, ()> = Message::Work(vec![(7, 2), (9, 3)]);
    assert_eq!(Message::decode(&work.encode(7)).unwrap(), (7, work));
    let bound: Message<u32, ()> = Message::Bound(u64::MAX - 3);
    assert_eq!(Message::decode(&bound.encode(1)).unwrap(), (1, bound));
    assert!(
        Message::<u32, ()>::decode(&[200, 1, 2]).is_err(),
        "too short for the stamp"
    );
    assert!(
        Message::<u32, ()>::decode(&[1, 0, 0, 0, 200, 1, 2]).is_err(),
        "garbage is an error"
    );
}
