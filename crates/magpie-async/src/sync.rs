//! The one place that chooses between `std` and `loom` primitives for the idle/park
//! protocol ([`crate::park`]) and the worker's parker ([`crate::parker`]), the shim idea of magpie-queue. Building with
//! `RUSTFLAGS="--cfg magpie_async_loom"` model-checks the protocol; it is not the usual
//! `--cfg loom` because under that async-io's own dependencies switch to loom types and
//! async-io stops compiling. Only the protocol's state goes through here; the rest of
//! the runtime is not loom-modelled.
#![allow(unused_imports)]

#[cfg(magpie_async_loom)]
pub(crate) use loom::sync::atomic::{fence, AtomicBool, AtomicUsize};
#[cfg(magpie_async_loom)]
pub(crate) use loom::sync::{Condvar, Mutex};

#[cfg(not(magpie_async_loom))]
pub(crate) use std::sync::atomic::{fence, AtomicBool, AtomicUsize};
#[cfg(not(magpie_async_loom))]
pub(crate) use std::sync::{Condvar, Mutex};

pub(crate) use std::sync::atomic::Ordering;
