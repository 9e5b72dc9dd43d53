//! Thread-local context: which runtime (if any) the current thread works for, and, on a
//! worker thread, that worker's local state, so that wake-ups from a worker go to its
//! own run queue and `Handle::current()` works inside tasks.

use std::cell::{Cell, RefCell};

use crate::handle::Handle;
use crate::worker::Local;

thread_local! {
    static HANDLE: RefCell<Option<Handle>> = const { RefCell::new(None) };
    static LOCAL: Cell<*const Local> = const { Cell::new(std::ptr::null()) };
}

/// Runs `f` with `handle` as the current runtime (restored afterwards, also on unwind).
pub(crate) fn enter<R>(handle: &Handle, f: impl FnOnce() -> R) -> R {
    struct Reset(Option<Handle>);
    impl Drop for Reset {
        fn drop(&mut self) {
            let previous = self.0.take();
            HANDLE.with(|h| *h.borrow_mut() = previous);
        }
    }
    let previous = HANDLE.with(|h| h.borrow_mut().replace(handle.clone()));
    let _reset = Reset(previous);
    f()
}

/// The current runtime's handle, if this thread is inside one.
pub(crate) fn handle() -> Option<Handle> {
    HANDLE.with(|h| h.borrow().clone())
}

/// Runs `f` with `local` as this thread's worker state (cleared afterwards, also on
/// unwind).
pub(crate) fn set_local<R>(local: &Local, f: impl FnOnce() -> R) -> R {
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            LOCAL.with(|l| l.set(std::ptr::null()));
        }
    }
    LOCAL.with(|l| l.set(local));
    let _clear = Clear;
    f()
}

/// Calls `f` with this thread's worker state, or `None` off the workers.
#[inline]
pub(crate) fn with_local<R>(f: impl FnOnce(Option<&Local>) -> R) -> R {
    let ptr = LOCAL.with(Cell::get);
    // SAFETY: `LOCAL` is non-null only inside `set_local`, whose `local` borrow outlives
    // the call; it is cleared (by a drop guard) before that borrow ends, and the pointer
    // never leaves this thread.
    f(unsafe { ptr.as_ref() })
}
