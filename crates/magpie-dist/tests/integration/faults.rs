//! Faults of the transport: a rank that cannot read a message tells the others and
//! every rank ends with an error, instead of leaving them waiting for it.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use magpie_dist::{local_world, Cluster, DistError, Transport};
use magpie_search::apps::semigroups;
use magpie_search::SearchConfig;

use crate::common;

/// Rank 1 cannot read its second message (the first after the start, during the
/// search): it ends with a protocol error and rank 0 with its failure (review finding:
/// rank 1 returned without telling anyone, and rank 0 waited for its token for ever).
#[test]
fn a_rank_that_cannot_read_a_message_fails_the_run_on_every_rank() {
    let (tx, rx) = mpsc::channel();
    for transport in local_world(2) {
        let tx = tx.clone();
        thread::spawn(move || {
            let rank = transport.rank();
            // Rank 1's second message (counting from 1) arrives as bytes no message
            // decodes from.
            let nth = if rank == 1 { 2 } else { 0 };
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
    let mut outcomes: Vec<_> = (0..2)
        .map(|_| {
            // A hang detector, not a timing.
            rx.recv_timeout(Duration::from_secs(60))
                .expect("both ranks end within a minute")
        })
        .collect();
    outcomes.sort_by_key(|(rank, _)| *rank);
    assert!(
        matches!(outcomes[1].1, Err(DistError::Protocol(_))),
        "{:?}",
        outcomes[1]
    );
    assert!(
        matches!(outcomes[0].1, Err(DistError::SearchFailed { rank: 1 })),
        "{:?}",
        outcomes[0]
    );
}
