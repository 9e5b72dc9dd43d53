//! `scope`: spawn any number of borrowing tasks and wait for all of them.

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::panic::{self, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering::AcqRel, Ordering::Acquire};
use std::sync::Arc;

use crate::job::HeapJob;
use crate::latch::{CountLatch, Latch};
use crate::registry::Registry;
use crate::unwind::drop_payload;
use crate::worker::WorkerThread;

/// A scope in which tasks that borrow from the enclosing stack frame can be spawned;
/// see [`scope`].
pub struct Scope<'scope> {
    registry: Arc<Registry>,
    /// The first panic of the scope body or of a spawned task.
    panic: AtomicPtr<Box<dyn Any + Send>>,
    latch: CountLatch,
    /// Invariant in `'scope`, like `std::thread::Scope`.
    marker: PhantomData<&'scope mut &'scope ()>,
}

/// Creates a scope, runs `op` in it, and returns once `op` and every task spawned in
/// the scope (transitively) has finished.
///
/// Called outside any pool, the scope runs in the global pool. If anything in the scope
/// panics, the scope still waits for every task and then resumes the first panic.
///
/// ```
/// let mut parts = [0u64; 4];
/// magpie::scope(|s| {
///     for (i, part) in parts.iter_mut().enumerate() {
///         s.spawn(move |_| *part = (i as u64 + 1) * 10);
///     }
/// });
/// assert_eq!(parts, [10, 20, 30, 40]);
/// ```
pub fn scope<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R + Send,
    R: Send,
{
    let run = |worker: &WorkerThread| {
        let scope = Scope::new(worker);
        scope.complete(worker, || op(&scope))
    };
    match WorkerThread::current() {
        Some(worker) => run(worker),
        None => crate::global::registry().in_worker_cold(run),
    }
}

struct ScopePtr<T>(*const T);
// SAFETY: the pointee is a `Scope`, which is `Sync`, and outlives every job holding
// this pointer (the scope waits for all of them).
unsafe impl<T: Sync> Send for ScopePtr<T> {}

impl<'scope> Scope<'scope> {
    pub(crate) fn new(worker: &WorkerThread) -> Self {
        Self {
            registry: worker.registry_arc().clone(),
            panic: AtomicPtr::new(ptr::null_mut()),
            latch: CountLatch::new(worker.registry(), worker.index()),
            marker: PhantomData,
        }
    }

    /// Spawns `body` into the scope; it may borrow anything that outlives the scope and
    /// spawn more tasks through the `&Scope` it receives.
    pub fn spawn<BODY>(&self, body: BODY)
    where
        BODY: FnOnce(&Scope<'scope>) + Send + 'scope,
    {
        match WorkerThread::current() {
            // Batched counting only by this scope's own workers: they flush before they
            // idle or run unrelated work, and they keep the registry alive.
            Some(worker) if ptr::eq(worker.registry(), &*self.registry) => {
                worker.take_spawn_credit(&self.latch)
            }
            _ => self.latch.add(1),
        }
        let this = ScopePtr(self as *const Self);
        let job_ref = HeapJob::into_job_ref(
            move || {
                let this = this;
                // SAFETY: the scope waits for its count to reach zero, and this job's
                // decrement (inside run_job) is its last access.
                unsafe { Scope::run_job(this.0, |scope| body(scope)) };
            },
            WorkerThread::job_cache_for(&self.registry),
        );
        match WorkerThread::current() {
            Some(worker) if ptr::eq(worker.registry(), &*self.registry) => worker.push(job_ref),
            _ => self.registry.inject(job_ref),
        }
    }

    /// Runs one job of the scope at `this`, then reports it done.
    ///
    /// Takes a raw pointer, not `&self`: once the job is reported the scope may be
    /// freed, and a reference argument would still be live (protected) until return.
    ///
    /// # Safety
    /// `this` is a live scope that counts this job.
    unsafe fn run_job(this: *const Self, f: impl FnOnce(&Self)) {
        {
            // SAFETY: live until the report below; the reference dies with this block.
            let scope = unsafe { &*this };
            if let Some(worker) = WorkerThread::current() {
                // Counts held for another scope must not wait behind this job.
                worker.before_job(Some(&scope.latch));
            }
            if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| f(scope))) {
                scope.record_panic(payload);
            }
        }
        // SAFETY: `latch` is a field of the live scope; from here on only raw pointers.
        let latch = unsafe { ptr::addr_of!((*this).latch) };
        match WorkerThread::current() {
            // Batched: see `WorkerThread::report_scope_done`.
            Some(worker) => unsafe { worker.report_scope_done(latch) },
            // SAFETY: the latch is alive and one count is ours; `set` does not touch it
            // after the final decrement, after which the scope may be gone.
            None => unsafe { CountLatch::set(latch) },
        }
    }

    fn record_panic(&self, payload: Box<dyn Any + Send>) {
        let boxed = Box::into_raw(Box::new(payload));
        // AcqRel: Release publishes the payload to the owner's Acquire swap.
        if self
            .panic
            .compare_exchange(ptr::null_mut(), boxed, AcqRel, Acquire)
            .is_err()
        {
            // SAFETY: not published; we still own it. Only the first panic is kept.
            drop_payload(*unsafe { Box::from_raw(boxed) });
        }
    }

    fn complete<R>(&self, worker: &WorkerThread, op: impl FnOnce() -> R) -> R {
        let result = match panic::catch_unwind(AssertUnwindSafe(op)) {
            Ok(r) => Some(r),
            Err(payload) => {
                self.record_panic(payload);
                None
            }
        };
        // Report what this thread batched for the scope, then drop the body's count.
        worker.flush_scope_counts();
        // SAFETY: the latch is alive (we own the scope); drops the body's count.
        unsafe { CountLatch::set(&self.latch) };
        worker.wait_until(&self.latch.core);
        let payload = self.panic.swap(ptr::null_mut(), Acquire);
        if !payload.is_null() {
            // SAFETY: published by `record_panic` from `Box::into_raw`, taken once.
            panic::resume_unwind(*unsafe { Box::from_raw(payload) });
        }
        result.expect("no panic recorded, so the body returned")
    }
}

impl fmt::Debug for Scope<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scope")
            .field("num_threads", &self.registry.num_threads())
            .field("panicked", &!self.panic.load(Acquire).is_null())
            .finish_non_exhaustive()
    }
}

impl Drop for Scope<'_> {
    fn drop(&mut self) {
        let payload = *self.panic.get_mut();
        if !payload.is_null() {
            // SAFETY: an unclaimed payload from `record_panic`.
            drop(unsafe { Box::from_raw(payload) });
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    #[test]
    fn scope_is_debug() {
        let pool = crate::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let shown = pool.scope(|s| format!("{s:?}"));
        assert_eq!(shown, "Scope { num_threads: 2, panicked: false, .. }");
    }
}
