//! Property tests on seeded random graphs: parallel searches agree with sequential.

use magpie_search::apps::clique::{clique_of_size, maximum_clique, Graph, MaxClique};
use magpie_search::{enumerate, NodesPerDepth, SearchConfig};

use crate::common;

use common::SplitMix;

fn random_graph(rng: &mut SplitMix, vertices: usize, density_percent: u64) -> Graph {
    let mut graph = Graph::new(vertices);
    for u in 0..vertices {
        for v in u + 1..vertices {
            if rng.chance(density_percent) {
                graph.add_edge(u, v);
            }
        }
    }
    graph
}

/// The clique number by brute force over all subsets (small graphs only).
fn brute_force_omega(graph: &Graph) -> usize {
    let n = graph.order();
    (0u32..1 << n)
        .filter_map(|mask| {
            let set: Vec<usize> = (0..n).filter(|&v| mask & (1 << v) != 0).collect();
            graph.is_clique(&set).then_some(set.len())
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn parallel_max_clique_matches_sequential() {
    let pool = common::pool(2);
    let mut rng = SplitMix(0x5eed);
    for round in 0..30 {
        let vertices = 30 + (rng.next() % 50) as usize;
        let density = 30 + rng.next() % 60;
        let graph = random_graph(&mut rng, vertices, density);
        let sequential = maximum_clique(&graph, &SearchConfig::sequential()).answer;
        assert!(graph.is_clique(&sequential));
        for (name, config) in common::every_coordination(&pool) {
            let parallel = maximum_clique(&graph, &config).answer;
            assert_eq!(parallel.len(), sequential.len(), "round {round} {name}");
            assert!(graph.is_clique(&parallel));
            let omega = sequential.len();
            assert!(clique_of_size(&graph, omega, &config).answer.is_some());
            assert!(clique_of_size(&graph, omega + 1, &config).answer.is_none());
        }
    }
}

#[test]
fn max_clique_matches_brute_force_on_tiny_graphs() {
    let mut rng = SplitMix(7);
    for _ in 0..20 {
        let vertices = 1 + (rng.next() % 14) as usize;
        let density = rng.next() % 101;
        let graph = random_graph(&mut rng, vertices, density);
        let found = maximum_clique(&graph, &SearchConfig::sequential()).answer;
        assert_eq!(found.len(), brute_force_omega(&graph));
    }
}

/// Enumerating the clique tree without pruning counts every clique once, by size:
/// the same counts sequentially and in parallel, and the same as brute force.
#[test]
fn clique_enumeration_is_identical_across_coordinations() {
    let pool = common::pool(2);
    let mut rng = SplitMix(42);
    for _ in 0..5 {
        let graph = random_graph(&mut rng, 14, 50);
        let space = MaxClique::new(&graph);
        let sequential = enumerate(&space, &NodesPerDepth, &SearchConfig::sequential()).answer;
        for (name, config) in common::every_coordination(&pool) {
            let parallel = enumerate(&space, &NodesPerDepth, &config).answer;
            assert_eq!(sequential, parallel, "{name}");
        }
        let mut by_size = vec![0u64; sequential.counts().len()];
        for mask in 0u32..1 << 14 {
            let set: Vec<usize> = (0..14).filter(|&v| mask & (1 << v) != 0).collect();
            if graph.is_clique(&set) {
                by_size[set.len()] += 1;
            }
        }
        assert_eq!(sequential.counts(), by_size.as_slice());
    }
}
