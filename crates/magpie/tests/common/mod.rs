//! Helpers shared by the pool's integration tests.
#![allow(dead_code)] // each test binary uses its own subset

use std::sync::atomic::{AtomicBool, Ordering};
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
