//! The one place that chooses between `std` and `loom` primitives for the sleep
//! protocol, so `RUSTFLAGS="--cfg loom"` model-checks it (see `sleep.rs`).
#![allow(unused_imports)]

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{fence, AtomicUsize};
#[cfg(loom)]
pub(crate) use loom::sync::{Condvar, Mutex, MutexGuard};

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{fence, AtomicUsize};
#[cfg(not(loom))]
pub(crate) use std::sync::{Condvar, Mutex, MutexGuard};

/// Locks `mutex`, ignoring poisoning: every critical section in this crate leaves its
/// data consistent, and a user panic never runs while one of our locks is held.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
