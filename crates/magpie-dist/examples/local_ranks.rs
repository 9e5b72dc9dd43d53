//! A distributed search without MPI: four ranks as threads of one process (the
//! in-process transport the tests use), each with its own 1-thread magpie pool, under
//! every node-level victim policy. An MPI run differs only in the transport:
//! `MpiTransport::init()` instead of `local_world(n)` (see the crate README).
//!
//! Run: `cargo run --release -p magpie-dist --example local_ranks [GENUS]`

use magpie::ThreadPoolBuilder;
use magpie_dist::{by_name, local_world, Cluster};
use magpie_search::apps::semigroups::Semigroups;
use magpie_search::{enumerate, NodesPerDepth, SearchConfig};

const RANKS: usize = 4;

/// Reports a bad argument with the usage line and exits with status 2.
fn usage(problem: &str) -> ! {
    eprintln!("local_ranks: {problem}\nusage: local_ranks [GENUS]");
    std::process::exit(2)
}

fn main() {
    let genus: usize = std::env::args().nth(1).map_or(20, |a| {
        a.parse()
            .unwrap_or_else(|_| usage(&format!("GENUS `{a}` is not a number")))
    });
    let space = Semigroups::new(genus).unwrap_or_else(|e| usage(&format!("GENUS {genus}: {e}")));
    let single = enumerate(&space, &NodesPerDepth, &SearchConfig::sequential());
    let expected = single.answer.counts()[genus];
    println!("numerical semigroups of genus {genus}: {expected} (one process, sequential)");

    for policy in ["random", "depthpool", "performance"] {
        let on_rank_0 = std::thread::scope(|s| {
            let ranks: Vec<_> = local_world(RANKS)
                .into_iter()
                .enumerate()
                .map(|(rank, transport)| {
                    let space = &space;
                    s.spawn(move || {
                        let pool = ThreadPoolBuilder::new().num_threads(1).build()?;
                        let config = SearchConfig::budget(10_000).in_pool(&pool);
                        let policy = by_name(policy, rank, 1)?;
                        let mut cluster = Cluster::new(transport).with_policy(policy);
                        let outcome = cluster.enumerate(space, &NodesPerDepth, &config)?;
                        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(outcome)
                    })
                })
                .collect();
            let mut answers: Vec<_> = ranks
                .into_iter()
                .map(|r| r.join().expect("no rank panics"))
                .collect::<Result<_, _>>()
                .expect("every rank finishes");
            // Rank 0 prints the answer; the others return None.
            answers.swap_remove(0).expect("rank 0 holds the answer")
        });
        let found = on_rank_0.answer.counts()[genus];
        println!("\n{RANKS} ranks, node policy {policy}: {found} semigroups");
        for rank in &on_rank_0.ranks {
            println!("  rank {}: {rank}", rank.rank);
        }
        assert_eq!(found, expected);
    }
}
