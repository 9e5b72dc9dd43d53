//! loom models of the two-lock queue (`magpie_queue::twolock`).
//!
//! Run: `RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=/work/target-twolock-loom \
//!       cargo test -p magpie-queue --test loom_twolock --release`
//!
//! Nodes hold 1 or 2 slots (`NODE_BYTES` = 8 or 16 with `u64` items) so every model
//! crosses node boundaries, and the node cache holds at most 1 node so reuse happens.
//! Consumers make a fixed number of `try_pop` attempts (no spinning) and the main thread
//! drains the rest after joining, so each model is finite. Bounds: two-thread models are
//! exhaustive; the bigger models (`two_producers_two_consumers`, four threads: 2 producers,
//! 1 consumer thread and the main thread as a second consumer: `preemption_bound = 3`,
//! ~105k iterations, ~15 s) and `close_wakes_every_waiter` (`preemption_bound = 2`;
//! exhaustive is ~1.5M iterations). The whole file runs in well under a minute after
//! compiling. `--nocapture --test-threads 1` prints each model's iteration count.
#![cfg(loom)]

use loom::cell::UnsafeCell;
use loom::sync::Arc;
use loom::thread;
use magpie_queue::twolock::{
    Closed, HybridLock, MemoryOrderMode, NodeCache, Options, PopLock, PopTimeoutError, Publication,
    StdLock, TasLock, TicketLock, TwoLockQueue,
};

/// One slot per node (`u64` items, 8 bytes of slots).
type Q1 = TwoLockQueue<u64, StdLock, 8, StdLock>;
/// Two slots per node.
type Q2 = TwoLockQueue<u64, StdLock, 16, StdLock>;

fn model(preemption_bound: Option<usize>, f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    if preemption_bound.is_some() {
        builder.preemption_bound = preemption_bound;
    }
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    builder.check(move || {
        RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        f()
    });
    eprintln!(
        "loom iterations: {}",
        RUNS.swap(0, std::sync::atomic::Ordering::Relaxed)
    );
}

fn small_cache(base: Options) -> Options {
    Options {
        node_cache: NodeCache::Bounded(1),
        prealloc_nodes: 0,
        ..base
    }
}

/// `base` publishing through the (cached) shared push index, the paper's way.
fn push_index(base: Options) -> Options {
    Options {
        publication: Publication::PushIndex,
        ..base
    }
}

/// `base` publishing through per-slot stamps.
fn stamps(base: Options) -> Options {
    Options {
        publication: Publication::SlotStamps,
        ..base
    }
}

/// Checks that `got` (in pop order) is exactly `0..n`.
fn assert_fifo(got: &[u64], n: u64) {
    assert_eq!(got, (0..n).collect::<Vec<_>>().as_slice());
}

/// One producer, one consumer, racing across a node boundary: publication of the slot and
/// of the node link through the (cached) push index, or through the slot's stamp and the
/// link's own Release/Acquire.
fn spsc<const B: usize>(options: Options) {
    model(None, move || {
        let q: Arc<TwoLockQueue<u64, StdLock, B, StdLock>> =
            Arc::new(TwoLockQueue::with_options(options));
        let producer = {
            let q = q.clone();
            thread::spawn(move || {
                for i in 0..3 {
                    q.push(i).unwrap();
                }
            })
        };
        let mut got = Vec::new();
        for _ in 0..3 {
            got.extend(q.try_pop());
        }
        producer.join().unwrap();
        while let Some(v) = q.try_pop() {
            got.push(v);
        }
        assert_fifo(&got, 3);
    });
}

#[test]
fn spsc_one_slot_nodes_cached_index() {
    spsc::<8>(small_cache(push_index(Options::default())));
}

#[test]
fn spsc_two_slot_nodes_cached_index() {
    spsc::<16>(small_cache(push_index(Options::default())));
}

#[test]
fn spsc_one_slot_nodes_stamps() {
    spsc::<8>(small_cache(stamps(Options::default())));
}

#[test]
fn spsc_two_slot_nodes_stamps() {
    spsc::<16>(small_cache(stamps(Options::default())));
}

#[test]
fn spsc_stamps_seqcst_without_node_cache() {
    spsc::<8>(stamps(Options::DEFAULT_CONFIG));
}

#[test]
fn spsc_paper_default_config() {
    // SeqCst, no index cache, no node cache: allocator on both sides.
    spsc::<8>(Options::DEFAULT_CONFIG);
}

#[test]
fn spsc_optimal_orders_without_index_cache() {
    spsc::<16>(small_cache(Options {
        memory_order: MemoryOrderMode::Optimal,
        cache_push_index: false,
        ..push_index(Options::default())
    }));
}

#[test]
fn spsc_unbounded_cache() {
    for publication in [Publication::PushIndex, Publication::SlotStamps] {
        spsc::<8>(Options {
            node_cache: NodeCache::Unbounded,
            publication,
            ..Options::default()
        });
    }
}

/// Node-cache reuse: with one-slot nodes and a 1-node cache, the consumer hands back the
/// node it just emptied while the producer may be taking it for the next push; loom checks
/// that the consumer's move out of the slot happens-before the producer's reuse, and (with
/// stamps) that a reused node's old stamp is never taken for a new item's.
fn node_cache_reuse_batches(options: Options) {
    model(None, move || {
        let q: Arc<Q1> = Arc::new(TwoLockQueue::with_options(small_cache(options)));
        q.push(0).unwrap();
        let producer = {
            let q = q.clone();
            thread::spawn(move || {
                q.push_batch([1, 2]).unwrap();
            })
        };
        let mut got = Vec::new();
        q.pop_batch(2, &mut got);
        got.extend(q.try_pop());
        producer.join().unwrap();
        q.pop_batch(10, &mut got);
        assert_fifo(&got, 3);
        assert!(q.cached_nodes().unwrap() <= 1);
    });
}

#[test]
fn node_cache_reuse_batches_push_index() {
    node_cache_reuse_batches(push_index(Options::default()));
}

#[test]
fn node_cache_reuse_batches_stamps() {
    node_cache_reuse_batches(stamps(Options::default()));
}

/// Two producers and two consumers (one on the main thread), preemption bound 3. Each
/// producer's items must come out in its order and every item exactly once.
fn two_producers_two_consumers(options: Options) {
    model(Some(3), move || {
        let q: Arc<Q2> = Arc::new(TwoLockQueue::with_options(small_cache(options)));
        let producers: Vec<_> = (0..2u64)
            .map(|p| {
                let q = q.clone();
                thread::spawn(move || {
                    q.push(p * 10).unwrap();
                    q.push(p * 10 + 1).unwrap();
                })
            })
            .collect();
        let consumer = {
            let q = q.clone();
            thread::spawn(move || {
                let mut got = Vec::new();
                q.pop_batch(2, &mut got);
                got
            })
        };
        let mut mine = Vec::new();
        mine.extend(q.try_pop());
        for p in producers {
            p.join().unwrap();
        }
        let theirs = consumer.join().unwrap();
        while let Some(v) = q.try_pop() {
            mine.push(v);
        }
        for seen in [&mine, &theirs] {
            for p in 0..2 {
                let from_p: Vec<_> = seen.iter().filter(|v| **v / 10 == p).collect();
                assert!(from_p.windows(2).all(|w| w[0] < w[1]), "order {seen:?}");
            }
        }
        let mut all: Vec<_> = mine.into_iter().chain(theirs).collect();
        all.sort();
        assert_eq!(all, [0, 1, 10, 11]);
    });
}

#[test]
fn two_producers_two_consumers_push_index() {
    two_producers_two_consumers(push_index(Options::default()));
}

#[test]
fn two_producers_two_consumers_stamps() {
    two_producers_two_consumers(stamps(Options::default()));
}

/// A consumer blocked in `pop_wait` is woken by a push (a lost wake-up is a loom deadlock),
/// with either publication: the sleeper compares the producers' own push index with the
/// pop index its failed pop saw.
fn push_wakes_waiting_consumer(options: Options) {
    model(None, move || {
        let q: Arc<Q1> = Arc::new(TwoLockQueue::with_options(options));
        let consumer = {
            let q = q.clone();
            thread::spawn(move || q.pop_wait())
        };
        q.push(5).unwrap();
        assert_eq!(consumer.join().unwrap(), Ok(5));
    });
}

#[test]
fn push_wakes_waiting_consumer_push_index() {
    push_wakes_waiting_consumer(push_index(Options::default()));
}

#[test]
fn push_wakes_waiting_consumer_stamps() {
    push_wakes_waiting_consumer(stamps(Options::default()));
}

/// `close` while a consumer waits: the consumer drains the item pushed before the close,
/// then gets `Closed`; a push after the close is rejected. Under loom `pop_timeout` waits
/// without a timeout, so a missed close wake-up would be reported as a deadlock.
#[test]
fn close_while_consumer_waits() {
    model(None, || {
        let q: Arc<Q1> = Arc::new(TwoLockQueue::new());
        let consumer = {
            let q = q.clone();
            thread::spawn(move || {
                let first = q.pop_timeout(core::time::Duration::from_secs(1));
                let second = q.pop_wait();
                (first, second)
            })
        };
        q.push(1).unwrap();
        q.close();
        assert_eq!(q.push(2).map_err(|e| e.into_inner()), Err(2));
        let (first, second) = consumer.join().unwrap();
        assert_eq!(first, Ok(1));
        assert_eq!(second, Err(Closed));
    });
}

/// Three threads: bounded to 2 preemptions (exhaustive is ~1.5M iterations, ~2 minutes).
#[test]
fn close_wakes_every_waiter() {
    model(Some(2), || {
        let q: Arc<Q1> = Arc::new(TwoLockQueue::new());
        let waiters: Vec<_> = (0..2)
            .map(|_| {
                let q = q.clone();
                thread::spawn(move || q.pop_timeout(core::time::Duration::from_secs(1)))
            })
            .collect();
        q.close();
        for w in waiters {
            assert_eq!(w.join().unwrap(), Err(PopTimeoutError::Closed));
        }
    });
}

/// Mutual exclusion and happens-before of each lock: two threads increment a loom cell.
fn lock_model<L: PopLock + 'static>(preemption_bound: Option<usize>) {
    struct Shared<L> {
        lock: L,
        value: UnsafeCell<u32>,
    }
    // SAFETY: `value` is only accessed while `lock` is held.
    unsafe impl<L: PopLock> Sync for Shared<L> {}
    model(preemption_bound, || {
        let s = Arc::new(Shared {
            lock: L::new(),
            value: UnsafeCell::new(0),
        });
        let t = {
            let s = s.clone();
            thread::spawn(move || {
                let _g = s.lock.lock();
                // SAFETY: lock held.
                s.value.with_mut(|v| unsafe { *v += 1 });
            })
        };
        {
            let _g = s.lock.lock();
            // SAFETY: lock held.
            s.value.with_mut(|v| unsafe { *v += 1 });
        }
        t.join().unwrap();
        let _g = s.lock.lock();
        // SAFETY: lock held.
        assert_eq!(s.value.with(|v| unsafe { *v }), 2);
    });
}

#[test]
fn lock_std() {
    lock_model::<StdLock>(None);
}

#[test]
fn lock_tas() {
    lock_model::<TasLock>(None);
}

#[test]
fn lock_ticket() {
    lock_model::<TicketLock>(None);
}

#[test]
fn lock_hybrid() {
    lock_model::<HybridLock>(None);
}

/// The default locks (hybrid pop lock, test-and-set push lock) across a node boundary.
#[test]
fn spsc_default_locks() {
    model(None, || {
        let q: Arc<TwoLockQueue<u64, HybridLock, 8>> = Arc::new(TwoLockQueue::new());
        let producer = {
            let q = q.clone();
            thread::spawn(move || q.push_batch([0, 1]).unwrap())
        };
        let mut got = Vec::new();
        got.extend(q.try_pop());
        producer.join().unwrap();
        q.pop_batch(2, &mut got);
        assert_fifo(&got, 2);
    });
}
