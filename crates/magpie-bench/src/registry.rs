//! The list of benchmarks the command line can run by name (`magpie bench all` runs
//! every entry). A new benchmark adds one [`Benchmark`] entry here.

use crate::{BenchError, Outcome, RunOptions};

/// A benchmark runnable with the common options only.
#[derive(Clone, Copy, Debug)]
pub struct Benchmark {
    /// Subcommand name, e.g. `queue`.
    pub name: &'static str,
    /// One-line description.
    pub about: &'static str,
    /// Runs it with defaults for benchmark-specific options.
    pub run: fn(&RunOptions) -> Result<Outcome, BenchError>,
}

fn run_queue(opts: &RunOptions) -> Result<Outcome, BenchError> {
    crate::queue::run(&crate::queue::QueueOptions {
        common: opts.clone(),
        only: None,
    })
}

/// Every registered benchmark, in the order `bench all` runs them.
pub fn benchmarks() -> &'static [Benchmark] {
    &[
        Benchmark {
            name: "queue",
            about: "single-queue experiments of BWoS §6.2.1 (owner only) and §6.2.2 (one thief)",
            run: run_queue,
        },
        Benchmark {
            name: "twolock",
            about: "two-lock MPMC queue: N items through P producers / K consumers, paper configs vs peers; pop_batch",
            run: crate::twolock::run,
        },
        Benchmark {
            name: "poolexp",
            about: "BWoS §6.2.3 pool of N queues: put/get/steal k*C per round, every victim policy, magpie vs crossbeam-deque and st3",
            run: crate::poolexp::run,
        },
        Benchmark {
            name: "pool",
            about: "fork-join and spawn vs rayon (and tokio): fib, quicksort, N-queens, tree sum, spawn, chained spawn, idle CPU",
            run: crate::pool::run,
        },
        Benchmark {
            name: "search",
            about: "search skeletons: overhead vs hand-written, speedup 1 -> 2 threads per coordination, victim policies",
            run: crate::search::run,
        },
        Benchmark {
            name: "clique",
            about: "maximum clique: nodes and time per bound against the Glasgow solver's figures, speedup 1 -> 2 threads",
            run: crate::clique::run,
        },
        Benchmark {
            name: "iter",
            about: "parallel iterators vs rayon and sequential: sum, map+collect, filter+count, sort, skewed, nested",
            run: crate::iter::run,
        },
        Benchmark {
            name: "async",
            about: "async scheduler microbenchmarks (spawn many, yield many, ping-pong, chained spawn): magpie-async vs tokio vs smol",
            run: crate::asyncrt::run,
        },
        Benchmark {
            name: "http",
            about: "hyper hello server under wrk at 100/500/1000 connections on magpie-async, tokio and smol (BWoS §6.3.2); needs wrk",
            run: crate::http::run,
        },
    ]
}

/// Looks a benchmark up by name.
pub fn find(name: &str) -> Option<&'static Benchmark> {
    benchmarks().iter().find(|b| b.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_findable() {
        let names: Vec<&str> = benchmarks().iter().map(|b| b.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert!(find("queue").is_some());
        assert!(find("twolock").is_some());
        assert!(find("poolexp").is_some());
        assert!(find("pool").is_some());
        assert!(find("nope").is_none());
    }
}
