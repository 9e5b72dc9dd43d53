//! Helpers of the in-process rank tests: data files, pools, and running one search on
//! several ranks in threads.
#![allow(dead_code)]

use std::thread;

use magpie::{ThreadPool, ThreadPoolBuilder};
use magpie_dist::{
    by_name, local_world, Cluster, DistError, DistOutcome, LocalTransport, Transport,
};
use magpie_search::SearchConfig;

/// A file in the shared data folder beside the repository.
pub fn data(relative: &str) -> String {
    format!(
        "{}/../../../shared/data/{relative}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A pool of `threads` workers.
pub fn pool(threads: usize) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Runs `search` on `ranks` in-process ranks of `threads` workers each, stealing with
/// the node policy called `policy`; returns rank 0's outcome after checking that the
/// others return `None`.
pub fn on_ranks_with<A: Send>(
    policy: &str,
    ranks: usize,
    threads: usize,
    config: SearchConfig<'static>,
    search: impl Fn(
            &mut Cluster<LocalTransport>,
            &SearchConfig<'_>,
        ) -> Result<Option<DistOutcome<A>>, DistError>
        + Sync,
) -> DistOutcome<A> {
    let search = &search;
    let mut results: Vec<_> = thread::scope(|s| {
        let handles: Vec<_> = local_world(ranks)
            .into_iter()
            .map(|transport| {
                s.spawn(move || {
                    let pool = pool(threads);
                    let config = config.in_pool(&pool);
                    let rank = transport.rank();
                    let policy = by_name(policy, rank, threads).unwrap();
                    let mut cluster = Cluster::new(transport).with_policy(policy);
                    search(&mut cluster, &config).expect("the run succeeds")
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(
        results[1..].iter().all(Option::is_none),
        "only rank 0 answers"
    );
    let outcome = results.swap_remove(0).expect("rank 0 answers");
    assert_eq!(outcome.ranks.len(), ranks);
    let nodes: u64 = outcome.ranks.iter().map(|r| r.nodes_expanded).sum();
    assert_eq!(nodes, outcome.stats.nodes_expanded);
    outcome
}

pub fn coordinations() -> [(&'static str, SearchConfig<'static>); 3] {
    [
        ("depth-bounded 2", SearchConfig::depth_bounded(2)),
        ("budget 50", SearchConfig::budget(50)),
        ("stack-stealing", SearchConfig::stack_stealing(false)),
    ]
}

/// Every rank count and thread count with every coordination.
pub fn grid(mut check: impl FnMut(&str, usize, usize, SearchConfig<'static>)) {
    for ranks in 1..=4 {
        for threads in 1..=2 {
            for (name, config) in coordinations() {
                check(name, ranks, threads, config);
            }
        }
    }
}

/// [`on_ranks_with`] the random node policy.
pub fn on_ranks<A: Send>(
    ranks: usize,
    threads: usize,
    config: SearchConfig<'static>,
    search: impl Fn(
            &mut Cluster<LocalTransport>,
            &SearchConfig<'_>,
        ) -> Result<Option<DistOutcome<A>>, DistError>
        + Sync,
) -> DistOutcome<A> {
    on_ranks_with("random", ranks, threads, config, search)
}

/// The in-process transport with a hook on what this rank receives: the hook gets the
/// real transport and how many barriers this rank has passed, and returns the message
/// the rank sees (the real one, a changed one, or one of its own).
pub struct Tampered<F> {
    inner: LocalTransport,
    barriers: usize,
    receive: F,
}

impl<F> Tampered<F>
where
    F: FnMut(&mut LocalTransport, usize) -> Option<(usize, Vec<u8>)>,
{
    pub fn new(inner: LocalTransport, receive: F) -> Self {
        Tampered {
            inner,
            barriers: 0,
            receive,
        }
    }
}

impl<F> Transport for Tampered<F>
where
    F: FnMut(&mut LocalTransport, usize) -> Option<(usize, Vec<u8>)>,
{
    fn rank(&self) -> usize {
        self.inner.rank()
    }
    fn size(&self) -> usize {
        self.inner.size()
    }
    fn send(&mut self, to: usize, bytes: Vec<u8>) {
        self.inner.send(to, bytes);
    }
    fn try_receive(&mut self) -> Option<(usize, Vec<u8>)> {
        (self.receive)(&mut self.inner, self.barriers)
    }
    fn flush(&mut self) {
        self.inner.flush();
    }
    fn barrier(&mut self) {
        self.inner.barrier();
        self.barriers += 1;
    }
}
