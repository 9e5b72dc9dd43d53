//! A tiny work-stealing scheduler on magpie-queue: every thread owns a LIFO BWoS queue,
//! steals from the others when its own runs dry, and the root task arrives through the
//! two-lock injector. The "tasks" are the nodes of a complete binary tree; the threads
//! count them together.
//!
//! A BWoS thief cannot take from the block its owner is working in, and a depth-first
//! walk keeps only about DEPTH tasks queued, all in that block. So when another thread
//! is idle and nothing of ours is stealable, the owner calls `share()`, which hands its
//! current block to the thieves (this is what the magpie pool does).
//!
//! Run: `cargo run --release -p magpie-queue --example tree_count [DEPTH] [THREADS]`

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use magpie_queue::twolock::TwoLockQueue;
use magpie_queue::{lifo, Steal};

/// A task: a tree node at this depth below the root.
type Node = u32;

/// Reports a bad argument with the usage line and exits with status 2.
fn usage(problem: &str) -> ! {
    eprintln!("tree_count: {problem}\nusage: tree_count [DEPTH (0 to 40)] [THREADS (1 or more)]");
    std::process::exit(2)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().map_or(20, |a| {
        a.parse()
            .ok()
            .filter(|&d| d <= 40)
            .unwrap_or_else(|| usage(&format!("DEPTH `{a}` is not a number from 0 to 40")))
    });
    let threads: usize = args.next().map_or(2, |a| {
        a.parse()
            .ok()
            .filter(|&n| n > 0)
            .unwrap_or_else(|| usage(&format!("THREADS `{a}` is not a positive number")))
    });

    let injector = TwoLockQueue::<Node>::new();
    injector
        .push(0)
        .expect("the injector is unbounded by default");
    // Tasks not yet run (queued anywhere or being run); zero means the tree is done.
    let pending = AtomicUsize::new(1);
    let counted = AtomicUsize::new(0);
    // Threads that found nothing to run; a hint, so Relaxed.
    let idle = AtomicUsize::new(0);

    let workers: Vec<lifo::Worker<Node>> = (0..threads).map(|_| lifo::Worker::new()).collect();
    let stealers: Vec<_> = workers.iter().map(lifo::Worker::stealer).collect();

    thread::scope(|s| {
        for (me, worker) in workers.into_iter().enumerate() {
            let (injector, pending, counted, idle) = (&injector, &pending, &counted, &idle);
            let stealers = &stealers;
            s.spawn(move || {
                let mut mine = 0;
                let mut steals = 0;
                let mut was_idle = false;
                loop {
                    let mut task = worker.pop().or_else(|| injector.try_pop());
                    if task.is_none() {
                        // Steal from the others, starting after ourselves.
                        task = (1..stealers.len()).find_map(|k| {
                            match stealers[(me + k) % stealers.len()].steal() {
                                Steal::Success(task) => Some(task),
                                Steal::Empty | Steal::Retry => None,
                            }
                        });
                        steals += usize::from(task.is_some());
                    }
                    let Some(node) = task else {
                        if !was_idle {
                            was_idle = true;
                            idle.fetch_add(1, Ordering::Relaxed);
                        }
                        // Acquire pairs with the AcqRel decrement of the thread that ran
                        // the last task: every count before it is visible.
                        if pending.load(Ordering::Acquire) == 0 {
                            break;
                        }
                        thread::yield_now();
                        continue;
                    };
                    if was_idle {
                        was_idle = false;
                        idle.fetch_sub(1, Ordering::Relaxed);
                    }
                    mine += 1;
                    if node < depth {
                        pending.fetch_add(2, Ordering::Relaxed);
                        for child in [node + 1, node + 1] {
                            // A full queue hands the task to the injector instead.
                            if let Err(child) = worker.push(child) {
                                injector.push(child).expect("the injector is unbounded");
                            }
                        }
                    }
                    if idle.load(Ordering::Relaxed) > 0 && stealers[me].stealable_len() == 0 {
                        worker.share();
                    }
                    // AcqRel: the final decrement to zero releases every count to the
                    // threads that see zero (Acquire above).
                    pending.fetch_sub(1, Ordering::AcqRel);
                }
                counted.fetch_add(mine, Ordering::Relaxed);
                println!("thread {me}: ran {mine} tasks, {steals} of them stolen");
            });
        }
    });

    let nodes = counted.into_inner();
    let expected = (1usize << (depth + 1)) - 1;
    println!("depth {depth}: {nodes} nodes counted by {threads} threads (expected {expected})");
    assert_eq!(nodes, expected);
}
