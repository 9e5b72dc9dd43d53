//! Dropping a panic payload without letting its own `Drop` panic escape.
//!
//! A payload is user data: `panic_any(x)` makes `x` the payload, and `x`'s `Drop` may
//! panic. Where the pool drops a payload on a worker (a detached task's panic after the
//! handler, a scope's second panic, the other half of a panicking join), such a panic
//! would otherwise unwind through the worker's loop, ending the thread and leaving its
//! queue and the scope it was reporting to stranded.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};

/// Drops `payload`; a panic from its `Drop` is caught, and that panic's own payload is
/// leaked rather than dropped (it could panic again, and so on).
pub(crate) fn drop_payload(payload: Box<dyn Any + Send>) {
    if let Err(nested) = panic::catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        std::mem::forget(nested);
    }
}
