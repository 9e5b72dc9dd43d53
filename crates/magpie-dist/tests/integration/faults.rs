//! Faults of the transport: a rank that cannot read a message tells the others and
//! every rank ends with an error, instead of leaving them waiting for it.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use magpie_dist::{local_world, Cluster, DistError, Transport};
use magpie_search::apps::semigroups;
use magpie_search::SearchConfig;

use crate::common;

/// Runs a search on `ranks` in-process ranks where rank `garbled.0` receives its
/// `garbled.1`-th message (counting from 1) as bytes no message decodes from; returns
/// every rank's result, rank 0 first.
fn outcomes(ranks: usize, garbled: (usize, usize)) -> Vec<Result<(), DistError>> {
    let (tx, rx) = mpsc::channel();
    for transport in local_world(ranks) {
        let tx = tx.clone();
        thread::spawn(move || {
            let rank = transport.rank();
            let nth = if rank == garbled.0 { garbled.1 } else { 0 };
            let mut received = 0;
            let transport = common::Tampered::new(transport, move |inner, _| {
                let (from, bytes) = inner.try_receive()?;
                received += 1;
                Some((
                    from,
                    if received == nth {
                        vec![0xff; 3]
                    } else {
                        bytes
                    },
                ))
            });
            let mut cluster = Cluster::new(transport);
            let pool = common::pool(1);
            let space = semigroups::Semigroups::new(16).unwrap();
            let config = SearchConfig::budget(100).in_pool(&pool);
            let result = cluster.count_by_genus(&space, &config).map(|_| ());
            let _ = tx.send((rank, result));
        });
    }
    let mut outcomes: Vec<_> = (0..ranks)
        .map(|_| {
            // A hang detector, not a timing.
            rx.recv_timeout(Duration::from_secs(60))
                .expect("every rank ends within a minute")
        })
        .collect();
    outcomes.sort_by_key(|(rank, _)| *rank);
    outcomes.into_iter().map(|(_, result)| result).collect()
}

/// Runs [`outcomes`] and checks its shape: the garbling rank ends with a protocol
/// error, every other rank with an error `names_it` accepts.
fn every_rank_fails(ranks: usize, garbled: (usize, usize), names_it: fn(&DistError) -> bool) {
    let results = outcomes(ranks, garbled);
    for (rank, result) in results.iter().enumerate() {
        let expected = match result {
            Err(DistError::Protocol(_)) => rank == garbled.0,
            Err(error) => rank != garbled.0 && names_it(error),
            Ok(()) => false,
        };
        assert!(expected, "rank {rank} of {results:?}");
    }
}

/// Rank 1 cannot read its second message (the first after the start, during the
/// search): it ends with a protocol error and rank 0 with its failure (review finding:
/// rank 1 returned without telling anyone, and rank 0 waited for its token for ever).
#[test]
fn a_rank_that_cannot_read_a_message_fails_the_run_on_every_rank() {
    every_rank_fails(2, (1, 2), |e| {
        matches!(e, DistError::SearchFailed { rank: 1 })
    });
}

/// Rank 1's first message is rank 0's verdict to start: rank 1 cannot wait for it, so
/// it tells the others it failed (it returned with the error before, and rank 0
/// waited for it in the search for ever).
#[test]
fn a_rank_that_cannot_read_the_start_fails_the_run_on_every_rank() {
    every_rank_fails(3, (1, 1), |e| {
        matches!(e, DistError::SearchFailed { rank: 1 })
    });
}

/// Rank 0 cannot read a rank's readiness: it tells the others the run cannot start
/// (it returned with the error before, and they waited for its verdict for ever).
#[test]
fn rank_0_that_cannot_read_a_readiness_fails_the_run_on_every_rank() {
    every_rank_fails(3, (0, 1), |e| {
        matches!(e, DistError::RankFailed { rank: 0, .. })
    });
}
