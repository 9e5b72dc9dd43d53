//! Stress tests of `magpie_queue::twolock`: P producers × K consumers; every item must be
//! consumed exactly once, and the items of one producer seen by one consumer must be
//! increasing (FIFO per producer).
//!
//! Default sizes finish in seconds in debug builds:
//! `cargo test -p magpie-queue --test stress_twolock`.
//! Larger runs and a rough throughput table (used to pick the defaults) are ignored:
//! `cargo test -p magpie-queue --test stress_twolock --release -- --ignored --nocapture`.
#![cfg(not(loom))]

use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use magpie_queue::twolock::{
    HybridLock, NodeCache, Options, PopLock, PopTimeoutError, Publication, StdLock, TasLock,
    TicketLock, TwoLockQueue, DEFAULT_NODE_BYTES,
};

/// Items are `producer << 32 | sequence`: 8 bytes, like the paper's benchmark.
fn item(p: usize, i: usize) -> u64 {
    ((p as u64) << 32) | i as u64
}

#[derive(Clone, Copy)]
struct Plan {
    producers: usize,
    consumers: usize,
    per_producer: usize,
    /// Producers use `push_batch` (chunks of up to 7) and consumers `pop_batch` (up to 5).
    batch: bool,
}

/// Runs the plan; returns the wall time of the transfer.
fn run<L: PopLock + 'static, const B: usize, P: PopLock + 'static>(
    plan: Plan,
    options: Options,
) -> Duration {
    let q: Arc<TwoLockQueue<u64, L, B, P>> = Arc::new(TwoLockQueue::with_options(options));
    let start = Instant::now();
    let producers: Vec<_> = (0..plan.producers)
        .map(|p| {
            let q = Arc::clone(&q);
            thread::spawn(move || {
                let mut i = 0;
                while i < plan.per_producer {
                    if plan.batch {
                        let n = (1 + i % 7).min(plan.per_producer - i);
                        assert_eq!(q.push_batch((i..i + n).map(|j| item(p, j))).unwrap(), n);
                        i += n;
                    } else {
                        q.push(item(p, i)).unwrap();
                        i += 1;
                    }
                }
            })
        })
        .collect();
    let consumers: Vec<_> = (0..plan.consumers)
        .map(|c| {
            let q = Arc::clone(&q);
            thread::spawn(move || {
                let mut last = vec![None::<u32>; plan.producers];
                // One bit per item of each producer.
                let mut seen = vec![vec![0u64; plan.per_producer.div_ceil(64)]; plan.producers];
                let mut check = |v: u64| {
                    let (p, i) = ((v >> 32) as usize, v as u32);
                    assert!(
                        last[p].map_or(true, |l| l < i),
                        "consumer {c}: producer {p} order"
                    );
                    last[p] = Some(i);
                    seen[p][i as usize / 64] |= 1 << (i % 64);
                };
                let mut buf = Vec::new();
                loop {
                    if plan.batch {
                        buf.clear();
                        if q.pop_batch(1 + c % 5, &mut buf) != 0 {
                            buf.iter().for_each(|&v| check(v));
                            continue;
                        }
                    }
                    match q.pop_timeout(Duration::from_secs(30)) {
                        Ok(v) => check(v),
                        Err(PopTimeoutError::Closed) => break,
                        Err(PopTimeoutError::Timeout) => panic!("consumer {c} starved"),
                    }
                }
                seen
            })
        })
        .collect();
    for p in producers {
        p.join().unwrap();
    }
    q.close();
    let mut union = vec![vec![0u64; plan.per_producer.div_ceil(64)]; plan.producers];
    for c in consumers {
        for (all, mine) in union.iter_mut().zip(c.join().unwrap()) {
            for (a, m) in all.iter_mut().zip(mine) {
                assert_eq!(*a & m, 0, "an item was consumed twice");
                *a |= m;
            }
        }
    }
    let elapsed = start.elapsed();
    for (p, bits) in union.iter().enumerate() {
        let count: u32 = bits.iter().map(|w| w.count_ones()).sum();
        assert_eq!(
            count as usize, plan.per_producer,
            "producer {p}: items lost"
        );
    }
    assert!(q.is_empty());
    elapsed
}

const N: usize = 20_000;

fn plan(producers: usize, consumers: usize, batch: bool) -> Plan {
    Plan {
        producers,
        consumers,
        per_producer: N,
        batch,
    }
}

// The default locks: hybrid pop lock, test-and-set push lock; the default node size and
// the paper's 128 bytes (16 slots: many more node changes per run).

#[test]
fn one_by_one() {
    run::<HybridLock, DEFAULT_NODE_BYTES, TasLock>(plan(1, 1, false), Options::default());
    run::<HybridLock, 128, TasLock>(plan(1, 1, false), Options::default());
}

#[test]
fn three_by_two() {
    run::<HybridLock, DEFAULT_NODE_BYTES, TasLock>(plan(3, 2, false), Options::default());
    run::<HybridLock, 128, TasLock>(plan(3, 2, false), Options::default());
}

#[test]
fn three_by_two_batches() {
    run::<HybridLock, DEFAULT_NODE_BYTES, TasLock>(plan(3, 2, true), Options::default());
    run::<HybridLock, 128, TasLock>(plan(3, 2, true), Options::default());
}

#[test]
fn one_by_one_batches_one_slot_nodes() {
    run::<HybridLock, 8, TasLock>(plan(1, 1, true), Options::default());
}

#[test]
fn three_by_two_hybrid_push_lock() {
    run::<HybridLock, 128, HybridLock>(plan(3, 2, false), Options::default());
    run::<HybridLock, 128, HybridLock>(plan(3, 2, true), Options::default());
}

#[test]
fn three_by_two_every_pop_lock() {
    run::<StdLock, 128, HybridLock>(plan(3, 2, false), Options::default());
    run::<TasLock, 128, HybridLock>(plan(3, 2, true), Options::default());
    run::<TicketLock, 128, HybridLock>(plan(3, 2, false), Options::default());
}

#[test]
fn three_by_two_slot_stamps() {
    let stamps = Options {
        publication: Publication::SlotStamps,
        ..Options::default()
    };
    run::<HybridLock, 128, TasLock>(plan(3, 2, false), stamps);
    run::<HybridLock, 128, TasLock>(plan(3, 2, true), stamps);
    // One-slot nodes: every item follows a fresh node link before its stamp is read.
    run::<HybridLock, 8, TasLock>(plan(3, 2, true), stamps);
}

#[test]
fn three_by_two_paper_configs() {
    for options in [
        Options::DEFAULT_CONFIG,
        Options::OPTIMAL_MEMORY_ORDER,
        Options::CACHE_PUSH_INDEX,
        Options::LIMITED_NODE_CACHE,
        Options::UNLIMITED_NODE_CACHE,
    ] {
        run::<StdLock, 128, StdLock>(plan(3, 2, false), options);
    }
    run::<TasLock, 64, HybridLock>(plan(3, 2, true), Options::default());
    run::<TicketLock, 1024, HybridLock>(plan(3, 2, true), Options::default());
}

#[test]
#[ignore = "large: run with --release -- --ignored"]
fn large_four_by_four() {
    let per_producer = 1_000_000;
    for batch in [false, true] {
        let p = Plan {
            producers: 4,
            consumers: 4,
            per_producer,
            batch,
        };
        run::<HybridLock, 128, HybridLock>(p, Options::default());
        run::<TasLock, 128, HybridLock>(p, Options::default());
        run::<TicketLock, 64, HybridLock>(
            p,
            Options {
                node_cache: NodeCache::Unbounded,
                ..Options::default()
            },
        );
    }
}

/// Rough throughput (million items/s) of the paper's configurations, for picking the
/// defaults; the real benchmark lives in magpie-bench. Best of 3 runs.
#[test]
#[ignore = "timing: run with --release -- --ignored --nocapture measure"]
fn measure_configs() {
    let per_producer = 400_000;
    for (producers, consumers) in [(1, 1), (2, 2), (4, 4)] {
        let p = Plan {
            producers,
            consumers,
            per_producer,
            batch: false,
        };
        let rate = |d: Duration| (producers * per_producer) as f64 / d.as_secs_f64() / 1e6;
        let best = |f: &dyn Fn() -> Duration| (0..3).map(|_| f()).min().map(rate).unwrap();
        println!("--- {producers} producers x {consumers} consumers (Mitems/s) ---");
        let std = |o| best(&|| run::<StdLock, 128, StdLock>(p, o));
        println!("DefaultConfig         {:7.2}", std(Options::DEFAULT_CONFIG));
        println!(
            "OptimalMemoryOrder    {:7.2}",
            std(Options::OPTIMAL_MEMORY_ORDER)
        );
        println!(
            "CachePushIndex        {:7.2}",
            std(Options::CACHE_PUSH_INDEX)
        );
        let o = Options::CACHE_PUSH_INDEX;
        println!(
            "node 64 B             {:7.2}",
            best(&|| run::<StdLock, 64, StdLock>(p, o))
        );
        println!(
            "node 1024 B           {:7.2}",
            best(&|| run::<StdLock, 1024, StdLock>(p, o))
        );
        println!(
            "LimitedNodeCache      {:7.2}",
            std(Options::LIMITED_NODE_CACHE)
        );
        println!(
            "UnlimitedNodeCache    {:7.2}",
            std(Options::UNLIMITED_NODE_CACHE)
        );
        let o = Options::default();
        println!(
            "all + pop std         {:7.2}",
            best(&|| run::<StdLock, 128, HybridLock>(p, o))
        );
        println!(
            "all + pop TAS         {:7.2}",
            best(&|| run::<TasLock, 128, HybridLock>(p, o))
        );
        println!(
            "all + pop ticket      {:7.2}",
            best(&|| run::<TicketLock, 128, HybridLock>(p, o))
        );
        println!(
            "all + pop hybrid      {:7.2}",
            best(&|| run::<HybridLock, 128, HybridLock>(p, o))
        );
        println!(
            "DEFAULT (hybrid/TAS)  {:7.2}",
            best(&|| run::<HybridLock, 128, TasLock>(p, o))
        );
        println!(
            "all + TAS/TAS         {:7.2}",
            best(&|| run::<TasLock, 128, TasLock>(p, o))
        );
    }
}
