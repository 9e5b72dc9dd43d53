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

fn run_twolock(opts: &RunOptions) -> Result<Outcome, BenchError> {
    crate::twolock::run(opts)
}

fn run_poolexp(opts: &RunOptions) -> Result<Outcome, BenchError> {
    crate::poolexp::run(opts)
}

fn run_pool(opts: &RunOptions) -> Result<Outcome, BenchError> {
    crate::pool::run(opts)
}

fn run_clique(opts: &RunOptions) -> Result<Outcome, BenchError> {
    crate::clique::run(opts)
}

fn run_iter(opts: &RunOptions) -> Result<Outcome, BenchError> {
    crate::iter::run(opts)
}

fn run_search(opts: &RunOptions) -> Result<Outcome, BenchError> {
    crate::search::run(opts)
}

fn run_async(opts: &RunOptions) -> Result<Outcome, BenchError> {
    crate::asyncrt::run(opts)
}

fn run_http(opts: &RunOptions) -> Result<Outcome, BenchError> {
    crate::http::run(opts)
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
            run: run_twolock,
        },
        Benchmark {
            name: "poolexp",
            about: "BWoS §6.2.3 pool of N queues: put/get/steal k*C per round, every victim policy, magpie vs crossbeam-deque and st3",
            run: run_poolexp,
        },
        Benchmark {
            name: "pool",
            about: "fork-join and spawn vs rayon (and tokio): fib, quicksort, N-queens, tree sum, spawn, chained spawn, idle CPU",
            run: run_pool,
        },
        Benchmark {
            name: "search",
            about: "search skeletons: overhead vs hand-written, speedup 1 -> 2 threads per coordination, victim policies",
            run: run_search,
        },
        Benchmark {
            name: "clique",
            about: "maximum clique: nodes and time per bound against the Glasgow solver's figures, speedup 1 -> 2 threads",
            run: run_clique,
        },
        Benchmark {
            name: "iter",
            about: "parallel iterators vs rayon and sequential: sum, map+collect, filter+count, sort, skewed, nested",
            run: run_iter,
        },
        Benchmark {
            name: "async",
            about: "async scheduler microbenchmarks (spawn many, yield many, ping-pong, chained spawn): magpie-async vs tokio vs smol",
            run: run_async,
        },
        Benchmark {
            name: "http",
            about: "hyper hello server under wrk at 100/500/1000 connections on magpie-async, tokio and smol (BWoS §6.3.2); needs wrk",
            run: run_http,
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
