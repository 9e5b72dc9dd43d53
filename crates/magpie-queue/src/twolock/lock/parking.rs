//! The baseline pop lock: the standard library's parking mutex (paper IV.D, "std").

use super::PopLock;
use crate::sync::{Mutex, MutexGuard};

/// `Mutex<()>` from the standard library (loom's under `--cfg loom`): waiters sleep in
/// the kernel. The paper's baseline, the lock "most implementations use".
#[derive(Debug, Default)]
pub struct StdLock {
    mutex: Mutex<()>,
}

// SAFETY: `std::sync::Mutex` provides mutual exclusion, and unlocking happens-before the
// next successful lock.
unsafe impl PopLock for StdLock {
    type Guard<'a> = MutexGuard<'a, ()>;

    fn new() -> Self {
        Self {
            mutex: Mutex::new(()),
        }
    }

    #[inline]
    fn lock(&self) -> MutexGuard<'_, ()> {
        // The mutex guards `()`: a panic elsewhere cannot leave it inconsistent, so
        // poisoning is ignored.
        self.mutex.lock().unwrap_or_else(|e| e.into_inner())
    }
}
