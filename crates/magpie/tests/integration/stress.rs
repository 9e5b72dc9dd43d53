//! Randomised stress of the pool: nested joins, scopes and spawns of random shapes,
//! over every policy, both flavours, small queues (so spills happen) and more threads
//! than cores. Every result is checked exactly. `MAGPIE_STRESS_ROUNDS` scales it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use magpie::{QueueFlavour, StealAmount, ThreadPoolBuilder};

fn rounds() -> u64 {
    std::env::var("MAGPIE_STRESS_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

/// A random tree: sums the node ids by join, scope or plain recursion, chosen per node
/// from the node's own hash, so the shape is reproducible.
fn tree_sum(id: u64, depth: u32, spawned: &AtomicU64) -> u64 {
    if depth == 0 {
        return id;
    }
    let h = id.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60;
    let (l, r) = (id * 2, id * 2 + 1);
    id + match h % 3 {
        0 => {
            let (a, b) = magpie::join(
                || tree_sum(l, depth - 1, spawned),
                || tree_sum(r, depth - 1, spawned),
            );
            a + b
        }
        1 => {
            let (a, b) = (AtomicU64::new(0), AtomicU64::new(0));
            magpie::scope(|s| {
                s.spawn(|_| a.store(tree_sum(l, depth - 1, spawned), Ordering::Relaxed));
                s.spawn(|_| b.store(tree_sum(r, depth - 1, spawned), Ordering::Relaxed));
                spawned.fetch_add(2, Ordering::Relaxed);
            });
            a.into_inner() + b.into_inner()
        }
        _ => tree_sum(l, depth - 1, spawned) + tree_sum(r, depth - 1, spawned),
    }
}

fn tree_sum_seq(id: u64, depth: u32) -> u64 {
    if depth == 0 {
        return id;
    }
    id + tree_sum_seq(id * 2, depth - 1) + tree_sum_seq(id * 2 + 1, depth - 1)
}

#[test]
fn random_trees_over_every_configuration() {
    let expected = tree_sum_seq(1, 12);
    for round in 0..rounds() {
        for name in magpie::policy::NAMES {
            for (flavour, amount, threads) in [
                (QueueFlavour::Lifo, StealAmount::One, 2),
                (QueueFlavour::Fifo, StealAmount::Half, 2),
                (QueueFlavour::Fifo, StealAmount::HalfBlock, 3),
                (QueueFlavour::Lifo, StealAmount::Block, 8),
            ] {
                let pool = ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .flavour(flavour)
                    .steal_amount(amount)
                    .queue_geometry(2, 4)
                    .victim_policy_boxed(magpie::policy::by_name(name).unwrap())
                    .build()
                    .unwrap();
                let spawned = AtomicU64::new(0);
                let got = pool.install(|| tree_sum(1, 12, &spawned));
                assert_eq!(
                    got, expected,
                    "round {round} {name} {flavour:?} {amount:?} {threads} threads"
                );
            }
        }
    }
}

#[test]
fn detached_spawns_from_many_threads_all_run() {
    let pool = ThreadPoolBuilder::new()
        .num_threads(3)
        .queue_geometry(2, 2)
        .build()
        .unwrap();
    let per_thread = 2_000 * rounds();
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|ts| {
        for t in 0..4u64 {
            let (pool, tx) = (&pool, tx.clone());
            ts.spawn(move || {
                for i in 0..per_thread {
                    let tx = tx.clone();
                    // Half from outside (injector), half from inside a worker (local).
                    if i % 2 == 0 {
                        pool.spawn(move || tx.send(t * per_thread + i).unwrap());
                    } else {
                        pool.install(|| {
                            magpie::spawn(move || tx.send(t * per_thread + i).unwrap())
                        });
                    }
                }
            });
        }
    });
    drop(tx);
    let mut got: Vec<u64> = rx.iter().collect();
    got.sort_unstable();
    assert_eq!(got, (0..4 * per_thread).collect::<Vec<_>>());
}

#[test]
fn pools_come_and_go() {
    for i in 0..20 * rounds() {
        let pool = ThreadPoolBuilder::new()
            .num_threads(1 + (i % 4) as usize)
            .build()
            .unwrap();
        let spawned = AtomicU64::new(0);
        assert_eq!(
            pool.install(|| tree_sum(1, 6, &spawned)),
            tree_sum_seq(1, 6)
        );
        // Detached work still queued when the pool drops is finished, not leaked.
        let done = std::sync::Arc::new(AtomicU64::new(0));
        for _ in 0..10 {
            let done = done.clone();
            pool.spawn(move || {
                done.fetch_add(1, Ordering::Relaxed);
            });
        }
        drop(pool);
        assert_eq!(done.load(Ordering::Relaxed), 10);
    }
}

/// Thousands of workers on a few cores: the pool starts, computes and stops in seconds.
/// Each idle look at all the others made this quadratic in the workers: 4,096 workers
/// did not finish in 100 s on 2 cores; about 5 s now. The limit is a hang detector.
/// Optimised builds only (the CI profile): unoptimised, and under ThreadSanitizer, the
/// workers' idle searches alone take minutes.
#[test]
#[cfg_attr(debug_assertions, ignore = "4,096 threads unoptimised take minutes")]
fn a_pool_of_thousands_of_workers_starts_and_stops() {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let pool = ThreadPoolBuilder::new().num_threads(4096).build().unwrap();
        let spawned = AtomicU64::new(0);
        let sum = pool.install(|| tree_sum(1, 10, &spawned));
        drop(pool);
        let _ = tx.send(sum);
    });
    let sum = rx
        .recv_timeout(std::time::Duration::from_secs(90))
        .expect("4,096 workers start, compute and stop within 90 s");
    assert_eq!(sum, tree_sum_seq(1, 10));
}
