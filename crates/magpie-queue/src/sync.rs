//! The one place that chooses between `std` and `loom` synchronisation primitives.
//!
//! Every atomic, `Arc`, lock and `UnsafeCell` in this crate comes from here, so building
//! with `RUSTFLAGS="--cfg loom"` swaps the whole crate onto loom's model checker.
//! `UnsafeCell` exposes loom's closure API (`with` / `with_mut`) in both builds so that
//! loom can check every access to queue slots for data races.
#![allow(unused_imports, dead_code)] // the shim offers what every module may need

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize};
#[cfg(loom)]
pub(crate) use loom::sync::{Arc, Condvar, Mutex, MutexGuard};
#[cfg(loom)]
pub(crate) use loom::thread::yield_now;

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize};
#[cfg(not(loom))]
pub(crate) use std::sync::{Arc, Condvar, Mutex, MutexGuard};
#[cfg(not(loom))]
pub(crate) use std::thread::yield_now;

pub(crate) use std::sync::atomic::Ordering;

/// Spin-loop hint; under loom a spinning thread must yield so the model can progress.
#[inline(always)]
pub(crate) fn spin_hint() {
    #[cfg(loom)]
    loom::thread::yield_now();
    #[cfg(not(loom))]
    std::hint::spin_loop();
}

#[cfg(loom)]
pub(crate) use loom::cell::UnsafeCell;

/// `std` twin of `loom::cell::UnsafeCell` with the same closure-based API.
#[cfg(not(loom))]
#[derive(Debug)]
#[repr(transparent)]
pub(crate) struct UnsafeCell<T>(std::cell::UnsafeCell<T>);

#[cfg(not(loom))]
#[allow(dead_code)]
impl<T> UnsafeCell<T> {
    #[inline(always)]
    pub(crate) const fn new(value: T) -> Self {
        Self(std::cell::UnsafeCell::new(value))
    }

    #[inline(always)]
    pub(crate) fn with<R>(&self, f: impl FnOnce(*const T) -> R) -> R {
        f(self.0.get())
    }

    #[inline(always)]
    pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        f(self.0.get())
    }
}
