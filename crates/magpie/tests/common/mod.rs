//! Helpers shared by the pool's integration tests.
#![allow(dead_code)] // each test binary uses its own subset

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// fib(n) with a `join` per call.
pub fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = magpie::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// Marks task `me` (0 or 1) as started, then waits until the other has started too:
/// two tasks calling this only return if they run at the same time. A deadline turns
/// a failure into a failed assertion rather than a hang.
pub fn meet(started: &[AtomicBool; 2], me: usize) {
    started[me].store(true, Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !started[1 - me].load(Ordering::SeqCst) {
        assert!(
            Instant::now() < deadline,
            "task {me} never saw its sibling run"
        );
        std::hint::spin_loop();
    }
}

/// The 2-thread pool the parallel-iterator tests of one test binary share.
pub fn iter_pool() -> &'static magpie::ThreadPool {
    static POOL: OnceLock<magpie::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        magpie::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    })
}

/// An item that counts itself in `live` while it exists, to check that every element
/// is dropped exactly once.
#[derive(Debug)]
pub struct Counted(pub u32, &'static AtomicUsize);

impl Counted {
    /// Item `x`, counted in `live`.
    pub fn new(x: u32, live: &'static AtomicUsize) -> Self {
        live.fetch_add(1, Ordering::SeqCst);
        Counted(x, live)
    }

    /// Items `0..n`, counted in `live`.
    pub fn many(n: u32, live: &'static AtomicUsize) -> Vec<Counted> {
        (0..n).map(|x| Counted::new(x, live)).collect()
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.1.fetch_sub(1, Ordering::SeqCst);
    }
}
